/**
 * The preview of Import Module and Import Cluster (/upload; docs/IMPORT-PREVIEW.md) in real Chromium
 * against the real server: a workbook chosen and sent shows, before anything is written, a table of what
 * the import would do per item-month (counts on top, name, month, outcome, detail); the item is unchanged
 * until Apply; Apply (by keyboard) then imports it, and the upload ends DONE in the history. Cancel drops a
 * preview and writes nothing. A module refused by the stale-version guard offers an Overwrite checkbox;
 * checked, Apply overwrites it. Axe finds no WCAG A/AA violation in the panel.
 *
 * Uses what no other browser test touches: Marea (MRA) modules and clusters of M04_2027, looked up through the API.
 */
import { mkdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { UPLOAD_TEXTS, type UploadItem, type UploadState } from '@bo/shared/uploads';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { axeViolations } from './helpers/axe';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { activeLines, moduleWorkbook as importWorkbook, openImportData as openImportPage, XLSX_MIME, type ImportedModule } from './helpers/import-workbooks';

const MONTH = 'M04_2027';
const BRAND = 'MRA';
const SHOTS = '/tmp/shots-import-preview';

interface ModuleDto extends ImportedModule {
  version: number;
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let modules: ModuleDto[];
/** modules[0]'s version before the first test imports a change into it. */
let exportedVersion: number;

async function details(names: readonly string[]): Promise<ModuleDto[]> {
  return apiCall<ModuleDto[]>(
    token,
    'POST',
    '/module/details',
    names.map((moduleName) => ({ moduleName, monthId: MONTH })),
  );
}

/** Each module's active lines, the first line of the modules named in `flip` with MH/EL switched; `version` adds the Version column. */
const moduleWorkbook = (items: ModuleDto[], flip: readonly string[], version?: Record<string, number>) =>
  importWorkbook(items, (m, _line, i) => flip.includes(m.moduleName) && i === 0, version);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  token = await apiToken('admin');
  const found = await apiCall<{ moduleName: string; status: string; locked: boolean }[]>(token, 'POST', '/module/filtered', { brand: [BRAND], monthId: [MONTH] });
  const wip = found.filter((m) => m.status === 'WIP' && !m.locked).map((m) => m.moduleName);
  modules = (await details(wip)).filter((m) => activeLines(m).length >= 2).slice(0, 3);
  expect(modules).toHaveLength(3);
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  // The admin's uploads of other files (one in progress at a time) have ended; a preview left waiting by a failed test is dropped.
  const state = await apiCall<UploadState>(token, 'GET', '/uploadStatus/getUploadStatus');
  if (state.upload?.status === 'PREVIEW') await apiCall(token, 'POST', `/upload/${state.upload.id}/cancel`, {});
  await expect.poll(async () => (await apiCall<UploadState>(token, 'GET', '/uploadStatus/getUploadStatus')).wip, { timeout: 60_000, interval: 500 }).toBe(false);
  ({ context, page } = await openPage(browser));
  await page.setViewportSize({ width: 1280, height: 900 });
});
afterEach(async () => {
  await context?.close();
});

async function shot(name: string) {
  await page.waitForTimeout(350); // Mantine's transitions
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, `import-preview-${name}`);
}

async function openImportData() {
  await openImportPage(page);
  await expect.poll(() => page.getByTestId('import-module').getAttribute('aria-disabled'), { timeout: 30_000 }).toBe('false');
}

/** Chooses the workbook in an area and sends it: the upload the server answered. */
async function send(kind: 'module' | 'cluster', name: string, buffer: Buffer): Promise<UploadItem> {
  await page.getByTestId(`import-${kind}`).locator('input[type=file]').setInputFiles({ name, mimeType: XLSX_MIME, buffer });
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(`/api/upload/${kind}?preview=true`));
  await page.getByTestId(`import-${kind}-upload`).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  return ((await response.json()) as { upload: UploadItem }).upload;
}

const panel = () => page.getByTestId('import-preview');
const rows = () => panel().getByTestId('import-preview-row');

/** The preview table as text: item, month, outcome, detail per row. */
async function table(): Promise<string[][]> {
  await panel().getByTestId('import-preview-table').waitFor();
  return rows().evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((c) => (c.textContent ?? '').trim())));
}

/** Axe's WCAG A/AA findings inside the preview panel (the rest of the page has its own tests). */
async function noAxeFindings() {
  const findings = await axeViolations(page);
  const inPanel = [];
  for (const f of findings) {
    const inside = await page.evaluate((targets) => targets.some((t) => !!document.querySelector(t)?.closest('[data-testid="import-preview"]')), f.nodes.map((n) => n.target));
    if (inside) inPanel.push(f);
  }
  expect(inPanel).toEqual([]);
}

describe('Import Data preview', () => {
  it('Import Module: the preview lists per module what would change, writes nothing, and Apply (keyboard) imports it', async () => {
    const [changed, same] = modules as [ModuleDto, ModuleDto];
    const before = await details([changed.moduleName, same.moduleName]);
    exportedVersion = before.find((m) => m.moduleName === changed.moduleName)!.version;
    await openImportData();
    const upload = await send('module', 'marea-april.xlsx', await moduleWorkbook([changed, same], [changed.moduleName]));

    // Focus goes to the panel's heading once the preview is there.
    await panel().getByTestId('import-preview-table').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('import-preview-title');
    expect(await panel().getByRole('heading', { level: 3 }).textContent()).toBe(`${UPLOAD_TEXTS.previewTitle('Module')} · marea-april.xlsx`);
    expect(await panel().getByTestId('import-preview-counts').textContent()).toContain(`${UPLOAD_TEXTS.previewOutcomes.saved}: 1`);
    const text = await table();
    expect(text).toHaveLength(2);
    const flippedUpc = activeLines(changed)[0]!.upc;
    expect(text.find((r) => r[0] === changed.moduleName)).toEqual([changed.moduleName, '04/2027', UPLOAD_TEXTS.previewOutcomes.saved, expect.stringContaining(flippedUpc)]);
    expect(text.find((r) => r[0] === same.moduleName)).toEqual([same.moduleName, '04/2027', UPLOAD_TEXTS.previewOutcomes.unchanged, '']);
    // Real headers for every column.
    expect(await panel().locator('thead th[scope=col]').allTextContents()).toEqual(['Item', 'Month', 'Outcome', 'Detail', UPLOAD_TEXTS.previewOverwrite]);
    // Nothing written yet, the areas are closed while the preview waits.
    expect(await details([changed.moduleName, same.moduleName])).toEqual(before);
    expect(await page.getByTestId('import-cluster').getAttribute('aria-disabled')).toBe('true');
    const row = page.getByTestId(`upload-row-${upload.id}`);
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 10_000 }).toBe('PREVIEW');
    await noAxeFindings();
    await shot('module-preview');
    await page.setViewportSize({ width: 1024, height: 800 });
    await shot('module-preview-1024');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Apply with the keyboard: Tab from Cancel to Apply, Enter.
    await panel().getByTestId('import-preview-cancel').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('import-preview-apply');
    const applied = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/upload/${upload.id}/apply`));
    await page.keyboard.press('Enter');
    expect((await applied).status()).toBe(200);
    await panel().waitFor({ state: 'detached' });
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 30_000, interval: 250 }).toBe('DONE');
    await shot('module-applied');
    const after = new Map((await details([changed.moduleName, same.moduleName])).map((m) => [m.moduleName, m]));
    expect(after.get(changed.moduleName)!.productDtoList.find((p) => p.upc === flippedUpc)!.mustHave).toBe(!activeLines(changed)[0]!.mustHave);
    expect(after.get(same.moduleName)!.productDtoList).toEqual(before.find((m) => m.moduleName === same.moduleName)!.productDtoList);
  });

  it('Import Module: a module changed since the file was exported offers Overwrite, and Apply overwrites it when checked', async () => {
    // The first test's import changed modules[0] since `exportedVersion`: a file exported before says so.
    const target = modules[0]!;
    const [current] = await details([target.moduleName]);
    expect(current!.version).toBeGreaterThan(exportedVersion);
    await openImportData();
    await send('module', 'marea-old-export.xlsx', await moduleWorkbook([current!], [target.moduleName], { [target.moduleName]: exportedVersion }));
    const line = (await table()).find((r) => r[0] === target.moduleName)!;
    expect(line[2]).toBe(UPLOAD_TEXTS.previewOutcomes.failed);
    expect(line[3]).toMatch(/^changed by admin on .* since this file was exported$/);
    const box = panel().getByRole('checkbox', { name: UPLOAD_TEXTS.previewOverwriteLabel(`${target.moduleName} (04/2027)`) });
    await box.focus();
    await page.keyboard.press('Space');
    expect(await box.isChecked()).toBe(true);
    await noAxeFindings();
    await shot('module-overwrite');
    const applied = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/apply'));
    await panel().getByTestId('import-preview-apply').click();
    const answer = await applied;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ overwrite: [`${target.moduleName}|${MONTH}`] });
    await panel().waitFor({ state: 'detached' });
    const upc = activeLines(current!)[0]!.upc;
    await expect
      .poll(async () => (await details([target.moduleName]))[0]!.productDtoList.find((p) => p.upc === upc)!.mustHave, { timeout: 30_000, interval: 250 })
      .toBe(!activeLines(current!)[0]!.mustHave);
  });

  it('Import Cluster: the preview lists the cluster change; Cancel drops it and writes nothing', async () => {
    const found = await apiCall<{ clusterId: string; status: string; locked: boolean }[]>(token, 'POST', '/cluster/filtered', { brand: [BRAND], monthId: [MONTH] });
    const candidates = found.filter((c) => c.status === 'WIP' && !c.locked).map((c) => ({ clusterId: c.clusterId, monthId: MONTH }));
    const all = await apiCall<{ clusterId: string; clusterDescription: string; modules: { moduleName: string; clusterCompositionStatus: string }[] }[]>(token, 'POST', '/cluster/clusterDetails', candidates);
    const cluster = all.find((c) => c.modules.some((m) => m.clusterCompositionStatus === 'ADDED'))!;
    expect(cluster).toBeDefined();
    const added = cluster.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName);
    const description = `Previewed ${Date.now() % 100000}`;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Clusters');
    sheet.addRow(['Cluster id', 'Month', 'Module name', 'Status', 'Description']);
    added.forEach((name, i) => sheet.addRow([cluster.clusterId, MONTH, name, 'ADDED', i === 0 ? description : null]));

    await openImportData();
    const upload = await send('cluster', 'marea-april-clusters.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    const text = await table();
    expect(text).toEqual([[cluster.clusterId, '04/2027', UPLOAD_TEXTS.previewOutcomes.saved, expect.stringContaining(description)]]);
    expect(await panel().getByRole('heading', { level: 3 }).textContent()).toBe(`${UPLOAD_TEXTS.previewTitle('Cluster')} · marea-april-clusters.xlsx`);
    await noAxeFindings();
    await shot('cluster-preview');

    // A reload shows the preview still waiting.
    await page.reload();
    await panel().getByTestId('import-preview-table').waitFor({ timeout: 15_000 });
    expect(await table()).toEqual(text);

    const cancelled = page.waitForResponse((r) => r.url().endsWith(`/api/upload/${upload.id}/cancel`));
    await panel().getByTestId('import-preview-cancel').click();
    expect((await cancelled).status()).toBe(200);
    await panel().waitFor({ state: 'detached' });
    const row = page.getByTestId(`upload-row-${upload.id}`);
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 10_000 }).toBe('CANCELLED');
    await expect.poll(() => page.getByTestId('import-cluster').getAttribute('aria-disabled'), { timeout: 10_000 }).toBe('false');
    await shot('cluster-cancelled');
    const [after] = await apiCall<{ clusterDescription: string }[]>(token, 'POST', '/cluster/clusterDetails', [{ clusterId: cluster.clusterId, monthId: MONTH }]);
    expect(after!.clusterDescription).toBe(cluster.clusterDescription);
  });
});
