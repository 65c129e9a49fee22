/**
 * Uploaded file names are text, never markup (security hardening): workbooks named like an HTML tag, with quotes
 * and an ampersand, and with a right-to-left override, uploaded through Import Data (/upload), and four release
 * files named the same way through Upload Files (/uploadTwo), show as exactly those characters in the upload
 * history, the response popup's title and /history; no element comes from a name, no script runs (no dialog), and
 * the override stays inside the name (the name is isolated from the text around it, so it cannot reorder the date
 * beside it). Browsers send '"' in a multipart file name as %22 (the HTML standard's escaping): the server reads it
 * back as '"'.
 *
 * Touches no demo item: the workbook names a module that does not exist (the import changes nothing) and the
 * release files hold only their headers (the load adds nothing).
 */
import { mkdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { UploadItem, UploadState } from '@bo/shared/uploads';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { baseUrl } from './helpers/server';

const SHOTS = '/tmp/shots-upload-names';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const RLO = '\u202E';
const NAMES = {
  tag: '<img src=x onerror=alert(1)>.xlsx',
  // No '/': a file name cannot hold one (the server keeps what follows the last, as a path's base name).
  quotes: `Tom's "best" & <b>co.xlsx`,
  override: `invoice${RLO}gnp.xlsx`,
};
const RELEASE_NAMES = {
  module: '<img src=x onerror=alert(1)>.csv',
  cluster: `Tom's "best" & co.csv`,
  registry: `registry${RLO}vsc.csv`,
  segment: 'segment.csv',
};
const FIELDS = ['module', 'cluster', 'registry', 'segment'] as const;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let workbook: Buffer;
/** Every dialog (alert, confirm …) the page opened: a name that ran as script would open one. */
let dialogs: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  token = await apiToken('admin');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Modules');
  sheet.addRow(['Module name', 'Month', 'UPC', 'MH/EL', 'Min value']);
  sheet.addRow(['E2E_NAMES_NO_SUCH_MODULE', 'M05_2027', '8050000000017', 'MH', 1]);
  workbook = Buffer.from(await book.xlsx.writeBuffer());
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
  await page.setViewportSize({ width: 1280, height: 900 });
  dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});
afterEach(async () => {
  await context?.close();
});

async function shot(name: string) {
  await page.waitForTimeout(350); // Mantine's transitions
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await screenshot(page, `upload-names-${name}`);
}

/** No element came from a name, and nothing ran. */
async function noMarkupFromNames() {
  expect(await page.evaluate(() => document.querySelector('img[src="x"]'))).toBeNull();
  expect(await page.evaluate(() => document.querySelectorAll('[onerror]').length)).toBe(0);
  expect(await page.evaluate(() => [...document.querySelectorAll('b')].filter((b) => b.textContent?.startsWith('co')).length)).toBe(0);
  expect(dialogs).toEqual([]);
}

/** The name is an element of its own whose direction is isolated from the text around it (`<bdi>`). */
async function isolated(scope: Locator, name: string) {
  const element = scope.getByText(name, { exact: true }).first();
  await element.waitFor();
  expect(await element.evaluate((el) => getComputedStyle(el).unicodeBidi)).toBe('isolate');
}

/** Waits until the admin has no upload in progress. */
async function idle() {
  await expect.poll(async () => (await apiCall<UploadState>(token, 'GET', '/uploadStatus/getUploadStatus')).wip, { timeout: 60_000, interval: 500 }).toBe(false);
}

/** The upload ended (DONE or ERROR: the workbook names no real module, so either says so in its response). */
async function ended(id: number) {
  const row = page.getByTestId(`upload-row-${id}`);
  await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 30_000, interval: 250 }).not.toBe('WIP');
  return row;
}

describe('uploaded file names are shown as text', () => {
  it('Import Data: in the upload history, the response popup and /history', async () => {
    await idle();
    await loginAs(page, 'admin');
    await page.goto('/backoffice/upload');
    await page.getByRole('heading', { name: 'Import Data' }).waitFor();
    const ids: Record<keyof typeof NAMES, number> = { tag: 0, quotes: 0, override: 0 };
    for (const key of Object.keys(NAMES) as (keyof typeof NAMES)[]) {
      const name = NAMES[key];
      await expect.poll(() => page.getByTestId('import-module').getAttribute('aria-disabled'), { timeout: 30_000 }).toBe('false');
      await page.getByTestId('import-module').locator('input[type=file]').setInputFiles({ name, mimeType: XLSX_MIME, buffer: workbook });
      // The chosen file, before it is sent.
      expect(await page.getByTestId('import-module-file-name').textContent()).toBe(name);
      const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/upload/module'));
      await page.getByTestId('import-module-upload').click();
      const response = await answer;
      expect(response.status()).toBe(200);
      const { upload } = (await response.json()) as { upload: UploadItem };
      // Stored as the file is named (the browser sent '"' as %22).
      expect(upload.fileName).toBe(name);
      ids[key] = upload.id;
      // The preview first (docs/IMPORT-PREVIEW.md): apply it.
      await page.getByTestId('import-preview-apply').click();
      const row = await ended(upload.id);
      expect(await row.getByText(name, { exact: true }).count()).toBe(1);
      await noMarkupFromNames();
    }
    await shot('import-data');

    // The response popup's title: 'Module · <name> · <date>', the name isolated from the date beside it.
    for (const key of ['tag', 'override'] as const) {
      await page.getByTestId(`upload-row-${ids[key]}`).getByTestId('upload-show-response').click();
      const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('upload-response-popup') });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(NAMES[key]);
      await isolated(page.getByRole('dialog'), NAMES[key]);
      await noMarkupFromNames();
      await shot(`response-${key}`);
      await dialog.getByRole('button', { name: 'Ok' }).click();
      await dialog.waitFor({ state: 'detached' });
    }

    await page.goto('/backoffice/history');
    await page.getByRole('heading', { name: 'Upload and Export History' }).waitFor();
    for (const key of Object.keys(NAMES) as (keyof typeof NAMES)[]) {
      const row = page.getByTestId(`upload-row-${ids[key]}`);
      await row.waitFor();
      expect(await row.getByText(NAMES[key], { exact: true }).count()).toBe(1);
    }
    await noMarkupFromNames();
    await shot('history');
  });

  it('Upload Files: the chosen files, the upload history and the response popup', async () => {
    await idle();
    const headers = {} as Record<(typeof FIELDS)[number], string>;
    for (const field of FIELDS) {
      const res = await fetch(`${baseUrl()}/data/fileLoader/template/${field}?format=csv`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      headers[field] = (await res.text()).replace(/^\uFEFF/, '').split(/\r?\n/)[0]!;
    }
    await loginAs(page, 'admin');
    await page.goto('/backoffice/uploadTwo');
    await page.getByRole('heading', { name: 'Upload Files' }).waitFor();
    await page.getByTestId('release-select').click();
    await page.getByRole('option', { name: /^R2027/ }).click();
    await page.getByRole('radio', { name: 'delta' }).check();
    for (const field of FIELDS) {
      await page.getByTestId(`release-file-${field}-input`).setInputFiles({ name: RELEASE_NAMES[field], mimeType: 'text/csv', buffer: Buffer.from(`${headers[field]}\r\n`) });
      expect(await page.getByTestId(`release-file-${field}-name`).textContent()).toContain(RELEASE_NAMES[field]);
    }
    await noMarkupFromNames();
    await shot('upload-files-chosen');

    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/data/fileLoader/import'));
    await expect.poll(() => page.getByTestId('upload-files-submit').isDisabled()).toBe(false);
    await page.getByTestId('upload-files-submit').click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const { upload } = (await response.json()) as { upload: UploadItem };
    // The server isolates the name holding the override (FSI … PDI), so it cannot reverse the names after it.
    const joined = FIELDS.map((f) => (f === 'registry' ? `\u2068${RELEASE_NAMES[f]}\u2069` : RELEASE_NAMES[f])).join(', ');
    expect(upload.fileName).toBe(joined);
    const row = page.getByTestId(`upload-row-${upload.id}`);
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 60_000, interval: 250 }).not.toBe('WIP');
    expect(await row.getByText(joined, { exact: true }).count()).toBe(1);
    await noMarkupFromNames();
    await shot('upload-files-history');

    await row.getByTestId('upload-show-response').click();
    const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('upload-response-popup') });
    await dialog.waitFor();
    await isolated(page.getByRole('dialog'), joined);
    await noMarkupFromNames();
    await shot('upload-files-response');
  });
});
