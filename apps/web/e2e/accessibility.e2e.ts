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
import { launchBrowser, openPage } from './helpers/browser';
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
});
