/**
 * Work is never stranded or doubled (issue 13), in real Chromium:
 * - a planner who logs out from the menu leaves no lock behind: a second planner, in another browser,
 *   opens the same module at once and may edit it (not read-only);
 * - a double click on Save, and on the count caution's Proceed, sends one save, not two.
 *
 * Uses a module no other browser test touches: Marea (MRA) sun best sellers 02 of M09_2027, WIP in an open month.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, LOGIN_URL } from './helpers/auth';
import { dragTile } from './helpers/drag';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const MONTH = 'M09_2027';
const MODULE = 'MRA_SUN_BEST_02';
const PAGE = `/backoffice/module?moduleName=${MODULE}&monthId=${MONTH}`;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const card = (page: Page) => page.locator(`[data-testid="module-card"][data-module="${MODULE}"]`);
const area = (page: Page, a: 'MH' | 'EL' | 'BIN') => card(page).locator(`[data-testid="area-${a}"]`);
const upcsIn = (page: Page, a: 'MH' | 'EL' | 'BIN') =>
  area(page, a)
    .locator('[data-testid="sku-tile"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-upc') ?? ''));

const drag = dragTile;

async function openModule(page: Page) {
  await page.goto(PAGE);
  await card(page).waitFor();
  await card(page).locator('[data-testid="sku-tile"]').first().waitFor();
}

describe('logout releases the locks of the pages the user had open', () => {
  it('creator opens the module and logs out from the menu; admin, in another browser, then gets the lock', async () => {
    const first = await openPage(browser);
    const second = await openPage(browser);
    try {
      await loginAs(first.page, 'creator');
      await openModule(first.page);
      // Creator holds the lock: a second user opening it now gets it read-only …
      await loginAs(second.page, 'admin');
      await openModule(second.page);
      await card(second.page).getByText('creator is editing the module').first().waitFor();

      // … until creator logs out from the menu.
      await first.page.getByTestId('user-menu').click();
      await first.page.getByRole('menuitem', { name: 'Logout' }).click();
      await first.page.waitForURL(LOGIN_URL);

      await openModule(second.page);
      await expect.poll(() => card(second.page).getByText('creator is editing the module').count(), { timeout: 10_000 }).toBe(0);
      expect(await card(second.page).getByTestId('locked-by').count()).toBe(0);
      expect(await card(second.page).getByRole('button', { name: 'Save & Publish' }).isDisabled()).toBe(false);
      await screenshot(second.page, 'session-locks-after-logout');
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});

describe('no double submits', () => {
  it('a double click on Save, then on the caution’s Proceed, sends exactly one save', async () => {
    const { context, page } = await openPage(browser);
    const saves: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/module/save') saves.push(r);
    });
    try {
      await page.setViewportSize({ width: 1600, height: 1400 });
      await loginAs(page, 'admin');
      await openModule(page);
      // An edit that changes the MH and EL counts: the save asks the count caution.
      const [upc] = await upcsIn(page, 'MH');
      await drag(page, area(page, 'MH').locator(`[data-testid="sku-tile"][data-upc="${upc}"]`), area(page, 'EL'));
      await area(page, 'EL').locator(`[data-testid="sku-tile"][data-upc="${upc}"]`).waitFor();

      await card(page).getByRole('button', { name: 'Save', exact: true }).dblclick();
      const done = page.getByText('MODULE/MODULES CORRECTLY SAVED').first();
      const caution = page.getByRole('dialog').filter({ hasText: 'different number of SKUs' });
      const description = page.getByRole('dialog').filter({ hasText: 'also to change the module description' });
      const deadline = Date.now() + 20_000;
      let proceeded = false;
      let saved = false;
      while (!saved && Date.now() < deadline) {
        saved = await done.isVisible().catch(() => false);
        if (await description.isVisible().catch(() => false)) await description.getByRole('button', { name: 'No', exact: true }).click({ timeout: 2000 }).catch(() => undefined);
        if (!proceeded && (await caution.isVisible().catch(() => false))) {
          await caution.getByRole('button', { name: 'Proceed', exact: true }).dblclick();
          proceeded = true;
          await screenshot(page, 'session-locks-proceed-loading');
        }
        await page.waitForTimeout(50);
      }
      expect(saved).toBe(true);
      // Whatever else might still be on its way has had time to leave.
      await page.waitForTimeout(1500);
      expect(saves).toHaveLength(1);
      expect(await page.getByRole('dialog').filter({ hasText: 'different number of SKUs' }).count()).toBe(0);
      expect(await card(page).getAttribute('data-edited')).toBeNull();
      const body = saves[0]!.postDataJSON() as { version?: number };
      expect(typeof body.version).toBe('number');
      await screenshot(page, 'session-locks-saved-once');
    } finally {
      await context.close();
    }
  });
});
