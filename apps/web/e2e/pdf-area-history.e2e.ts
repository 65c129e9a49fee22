/**
 * PDF FILES AREA (/pdf-area) and the upload and export histories (/history; part 2 §2, §3 "Export
 * item", §7 "PDF", §9) in real Chromium against the real server. Through the API, as the creator: a
 * module exported as PDF and as XLS, its rows imported back unchanged (an upload with a response), and
 * a PDF export that fails for real: it is queued behind a publish (the job runner runs one job at a
 * time, and the planning system answers each submission after 1.5 s) and its module is reopened
 * before it runs, so the export finds nothing published to write. Then /pdf-area lists the PDFs with
 * the failure's message and downloads the PDF; /history lists every export and the upload.
 *
 * Uses Nordika (NRD) modules of M08_2027, which no other browser test touches: one SUBMITTED module (it
 * ends WIP) and two WIP ones (they get published).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { EXPORT_CONTENT_TYPES, type ExportItem } from '@bo/shared/exports';
import type { ExportHistoryItem } from '@bo/shared/export-history';
import type { UploadItem, UploadState } from '@bo/shared/uploads';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { baseUrl } from './helpers/server';

const MONTH = 'M08_2027';
const BRAND = 'NRD';
const USER = 'creator';
const SHOTS = '/tmp/shots';

interface ModuleRow {
  moduleName: string;
  monthId: string;
  status: string;
  locked: boolean;
}
interface ModuleDto extends ModuleRow {
  version: number;
  productDtoList: { upc: string; mustHave: boolean; minValue: number; moduleCompositionStatus: string }[];
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let exported: ModuleDto;
let pdfId: number;
let xlsId: number;
let failedId: number;
let upload: UploadItem;

const active = (m: ModuleDto) => m.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED');
const key = (m: { moduleName: string; monthId: string }) => ({ moduleName: m.moduleName, monthId: m.monthId });

/** An export call as the browser makes it: the answer itself (a file, 202, or an error). */
function exportCall(format: string, modules: ModuleRow[], query: Record<string, string> = {}): Promise<Response> {
  const search = new URLSearchParams({ status: 'Published', ...query });
  return fetch(`${baseUrl()}/data/export/${format}/module?${search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(modules.map(key)),
  });
}

async function exportedId(format: string, modules: ModuleRow[], query: Record<string, string> = {}): Promise<number> {
  const res = await exportCall(format, modules, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return Number(res.headers.get('x-export-id'));
}

const exportHistory = () => apiCall<ExportHistoryItem[]>(token, 'GET', '/exportStatus/');

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The module's own rows, as Export Module XLS writes them: importing them changes nothing. */
async function unchangedWorkbook(module: ModuleDto): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Modules');
  sheet.addRow(['Module name', 'Month', 'UPC', 'MH/EL', 'Min value']);
  for (const p of active(module)) sheet.addRow([module.moduleName, module.monthId, p.upc, p.mustHave ? 'MH' : 'EL', p.minValue]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function importUnchanged(module: ModuleDto): Promise<UploadItem> {
  const form = new FormData();
  form.append('excelFile', new Blob([new Uint8Array(await unchangedWorkbook(module))]), `${module.moduleName}.xlsx`);
  const res = await fetch(`${baseUrl()}/api/upload/module`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
  const { upload: accepted } = (await res.json()) as { upload: UploadItem };
  await until('the import', () => apiCall<UploadState>(token, 'GET', '/uploadStatus/getUploadStatus'), (s) => !s.wip);
  const list = await apiCall<UploadItem[]>(token, 'GET', '/uploadStatus/');
  return list.find((u) => u.id === accepted.id)!;
}

/**
 * A PDF export that fails in its job: queued behind the publish of `blockers` (the runner runs one job at
 * a time; each submission waits for the planning system), while `module` is reopened by a save, so that
 * the Published export finds nothing to write. Answers the export's id.
 */
async function failingPdfExport(module: ModuleRow, blockers: ModuleRow[]): Promise<number> {
  const before = Math.max(0, ...(await exportHistory()).map((e) => e.id));
  await apiCall(token, 'POST', '/module/lock', blockers.map(key));
  const publish = await apiCall<{ jobId?: number; errors?: string[] }>(token, 'POST', '/module/publishList', blockers.map(key));
  expect(publish.errors ?? [], 'publish of the blockers').toEqual([]);
  const answer = exportCall('pdf', [module]);
  const queued = await until('the export row', exportHistory, (list) => list.some((e) => e.id > before && e.exportType === 'pdf'), 5000);
  const id = queued.find((e) => e.id > before && e.exportType === 'pdf')!.id;
  await apiCall(token, 'POST', '/module/lock', [key(module)]);
  const [loaded] = await apiCall<ModuleDto[]>(token, 'POST', '/module/details', [key(module)]);
  const saved = await apiCall<ModuleDto>(token, 'POST', '/module/save?onlyDescription=true', { ...key(module), version: loaded!.version });
  expect(saved.status).toBe('WIP');
  const res = await answer;
  expect(res.status, `the export ran before the module was reopened: ${await res.clone().text()}`).toBe(500);
  await apiCall(token, 'POST', '/module/unlock', [key(module), ...blockers.map(key)]);
  return id;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  token = await apiToken(USER);
  const found = await apiCall<ModuleRow[]>(token, 'POST', '/module/filtered', { brand: [BRAND], monthId: [MONTH] });
  const free = found.filter((m) => !m.locked);
  const details = await apiCall<ModuleDto[]>(token, 'POST', '/module/details', free.map(key));
  const submitted = details.filter((m) => m.status === 'SUBMITTED' && active(m).length >= 2);
  const wip = details.filter((m) => m.status === 'WIP' && active(m).length >= 1);
  expect(submitted.length).toBeGreaterThanOrEqual(1);
  expect(wip.length).toBeGreaterThanOrEqual(2);
  exported = submitted[0]!;

  const [template] = await apiCall<{ templateId: number }[]>(token, 'GET', '/templates/getByTemplatesType?templatesType=modulo');
  pdfId = await exportedId('pdf', [exported]);
  xlsId = await exportedId('xls', [exported], { templateId: String(template!.templateId) });
  upload = await importUnchanged(exported);
  failedId = await failingPdfExport(exported, wip.slice(0, 2));
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
  await page.setViewportSize({ width: 1366, height: 900 });
});
afterEach(async () => {
  await context?.close();
});

async function shot(name: string) {
  await page.waitForTimeout(350); // Mantine's transitions
  await page.screenshot({ path: `${SHOTS}/pdf-area-history-${name}.png`, fullPage: true });
  await screenshot(page, `pdf-area-history-${name}`);
}

const row = (id: number) => page.getByTestId(`export-row-${id}`);

describe('PDF FILES AREA', () => {
  it('lists the PDF exports newest first, with the failure’s message, and downloads the PDF', async () => {
    const listed = await apiCall<ExportItem[]>(token, 'GET', '/pdfFilesArea/pdfExportStatus');
    const failed = listed.find((e) => e.id === failedId)!;
    expect(failed.status).toBe('ERROR');
    expect(failed.message).toBeTruthy();

    await loginAs(page, USER);
    await page.goto('/backoffice/pdf-area');
    await page.getByRole('heading', { name: 'PDF Files Area' }).waitFor();
    await row(pdfId).waitFor();
    // Only PDFs: the spreadsheet of the same module is not listed.
    expect(await row(xlsId).count()).toBe(0);
    const ids = await page.locator('[data-testid^="export-row-"]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.slice('export-row-'.length))));
    expect(ids).toEqual(listed.slice(0, ids.length).map((e) => e.id));
    expect(ids.indexOf(failedId)).toBeLessThan(ids.indexOf(pdfId));

    expect(await row(failedId).getByTestId('export-error').textContent()).toBe(failed.message);
    expect(await row(failedId).getByTestId('export-download').count()).toBe(0);
    expect(await row(pdfId).locator('[data-status]').getAttribute('data-status')).toBe('DONE');
    expect(await row(pdfId).getByText('100%').count()).toBe(1);
    await shot('pdf-area');

    const [download] = await Promise.all([page.waitForEvent('download'), row(pdfId).getByTestId('export-download').click()]);
    const file = readFileSync((await download.path())!);
    expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const answer = await page.request.get(`/data/export/files/${pdfId}`);
    expect(answer.headers()['content-type']).toBe(EXPORT_CONTENT_TYPES.pdf);

    // Read again every 5 seconds: a PDF exported meanwhile appears on top without a reload.
    const newer = await exportedId('pdf', [exported], { status: 'Saved' });
    await row(newer).waitFor({ timeout: 8000 });
    expect(await page.locator('[data-testid^="export-row-"]').first().getAttribute('data-testid')).toBe(`export-row-${newer}`);
  });

  it('says so when the user has no PDF export', async () => {
    await loginAs(page, 'viewer');
    await page.goto('/backoffice/pdf-area');
    await page.getByTestId('table-empty').waitFor();
    expect(await page.getByTestId('table-empty').textContent()).toBe('There are no PDF exports yet. Modules and clusters exported as PDF appear here.');
    await shot('pdf-area-empty');
  });
});

describe('/history', () => {
  it('lists every export with its download and failure, and the upload history with its response', async () => {
    const listed = await exportHistory();
    await loginAs(page, USER);
    await page.goto('/backoffice/history');
    await page.getByRole('heading', { name: 'Upload and Export History' }).waitFor();
    const exports = page.getByTestId('export-history');
    for (const id of [pdfId, xlsId, failedId]) await exports.getByTestId(`export-row-${id}`).waitFor();
    const ids = await exports.locator('[data-testid^="export-row-"]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-testid')!.slice('export-row-'.length))));
    expect(ids).toEqual(listed.slice(0, ids.length).map((e) => e.id));

    expect(await exports.getByTestId(`export-row-${xlsId}`).textContent()).toContain('XLS');
    expect(await exports.getByTestId(`export-row-${xlsId}`).getByTestId('export-download').getAttribute('href')).toBe(`/data/export/files/${xlsId}`);
    expect(await exports.getByTestId(`export-row-${failedId}`).getByTestId('export-error').textContent()).toBe(listed.find((e) => e.id === failedId)!.message);

    const uploadRow = page.getByTestId(`upload-row-${upload.id}`);
    await uploadRow.waitFor();
    expect(await uploadRow.textContent()).toContain(`${exported.moduleName}.xlsx`);
    await shot('history');

    const [download] = await Promise.all([page.waitForEvent('download'), exports.getByTestId(`export-row-${xlsId}`).getByTestId('export-download').click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync((await download.path())!) as unknown as ExcelJS.Buffer);
    expect(book.worksheets.length).toBeGreaterThan(0);

    await uploadRow.getByTestId('upload-show-response').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(exported.moduleName);
    await shot('history-upload-response');
  });
});
