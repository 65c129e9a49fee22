/**
 * Export Data (/export; part 2 §2, §4 "Export", §5, §8) in real Chromium: search modules for a month
 * and a brand, select three, Export Selected as XLS (the workbook read back with ExcelJS) and as PDF;
 * the same for three clusters; the results and the selection kept after a finished export (issue 34),
 * files named after what they hold, the export history telling the exports apart; a user without the
 * export right. Exports change nothing, so any demo month will do.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import type { ExportHistoryItem } from '@bo/shared/export-history';
import { formatMonthId } from '@bo/shared/months';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { pageApiCall } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { baseUrl } from './helpers/server';

let browser: Browser;
let context: BrowserContext;
let page: Page;

interface Option {
  value: string;
  label: string;
}
type Options = Record<string, Option[]>;
interface Found {
  monthId: string;
  brand: Option;
  names: string[];
}

const callApi = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => pageApiCall<T>(page, context, method, path, body);

/** Lets Mantine's transitions finish before a screenshot. */
const settle = () => page.waitForTimeout(350);

/** Opens a select of the sidebar and picks an option. */
async function pick(testId: string, name: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name, exact: false }).first().click();
  if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
}

/** A month and a brand whose search lists between 3 and 40 items (found through the same calls the page makes). */
async function findSearch(kind: 'module' | 'cluster', status: string[]): Promise<Found> {
  const months = await callApi<Options>('POST', `/${kind}/exportFilters?keys=monthId`, { status });
  for (const { value: monthId } of months.monthId ?? []) {
    const brands = await callApi<Options>('POST', `/${kind}/exportFilters?keys=brand`, { status, monthId: [monthId] });
    for (const brand of brands.brand ?? []) {
      const items = await callApi<Record<string, string>[]>('POST', `/${kind}/exportSearch`, { status, monthId: [monthId], brand: [brand.value] });
      if (items.length >= 3 && items.length <= 40) return { monthId, brand, names: items.map((i) => i[kind === 'module' ? 'moduleName' : 'clusterId']!) };
    }
  }
  throw new Error(`no month and brand with 3 to 40 ${kind}s to export`);
}

/** Chooses the month and brand (unless chosen already: the sidebar keeps them), then Search. */
async function search(found: Found, choose = true) {
  if (choose) {
    await pick('filter-monthId', formatMonthId(found.monthId));
    await pick('filter-brand', found.brand.label);
  }
  await page.getByTestId('search-button').click();
  await page.getByTestId('export-results').waitFor();
  expect(await page.getByTestId('export-count').innerText()).toMatch(new RegExp(`^${found.names.length} `));
}

/** Ticks the first three rows; answers their keys (name|month). */
async function selectThree(): Promise<string[]> {
  const rows = page.getByTestId('export-row');
  if ((await page.getByTestId('export-selected-count').count()) === 0) {
    // Nothing chosen yet: the two selection buttons say why they cannot be used, and keep their tab stop.
    for (const [id, verb] of [['open-selected', 'open'], ['export-selected', 'export']] as const) {
      const button = page.getByTestId(id);
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      expect(await button.getAttribute('aria-description')).toMatch(new RegExp(`^Select the (module|cluster)s to ${verb}$`));
      expect(await button.getAttribute('disabled')).toBeNull();
    }
  }
  const keys: string[] = [];
  for (let i = 0; i < 3; i++) {
    await rows.nth(i).getByRole('checkbox').check();
    keys.push((await rows.nth(i).getAttribute('data-key'))!);
  }
  expect(await page.getByTestId('export-selected-count').innerText()).toBe('3 selected');
  return keys;
}

const modal = () => page.getByTestId('export-modal').locator('.mantine-Modal-content');

/**
 * The first page of a downloaded PDF as a reader sees it: Chromium's own PDF viewer in a new tab (it
 * draws the page a moment after loading; there is no event to wait for, so the shot waits a few seconds).
 */
async function screenshotPdf(download: Download, name: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bo-e2e-pdf-'));
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const viewer = await context.newPage();
  try {
    await viewer.goto(pathToFileURL(file).href).catch(() => undefined);
    await viewer.waitForTimeout(5000);
    await screenshot(viewer, name);
  } finally {
    await viewer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Export Selected → format (→ template) → EXPORT; answers the download. */
async function exportSelected(format: 'XLS' | 'PDF', template: string | null, shot?: string): Promise<Download> {
  await page.getByTestId('export-selected').click();
  await modal().waitFor();
  const start = modal().getByTestId('export-start');
  expect(await start.isDisabled()).toBe(true);
  await modal().getByText(format, { exact: true }).click();
  if (template) {
    expect(await start.isDisabled()).toBe(true);
    await modal().getByTestId('export-template').click();
    await page.getByRole('option', { name: template }).click();
  }
  expect(await start.isDisabled()).toBe(false);
  if (shot) {
    await settle();
    await screenshot(page, shot);
  }
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), start.click()]);
  await modal().waitFor({ state: 'hidden' });
  // A finished export keeps the results and the selection (issue 34: the same items as XLS, then as PDF).
  expect(await page.getByTestId('export-selected-count').innerText()).toBe('3 selected');
  return download;
}

async function sheetTexts(download: Download): Promise<{ sheets: string[]; cells: string[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ExcelJS.Buffer);
  const cells: string[][] = [];
  workbook.eachSheet((sheet) => sheet.eachRow((row) => cells.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v))))));
  return { sheets: workbook.worksheets.map((s) => s.name), cells };
}

const pdfBytes = async (download: Download) => readFileSync((await download.path())!);

/** The lines of a cell's text (paragraphs come with blank lines between them). */
const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** A file of several items is named after what it holds: kind, brand, month, count (issue 34). */
const fileName = (kind: 'modules' | 'clusters', found: Found, extension = 'xlsx') =>
  `${kind}-${found.brand.value}-${formatMonthId(found.monthId).replace('/', '-')}-3-items.${extension}`;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await loginAs(page, 'admin');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('Export Data', () => {
  it('searches modules for a month and a brand, and exports three selected as XLS and as PDF', async () => {
    await page.goto('/backoffice/export');
    await page.getByTestId('export-filters').waitFor();
    // Search waits for a month (part 2 §5); so do the other filters; Published is ticked by default.
    expect(await page.getByTestId('search-button').isDisabled()).toBe(true);
    expect(await page.getByTestId('filter-brand').getAttribute('data-disabled')).toBe('true');
    expect(await page.getByTestId('status-Published').isChecked()).toBe(true);
    expect(await page.getByTestId('status-Saved').isChecked()).toBe(false);
    expect(await page.getByTestId('pdf-files-link').getAttribute('href')).toBe('/backoffice/pdf-area');
    await screenshot(page, 'export-data-start');

    const found = await findSearch('module', ['Published']);
    await search(found);
    const listed = await page.getByTestId('export-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(listed.map((k) => k!.split('|')[0]).sort()).toEqual([...found.names].sort());
    const chosen = await selectThree();
    await settle();
    await screenshot(page, 'export-data-modules');

    const xlsx = await exportSelected('XLS', 'Module standard', 'export-data-modules-popup');
    expect(xlsx.suggestedFilename()).toBe(fileName('modules', found));
    const { sheets, cells } = await sheetTexts(xlsx);
    expect(sheets).toContain('Modules');
    expect(cells[0]?.[0]).toBeTruthy();
    const exported = new Set(cells.slice(1).map((row) => row[0]));
    expect([...exported].sort()).toEqual(chosen.map((k) => k.split('|')[0]).sort());
    // The Month column as people read it (Import Module reads it back).
    const month = cells[0]!.indexOf('Month');
    expect(new Set(cells.slice(1).map((row) => row[month]))).toEqual(new Set([formatMonthId(found.monthId)]));
    await settle();
    await screenshot(page, 'export-data-kept');

    // The same three, now as PDF: nothing to search or tick again.
    const pdf = await exportSelected('PDF', null);
    expect(pdf.suggestedFilename()).toBe(fileName('modules', found, 'pdf'));
    expect((await pdfBytes(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await screenshotPdf(pdf, 'export-data-modules-pdf-rendered');
  });

  it('exports one module from its row with the plain format, named by its label', async () => {
    await page.goto('/backoffice/export');
    const found = await findSearch('module', ['Published']);
    await search(found);
    const row = page.getByTestId('export-row').first();
    const label = (await row.locator('p').first().innerText()).trim();
    await row.getByTestId('export-item').click();
    await modal().waitFor();
    expect(await modal().getByTestId('export-summary').innerText()).toContain('1 module');
    await modal().getByText('PDF', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), modal().getByTestId('export-start').click()]);
    expect(download.suggestedFilename()).toBe(`${label}.pdf`);
  });

  it('searches clusters (Published and Saved), and exports three selected as XLS and as PDF', async () => {
    const token = (await context.cookies()).find((c) => c.name === 'bo_token')!.value;
    const probe = await fetch(`${baseUrl()}/data/export/xls/cluster`, {
      method: 'POST',
      headers: { authorization: `Bearer ${decodeURIComponent(token)}`, 'content-type': 'application/json' },
      body: '[]',
    });
    expect(probe.status, 'cluster exports exist').not.toBe(404);

    await page.goto('/backoffice/export');
    await page.getByTestId('kind-cluster').click();
    await page.getByTestId('status-Saved').check();
    const found = await findSearch('cluster', ['Published', 'Saved']);
    await search(found);
    const chosen = (await selectThree()).map((k) => k.split('|')[0]!);
    await settle();
    await screenshot(page, 'export-data-clusters');
    await page.setViewportSize({ width: 1024, height: 768 });
    await settle();
    expect(await page.getByTestId('sidebar').getAttribute('data-mode')).toBe('docked');
    await screenshot(page, 'export-data-clusters-1024');
    await page.setViewportSize({ width: 1440, height: 900 });

    const xlsx = await exportSelected('XLS', 'Cluster standard', 'export-data-clusters-popup');
    expect(xlsx.suggestedFilename()).toBe(fileName('clusters', found));
    const { cells } = await sheetTexts(xlsx);
    const text = new Set(cells.flat());
    for (const id of chosen) expect(text.has(id), `${id} in the workbook`).toBe(true);
    const others = found.names.filter((n) => !chosen.includes(n));
    for (const id of others) expect(text.has(id), `${id} not in the workbook`).toBe(false);

    // The selection stays: the same three as PDF.
    const pdf = await exportSelected('PDF', null);
    expect(pdf.suggestedFilename()).toBe(fileName('clusters', found, 'pdf'));
    expect((await pdfBytes(pdf)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await screenshotPdf(pdf, 'export-data-clusters-pdf-rendered');

    // Both cluster exports are in the export history, the PDF in the PDF area too, and they download from there.
    const history = await pageApiCall<ExportHistoryItem[]>(page, context, 'GET', '/exportStatus/');
    const [pdfItem, xlsItem] = history;
    expect([pdfItem, xlsItem].map((e) => [e!.exportType, e!.status, e!.fileName, e!.itemKind, e!.itemCount, e!.itemNames, e!.monthIds])).toEqual([
      ['pdf_massive', 'DONE', fileName('clusters', found, 'pdf'), 'cluster', 3, chosen, [found.monthId]],
      ['xls_massive', 'DONE', fileName('clusters', found), 'cluster', 3, chosen, [found.monthId]],
    ]);
    await page.goto('/backoffice/pdf-area');
    const pdfRow = page.getByTestId(`export-row-${pdfItem!.id}`);
    await pdfRow.waitFor();
    expect(linesOf(await pdfRow.getByTestId('export-items').innerText())).toEqual([`3 clusters · ${formatMonthId(found.monthId)}`, chosen.join(', ')]);
    expect(await pdfRow.getByTestId('export-months').innerText()).toBe(formatMonthId(found.monthId));
    expect(await page.getByTestId(`export-row-${xlsItem!.id}`).count()).toBe(0);
    const [fromArea] = await Promise.all([page.waitForEvent('download'), pdfRow.getByTestId('export-download').click()]);
    expect((await pdfBytes(fromArea)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await screenshot(page, 'export-data-clusters-pdf-area');
    await page.goto('/backoffice/history');
    const exports = page.getByTestId('export-history');
    for (const item of [pdfItem!, xlsItem!]) {
      const row = exports.getByTestId(`export-row-${item.id}`);
      await row.waitFor();
      expect(linesOf(await row.getByTestId('export-items').innerText())).toEqual([`3 clusters · ${formatMonthId(found.monthId)}`, chosen.join(', ')]);
      expect(await row.getByTestId('export-months').innerText()).toBe(formatMonthId(found.monthId));
    }
    const [fromHistory] = await Promise.all([page.waitForEvent('download'), exports.getByTestId(`export-row-${xlsItem!.id}`).getByTestId('export-download').click()]);
    const again = new Set((await sheetTexts(fromHistory)).cells.flat());
    for (const id of chosen) expect(again.has(id), `${id} in the workbook from the history`).toBe(true);
    await screenshot(page, 'export-data-clusters-history');
    // At 1024 px the history's columns still fit the page: the last one (Action) is in view, nothing scrolls sideways.
    await page.setViewportSize({ width: 1024, height: 768 });
    await settle();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    const action = await exports.getByRole('columnheader', { name: 'Action' }).boundingBox();
    expect(action!.x + action!.width).toBeLessThanOrEqual(1024);
    expect(await exports.locator('table').evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
    await screenshot(page, 'export-data-clusters-history-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/backoffice/export');
  });

  it('shows the empty text, and tells a user without the export right', async () => {
    // A month and a filter value that only one status offers: chosen under that status, searched under the other.
    const KEYS = ['brand', 'collection', 'macroFamily', 'planningChannel'] as const;
    const FILTER_LABELS = { brand: 'filter-brand', collection: 'filter-collection', macroFamily: 'filter-macroFamily', planningChannel: 'filter-planningChannel' };
    const months = await callApi<Options>('POST', '/module/exportFilters?keys=monthId', { status: ['Published', 'Saved'] });
    let only: { monthId: string; key: (typeof KEYS)[number]; option: Option; has: 'Published' | 'Saved' } | null = null;
    search: for (const { value: monthId } of months.monthId ?? []) {
      const by = async (status: string) => callApi<Options>('POST', `/module/exportFilters?keys=${KEYS.join(',')}`, { status: [status], monthId: [monthId] });
      const [published, saved] = [await by('Published'), await by('Saved')];
      for (const key of KEYS) {
        for (const [has, mine, other] of [['Saved', saved, published], ['Published', published, saved]] as const) {
          const option = (mine[key] ?? []).find((o) => !(other[key] ?? []).some((x) => x.value === o.value));
          if (option) {
            only = { monthId, key, option, has };
            break search;
          }
        }
      }
    }
    expect(only, 'a month with a filter value that only one status offers').not.toBeNull();
    const { has } = only!;
    const hasNot = has === 'Saved' ? 'Published' : 'Saved';
    await page.goto('/backoffice/export');
    await page.getByTestId(`status-${has}`).check();
    await page.getByTestId(`status-${hasNot}`).uncheck();
    await pick('filter-monthId', formatMonthId(only!.monthId));
    await pick(FILTER_LABELS[only!.key], only!.option.label);
    await page.getByTestId(`status-${hasNot}`).check();
    await page.getByTestId(`status-${has}`).uncheck();
    await page.getByTestId('search-button').click();
    await page.getByTestId('export-empty').waitFor();
    expect(await page.getByTestId('export-empty').innerText()).toBe("There aren't search results.");

    const viewer = await openPage(browser);
    try {
      await loginAs(viewer.page, 'viewer');
      await viewer.page.goto('/backoffice/export');
      await viewer.page.getByTestId('export-no-access').waitFor();
      expect(await viewer.page.getByTestId('export-no-access').innerText()).toBe("You don't have the right to export.");
    } finally {
      await viewer.context.close();
    }
  });
});
