/**
 * The cluster editor's layout at the widths planners use (issue 34 item 1): two Solenne clusters open, a
 * module label searched. The search results never run over the "Modules with discontinued SKUs" card,
 * the search panel stays beside the clusters at 1024 px, and a viewer reads "View cluster".
 *
 * Read-only: opens SLN clusters (no other browser test edits SLN clusters) without changing them.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let url = '';
let token = '';
let keys: { clusterId: string; monthId: string }[] = [];

const box = async (testId: string) => (await page.getByTestId(testId).first().boundingBox())!;

beforeAll(async () => {
  token = await apiToken('admin');
  const months = await apiCall<{ monthId: string; open: boolean }[]>(token, 'GET', '/month/all');
  let pair: { clusterId: string; monthId: string }[] = [];
  for (const m of months.filter((x) => x.open)) {
    const list = await apiCall<{ clusterId: string; monthId: string; userLock: string | null }[]>(token, 'POST', '/cluster/filtered', { brand: ['SLN'], monthId: [m.monthId] });
    pair = list.filter((c) => !c.userLock).slice(0, 2);
    if (pair.length === 2) break;
  }
  if (pair.length < 2) throw new Error('no open month with two Solenne clusters in the demo data');
  keys = pair.map(({ clusterId, monthId }) => ({ clusterId, monthId }));
  url = `/backoffice/cluster?clusters=${pair.map((c) => `${c.clusterId}|${c.monthId}`).join(',')}`;
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  context.setDefaultTimeout(30_000);
}, 120_000);

afterAll(async () => {
  // The admin's page took the clusters' locks: give them back for the tests that follow.
  await apiCall(token, 'POST', '/cluster/unlock', keys).catch(() => undefined);
  await context?.close();
  await browser?.close();
});

describe('cluster editor layout', { timeout: 120_000 }, () => {
  it('keeps the search results off the discontinued card at 1440 and 1280 px, and the panel beside the clusters at 1024 px', async () => {
    await loginAs(page, 'admin');
    for (const width of [1440, 1280, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await page.locator('[data-testid="cluster-block"]').nth(1).waitFor();
      const panel = page.getByTestId('module-search');
      await panel.getByLabel('Module label').fill('Solenne');
      await panel.getByLabel('Module label').press('Enter');
      await panel.getByTestId('search-results').waitFor();
      await page.waitForTimeout(300);
      const results = await box('search-results-area');
      const card = await box('discontinued-table');
      const panelBox = await box('module-search');
      const firstCluster = await box('cluster-block');
      await screenshot(page, `cluster-editor-layout-${width}`);
      // The results scroll inside their panel, which ends before the discontinued card starts.
      expect(results.y + results.height).toBeLessThanOrEqual(panelBox.y + panelBox.height + 1);
      expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(card.y + 1);
      expect(results.height).toBeGreaterThanOrEqual(150);
      // The panel sits in its own column to the right of the clusters, not under them.
      const search = await box('module-search');
      expect(search.x).toBeGreaterThanOrEqual(firstCluster.x + firstCluster.width - 1);
      expect(search.y).toBeLessThan(firstCluster.y + firstCluster.height);
    }
  });

  it('tells a viewer the page is for viewing', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/backoffice');
    await apiCall(token, 'POST', '/cluster/unlock', keys);
    const viewer = await openPage(browser);
    try {
      await loginAs(viewer.page, 'viewer');
      await viewer.page.goto(url);
      await viewer.page.locator('[data-testid="cluster-block"]').nth(1).waitFor();
      await viewer.page.getByRole('heading', { name: 'View cluster' }).waitFor();
      expect(await viewer.page.getByRole('heading', { name: 'Edit cluster' }).count()).toBe(0);
      await screenshot(viewer.page, 'cluster-editor-viewer');
    } finally {
      await viewer.context.close();
    }
  });
});
