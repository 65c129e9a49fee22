/**
 * Discontinuation / Removed Area (/disco-remove-area; part 2 §2, §4, §5, §8, §9) in real Chromium on the
 * demo data: a search, the paged table with every row checked, GO TO MASSIVE EDIT showing the checked rows
 * as module rows; a locked module row and its forced unlock; the guided replacement previewed and applied
 * through Massive Edit (the module then holds the new SKU).
 *
 * Uses what no other browser test touches: Solenne (SLN) modules. Rows, SKUs and proposals are looked up
 * through the API at test time.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DISCO_TEXTS, type DiscoFilterOptions, type DiscoPage, type DiscoRow, type ReplacementProposals } from '@bo/shared/disco-area';
import { formatMonthId } from '@bo/shared/months';
import { MASSIVE_EDIT_TEXTS } from '@bo/shared/massive-edit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from './helpers/api';
import { loginAs } from './helpers/auth';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const BRAND = 'SLN';
const BRAND_NAME = 'Solenne';

interface ModuleDto {
  moduleName: string;
  monthId: string;
  productDtoList: { upc: string; mustHave: boolean; moduleCompositionStatus: string | null }[];
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;

const settle = () => page.waitForTimeout(350);
const list = (body: object) => apiCall<DiscoPage>(token, 'POST', '/sku/skuDiscoInfo', body);

/** Picks an option of a disco filter (a PagedSelect) by its visible name. */
async function pick(filter: string, name: string) {
  await page.getByTestId(`disco-filter-${filter}`).click();
  await page.getByRole('option', { name, exact: false }).first().click();
  if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
}

async function openArea() {
  await page.goto('/backoffice/disco-remove-area');
  await page.getByTestId('disco-filters').waitFor();
}

async function search() {
  await page.getByTestId('disco-search').click();
  await page.getByTestId('disco-table').waitFor();
  await settle();
}

beforeAll(async () => {
  browser = await launchBrowser();
  token = await apiToken('admin');
  ({ context, page } = await openPage(browser));
  await loginAs(page, 'admin');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('Disco Area', () => {
  let month: string;
  let found: DiscoPage;

  it('searches a month of a brand, shows the page with every row checked, and hands the checked rows to Massive Edit', async () => {
    const options = await apiCall<DiscoFilterOptions>(token, 'GET', '/sku/skuDiscoInfoFilters');
    expect(options.brandCode.some((o) => o.value === BRAND)).toBe(true);
    // A month of the brand whose rows fit in one page, but more than a few.
    let candidate: { month: string; page: DiscoPage } | null = null;
    for (const { value } of options.months) {
      const first = await list({ brandCode: [BRAND], months: [value] });
      if (first.count >= 3 && first.count <= first.maxResultsForPage) {
        candidate = { month: value, page: first };
        break;
      }
    }
    if (!candidate) throw new Error(`no month with a page of discontinued ${BRAND} SKUs in the demo data`);
    ({ month, page: found } = candidate);

    await openArea();
    expect(await page.getByTestId('disco-massive-edit').isDisabled()).toBe(true);
    await settle();
    await screenshot(page, 'disco-area-start');

    await pick('brandCode', BRAND_NAME);
    await pick('months', formatMonthId(month));
    await search();
    expect(await page.getByTestId('disco-total').innerText()).toBe(DISCO_TEXTS.total(found.count, found.maxResultsForPage));
    expect(await page.getByTestId('disco-page').innerText()).toBe('Page: 1 / 1');
    const rows = page.locator('[data-testid^="disco-row-"]');
    expect(await rows.count()).toBe(found.skuDiscoTypeDtoList.length);
    // All rows start checked (part 2 §4).
    expect(await page.getByTestId('disco-check-page').isChecked()).toBe(true);
    expect(await page.getByTestId('disco-checked-count').innerText()).toBe(`${found.count} rows checked`);
    const superRows = found.skuDiscoTypeDtoList.filter((r) => r.type === 'Super disco').length;
    expect(await page.getByLabel(DISCO_TEXTS.superDisco).count()).toBe(superRows);
    await screenshot(page, 'disco-area-results');

    // Nothing checked: GO TO MASSIVE EDIT is disabled (part 2 §5); then all again but the first row.
    await page.getByTestId('disco-check-page').click();
    expect(await page.getByTestId('disco-massive-edit').isDisabled()).toBe(true);
    await page.getByTestId('disco-check-page').click();
    const first = found.skuDiscoTypeDtoList[0]!;
    await page.getByLabel(`Check ${first.upc} in ${first.moduleLabel}`).click();
    expect(await page.getByTestId('disco-checked-count').innerText()).toBe(`${found.count - 1} rows checked`);

    const checked = found.skuDiscoTypeDtoList.slice(1);
    const groups = new Map<string, string[]>();
    for (const r of checked) groups.set(r.moduleName, [...(groups.get(r.moduleName) ?? []), r.upc]);
    await page.getByTestId('disco-massive-edit').click();
    await page.waitForURL(/\/backoffice\/massive-edit-wi$/);
    const meRows = page.getByTestId('massive-edit-row');
    await meRows.first().waitFor();
    expect(await meRows.count()).toBe(groups.size);
    for (let n = 1; n <= groups.size; n++) {
      const row = page.locator(`[data-testid="massive-edit-row"][data-row="${n}"]`);
      const name = await row.getByTestId('cell-moduleLabels').inputValue();
      const upcs = (await row.getByTestId('cell-upcToRemoveList').inputValue()).split('\n');
      expect(upcs.sort(), name).toEqual([...(groups.get(name) ?? [])].sort());
      expect(await row.getByTestId('cell-upcToAddList').inputValue()).toBe('');
    }
    expect(await page.getByTestId('invalid-count').count()).toBe(0);
    await settle();
    await screenshot(page, 'disco-area-massive-edit');
  });

  it('fits its card at 1440 px, and at 1024 px keeps module and month in view with a visible scrollbar (issue 34 item 4)', async () => {
    await openArea();
    await pick('brandCode', BRAND_NAME);
    await pick('months', formatMonthId(month));
    await search();
    const card = page.getByTestId('disco-table').locator('xpath=ancestor::div[contains(@class,"mantine-Paper-root")][1]');
    const row = page.locator('[data-testid^="disco-row-"]').first();
    const right = async (l: ReturnType<typeof page.locator>) => {
      const b = (await l.boundingBox())!;
      return b.x + b.width;
    };
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await settle();
      const edge = await right(card);
      for (const cell of await row.locator('td').all()) expect(await right(cell)).toBeLessThanOrEqual(edge + 1);
      expect(await row.getByTestId('disco-replace').isVisible()).toBe(true);
      await screenshot(page, 'disco-area-1440');

      await page.setViewportSize({ width: 1024, height: 768 });
      await settle();
      const narrow = await right(card);
      const cells = row.locator('td');
      // Module (2nd data column) and month (3rd) come right after the UPC, inside the card.
      expect(await right(cells.nth(2))).toBeLessThanOrEqual(narrow + 1);
      expect(await right(cells.nth(3))).toBeLessThanOrEqual(narrow + 1);
      const viewport = page.getByTestId('disco-table').locator('xpath=ancestor::div[contains(@class,"mantine-ScrollArea-viewport")][1]');
      const overflows = await viewport.evaluate((e) => e.scrollWidth > e.clientWidth);
      if (overflows) expect(await card.locator('.mantine-ScrollArea-scrollbar[data-orientation="horizontal"]').isVisible()).toBe(true);
      await screenshot(page, 'disco-area-1024');
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('pages with go-to-page, keeps each page\'s checks, and the switch to the Removed Area resets filters and results', async () => {
    const all = await list({ brandCode: [BRAND] });
    const pages = Math.ceil(all.count / all.maxResultsForPage);
    expect(pages, 'the brand fills more than one page').toBeGreaterThan(1);
    await openArea();
    await pick('brandCode', BRAND_NAME);
    await search();
    expect(await page.getByTestId('disco-page').innerText()).toBe(`Page: 1 / ${pages}`);
    const first = all.skuDiscoTypeDtoList[0]!;
    await page.getByLabel(`Check ${first.upc} in ${first.moduleLabel}`).first().click();

    // The page jump's rules and texts (part 2 §5).
    const input = page.getByTestId('disco-page-input');
    const apply = page.getByTestId('disco-page-apply');
    await input.fill('1');
    await page.getByText('You are already seeing page 1').waitFor();
    expect(await apply.isDisabled()).toBe(true);
    await input.fill(String(pages + 1));
    await page.getByText(`Value must be lower than ${pages}`).waitFor();
    expect(await apply.isDisabled()).toBe(true);
    await input.fill('2');
    await apply.click();
    await page.getByText(`Page: 2 / ${pages}`).waitFor();
    await settle();
    // A page shown for the first time starts all checked; page 1 keeps its unchecked row.
    expect(await page.getByTestId('disco-check-page').isChecked()).toBe(true);
    await screenshot(page, 'disco-area-page-2');
    await page.getByRole('button', { name: 'First page' }).click();
    await page.getByText(`Page: 1 / ${pages}`).waitFor();
    await settle();
    expect(await page.getByLabel(`Check ${first.upc} in ${first.moduleLabel}`).first().isChecked()).toBe(false);
    const secondPage = Math.min(all.maxResultsForPage, all.count - all.maxResultsForPage);
    expect(await page.getByTestId('disco-checked-count').innerText()).toBe(`${all.maxResultsForPage - 1 + secondPage} rows checked`);

    await page.getByTestId('disco-view').getByText(DISCO_TEXTS.removedArea).click();
    await page.getByRole('heading', { name: DISCO_TEXTS.removedArea }).waitFor();
    expect(await page.getByTestId('disco-table').count()).toBe(0);
    expect(await page.getByTestId('disco-filter-brandCode').innerText()).not.toContain(BRAND_NAME);
    expect(await page.getByTestId('disco-massive-edit').isDisabled()).toBe(true);
    const removed = await apiCall<DiscoPage>(token, 'POST', '/sku/skuDeletedInfo', { pageIndex: 0 });
    await page.getByTestId('disco-search').click();
    if (removed.count === 0) await page.getByText(DISCO_TEXTS.empty).waitFor();
    else await page.getByTestId('disco-table').waitFor();
    expect(await page.getByTestId('disco-replace').count()).toBe(0);
    await settle();
    await screenshot(page, 'disco-area-removed');
  });

  it('shows who edits a locked module and unlocks it after the question', async () => {
    const row = found.skuDiscoTypeDtoList.find((r) => !r.locked)!;
    const creator = await apiToken('creator');
    await apiCall(creator, 'POST', '/module/lock', [{ moduleName: row.moduleName, monthId: row.monthId }]);

    await openArea();
    await pick('brandCode', BRAND_NAME);
    await pick('months', formatMonthId(month));
    await pick('upc', row.upc);
    await search();
    const module = page.getByTestId(`disco-row-${row.upc}-${row.moduleName}-${row.monthId}`).getByTestId('disco-module');
    expect(await module.innerText()).toContain(DISCO_TEXTS.editing('creator'));
    await module.click();
    const dialog = page.getByRole('dialog').filter({ hasText: DISCO_TEXTS.unlockQuestion });
    await dialog.waitFor();
    await settle();
    await screenshot(page, 'disco-area-unlock-question');
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('disco-lock').waitFor({ state: 'detached' });
    const after = await list({ upc: [row.upc], months: [row.monthId] });
    expect(after.skuDiscoTypeDtoList.find((r) => r.moduleName === row.moduleName)?.locked).toBe(false);

    // A free module opens in a new tab, locked by the caller (part 2 §4).
    const [tab] = await Promise.all([context.waitForEvent('page'), module.click()]);
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    expect(url.pathname).toBe('/backoffice/module');
    expect(url.searchParams.get('moduleName')).toBe(row.moduleName);
    expect(url.searchParams.get('monthId')).toBe(row.monthId);
    await expect
      .poll(async () => (await list({ upc: [row.upc], months: [row.monthId] })).skuDiscoTypeDtoList.find((r) => r.moduleName === row.moduleName)?.userLock, { timeout: 10_000 })
      .toBe('admin');
    await tab.close();
    await apiCall(token, 'POST', '/module/unlock', [{ moduleName: row.moduleName, monthId: row.monthId }]);
  });

  it('proposes replacements for a discontinued SKU and applies one in all open months through Massive Edit', async () => {
    // A discontinued SKU of the brand whose lines are free and that has proposals.
    let chosen: { row: DiscoRow; proposals: ReplacementProposals } | null = null;
    const all = await list({ brandCode: [BRAND] });
    const rows: DiscoRow[] = [...all.skuDiscoTypeDtoList];
    // Every page: which SKUs qualify depends on what the browser tests before this one locked and changed.
    for (let p = 1; p * all.maxResultsForPage < all.count; p++) rows.push(...(await list({ brandCode: [BRAND], pageIndex: p })).skuDiscoTypeDtoList);
    const seen = new Set<string>();
    const skipped = { locked: 0, noProposal: 0, usages: 0 };
    for (const row of rows) {
      if (seen.has(row.upc)) continue;
      seen.add(row.upc);
      if (rows.some((r) => r.upc === row.upc && r.locked)) {
        skipped.locked++;
        continue;
      }
      const proposals = await apiCall<ReplacementProposals>(token, 'POST', '/sku/replacementProposals', { upc: row.upc });
      if (proposals.proposals.length > 0 && proposals.usages.length > 0 && proposals.usages.length <= 4) {
        chosen = { row, proposals };
        break;
      }
      if (proposals.proposals.length === 0) skipped.noProposal++;
      else skipped.usages++;
    }
    if (!chosen) throw new Error(`no discontinued ${BRAND} SKU with proposals in the demo data: ${rows.length} rows of ${all.count}, ${seen.size} SKUs; skipped ${JSON.stringify(skipped)}`);
    const { row, proposals } = chosen;
    const replacement = proposals.proposals[0]!;
    for (const p of proposals.proposals) {
      expect(p.upc).not.toBe(row.upc);
    }

    await openArea();
    await pick('brandCode', BRAND_NAME);
    await pick('upc', row.upc);
    await search();
    await page.getByTestId(`disco-row-${row.upc}-${row.moduleName}-${row.monthId}`).getByTestId('disco-replace').click();
    const modal = page.getByTestId('replacement-modal').locator('.mantine-Modal-content');
    await page.getByTestId('replacement-proposals').waitFor();
    expect(await page.locator('[data-testid^="proposal-"]').count()).toBe(proposals.proposals.length);
    expect(await page.getByTestId('replacement-usages').locator('tbody tr').count()).toBe(proposals.usages.length);
    expect(await page.getByTestId('replace-all').isDisabled()).toBe(true);
    await page.getByTestId(`proposal-${replacement.upc}`).click();
    expect(await page.getByTestId('replace-all').isDisabled()).toBe(false);
    await settle();
    await modal.screenshot({ path: 'apps/web/e2e/screenshots/disco-area-replacement.png' });

    await page.getByTestId('replace-all').click();
    await page.waitForURL(/\/backoffice\/massive-edit-wi$/);
    const meRows = page.getByTestId('massive-edit-row');
    await meRows.first().waitFor();
    const firstRow = page.locator('[data-testid="massive-edit-row"][data-row="1"]');
    expect(await firstRow.getByTestId('cell-upcToRemoveList').inputValue()).toBe(row.upc);
    expect(await firstRow.getByTestId('cell-upcToAddList').inputValue()).toBe(replacement.upc);
    await settle();
    await screenshot(page, 'disco-area-replacement-rows');

    // Preview, then apply.
    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('massive-edit-preview').locator('.mantine-Modal-content');
    await preview.waitFor();
    expect(await preview.innerText()).toContain(replacement.upc);
    await settle();
    await screenshot(page, 'disco-area-replacement-preview');
    await preview.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByTestId('save-all').click();
    const confirm = page.getByRole('dialog').filter({ hasText: /the changes of \d+ rows?\?/ });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'CONFIRM' }).click();
    const result = page.getByTestId('massive-edit-result').locator('.mantine-Modal-content');
    await result.waitFor({ timeout: 45_000 });
    expect(await result.getByText(MASSIVE_EDIT_TEXTS.resultTitle, { exact: true }).isVisible()).toBe(true);
    await settle();
    await screenshot(page, 'disco-area-replacement-result');

    // Every changed module now holds the new SKU with the old one's class, and no longer the old one.
    const details = await apiCall<ModuleDto[]>(
      token,
      'POST',
      '/module/details',
      proposals.usages.map((u) => ({ moduleName: u.moduleName, monthId: u.monthId })),
    );
    for (const usage of proposals.usages) {
      const d = details.find((m) => m.moduleName === usage.moduleName && m.monthId === usage.monthId)!;
      const active = d.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED');
      const added = active.find((p) => p.upc === replacement.upc);
      expect(added, `${usage.moduleName} ${usage.monthId}`).toBeDefined();
      expect(added!.mustHave).toBe(usage.mustHave);
      expect(active.some((p) => p.upc === row.upc), `${usage.moduleName} ${usage.monthId}`).toBe(false);
    }
  });
});

describe('Disco Area rights', () => {
  it('shows a user without edit grants that access is missing', async () => {
    const other = await openPage(browser);
    try {
      await loginAs(other.page, 'viewer');
      await other.page.goto('/backoffice/disco-remove-area');
      await other.page.getByTestId('disco-no-access').waitFor();
      expect(await other.page.getByTestId('disco-no-access').innerText()).toBe(DISCO_TEXTS.noAccessTitle);
    } finally {
      await other.context.close();
    }
  });
});
