/**
 * Massive Edit tells the truth and is polished (issue 34 items 2 and 7), in real Chromium at 1440 px:
 * - Save & Publish All of a cluster whose modules are in WIP: the confirmation says, before CONFIRM, that the
 *   row will be saved but NOT published (modules in WIP); the Result says "Saved 1 · Published 0 · Not
 *   published 1 (modules in WIP)" and nothing in it is green;
 * - a pasted header row is not a data row, in the Module, Cluster and Classification tables and in Massive
 *   Edit Selected; a column pasted with its title keeps the values only;
 * - the classification preview: one line per row, counters of rows;
 * - Save All is disabled, saying why, once the preview said every row fails;
 * - Massive Edit Selected opens without red rows (red once a row is left, or a save button pressed);
 * - a Home link in the header.
 *
 * Uses Nordika (NRD) clusters in an open month other than M06_2027 (massive-edit.e2e.ts's) and Marea (MRA)
 * module names only for rows that are previewed or refused (nothing of them is written).
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { expectNoAxeFindings } from './helpers/axe';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const BRAND = 'NRD';
const AVOID_MONTH = 'M06_2027';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

const call = <T = unknown>(method: string, path: string, body?: unknown) => apiCall<T>(token, method, path, body);
const monthLabel = (monthId: string) => `${monthId.slice(1, 3)}/${monthId.slice(4)}`;

interface ClusterItem {
  clusterId: string;
  monthId: string;
  status: string;
  locked?: boolean;
}
interface ClusterDetails extends ClusterItem {
  modules: { moduleName: string; status: string; clusterCompositionStatus: string }[];
}

/** A WIP NRD cluster, not locked, whose only publish blocker is modules in WIP (outside massive-edit.e2e.ts's month). */
async function findClusterWithWipModules(): Promise<{ clusterId: string; monthId: string }> {
  const months = (await call<{ monthId: string; open: boolean }[]>('GET', '/month/all')).filter((m) => m.open && m.monthId !== AVOID_MONTH).map((m) => m.monthId);
  for (const monthId of months.reverse()) {
    const clusters = (await call<ClusterItem[]>('POST', '/cluster/filtered', { monthId: [monthId], brand: [BRAND] })).filter((c) => c.status === 'WIP' && !c.locked);
    if (clusters.length === 0) continue;
    const details = await call<ClusterDetails[]>('POST', '/cluster/clusterDetails', clusters.slice(0, 50).map((c) => ({ clusterId: c.clusterId, monthId })));
    for (const c of details) {
      if (!c.modules.some((m) => m.clusterCompositionStatus === 'ADDED' && m.status === 'WIP')) continue;
      const key = [{ clusterId: c.clusterId, monthId }];
      await call('POST', '/cluster/lock', key);
      try {
        const check = await call<{ blocking: { reasons: { code: string }[] }[] }>('POST', '/cluster/checkForPublish', key);
        if (check.blocking.length > 0 && check.blocking.every((b) => b.reasons.every((r) => r.code === 'moduleInWip'))) return { clusterId: c.clusterId, monthId };
      } finally {
        await call('POST', '/cluster/unlock', key);
      }
    }
  }
  throw new Error('the demo data has no NRD cluster blocked by WIP modules');
}

beforeAll(async () => {
  browser = await launchBrowser();
  token = await apiToken('admin');
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
  await page.setViewportSize({ width: 1440, height: 900 });
});
afterEach(async () => {
  await context?.close();
});

async function shot(name: string) {
  await page.waitForTimeout(350); // Mantine's transitions
  await screenshot(page, `massive-edit-truth-${name}`);
}

const row = (n: number) => page.locator(`[data-testid="massive-edit-row"][data-row="${n}"]`);
const cell = (n: number, key: string) => row(n).getByTestId(`cell-${key}`);
const rows = () => page.getByTestId('massive-edit-row');

/** A real paste event carrying the text as the clipboard's text/plain, on the focused cell. */
async function pasteInto(target: Locator, text: string) {
  await target.click();
  await target.evaluate((el, data) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', data);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, text);
}

async function openMassiveEdit() {
  await loginAs(page, 'admin');
  await page.goto('/backoffice/massive-edit-wi');
  await page.getByRole('heading', { name: 'Massive Edit' }).first().waitFor();
}

/** Switches the table's type, confirming the warning when rows would be lost. */
async function switchTo(type: 'Module' | 'Cluster' | 'Classification') {
  await page.getByRole('radio', { name: type }).click();
  const warning = page.getByRole('dialog').filter({ hasText: 'Attention!' });
  const table = page.locator(`[data-testid="massive-edit-table"][data-type="${type.toLowerCase()}"]`);
  // The warning opens with a transition when rows would be lost: wait for it or for the new table, whichever comes.
  await warning.or(table).first().waitFor();
  if (await warning.isVisible()) {
    await warning.getByRole('button', { name: 'CONFIRM' }).click();
    await warning.waitFor({ state: 'detached' });
  }
  await table.waitFor();
}

const expectNoAxeViolations = (where: string) => expectNoAxeFindings(page, where);

describe('Massive Edit: Save & Publish All says what will not publish, and the Result counts it (issue 34 item 2)', () => {
  it('a cluster whose modules are in WIP: the confirmation warns before CONFIRM; the Result says Saved 1 · Published 0 · Not published 1', async () => {
    const target = await findClusterWithWipModules();
    await openMassiveEdit();
    await switchTo('Cluster');
    await cell(1, 'clusterLabels').fill(target.clusterId);
    await cell(1, 'clusterDescription').fill(`E2E truth ${Date.now() % 100000}`);
    await cell(1, 'months').click();
    await page.getByRole('option', { name: monthLabel(target.monthId), exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('save-publish-all').click();

    const confirm = page.getByRole('dialog').filter({ hasText: /the changes of 1 row\?/ });
    await confirm.waitFor();
    const warning = confirm.getByTestId('massive-edit-not-published');
    await warning.waitFor({ timeout: 20_000 });
    expect(await warning.innerText()).toContain('Saved but NOT published');
    expect(await confirm.getByTestId('massive-edit-not-published-line').allInnerTexts()).toEqual([`Row 1: ${target.clusterId} (${monthLabel(target.monthId)}): modules in WIP`]);
    expect(await confirm.getByTestId('massive-edit-publish-counts').innerText()).toBe('Would save 1 · Would publish 0 · Would not publish 1 (modules in WIP) · Would fail 0');
    await shot('publish-confirmation');
    await expectNoAxeViolations('the Save & Publish confirmation');
    await confirm.getByRole('button', { name: 'CONFIRM' }).click();

    const result = page.getByTestId('massive-edit-result').locator('.mantine-Modal-content');
    await result.waitFor({ timeout: 45_000 });
    expect(await page.getByTestId('massive-edit-result-summary').innerText()).toBe('Saved 1 · Published 0 · Not published 1 (modules in WIP) · Failed 0');
    // Nothing green when nothing was published.
    const colors = await page.getByTestId('massive-edit-result-counts').locator('[data-color]').evaluateAll((els) => els.map((e) => e.getAttribute('data-color')));
    expect(colors).not.toContain('teal');
    expect(await page.getByTestId('massive-edit-count-notPublished').innerText()).toMatch(/1 row not published/i);
    expect(await page.getByTestId('massive-edit-result-lines').innerText()).toContain('not published');
    await shot('publish-result');
    await expectNoAxeViolations('the Result popup');
    await page.getByTestId('massive-edit-result-close').click();
  });
});

describe('Massive Edit polish (issue 34 item 7)', () => {
  it('a pasted header row is not a data row in the Module, Cluster and Classification tables; a column keeps its values only', async () => {
    await openMassiveEdit();
    await pasteInto(cell(1, 'moduleLabels'), 'MODULE\tDESCRIPTION\tADD\tREMOVE\tSTATUS\tMONTH\tMIN VALUE\tMIN VALUE\r\nE2E_MOD_X\tA text\r\n');
    await row(1).waitFor();
    expect(await rows().count()).toBe(1);
    expect(await cell(1, 'moduleLabels').inputValue()).toBe('E2E_MOD_X');
    expect(await cell(1, 'moduleDescription').inputValue()).toBe('A text');
    await shot('paste-module');

    await switchTo('Cluster');
    await pasteInto(cell(1, 'clusterLabels'), 'Cluster\tDescription\tAdd module\tRemove module\tAdd LIA\tRemove LIA\tMonths\r\nE2E_CL_X\tText\r\nE2E_CL_Y\tOther\r\n');
    await row(2).waitFor();
    expect(await rows().count()).toBe(2);
    expect([await cell(1, 'clusterLabels').inputValue(), await cell(2, 'clusterLabels').inputValue()]).toEqual(['E2E_CL_X', 'E2E_CL_Y']);
    // One column copied with its title into a list cell: the values only.
    await pasteInto(cell(1, 'liasToAdd'), 'ADD LIA\r\nLIA01\r\nLIA02\r\n');
    expect(await cell(1, 'liasToAdd').inputValue()).toBe('LIA01\nLIA02');

    await switchTo('Classification');
    await pasteInto(cell(1, 'clusterLabels'), 'CLUSTER\tADD CLIENT CLASSIFICATION\tREMOVE CLIENT CLASS.\r\nE2E_CL_X\tA1\r\n');
    expect(await rows().count()).toBe(1);
    expect(await cell(1, 'clusterLabels').inputValue()).toBe('E2E_CL_X');
    expect(await cell(1, 'classificationsToAdd').inputValue()).toBe('A1');
    await shot('paste-classification');
  });

  it('the classification preview shows one line per row and counts rows, not cluster-months', async () => {
    const target = await findClusterWithWipModules();
    const [details] = await call<(ClusterDetails & { classifications: { classificationLabel: string }[] })[]>('POST', '/cluster/clusterDetails', [target]);
    const classes = await call<{ classificationLabel: string }[]>('GET', '/classification/all');
    const has = new Set(details!.classifications.map((c) => c.classificationLabel));
    const label = classes.find((c) => !has.has(c.classificationLabel))!.classificationLabel;

    await openMassiveEdit();
    await switchTo('Classification');
    await cell(1, 'clusterLabels').fill(target.clusterId);
    await cell(1, 'classificationsToAdd').fill(label);
    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('massive-edit-preview').locator('.mantine-Modal-content');
    await preview.waitFor();
    expect(await preview.getByTestId('massive-edit-preview-row').count()).toBe(1);
    const line = await preview.getByTestId('massive-edit-preview-row').innerText();
    // One line: the cluster and its months counted, the change once (not one block per cluster-month).
    expect(line).toMatch(/^Would change\s+Row 1: .+ in (\d+ months|\d\d\/\d{4})/i);
    expect(line.split(`Added client classification ${label}`).length - 1).toBe(1);
    expect(await page.getByTestId('massive-edit-preview-counts').innerText()).toMatch(/^1 row would save/i);
    await shot('classification-preview');
    await preview.getByRole('button', { name: 'Close', exact: true }).click();
  });

  it('Save All is disabled, saying why, once the preview said every row fails; an edit enables it again', async () => {
    await openMassiveEdit();
    await cell(1, 'moduleLabels').fill('E2E_NO_SUCH_MODULE');
    await cell(1, 'moduleDescription').fill('Never saved');
    const saveAll = page.getByTestId('save-all');
    expect(await saveAll.getAttribute('aria-disabled')).toBeNull();
    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('massive-edit-preview').locator('.mantine-Modal-content');
    await preview.waitFor();
    expect(await page.getByTestId('massive-edit-preview-counts').innerText()).toMatch(/1 row would fail/i);
    expect(await preview.getByTestId('massive-edit-preview-save').getAttribute('aria-disabled')).toBe('true');
    await preview.getByRole('button', { name: 'Close', exact: true }).click();
    await preview.waitFor({ state: 'hidden' });
    expect(await saveAll.getAttribute('aria-disabled')).toBe('true');
    const reason = 'Every row would fail (the preview says why): change the rows first';
    expect(await saveAll.getAttribute('data-disabled-reason')).toBe(reason);
    expect(await page.getByTestId('save-publish-all').getAttribute('aria-disabled')).toBe('true');
    await saveAll.hover();
    await page.getByRole('tooltip').filter({ hasText: reason }).waitFor();
    await shot('save-all-disabled');
    // A click does nothing (no confirmation).
    await saveAll.click({ force: true });
    expect(await page.getByRole('dialog').count()).toBe(0);
    await cell(1, 'moduleLabels').fill('E2E_OTHER_MODULE');
    expect(await saveAll.getAttribute('aria-disabled')).toBeNull();
  });

  it('Massive Edit Selected opens without red rows; leaving a row or pressing Save shows its error; a header paste is skipped; Home goes home', async () => {
    const found = await call<{ moduleName: string; monthId: string; moduleLabel: string; moduleDescription: string | null; status: string }[]>('POST', '/module/filtered', {
      brand: ['MRA'],
      monthId: [AVOID_MONTH],
    });
    const picked = found.slice(0, 2).map((m) => ({ moduleName: m.moduleName, monthId: m.monthId, moduleLabel: m.moduleLabel, moduleDescription: m.moduleDescription ?? '' }));
    expect(picked).toHaveLength(2);
    await loginAs(page, 'admin');
    await page.evaluate((selection) => sessionStorage.setItem('bo.home.massiveEditSelection', JSON.stringify(selection)), { monthId: AVOID_MONTH, modules: picked });
    await page.goto('/backoffice/massive-edit-selected-wi');
    await row(2).waitFor();
    // Nothing red before any typing.
    expect(await page.locator('[data-testid="massive-edit-row"][data-invalid]').count()).toBe(0);
    expect(await page.getByTestId('row-errors').count()).toBe(0);
    expect(await page.getByTestId('invalid-count').count()).toBe(0);
    const saveAll = page.getByTestId('save-all');
    expect(await saveAll.getAttribute('data-disabled-reason')).toBe('Fill in what to change in the rows first: as they are, every row would be refused');
    await shot('selected-open');

    // Leaving row 1 (Tab from its last field to row 2) shows row 1's error only.
    await cell(1, 'moduleDescription').focus();
    await cell(2, 'moduleDescription').focus();
    await row(1).getByTestId('row-errors').waitFor();
    expect(await row(2).getByTestId('row-errors').count()).toBe(0);
    // Pressing Save All shows every row's error.
    await saveAll.click({ force: true });
    await row(2).getByTestId('row-errors').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await shot('selected-after-save');

    // A pasted header in the Selected table is skipped too.
    await pasteInto(cell(1, 'moduleDescription'), 'DESCRIPTION\tADD\r\nNew text\t\r\n');
    expect(await rows().count()).toBe(2);
    expect(await cell(1, 'moduleDescription').inputValue()).toBe('New text');

    await page.getByTestId('massive-edit-home').click();
    await page.waitForURL((url) => !url.pathname.includes('massive-edit'));
    await page.getByTestId('search-button').waitFor();
  });
});

describe('Copy with publish counts what it published (issue 34 item 2)', () => {
  it('a module the planning system would refuse: the popup says Copied 1 · Published 0 · Not published 1, not "Unable to copy"', async () => {
    // The demo's publish showcase: a WIP module of AUR, SLN or VLT whose only blocker is a SKU disabled in SAP
    // (publish-truth.e2e.ts reads the first open month's; this copies the last month's one month back).
    const months = (await call<{ monthId: string; open: boolean }[]>('GET', '/month/all')).filter((m) => m.open).map((m) => m.monthId);
    let source: { moduleName: string; monthId: string } | null = null;
    for (const monthId of [...months].reverse().slice(0, months.length - 2)) {
      const wip = (await call<{ moduleName: string; status: string; locked?: boolean }[]>('POST', '/module/filtered', { monthId: [monthId], brand: ['AUR', 'SLN', 'VLT'] })).filter(
        (m) => m.status === 'WIP' && !m.locked,
      );
      if (wip.length === 0) continue;
      const { blocking } = await call<{ blocking: { moduleName: string; reasons: { code: string }[] }[] }>(
        'POST',
        '/module/checkForPublish',
        wip.slice(0, 300).map((m) => ({ moduleName: m.moduleName, monthId })),
      );
      const hit = blocking.find((b) => b.reasons.length > 0 && b.reasons.every((r) => r.code === 'skuSapDisabled'));
      if (hit) {
        source = { moduleName: hit.moduleName, monthId };
        break;
      }
    }
    expect(source, 'a showcase module with a SAP-disabled SKU').toBeTruthy();
    const { moduleName, monthId } = source!;
    const destination = months[months.indexOf(monthId) - 1]!;

    await loginAs(page, 'admin');
    await page.goto(`/backoffice/module?moduleName=${moduleName}&monthId=${monthId}`);
    const card = page.locator(`[data-testid="module-card"][data-module="${moduleName}"]`);
    await card.waitFor();
    await card.getByRole('button', { name: 'Copy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(monthLabel(destination)).check();
    await dialog.getByRole('button', { name: 'Save & Publish', exact: true }).click();
    await dialog.getByTestId('copy-summary').waitFor({ timeout: 30_000 });
    expect(await dialog.getByTestId('copy-summary').innerText()).toBe('Copied 1 · Published 0 · Not published 1 · Failed 0');
    const lines = await dialog.getByTestId('copy-line').allInnerTexts();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Copied but NOT published: module ${moduleName} \\(${monthLabel(destination).replace('/', '\\/')}\\): `));
    expect(await dialog.innerText()).not.toContain('Unable to copy');
    expect(lines[0]).toMatch(/SKU \d+ is disabled in SAP$/);
    await shot('copy-not-published');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  });
});

