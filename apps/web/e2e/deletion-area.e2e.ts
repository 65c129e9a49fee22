/**
 * Deletion Area (/deletion-area; part 2 §2, §4, §8) in real Chromium against the real server: a module is
 * deleted through the API (as the creator, who carries the delete rule), the page lists it as
 * DELETION_PENDING with its month dots and their tooltips, and it is restored with the confirmation:
 * the row turns ACTIVE without a checkbox and the module is listed again in its month.
 *
 * Uses a module of M10_2027, which no other browser test touches, preferably one that ends there (so the
 * deletion marks that month only); the restore leaves it as it was.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ModuleDeletionPage } from '@bo/shared/deletion';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { expectNoAxeFindings } from './helpers/axe';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const MONTH = 'M10_2027';
const NEXT = 'M11_2027';
const USER = 'creator';
/** The page's status checkboxes, all checked at first. */
const ALL_STATUSES = ['DELETION_PENDING', 'READY_TO_BE_DELETED', 'DELETION_IN_PROGRESS', 'DELETED', 'DELETION_ERROR', 'ACTIVE'];

interface ModuleRow {
  moduleName: string;
  moduleLabel: string;
  monthId: string;
  locked: boolean;
  userLock: string | null;
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let target: ModuleRow;

const listed = async (monthId: string) => apiCall<ModuleRow[]>(token, 'POST', '/module/filtered', { monthId: [monthId] });
const row = (name: string) => page.getByTestId(`deletion-row-${name}`);

beforeAll(async () => {
  token = await apiToken(USER);
  const inMonth = (await listed(MONTH)).filter((m) => !m.userLock && !m.locked);
  const later = new Set((await listed(NEXT)).map((m) => m.moduleName));
  target = inMonth.find((m) => !later.has(m.moduleName)) ?? inMonth[0]!;
  const answer = await apiCall<{ deleted: { key: string }[] }>(token, 'POST', '/module/deleteFromMonth', [
    { moduleName: target.moduleName, monthIdFrom: MONTH },
  ]);
  expect(answer.deleted.map((d) => d.key)).toEqual([target.moduleName]);
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  await loginAs(page, USER);
}, 120_000);

afterAll(async () => {
  // Leaves the demo data as it was, even when a step failed before the restore.
  await apiCall(token, 'POST', '/module/restore', [{ moduleName: target.moduleName }]).catch(() => undefined);
  await context?.close();
  await browser?.close();
});

describe('Deletion Area', { timeout: 90_000 }, () => {
  it('lists the deleted module as DELETION_PENDING, with its month dots', async () => {
    expect((await listed(MONTH)).some((m) => m.moduleName === target.moduleName)).toBe(false);
    await page.goto('/backoffice/deletion-area');
    await page.getByRole('heading', { name: 'Deletion Area' }).waitFor();
    await page.getByRole('columnheader', { name: 'Module Name' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Deletion pending' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Active' }).isChecked()).toBe(true);

    // 50 items a page: go to the page the item is on, as the server sorts them.
    const all = await apiCall<ModuleDeletionPage>(token, 'POST', '/module/deleted?pageSize=500', { status: ALL_STATUSES });
    const index = all.content.findIndex((i) => i.moduleName === target.moduleName);
    expect(index).toBeGreaterThanOrEqual(0);
    const pageNumber = Math.floor(index / 50) + 1;
    if (pageNumber > 1) {
      await page.getByRole('textbox', { name: 'Go to page' }).fill(String(pageNumber));
      await page.getByRole('textbox', { name: 'Go to page' }).press('Enter');
    }
    await row(target.moduleName).waitFor();
    expect(await row(target.moduleName).getAttribute('data-status')).toBe('DELETION_PENDING');
    expect(await page.locator('tbody tr').count()).toBeLessThanOrEqual(50);

    // The deleted month is a red dot whose tooltip reads 'label - month: status label'.
    const tip = `${target.moduleLabel} - 10/2027: Deletion pending`;
    const dot = row(target.moduleName).getByRole('img', { name: tip });
    expect(await dot.getAttribute('data-dot')).toBe('red');
    expect(await dot.getAttribute('data-absent')).toBeNull();
    // The legend says what the dots mean; a month without the item is a ring, not a filled red dot.
    expect(await page.getByTestId('dot-legend').innerText()).toMatch(/In use this month[\s\S]*Created again after the deletion[\s\S]*Deleted, or being deleted[\s\S]*Not in this month/);
    for (const absent of await page.locator('[data-absent="true"]').all()) expect(await absent.getAttribute('aria-label')).toMatch(/: Not present$/);
    await dot.hover();
    await page.getByRole('tooltip').filter({ hasText: tip }).waitFor();
    await screenshot(page, 'deletion-area-pending');

    // Only DELETION_PENDING rows have a checkbox.
    const rows = page.locator('tbody tr[data-status]');
    const n = await rows.count();
    for (let i = 0; i < n; i++) {
      const r = rows.nth(i);
      const pending = (await r.getAttribute('data-status')) === 'DELETION_PENDING';
      expect(await r.getByRole('checkbox').count()).toBe(pending ? 1 : 0);
    }
  });

  it('restores it after the confirmation', async () => {
    const button = page.getByTestId('restore-selected');
    expect(await button.isDisabled()).toBe(true);
    await row(target.moduleName).getByRole('checkbox').check();
    expect(await button.textContent()).toBe('Restore Selected (1)');
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Restoration' });
    await dialog.getByText('Are you sure you want to restore the following module(s)?').waitFor();
    expect(await dialog.getByTestId('restore-list').textContent()).toContain(target.moduleName);
    await page.waitForTimeout(400); // the modal's opening transition
    await screenshot(page, 'deletion-area-confirm');
    await expectNoAxeFindings(page, 'Deletion Area restore confirmation');
    // A double click restores once: one call, no error popup (issue 34 item 5).
    const restoreCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/module/restore')) restoreCalls.push(r.method());
    });
    await dialog.getByRole('button', { name: 'Confirm' }).dblclick();
    await dialog.waitFor({ state: 'detached' });

    await page.locator(`[data-testid="deletion-row-${target.moduleName}"][data-status="ACTIVE"]`).waitFor();
    expect(await row(target.moduleName).getByRole('checkbox').count()).toBe(0);
    expect(await button.textContent()).toBe('Restore Selected (0)');
    await screenshot(page, 'deletion-area-restored');
    expect((await listed(MONTH)).some((m) => m.moduleName === target.moduleName)).toBe(true);
    await page.waitForTimeout(500);
    expect(restoreCalls).toEqual(['POST']);
    expect(await page.getByRole('alertdialog').or(page.getByText('Something went wrong')).count()).toBe(0);
  });

  it('switches to clusters and asks for a status when none is checked', async () => {
    await page.getByText('Clusters', { exact: true }).click();
    await page.getByRole('columnheader', { name: 'Cluster ID' }).waitFor();
    await page.locator('tbody tr[data-status]').or(page.getByTestId('table-empty')).first().waitFor();
    await screenshot(page, 'deletion-area-clusters');
    for (const label of ['Deletion pending', 'Ready to be deleted', 'Deletion in progress', 'Deleted', 'Deletion error', 'Active'])
      await page.getByRole('checkbox', { name: label, exact: true }).uncheck();
    await page.getByText('Please select at least one status filter to view items.').waitFor();
    await screenshot(page, 'deletion-area-no-status');
  });
});
