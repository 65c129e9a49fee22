/**
 * Manage Brands says one number per brand and level (issue 34 item 10, "brand counts differ between the
 * list and the popup"): the list's "N users" and the popup's tab badge are the same count, the server's
 * holderCounts (brandHolderCounts: enabled users with a role, not administrators — the users the popup
 * lists). The demo's VLT is held at view by a disabled user and by the administrators, whom the list used
 * to count and the popup did not. Read only: nothing is saved. At 1440 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { pageApiCall } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const BRAND = 'VLT';
const LEVELS = ['view', 'edit', 'submit'] as const;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await loginAs(page, 'admin');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

interface Brand {
  brand: string;
  permissionMap: Record<(typeof LEVELS)[number], number[]>;
  holderCounts: Record<(typeof LEVELS)[number], number>;
}

describe('brand counts', () => {
  it('shows the same count per level in the brands list and in the brand popup', async () => {
    const brands = await pageApiCall<Brand[]>(page, context, 'GET', '/brand/allBrandsWithUsers');
    const vlt = brands.find((b) => b.brand === BRAND)!;
    // The case of the complaint: more holders than counted users (a disabled user, administrators).
    expect(vlt.permissionMap.view.length).toBeGreaterThan(vlt.holderCounts.view);

    await page.goto('/backoffice/manageBrand');
    await page.getByTestId(`brand-row-${BRAND}`).waitFor();
    const listed: Record<string, number> = {};
    for (const level of LEVELS) listed[level] = Number.parseInt(await page.getByTestId(`brand-${BRAND}-${level}-count`).innerText(), 10);
    await screenshot(page, 'brand-counts-list');

    await page.getByTestId(`brand-permissions-${BRAND}`).click();
    const dialog = page.getByTestId('brand-permissions-dialog').getByRole('dialog');
    await dialog.getByTestId('brand-permissions-name').waitFor();
    // The popup's users are read when it opens: its badges settle once they are in.
    await dialog.locator('[data-testid^="brand-user-view-"]').first().waitFor();
    const popup: Record<string, number> = {};
    for (const level of LEVELS) popup[level] = Number(await dialog.getByTestId(`brand-tab-${level}-count`).innerText());
    await page.waitForTimeout(350);
    await screenshot(page, 'brand-counts-popup');

    expect(popup).toEqual(listed);
    expect(listed).toEqual(vlt.holderCounts);
    // The view tab lists exactly that many ticked users.
    expect(await dialog.locator('input[data-testid^="brand-user-view-"]:checked').count()).toBe(vlt.holderCounts.view);
  });
});
