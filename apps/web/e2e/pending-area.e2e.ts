/**
 * Pending Area (/pending-area; part 2 §2, §5, §6, §8) in real Chromium on the demo data: Search waits
 * for a filter; a month's pending modules listed as the server pages them; a row opens the module page
 * in a new tab; the Clusters switch resets filters and results; a user without edit grants sees that
 * access is missing. Nothing is changed.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatMonthId } from '@bo/shared/months';
import { PENDING_TEXTS, type ModulePendingPage, type PendingFilterOptions } from '@bo/shared/pending-area';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { pageApiCall } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;

const callApi = <T>(path: string, body: unknown) => pageApiCall<T>(page, context, 'POST', path, body);
const settle = () => page.waitForTimeout(350);

async function pick(testId: string, name: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name, exact: false }).first().click();
  if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
}

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await loginAs(page, 'admin');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('Pending Area', () => {
  it('searches a month of pending modules and opens one in a new tab', async () => {
    await page.goto('/backoffice/pending-area');
    await page.getByTestId('pending-filters').waitFor();
    expect(await page.getByTestId('pending-search').isDisabled()).toBe(true);
    expect(await page.getByTestId('pending-select-filter').innerText()).toBe(PENDING_TEXTS.selectFilter);
    await settle();
    await screenshot(page, 'pending-area-start');

    // A month whose pending modules fit in the search (found through the page's own calls).
    const options = await callApi<PendingFilterOptions>('/cluster/pendingAreaInitialFilters', { viewType: 'module' });
    let found: { monthId: string; page: ModulePendingPage } | null = null;
    for (const { value: monthId } of options.months) {
      const first = await callApi<ModulePendingPage>('/module/pendingArea', { months: [monthId] });
      if (first.count > 0 && first.count <= 3000) {
        found = { monthId, page: first };
        break;
      }
    }
    if (!found) throw new Error('no month with pending modules in the demo data');

    await pick('pending-filter-months', formatMonthId(found.monthId));
    expect(await page.getByTestId('pending-search').isDisabled()).toBe(false);
    await page.getByTestId('pending-search').click();
    await page.getByTestId('pending-table').waitFor();
    expect(await page.getByTestId('pending-count').innerText()).toMatch(new RegExp(`^${found.page.count} `));
    const pages = Math.max(1, Math.ceil(found.page.count / found.page.maxResultsForPage));
    expect(await page.getByTestId('pending-page').innerText()).toBe(`Page: 1 / ${pages}`);
    const rows = page.locator('[data-testid^="pending-row-"]');
    expect(await rows.count()).toBe(found.page.modulePendingAreaDtoList.length);
    await settle();
    await screenshot(page, 'pending-area-results');

    const first = found.page.modulePendingAreaDtoList[0]!;
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId(`pending-row-${first.moduleName}`).click()]);
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    expect(url.pathname).toBe('/backoffice/module');
    expect(url.searchParams.get('moduleName')).toBe(first.moduleName);
    expect(url.searchParams.get('monthId')).toBe(first.monthId);
    await tab.close();

    if (pages > 1) {
      await page.getByTestId('pending-next').click();
      await page.getByText(`Page: 2 / ${pages}`).waitFor();
    }

    // The switch resets filters and results (part 2 §2).
    await page.getByTestId('pending-view').getByText('Clusters').click();
    await page.getByTestId('pending-select-filter').waitFor();
    expect(await page.getByTestId('pending-table').count()).toBe(0);
    expect(await page.getByTestId('pending-search').isDisabled()).toBe(true);
  });

  it('shows a user without edit grants that access is missing', async () => {
    const other = await openPage(browser);
    try {
      await loginAs(other.page, 'viewer');
      await other.page.goto('/backoffice/pending-area');
      await other.page.getByTestId('pending-no-access').waitFor();
      expect(await other.page.getByTestId('pending-no-access').innerText()).toBe(PENDING_TEXTS.noAccessTitle);
      await screenshot(other.page, 'pending-area-no-access');
    } finally {
      await other.context.close();
    }
  });
});
