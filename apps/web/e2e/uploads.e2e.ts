/**
 * Import Data (/upload; part 2 §2 "Import Data", §4 "Upload", §5, §8 upload texts; part 1 §6 import
 * rights) in real Chromium against the real server: a module workbook written here with ExcelJS is
 * uploaded, previewed and applied (the preview itself: import-preview.e2e.ts), shows WIP then DONE in the upload table, and its response opens line by line; the areas are
 * disabled while an import is WIP; a text file renamed .xlsx gets the server's refusal in the Error popup
 * and leaves nothing in the table; a dropped .csv is refused without calling the server; a user without
 * the import right sees why.
 *
 * Uses what no other browser test touches: Marea (MRA) modules and one cluster of M05_2027, looked up through the API;
 * the last test uploads a cluster workbook through Import Cluster.
 */
import { mkdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { UPLOAD_TEXTS, type UploadItem, type UploadState } from '@bo/shared/uploads';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { activeLines, moduleWorkbook as importWorkbook, openImportData as openImportPage, XLSX_MIME, type ImportedModule } from './helpers/import-workbooks';

const MONTH = 'M05_2027';
const BRAND = 'MRA';
const SHOTS = '/tmp/shots-uploads';

interface ModuleDto extends ImportedModule {
  locked: boolean;
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
/** Two unlocked WIP Marea modules of the month: the first imported unchanged, the second with one line's MH/EL flipped. */
let modules: ModuleDto[];
let workbook: Buffer;

/** The modules' active lines, the line `flip` names with MH/EL switched. */
const moduleWorkbook = (items: ModuleDto[], flip: { moduleName: string; upc: string }) => importWorkbook(items, (m, p) => m.moduleName === flip.moduleName && p.upc === flip.upc);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  token = await apiToken('admin');
  const found = await apiCall<{ moduleName: string; status: string; locked: boolean }[]>(token, 'POST', '/module/filtered', { brand: [BRAND], monthId: [MONTH] });
  const wip = found.filter((m) => m.status === 'WIP' && !m.locked).map((m) => ({ moduleName: m.moduleName, monthId: MONTH }));
  const details = await apiCall<ModuleDto[]>(token, 'POST', '/module/details', wip);
  modules = details.filter((m) => activeLines(m).length >= 2).slice(0, 2);
  expect(modules).toHaveLength(2);
  workbook = await moduleWorkbook(modules, { moduleName: modules[1]!.moduleName, upc: activeLines(modules[1]!)[0]!.upc });
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
  await page.setViewportSize({ width: 1280, height: 900 });
});
afterEach(async () => {
  await context?.close();
});

async function shot(name: string) {
  await page.waitForTimeout(350); // Mantine's transitions
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, `uploads-${name}`);
}

const openImportData = (user = 'admin') => openImportPage(page, user);

const area = (kind: 'module' | 'cluster') => page.getByTestId(`import-${kind}`);
const picker = (kind: 'module' | 'cluster') => area(kind).locator('input[type=file]');
const uploadButton = (kind: 'module' | 'cluster') => page.getByTestId(`import-${kind}-upload`);
const uploadCalls = (requests: Request[]) => requests.filter((r) => r.method() === 'POST' && r.url().includes('/api/upload/'));

describe('Import Data', () => {
  it('is closed to a user without the import right, and the home sidebar does not offer it', async () => {
    await loginAs(page, 'viewer');
    await expect.poll(() => page.getByTestId('nav-import').count()).toBe(0);
    await page.goto('/backoffice/upload');
    await page.getByTestId('no-import-right').waitFor();
    expect(await page.getByTestId('no-import-right').textContent()).toBe(UPLOAD_TEXTS.noImportRight);
    expect(await area('module').count()).toBe(0);
    await shot('no-right');
  });

  it('refuses a dropped file that is not .xlsx without calling the server', async () => {
    await openImportData();
    await expect.poll(() => area('module').getAttribute('aria-disabled')).toBe('false');
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    const drop = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['Module name;Month\nAU_01;M05_2027\n'], 'modules.csv', { type: 'text/csv' }));
      return data;
    });
    await area('module').dispatchEvent('drop', { dataTransfer: drop });
    await page.getByTestId('import-module-refusal').waitFor();
    expect(await page.getByTestId('import-module-refusal').textContent()).toBe(UPLOAD_TEXTS.excelOnly);
    expect(await uploadButton('module').isDisabled()).toBe(true);
    expect(uploadCalls(requests)).toHaveLength(0);
    await shot('drop-csv-refused');
  });

  it('shows the server refusal of a text file renamed .xlsx in the Error popup, and nothing in the table', async () => {
    const before = await apiCall<UploadItem[]>(token, 'GET', '/uploadStatus/');
    await openImportData();
    await picker('module').setInputFiles({ name: 'not-a-workbook.xlsx', mimeType: XLSX_MIME, buffer: Buffer.from('Module name;Month;UPC\nAU_01;M05_2027;123\n') });
    expect(await page.getByTestId('import-module-file-name').textContent()).toBe('not-a-workbook.xlsx');
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/upload/module'));
    await uploadButton('module').click();
    expect((await answer).status()).toBe(400);
    const popup = page.getByTestId('message-popup');
    await popup.waitFor();
    expect(await popup.textContent()).toContain(UPLOAD_TEXTS.notExcel);
    await shot('not-excel-error');
    await popup.getByRole('button', { name: 'Ok' }).click();
    // The chosen file stays (the planner may pick another), and no upload was stored.
    expect(await page.getByTestId('import-module-file-name').textContent()).toBe('not-a-workbook.xlsx');
    expect(await page.locator('[data-testid^="upload-row-"]', { hasText: 'not-a-workbook.xlsx' }).count()).toBe(0);
    expect(await apiCall<UploadItem[]>(token, 'GET', '/uploadStatus/')).toHaveLength(before.length);
  });

  it('disables both areas while an import is WIP and says so', async () => {
    // The server's WIP lasts as long as the job; here the state and the list answer WIP for as long as the test needs.
    const wip: UploadItem = {
      id: 999_001,
      insertTime: new Date().toISOString(),
      progress: 42,
      response: null,
      status: 'WIP',
      type: 'MODULE_MASSIVE_CREATION',
      userId: 'admin',
      fileName: 'marea-may.xlsx',
      size: 18_432,
    };
    await page.route('**/api/uploadStatus/getUploadStatus', (route) => route.fulfill({ json: { wip: true, upload: wip } satisfies UploadState }));
    await page.route('**/api/uploadStatus/', (route) => route.fulfill({ json: [wip] }));
    await openImportData();
    await page.getByTestId('upload-wip-notice').waitFor();
    expect(await page.getByTestId('upload-wip-notice').textContent()).toContain(UPLOAD_TEXTS.wipExists);
    for (const kind of ['module', 'cluster'] as const) {
      expect(await area(kind).getAttribute('data-disabled')).not.toBeNull();
      expect(await page.getByTestId(`import-${kind}-choose`).isDisabled()).toBe(true);
      expect(await picker(kind).isDisabled()).toBe(true);
      expect(await uploadButton(kind).isDisabled()).toBe(true);
    }
    const row = page.getByTestId(`upload-row-${wip.id}`);
    expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('WIP');
    expect(await row.getByTestId('upload-progress').textContent()).toContain('42%');
    await shot('wip-disabled');
    await page.setViewportSize({ width: 1024, height: 800 });
    await shot('wip-disabled-1024');
  });

  it('uploads a module workbook: WIP, then DONE, and its response line by line', async () => {
    await openImportData();
    // Every status the new row shows, and whether the areas were disabled while it was WIP.
    await page.evaluate(() => {
      const seen: { status: string; disabled: boolean }[] = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        for (const badge of document.querySelectorAll('[data-testid^="upload-row-"] [data-status]')) {
          const disabled = ['import-module', 'import-cluster'].every((id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('aria-disabled') === 'true');
          seen.push({ status: badge.getAttribute('data-status') ?? '', disabled });
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });

    await picker('module').setInputFiles({ name: 'marea-may.xlsx', mimeType: XLSX_MIME, buffer: workbook });
    expect(await page.getByTestId('import-module-file-name').textContent()).toBe('marea-may.xlsx');
    expect(await page.getByTestId('import-module-file-size').textContent()).toMatch(/^\d+(,\d)? KB$/);
    await shot('file-chosen');
    await page.setViewportSize({ width: 1024, height: 800 });
    await shot('file-chosen-1024');
    await page.setViewportSize({ width: 1280, height: 900 });

    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/upload/module'));
    // A double click sends the workbook once.
    await uploadButton('module').dblclick();
    const response = await answer;
    expect(response.status()).toBe(200);
    const { upload } = (await response.json()) as { upload: UploadItem };
    expect(upload.status).toBe('WIP');

    const row = page.getByTestId(`upload-row-${upload.id}`);
    await row.waitFor();
    expect(uploadCalls(requests)).toHaveLength(1);
    // The form is cleared after the accepted post; the preview (import-preview.e2e.ts) is applied.
    await page.getByTestId('import-module-choose').waitFor();
    await page.getByTestId('import-preview-apply').click();
    expect(await row.textContent()).toContain('marea-may.xlsx');
    expect(await row.textContent()).toContain('Module');
    expect(await row.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);

    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 30_000, interval: 250 }).toBe('DONE');
    const seen = await page.evaluate(() => (window as unknown as { seen: { status: string; disabled: boolean }[] }).seen);
    expect(seen.some((s) => s.status === 'WIP')).toBe(true);
    expect(seen.filter((s) => s.status === 'WIP').every((s) => s.disabled)).toBe(true);
    expect(await row.getByTestId('upload-progress').textContent()).toContain('100%');
    // Once the state says the import ended, the areas are open again.
    await expect.poll(() => area('module').getAttribute('aria-disabled'), { timeout: 10_000 }).toBe('false');
    await shot('done');

    await row.getByTestId('upload-show-response').click();
    const popup = page.getByTestId('upload-response-popup');
    await popup.waitFor();
    const lines = await popup.getByTestId('upload-response-line').allTextContents();
    expect(lines).toHaveLength(2);
    expect(lines.some((l) => l.includes(modules[0]!.moduleName))).toBe(true);
    expect(lines.some((l) => l.includes(modules[1]!.moduleName))).toBe(true);
    await shot('response');

    // The import did what the workbook says: the flipped line changed, the rest did not.
    const after = await apiCall<ModuleDto[]>(token, 'POST', '/module/details', modules.map((m) => ({ moduleName: m.moduleName, monthId: MONTH })));
    const byName = new Map(after.map((m) => [m.moduleName, m]));
    const flipped = activeLines(modules[1]!)[0]!;
    expect(byName.get(modules[1]!.moduleName)!.productDtoList.find((p) => p.upc === flipped.upc)!.mustHave).toBe(!flipped.mustHave);
    for (const p of activeLines(modules[0]!)) {
      expect(byName.get(modules[0]!.moduleName)!.productDtoList.find((q) => q.upc === p.upc)!.mustHave).toBe(p.mustHave);
    }
  });
  it('uploads a cluster workbook: the cluster takes its new description, its modules stay, and the response names it', async () => {
    const found = await apiCall<{ clusterId: string; status: string; locked: boolean }[]>(token, 'POST', '/cluster/filtered', { brand: [BRAND], monthId: [MONTH] });
    const candidates = found.filter((c) => c.status === 'WIP' && !c.locked).map((c) => ({ clusterId: c.clusterId, monthId: MONTH }));
    const details = await apiCall<{ clusterId: string; modules: { moduleName: string; clusterCompositionStatus: string }[] }[]>(token, 'POST', '/cluster/clusterDetails', candidates);
    const cluster = details.find((c) => c.modules.some((m) => m.clusterCompositionStatus === 'ADDED'))!;
    expect(cluster).toBeDefined();
    const added = cluster.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName);
    const description = `Imported ${Date.now() % 100000}`;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Clusters');
    sheet.addRow(['Cluster id', 'Month', 'Module name', 'Status', 'Description']);
    added.forEach((name, i) => sheet.addRow([cluster.clusterId, MONTH, name, 'ADDED', i === 0 ? description : null]));
    const buffer = Buffer.from(await book.xlsx.writeBuffer());

    await openImportData();
    await picker('cluster').setInputFiles({ name: 'marea-clusters.xlsx', mimeType: XLSX_MIME, buffer });
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/upload/cluster'));
    await uploadButton('cluster').click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const { upload } = (await response.json()) as { upload: UploadItem };
    await page.getByTestId('import-preview-apply').click();
    const row = page.getByTestId(`upload-row-${upload.id}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Cluster');
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 30_000, interval: 250 }).toBe('DONE');
    await row.getByTestId('upload-show-response').click();
    const lines = await page.getByTestId('upload-response-popup').getByTestId('upload-response-line').allTextContents();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(cluster.clusterId);
    await shot('cluster-response');

    const [after] = await apiCall<{ clusterDescription: string; modules: { moduleName: string; clusterCompositionStatus: string }[] }[]>(token, 'POST', '/cluster/clusterDetails', [
      { clusterId: cluster.clusterId, monthId: MONTH },
    ]);
    expect(after!.clusterDescription).toBe(description);
    expect(after!.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName).sort()).toEqual([...added].sort());
  });
});
