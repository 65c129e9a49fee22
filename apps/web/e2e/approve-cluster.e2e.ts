import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

/**
 * The Approve cluster page on the demo data (part 2 §2 "Approve cluster page", §4 "Suggested cluster").
 * It approves SUG_2027_0017 and rejects SUG_2027_0024 (both Nordika, PENDING in a fresh demo world;
 * no other browser test touches suggested clusters), so it needs a fresh DATA_DIR (npm run test:e2e).
 */
const APPROVE = 'SUG_2027_0017';
const REJECT = 'SUG_2027_0024';
const REASON = 'Rejected by the browser test: stores too small';
const COLUMNS = ['country', 'userSuggest', 'dateSuggest', 'originalAssortment', 'assortmentId', 'period', 'starsCustomer', 'customerSegmentation', 'storeJda', 'status'];
const SLOW = 120_000;

interface Line {
  assortmentId: string;
  country: string;
  status: string;
  message: string | null;
  brandCode: string | null;
  starsCustomer: string[];
  customerSegmentation: string[];
  storeJda: string[];
  modules: { moduleName: string; foType: string; moduleLabel: string | null }[];
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let lines: Line[] = [];

async function suggestList(): Promise<Line[]> {
  const res = await fetch(`${inject('baseUrl')}/api/cluster/suggestList`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ country: [] }),
  });
  if (!res.ok) throw new Error(`suggestList: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { rows: Line[] }).rows;
}

const line = (id: string) => lines.find((l) => l.assortmentId === id)!;
const row = (id: string) => page.locator(`[data-testid="suggestion-row"][data-assortment="${id}"]`);
const visibleRows = () => page.locator('[data-testid="suggestion-row"]');
const cell = (r: Locator, column: string) => r.locator('td').nth(1 + COLUMNS.indexOf(column));
const popup = () => page.getByTestId('message-popup');

/** Picks values in a column's multi-select filter and closes its dropdown. */
async function filterBy(column: string, values: string[]) {
  const input = page.getByRole('combobox', { name: `Filter ${column}` });
  await input.click();
  for (const v of values) {
    await page.getByRole('option', { name: v, exact: true }).click();
  }
  await page.keyboard.press('Escape');
}

/** Picking a chosen value again takes it out of the filter. */
const clearFilter = filterBy;

beforeAll(async () => {
  const res = await fetch(`${inject('baseUrl')}/api/authorization/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo' }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
  lines = await suggestList();
  // The demo world's suggestions this test decides.
  expect(line(APPROVE)?.status).toBe('PENDING');
  expect(line(REJECT)?.status).toBe('PENDING');
  expect(line(APPROVE).brandCode).toBe(line(REJECT).brandCode);
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  context.setDefaultTimeout(30_000);
  await loginAs(page, 'admin');
}, SLOW);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('approve cluster page', () => {
  it('opens with its header, the ten columns, a filter per column and the rows', async () => {
    // Home's sidebar links to the page (opened by its address here: that link belongs to the home screen's tests).
    expect(await page.getByTestId('nav-approve-cluster').isVisible()).toBe(true);
    await page.goto('/backoffice/approve-cluster');
    await row(APPROVE).waitFor();
    expect(await page.getByRole('heading', { name: 'Approve cluster' }).isVisible()).toBe(true);
    const headers = (await page.locator('[data-testid="suggestions-table"] thead tr').first().locator('th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(headers.slice(0, COLUMNS.length)).toEqual(COLUMNS);
    for (const c of COLUMNS.filter((c) => c !== 'dateSuggest')) expect(await page.getByRole('combobox', { name: `Filter ${c}` }).isVisible()).toBe(true);
    // dateSuggest filters with a date picker shown as dd/MM/y.
    expect(await page.getByRole('button', { name: 'Filter dateSuggest' }).innerText()).toContain('dd/MM/y');
    expect(await visibleRows().count()).toBe(lines.length);
    // PENDING rows have the two actions, the others none.
    expect(await row(APPROVE).getByRole('button', { name: 'Approve' }).isVisible()).toBe(true);
    expect(await row(APPROVE).getByRole('button', { name: 'Reject' }).isVisible()).toBe(true);
    const rejected = lines.find((l) => l.status === 'REJECTED')!;
    expect(await row(rejected.assortmentId).getByRole('button', { name: /^(Approve|Reject)$/ }).count()).toBe(0);
    await screenshot(page, 'approve-cluster');
  }, SLOW);

  it('filters per column (multi-select) and shows every row again when cleared', async () => {
    const country = line(APPROVE).country;
    await filterBy('country', [country]);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="suggestion-row"]').length === n, lines.filter((l) => l.country === country).length);
    for (const text of await visibleRows().evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[1]!.textContent))) expect(text).toBe(country);
    expect(await row(APPROVE).isVisible()).toBe(true);
    await screenshot(page, 'approve-cluster-filtered');
    await clearFilter('country', [country]);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="suggestion-row"]').length === n, lines.length);

    await filterBy('status', ['REJECTED']);
    const rejectedCount = lines.filter((l) => l.status === 'REJECTED').length;
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="suggestion-row"]').length === n, rejectedCount);
    for (const text of await visibleRows().evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[10]!.textContent))) expect(text).toBe('REJECTED');
    await clearFilter('status', ['REJECTED']);

    // A list column matches a row when any of its values is chosen.
    const store = line(REJECT).storeJda[1] ?? line(REJECT).storeJda[0]!;
    await filterBy('storeJda', [store]);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="suggestion-row"]').length === n, lines.filter((l) => l.storeJda.includes(store)).length);
    expect(await row(REJECT).isVisible()).toBe(true);
    await clearFilter('storeJda', [store]);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="suggestion-row"]').length === n, lines.length);
  }, SLOW);

  it('expands a row to list its unique Stars Customer, Customer Segmentation and Store Id values', async () => {
    const l = line(REJECT);
    await row(REJECT).getByRole('button', { name: 'Expand' }).click();
    const details = page.locator('[data-testid="suggestion-details"]').filter({ visible: true });
    await details.waitFor();
    const text = await details.innerText();
    for (const v of [...l.starsCustomer, ...l.customerSegmentation, ...l.storeJda]) expect(text).toContain(v);
    expect(text).toMatch(/Stars Customer/i);
    expect(text).toMatch(/Customer Segmentation/i);
    expect(text).toMatch(/Store Id/i);
    await screenshot(page, 'approve-cluster-expanded');
    await row(REJECT).getByRole('button', { name: 'Collapse' }).click();
    await details.waitFor({ state: 'hidden' });
  }, SLOW);

  it('shows the reject message of a REJECTED row as a tooltip', async () => {
    const rejected = lines.find((l) => l.status === 'REJECTED' && l.message)!;
    await row(rejected.assortmentId).scrollIntoViewIfNeeded();
    await row(rejected.assortmentId).getByTestId('rejected-status').hover();
    await page.getByRole('tooltip').filter({ hasText: rejected.message! }).waitFor();
    await screenshot(page, 'approve-cluster-rejected-tooltip');
    await page.mouse.move(5, 5);
  }, SLOW);

  it("opens the read-only 'Viewing cluster' preview from the assortment id, shows a module's composition, and goes Back", async () => {
    const l = line(APPROVE);
    await row(APPROVE).getByRole('button', { name: APPROVE, exact: true }).click();
    const preview = page.getByTestId('cluster-preview');
    await preview.waitFor();
    expect(await page.getByRole('heading', { name: 'Viewing cluster' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Module Composition' }).isVisible()).toBe(true);
    expect(await page.getByText('Click on a module to see its composition').isVisible()).toBe(true);
    // Only SWITCH and NOT SWITCH modules, and no editing controls.
    const shown = l.modules.filter((m) => m.foType === 'SWITCH' || m.foType === 'NOT SWITCH');
    const hidden = l.modules.filter((m) => m.foType !== 'SWITCH' && m.foType !== 'NOT SWITCH');
    for (const m of shown) expect(await preview.getByText(m.moduleName).first().isVisible()).toBe(true);
    for (const m of hidden) expect(await preview.getByText(m.moduleName, { exact: true }).count()).toBe(0);
    expect(await preview.locator('input, textarea').count()).toBe(0);
    await screenshot(page, 'approve-cluster-preview');

    const first = shown.find((m) => m.moduleLabel !== null) ?? shown[0]!;
    await preview.getByRole('button', { name: new RegExp(first.moduleName) }).first().click();
    const pane = page.getByTestId('module-composition');
    await pane.locator('table tbody tr').first().waitFor();
    expect(await pane.getByText('Click on a module to see its composition').count()).toBe(0);
    expect(await pane.locator('table tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'approve-cluster-composition');

    await page.getByRole('button', { name: 'Back' }).click();
    await row(APPROVE).waitFor();
    expect(await page.getByRole('heading', { name: 'Approve cluster' }).isVisible()).toBe(true);
  }, SLOW);

  it("approves a PENDING suggestion: 'You have approved the cluster', then the row is APPROVED without actions", async () => {
    await row(APPROVE).getByRole('button', { name: 'Approve' }).click();
    await popup().getByText('You have approved the cluster').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(400); // the popup's opening transition, for the screenshot
    await screenshot(page, 'approve-cluster-approved');
    await popup().getByRole('button', { name: 'Ok' }).click();
    await popup().waitFor({ state: 'detached' });
    await cell(row(APPROVE), 'status').filter({ hasText: 'APPROVED' }).waitFor();
    expect(await row(APPROVE).getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect((await suggestList()).find((l) => l.assortmentId === APPROVE)!.status).toBe('APPROVED');
  }, SLOW);

  it("rejects a PENDING suggestion with a reason: 'You have rejected the cluster', and the reason becomes the tooltip", async () => {
    await row(REJECT).getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: `Reject the cluster ${REJECT}` });
    await dialog.waitFor();
    await dialog.getByLabel('Reason (optional)').fill(REASON);
    await screenshot(page, 'approve-cluster-reject-reason');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await popup().getByText('You have rejected the cluster').waitFor({ timeout: 60_000 });
    await popup().getByRole('button', { name: 'Ok' }).click();
    await popup().waitFor({ state: 'detached' });
    await cell(row(REJECT), 'status').filter({ hasText: 'REJECTED' }).waitFor();
    expect(await row(REJECT).getByRole('button', { name: 'Reject' }).count()).toBe(0);
    await row(REJECT).getByTestId('rejected-status').hover();
    await page.getByRole('tooltip').filter({ hasText: REASON }).waitFor();
    await screenshot(page, 'approve-cluster-rejected');
    const saved = (await suggestList()).find((l) => l.assortmentId === REJECT)!;
    expect(saved.status).toBe('REJECTED');
    expect(saved.message).toBe(REASON);
  }, SLOW);
});
