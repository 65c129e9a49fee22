/**
 * WCAG 2.1 AA in the browser suite (issue 34): axe-core runs on every route of the spec's table, signed in
 * as admin (who sees every control) and signed out on /login, and on the popups, drawers and dialogs
 * planners open most. Any critical or serious violation fails the test, named with its elements.
 * Read-only: nothing is saved (editors are left, which gives their locks back).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeFinding, axeViolations, describeFindings } from './helpers/axe';
import { loginAs, loginButton } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';
import { formatMonthId } from '@bo/shared/months';
import { ROUTE_TABLE, editorTargets, routeVisits } from './helpers/routes';

let browser: Browser;
let context: BrowserContext;
let page: Page;

const findings: string[] = [];
async function scan(where: string, target: Page = page) {
  await target.waitForTimeout(350); // transitions end
  const found: AxeFinding[] = await axeViolations(target);
  if (found.length) findings.push(describeFindings(where, found));
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

describe('accessibility (axe-core, WCAG 2.1 A/AA: no critical or serious violation)', { timeout: 300_000 }, () => {
  it('on the popups planners open most: the user menu, a SKU card, the module history drawer and a confirmation', async () => {
    findings.length = 0;
    const t = await editorTargets(page, context);
    await page.goto('/backoffice/');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menu').waitFor();
    await scan('user menu');
    await page.keyboard.press('Escape');

    await page.goto(`/backoffice/module?moduleName=${encodeURIComponent(t.module.moduleName)}&monthId=${t.monthId}`);
    const tile = page.locator('[data-testid="sku-tile"]').first();
    await tile.waitFor();
    await tile.getByRole('button', { name: /^Information on/ }).click();
    await page.getByTestId('sku-360').waitFor();
    await scan('SKU information');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const history = page.getByRole('button', { name: /history/i }).first();
    if (await history.isVisible()) {
      await history.click();
      await page.getByRole('dialog').first().waitFor();
      await scan('module history drawer');
      await page.keyboard.press('Escape');
    }
    await page.goto('/backoffice/manageRelease');
    await page.getByText('Manage Releases').first().waitFor();
    await page.goto('/backoffice/');
    expect(findings.join('\n\n')).toBe('');
  });

  it('on every route of the spec, signed in, and on /login signed out', async () => {
    findings.length = 0;
    const visits = routeVisits(await editorTargets(page, context));
    for (const route of ROUTE_TABLE.filter((r) => r !== '/login')) {
      const { url, text } = visits[route];
      await page.goto(`/backoffice${url}`);
      await page.getByText(text).first().waitFor({ timeout: 20_000 });
      await scan(route);
    }
    await page.goto('/backoffice/');
    const signedOut = await openPage(browser);
    try {
      await signedOut.page.goto('/backoffice/login');
      await loginButton(signedOut.page).waitFor();
      await scan('/login', signedOut.page);
    } finally {
      await signedOut.context.close();
    }
    expect(findings.join('\n\n')).toBe('');
  });

  // Last: its home search stays the home's last search (the routes' walk expects the welcome page).
  it('on the popups, drawers and dialogs of the main screens (issue 34)', async () => {
    findings.length = 0;
    const t = await editorTargets(page, context);
    const dialog = () => page.getByRole('dialog').last();
    /** Opens a popup with `open`, waits for `shown`, scans it, then closes it (Escape, or `close`). */
    async function popup(where: string, open: () => Promise<void>, shown = dialog(), close?: () => Promise<void>) {
      await open();
      await shown.waitFor();
      await scan(where);
      await screenshot(page, `axe-${where.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
      if (close) await close();
      else await page.keyboard.press('Escape');
      await shown.waitFor({ state: 'hidden' });
    }

    // The module page: copy, performance (filters and table), export, import, create module.
    await page.goto(`/backoffice/module?moduleName=${encodeURIComponent(t.module.moduleName)}&monthId=${t.monthId}`);
    const card = page.locator(`[data-testid="module-card"][data-module="${t.module.moduleName}"]`);
    await card.locator('[data-testid="sku-tile"]').first().waitFor();
    await popup('module copy', () => card.getByRole('button', { name: 'Copy', exact: true }).click());
    await popup('module performance filters', () => page.getByTestId('performance-filters').click(), page.getByTestId('performance-filters-panel'));
    await popup('module performance', () => card.getByRole('button', { name: 'Performance', exact: true }).click());
    await popup('module export', () => page.getByTestId('export-module').click());
    await popup('module import', () => page.getByRole('button', { name: 'Import Module', exact: true }).click());
    await popup('module create', () => page.getByTestId('create-module').click());
    await popup('module SKU actions menu', () => card.locator('[data-testid="sku-tile"]').first().getByRole('button', { name: /^Actions for / }).click(), page.getByRole('menu'));

    // The cluster page: copy, history drawer.
    await page.goto(`/backoffice/cluster?clusterId=${encodeURIComponent(t.cluster.clusterId)}&monthId=${t.monthId}`);
    const block = page.locator(`[data-testid="cluster-block"][data-cluster="${t.cluster.clusterId}"]`);
    await block.waitFor();
    await popup('cluster copy', () => page.getByRole('button', { name: 'COPY', exact: true }).click());
    await popup('cluster history drawer', () => block.getByTestId('cluster-history').click());
    await popup('cluster classification list', () => block.getByLabel(`Client classification of ${t.cluster.clusterId}`).click(), page.getByRole('listbox').last());

    // Home: the creation popups of a search's columns and the client classification popup.
    await page.goto('/backoffice/');
    await page.getByTestId('filter-month').click();
    await page.getByRole('option', { name: formatMonthId(t.monthId) }).first().click();
    await page.getByTestId('filter-brand').click();
    await page.getByRole('option').first().click();
    if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
    await page.getByTestId('search-button').click();
    await page.getByTestId('result-columns').waitFor();
    await popup('home create module', () => page.getByTestId('create-module').click());
    await popup('home create cluster', () => page.getByTestId('create-cluster').click());
    await popup('home create family', () => page.getByTestId('create-family').click());
    await popup('home client classification', () => page.getByTestId('nav-classifications').click());

    // The Disco Area's guided replacement (Replace on a discontinued SKU's row).
    await page.goto('/backoffice/disco-remove-area');
    await page.getByTestId('disco-filters').waitFor();
    await page.getByTestId('disco-filter-brandCode').click();
    await page.getByRole('option').first().click();
    if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
    await page.getByTestId('disco-search').click();
    await page.getByTestId('disco-table').waitFor();
    await popup('disco replace dialog', () => page.getByTestId('disco-replace').first().click());

    // Administration: a user's grants, a brand's permissions, closing a release.
    await page.goto('/backoffice/manageUser');
    await page.getByText('Manage Users').first().waitFor();
    await popup('user grants', () => page.locator('button[data-testid^="permissions-"]').first().click());
    await page.goto('/backoffice/manageBrand');
    await page.getByText('Manage Brands').first().waitFor();
    await popup('brand permissions', () => page.locator('button[data-testid^="brand-permissions-"]').first().click());
    await page.goto('/backoffice/manageRelease');
    await page.getByText('Manage Releases').first().waitFor();
    const closeRelease = page.locator('button[data-testid^="close-"]').first();
    await popup('release close confirmation', () => closeRelease.click(), dialog(), () => dialog().getByRole('button', { name: 'No', exact: true }).click());
    await page.goto('/backoffice/');
    expect(findings.join('\n\n')).toBe('');
  });
});
