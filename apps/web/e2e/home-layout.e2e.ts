import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compareMonthIds, formatMonthId } from '@bo/shared/months';
import { loginAs } from './helpers/auth';
import { pageApiCall } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

/**
 * Home as a planner reads it (docs/web-app.md "Home result rows", "Narrow screens", "Months"): months
 * as 11/2026 opening at the current month, full names at 1024 px with the sidebar collapsed, the
 * figures of each row, sorting, and the menus (no Frontoffice entry without FRONT_OFFICE_URL, Manage
 * Releases for the admin).
 */
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

async function open(width: number) {
  ({ context, page } = await openPage(browser));
  await page.setViewportSize({ width, height: 850 });
  await loginAs(page);
}

const callApi = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => pageApiCall<T>(page, context!, method, path, body);

/** What the test expects the month list to open at: today's month if open, else the next open one. */
function expectedCurrentMonth(months: { monthId: string; open: boolean }[]): string {
  const today = new Date();
  const now = `M${String(today.getMonth() + 1).padStart(2, '0')}_${today.getFullYear()}`;
  const open = months.filter((m) => m.open).map((m) => m.monthId).sort(compareMonthIds);
  return open.find((m) => compareMonthIds(m, now) >= 0) ?? open.at(-1)!;
}

/** Picks the month the list opens at (Enter takes the highlighted option) and Aurora Optics, then searches. */
async function searchCurrentMonth(): Promise<string> {
  const months = await callApi<{ monthId: string; open: boolean }[]>('GET', '/month/all');
  const current = expectedCurrentMonth(months);
  await page.getByTestId('filter-month').click();
  const options = await page.getByRole('option').allInnerTexts();
  // Month ids never show: every option reads 11/2026, closed ones marked.
  for (const text of options) expect(text.trim()).toMatch(/^\d{2}\/\d{4}( \(closed\))?$/);
  if (months.some((m) => !m.open)) expect(options.some((t) => t.includes('(closed)'))).toBe(true);
  const highlighted = page.locator('[data-combobox-selected]');
  await highlighted.waitFor();
  expect((await highlighted.innerText()).trim()).toBe(formatMonthId(current));
  await page.keyboard.press('Enter');
  expect((await page.getByTestId('filter-month').innerText()).trim()).toBe(formatMonthId(current));

  await page.getByTestId('filter-brand').click();
  await page.getByRole('option', { name: /Aurora Optics/ }).first().click();
  await page.keyboard.press('Escape');
  await page.getByTestId('search-button').click();
  await page.getByTestId('result-columns').waitFor();
  await page.getByTestId('module-row').first().waitFor();
  return current;
}

const labels = (testId: string) => page.getByTestId(testId).allInnerTexts();
const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());

describe('home at 1024 px', () => {
  it('collapses the sidebar, keeps names readable, shows row figures and sorts by name', async () => {
    await open(1024);
    // Before a search the filters are all there is: docked.
    expect(await page.getByTestId('sidebar').getAttribute('data-mode')).toBe('docked');
    const month = await searchCurrentMonth();

    // A search on a narrow screen folds the filters away; the burger brings them back over the results.
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
    expect(await page.getByTestId('search-summary').innerText()).toContain(formatMonthId(month));
    expect(await page.getByTestId('search-summary').innerText()).not.toContain(month);

    // Names get the column's width: no "Aur…" cut after three letters.
    const widths = await page.getByTestId('module-label').evaluateAll((els) => els.slice(0, 5).map((e) => (e as HTMLElement).clientWidth));
    expect(widths.length).toBeGreaterThan(0);
    for (const w of widths) expect(w).toBeGreaterThanOrEqual(200);
    const families = await page.getByTestId('family-name').evaluateAll((els) => els.map((e) => ({ text: e.textContent, cut: e.scrollWidth > e.clientWidth })));
    expect(families.filter((f) => f.cut)).toEqual([]);

    // Each module row: SKUs, MH/EL, doors, and who changed it last.
    const facts = await page.getByTestId('module-column').getByTestId('item-facts').first().innerText();
    expect(facts).toMatch(/^[\d.]+ SKUs? · MH [\d.]+ \/ EL [\d.]+ · [\d.]+ doors?/);
    expect((await page.getByTestId('module-column').getByTestId('item-last-change').first().innerText()).trim()).toMatch(/^\S+ · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    await screenshot(page, 'home-layout-1024');

    // Sort by name: A→Z, then Z→A.
    const all = (await callApi<{ moduleLabel: string }[]>('POST', '/module/filtered', { monthId: [month], brand: ['AUR'] })).map((m) => m.moduleLabel).sort(byName);
    await page.getByTestId('module-column-sort').click();
    await page.getByTestId('module-column-sort-name').click();
    expect(await page.getByTestId('module-column-sort').getAttribute('data-sort')).toBe('name-asc');
    const asc = await labels('module-label');
    expect(asc[0]).toBe(all[0]);
    expect([...asc].sort(byName)).toEqual(asc);
    await page.getByTestId('module-column-sort').click();
    await page.getByTestId('module-column-sort-name').click();
    const desc = await labels('module-label');
    expect(desc[0]).toBe(all.at(-1));
    expect([...desc].sort(byName).reverse()).toEqual(desc);
    await screenshot(page, 'home-layout-1024-sorted');

    await page.getByTestId('open-filter').click();
    await page.getByTestId('sidebar').waitFor();
    expect(await page.getByTestId('sidebar').getAttribute('data-mode')).toBe('overlay');
    await page.waitForTimeout(300);
    await screenshot(page, 'home-layout-1024-filters');
    // A click beside the floating filters closes them.
    await page.getByTestId('sidebar-backdrop').click({ position: { x: 900, y: 400 } });
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
  });
});

describe('home at 1440 px', () => {
  it('keeps the sidebar docked beside the three columns', async () => {
    await open(1440);
    await searchCurrentMonth();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(true);
    expect(await page.getByTestId('sidebar').getAttribute('data-mode')).toBe('docked');
    const widths = await page.getByTestId('module-label').evaluateAll((els) => els.slice(0, 5).map((e) => (e as HTMLElement).clientWidth));
    for (const w of widths) expect(w).toBeGreaterThanOrEqual(200);
    await screenshot(page, 'home-layout-1440');
  });
});

describe('menus', () => {
  it('has no Frontoffice entry without FRONT_OFFICE_URL, and Manage Releases for the admin', async () => {
    await open(1440);
    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: 'BackOffice' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Logout' }).isVisible()).toBe(true);
    expect(await page.getByRole('menuitem', { name: 'Frontoffice' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.getByTestId('nav-manage-releases').click();
    await page.waitForURL(/\/backoffice\/manageRelease$/);
    await page.getByRole('heading', { name: 'Manage Releases' }).waitFor();
  });
});
