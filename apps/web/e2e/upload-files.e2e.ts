/**
 * Upload Files (/uploadTwo; part 2 §2, §3, §5, §7, §8; docs/RELEASE-FILES.md) in real Chromium against the
 * real server: 'Upload Files' stays disabled until a release and all four files are chosen; four small CSV
 * files written here (header-only module and cluster files, one SKU of an existing brand, one store) and an
 * optional Reference Data file are first previewed (issue 33: what the load would do, nothing written), then
 * applied into the open release R2027 as delta: the row in the history, DONE; a cancelled preview loads
 * nothing; a registry row with an unknown brand is refused on the page and ends the upload in ERROR with the
 * loader's line in its response; a
 * closed release is refused with 'Request rejected with status 400 Msg: …' in the Error popup; a non-admin
 * is refused by the page and by the server. 'Download release' saves the release's five files: each has the
 * header docs/RELEASE-FILES.md documents, and the module and cluster files hold the release's modules and
 * clusters as the home search lists them. Screenshots in /tmp/shots-upload-two/ (1280 and 1024 px).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Download, Page, Request } from 'playwright-core';
import type { Release } from '@bo/shared/releases';
import type { ClusterListItem, ModuleListItem } from '@bo/shared/search';
import { FILE_LOADER_TEXTS, type UploadItem, type UploadState } from '@bo/shared/uploads';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { baseUrl } from './helpers/server';

const SHOTS = '/tmp/shots-upload-two';
const OPEN_RELEASE = 'R2027';
const CLOSED_RELEASE = 'R2026';
const FIELDS = ['module', 'cluster', 'registry', 'segment'] as const;
/** The four, and the optional Reference Data: the files of a release download, in the page's order. */
const ALL_FIELDS = [...FIELDS, 'reference'] as const;
type Field = (typeof ALL_FIELDS)[number];
type RequiredField = (typeof FIELDS)[number];

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
/** The header line of each file, as the server's CSV template writes it. */
const headers = {} as Record<Field, string[]>;

async function dataGet(path: string, bearer = token): Promise<Response> {
  return fetch(`${baseUrl()}/data${path}`, { headers: { authorization: `Bearer ${bearer}` } });
}

/** One CSV: the template's header, then the rows (values by column name; missing columns empty). */
function csv(field: Field, rows: Record<string, string>[]): Buffer {
  const lines = [headers[field].join(','), ...rows.map((row) => headers[field].map((h) => row[h] ?? '').join(','))];
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

const SKU = (brandCode: string) => ({
  upc: '990000015001',
  skuId: '99015001',
  model: 'AU9915',
  color: 'C01',
  colorDescription: 'Black',
  size: '52',
  materialCode: 'AU9915C01',
  skuCode: 'SC99015001',
  brandCode,
  collection: 'SUN',
  planningChannelId: 'RETAIL',
  srp: '129.90',
  whsprice: '60',
  releaseDate: '2027-01-01',
  insertDate: '2026-11-01',
  gender: 'Unisex',
  frameMaterial: 'Acetate',
  marketingTheme: 'Summer',
});

const STORE = {
  storeJda: 'E2E_UP2_S1',
  codiceStoreSap: 'E2E_UP2_SAP1',
  storeName: 'Upload Files test store',
  countryCode: 'IT',
  customerSegmentation: 'SILVER',
  segmentationLabel: 'Silver',
  planningChannelId: 'RETAIL',
  starsCustomer: 'E2E_UP2_C1',
  starsCustomerName: 'Ottica Upload',
  starsCustomerCountry: 'IT',
  starsCustomerPlanningChannel: 'RETAIL',
  distributionChannel: 'Optician',
};

function fileSet(brandCode: string): Record<RequiredField, Buffer> {
  return { module: csv('module', []), cluster: csv('cluster', []), registry: csv('registry', [SKU(brandCode)]), segment: csv('segment', [STORE]) };
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  token = await apiToken('admin');
  for (const field of FIELDS) {
    const res = await dataGet(`/fileLoader/template/${field}?format=csv`);
    expect(res.status, `template ${field}`).toBe(200);
    headers[field] = (await res.text()).replace(/^\uFEFF/, '').split(/\r?\n/)[0]!.split(',');
  }
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
  await screenshot(page, `upload-two-${name}`);
}

async function openUploadFiles(user = 'admin') {
  await loginAs(page, user);
  await page.goto('/backoffice/uploadTwo');
  await page.getByRole('heading', { name: 'Upload Files' }).waitFor();
}

/** Waits until the admin has no upload in progress (the loader's job ended); a preview left waiting by a failed test is cancelled. */
async function idle() {
  const state = await apiCall<UploadState>(token, 'GET', '/uploadStatus/getUploadStatus');
  if (state.upload?.status === 'PREVIEW') await apiCall(token, 'POST', `/upload/${state.upload.id}/cancel`);
  await expect.poll(async () => (await apiCall<UploadState>(token, 'GET', '/uploadStatus/getUploadStatus')).wip, { timeout: 60_000, interval: 500 }).toBe(false);
}

const submit = () => page.getByTestId('upload-files-submit');
const input = (field: Field) => page.getByTestId(`release-file-${field}-input`);

async function chooseRelease(releaseId: string) {
  await page.getByTestId('release-select').click();
  await page.getByRole('option', { name: new RegExp(`^${releaseId}`) }).click();
}

async function fill(releaseId: string, files: Record<RequiredField, Buffer>, check = false) {
  await chooseRelease(releaseId);
  await page.getByRole('radio', { name: 'delta' }).check();
  for (const field of FIELDS) {
    if (check) expect(await submit().isDisabled(), `before ${field}`).toBe(true);
    await input(field).setInputFiles({ name: `${field}.csv`, mimeType: 'text/csv', buffer: files[field] });
    await page.getByTestId(`release-file-${field}-name`).waitFor();
  }
}

/**
 * The columns docs/RELEASE-FILES.md documents for each file: the first cell of each row of the table under
 * '### … (field `module`)'. Read from the page itself, so the download is checked against what users read.
 */
function documentedColumns(): Record<Field, string[]> {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/RELEASE-FILES.md', import.meta.url)), 'utf8');
  const out = {} as Record<Field, string[]>;
  for (const section of doc.split(/^### /m).slice(1)) {
    const field = /^[^\n]*\(field `(\w+)`/.exec(section)?.[1] as Field | undefined;
    if (field && ALL_FIELDS.includes(field)) out[field] = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
  }
  return out;
}

/** A CSV as the export writes it (',' separated, '"' quoted with '""' inside, CRLF): rows of cells, the header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === '\n') {
      row.push(cell);
      cell = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

/** A downloaded CSV as its header and its rows keyed by column. */
async function readCsv(download: Download): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const [header = [], ...rows] = parseCsv((await readFile(await download.path())).toString('utf8').replace(/^\uFEFF/, ''));
  return { header, rows: rows.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']))) };
}

const importCalls = (requests: Request[]) => requests.filter((r) => r.method() === 'POST' && r.url().includes('/data/fileLoader/import'));

describe('Upload Files', () => {
  it('is refused to a non-admin, by the page and by the server', async () => {
    await loginAs(page, 'viewer');
    await page.goto('/backoffice/uploadTwo');
    await page.getByTestId('admin-only').waitFor();
    expect(await page.getByTestId('upload-files-form').count()).toBe(0);
    await shot('non-admin');
    const viewer = await apiToken('viewer');
    const form = new FormData();
    form.append('releaseId', OPEN_RELEASE);
    form.append('type', 'delta');
    for (const field of FIELDS) form.append(field, new Blob([csv(field, []).toString()]), `${field}.csv`);
    const res = await fetch(`${baseUrl()}/data/fileLoader/import`, { method: 'POST', headers: { authorization: `Bearer ${viewer}` }, body: form });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { status: number }).status).toBe(403);
  });

  it('waits for a release and all four files, previews the load (nothing written), then Apply loads them: the row in the history, DONE', async () => {
    await idle();
    await openUploadFiles();
    await expect.poll(() => page.getByTestId('upload-files-missing').textContent()).toBe('Choose a release, Module Composition, Cluster Composition, Sku Registry, Customer Segmentation.');
    expect(await submit().isDisabled()).toBe(true);
    await shot('empty-1280');
    await fill(OPEN_RELEASE, fileSet('AUR'), true);
    await expect.poll(() => submit().isDisabled()).toBe(false);
    await shot('ready-1280');

    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/data/fileLoader/import'));
    await submit().click();
    const res = await answer;
    expect(res.status()).toBe(200);
    const { upload } = (await res.json()) as { upload: UploadItem };
    expect(upload.type).toBe('FILE_LOADER');
    // The preview: what the load would do, nothing written yet; the form is locked meanwhile.
    const preview = page.getByTestId('upload-files-preview');
    await preview.waitFor({ timeout: 60_000 });
    const lines = page.getByTestId('upload-files-preview-lines');
    expect(await lines.textContent()).toContain('Sku Registry: 1 row(s)');
    expect(await lines.textContent()).toContain('SKUs: 1 (1 new, 0 updated)');
    expect(await page.getByTestId('release-select').isDisabled()).toBe(true);
    expect((await apiCall<UploadItem[]>(token, 'GET', '/uploadStatus/')).find((u) => u.id === upload.id)?.status).toBe('PREVIEW');
    await shot('preview-1280');
    await page.getByTestId('upload-files-apply').click();
    await page.getByText('The files are being loaded').first().waitFor();
    const row = page.getByTestId(`upload-row-${upload.id}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Release files');
    expect(await preview.count()).toBe(0);
    // The form is cleared.
    expect(await page.getByTestId('release-select').inputValue()).toBe('');
    for (const field of FIELDS) await page.getByTestId(`release-file-${field}-choose`).waitFor();
    expect(await submit().isDisabled()).toBe(true);
    await shot('uploaded-1280');
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 60_000, interval: 250 }).toBe('DONE');
    await shot('done-1280');
  });

  it('takes the optional Reference Data file (picker and template) and Cancel on the preview loads nothing', async () => {
    await idle();
    await openUploadFiles();
    await page.getByTestId('release-file-reference').getByText('optional').waitFor();
    const template = page.waitForEvent('download');
    await page.getByTestId('release-file-reference-template-csv').click();
    expect((await template).suggestedFilename()).toBe('reference-template.csv');
    await fill(OPEN_RELEASE, fileSet('E2EREF'));
    // Without the Reference Data file the brand is unknown; with it, the preview creates it.
    await input('reference').setInputFiles({ name: 'reference.csv', mimeType: 'text/csv', buffer: Buffer.from('kind,code,label,parent\r\nBRAND,E2EREF,Brand of the browser test,\r\n') });
    await page.getByTestId('release-file-reference-name').waitFor();
    await submit().click();
    const lines = page.getByTestId('upload-files-preview-lines');
    await lines.waitFor({ timeout: 60_000 });
    expect(await lines.textContent()).toContain('Reference Data: 1 row(s)');
    expect(await lines.textContent()).toContain('BRAND 1 new, 0 updated');
    await page.getByTestId('upload-files-cancel').click();
    await page.getByText('Cancelled: nothing was loaded.').first().waitFor();
    expect(await page.getByTestId('upload-files-preview').count()).toBe(0);
    // Nothing was loaded: the brand does not exist, and the files can be sent again.
    const brands = await apiCall<{ brandCode: string }[]>(token, 'GET', '/brand/all');
    expect(brands.map((b) => b.brandCode)).not.toContain('E2EREF');
    await idle();
    await expect.poll(() => submit().isDisabled()).toBe(false);
  });

  it('refuses files whose registry names an unknown brand: the refusal on the page, the upload in ERROR with the loader line', async () => {
    await idle();
    await openUploadFiles();
    await fill(OPEN_RELEASE, fileSet('NOPE'));
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/data/fileLoader/import'));
    await submit().click();
    const res = await answer;
    expect(res.status()).toBe(200);
    const { upload } = (await res.json()) as { upload: UploadItem };
    const refused = page.getByTestId('upload-files-refused');
    await refused.waitFor({ timeout: 60_000 });
    expect(await refused.textContent()).toContain("registry.csv, row 2, brandCode: 'NOPE' is not a known brand");
    await shot('preview-refused');
    await refused.getByRole('button', { name: 'Close', exact: true }).click();
    const row = page.getByTestId(`upload-row-${upload.id}`);
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 60_000, interval: 250 }).toBe('ERROR');
    await row.getByTestId('upload-show-response').click();
    const popup = page.getByTestId('upload-response-popup');
    await popup.waitFor();
    expect(await popup.textContent()).toContain("registry.csv, row 2, brandCode: 'NOPE' is not a known brand");
    await shot('unknown-brand-response');
  });

  it("shows a refused request as 'Request rejected with status … Msg: …' in the Error popup (closed release)", async () => {
    await idle();
    await openUploadFiles();
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await fill(CLOSED_RELEASE, fileSet('AUR'));
    await page.getByTestId('release-closed-notice').waitFor();
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/data/fileLoader/import'));
    await submit().click();
    expect((await answer).status()).toBe(400);
    const popup = page.getByTestId('message-popup');
    await popup.waitFor();
    expect(await popup.textContent()).toContain(FILE_LOADER_TEXTS.rejected(400, FILE_LOADER_TEXTS.releaseClosed(CLOSED_RELEASE)));
    await shot('closed-release-error');
    await popup.getByRole('button', { name: 'Ok' }).click();
    // The choice stays: another release can be picked and the files sent again.
    expect(await page.getByTestId('release-file-registry-name').textContent()).toBe('registry.csv');
    expect(importCalls(requests)).toHaveLength(1);
  });

  it('downloads a template and links Import Data and Upload Files; looks right at 1024 px', async () => {
    await idle();
    await page.setViewportSize({ width: 1024, height: 800 });
    await openUploadFiles();
    const download = page.waitForEvent('download');
    await page.getByTestId('release-file-registry-template-csv').click();
    expect((await download).suggestedFilename()).toMatch(/registry.*\.csv$/);
    await fill(OPEN_RELEASE, fileSet('AUR'));
    await shot('ready-1024');
    await page.getByTestId('link-import-data').click();
    await page.getByRole('heading', { name: 'Import Data' }).waitFor();
    await page.getByTestId('link-upload-files').click();
    await page.getByRole('heading', { name: 'Upload Files' }).waitFor();
    await shot('empty-1024');
  });
  it("saves the chosen release's five files with 'Download release': the documented headers, the release's modules and clusters", async () => {
    await idle();
    await openUploadFiles();
    const release = page.getByTestId('download-release');
    expect(await release.isDisabled(), 'before a release is chosen').toBe(true);
    await chooseRelease(OPEN_RELEASE);
    await expect.poll(() => release.isDisabled()).toBe(false);
    const downloads: Download[] = [];
    page.on('download', (d) => downloads.push(d));
    await release.click();
    await expect.poll(() => downloads.length, { timeout: 30_000 }).toBe(ALL_FIELDS.length);
    await expect.poll(() => release.getAttribute('data-loading')).toBeNull();
    await shot('download-release');
    expect(downloads.map((d) => d.suggestedFilename())).toEqual(ALL_FIELDS.map((field) => `${OPEN_RELEASE}-${field}.csv`));

    const files = {} as Record<Field, Awaited<ReturnType<typeof readCsv>>>;
    for (const [i, field] of ALL_FIELDS.entries()) files[field] = await readCsv(downloads[i]!);
    const documented = documentedColumns();
    for (const field of ALL_FIELDS) {
      expect(documented[field]?.length, `documented columns of ${field}`).toBeGreaterThan(3);
      expect(files[field].header, `header of ${field}`).toEqual(documented[field]);
      expect(files[field].rows.length, `rows of ${field}`).toBeGreaterThan(0);
    }

    // Only the release's months, and all of the month the search lists: every module with its MH and EL counts, every cluster.
    const months = (await apiCall<Release[]>(token, 'GET', '/release/all')).find((r) => r.releaseId === OPEN_RELEASE)!.months.map((m) => m.monthId);
    for (const field of ['module', 'cluster'] as const) expect(files[field].rows.filter((r) => !months.includes(r.monthId!)), `${field} rows of other months`).toEqual([]);
    const month = months[0]!;
    const modules = await apiCall<ModuleListItem[]>(token, 'POST', '/module/filtered', { monthId: [month] });
    expect(modules.length, `modules of ${month}`).toBeGreaterThan(0);
    const lines = files.module.rows.filter((r) => r.monthId === month);
    expect(new Set(lines.map((r) => r.moduleName))).toEqual(new Set(modules.map((m) => m.moduleName)));
    for (const module of modules) {
      const active = lines.filter((r) => r.moduleName === module.moduleName && r.upc !== '' && r.status !== 'REMOVED');
      expect({ mh: active.filter((r) => r.mustHave === 'MH').length, el: active.filter((r) => r.mustHave === 'EL').length }, module.moduleName).toEqual({
        mh: module.length,
        el: module.elLength,
      });
    }
    const clusters = await apiCall<ClusterListItem[]>(token, 'POST', '/cluster/filtered', { monthId: [month] });
    expect(clusters.length, `clusters of ${month}`).toBeGreaterThan(0);
    const clusterRows = files.cluster.rows.filter((r) => r.monthId === month && r.kind === 'CLUSTER');
    expect(clusterRows.map((r) => r.clusterId).sort()).toEqual(clusters.map((c) => c.clusterId).sort());

    // The module lines name SKUs of the registry; the stores are listed once each.
    const registry = new Set(files.registry.rows.map((r) => r.upc));
    expect(files.module.rows.filter((r) => r.upc !== '' && !registry.has(r.upc)).map((r) => r.upc)).toEqual([]);
    const stores = files.segment.rows.map((r) => r.storeJda);
    expect(new Set(stores).size).toBe(stores.length);
  });
});
