import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatMonthId } from '@bo/shared/months';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { expectNoAxeFindings } from './helpers/axe';
import { pageApiCall } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;

const MONTH = 'M03_2027';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(async () => {
  await context?.close();
});

/** Opens a select of the home (single or multiple) and picks an option. */
async function pick(testId: string, option: string | RegExp, p: Page = page) {
  await p.getByTestId(testId).click();
  // Months read 03/2027 (docs/web-app.md "Months"): a month id picks its label.
  const name = testId === 'filter-month' && typeof option === 'string' ? formatMonthId(option) : option;
  await p.getByRole('option', { name }).first().click();
  if (await p.getByRole('listbox').isVisible()) await p.keyboard.press('Escape');
}

/** The API as the signed-in browser calls it (token from the session cookie). */
const callApi = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => pageApiCall<T>(page, context, method, path, body);

async function searchMonthAndBrand(brand = /Aurora Optics/, month = MONTH) {
  await pick('filter-month', month);
  await pick('filter-brand', brand);
  await page.getByTestId('search-button').click();
  await page.getByTestId('result-columns').waitFor();
}

/** Lets Mantine's open transitions (modals, tooltips: 200 ms) finish before a screenshot. */
const settle = () => page.waitForTimeout(350);

/** A Mantine modal's visible part (its root only frames it). */
const dialog = (testId: string) => page.getByTestId(testId).locator('.mantine-Modal-content');

const count = async (testId: string) => Number((await page.getByTestId(`${testId}-count`).innerText()).replace(/\./g, ''));

describe('home search', () => {
  it('searches by month and brand and fills the three columns', async () => {
    await loginAs(page);
    const search = page.getByTestId('search-button');
    expect(await search.isDisabled()).toBe(true);
    // Step 2 waits for the month.
    expect(await page.getByTestId('filter-brand').getAttribute('data-disabled')).toBe('true');
    await pick('filter-month', MONTH);
    expect(await search.isDisabled()).toBe(true);
    await pick('filter-brand', /Aurora Optics/);
    expect(await search.isEnabled()).toBe(true);
    await screenshot(page, 'home-filters');

    // Enter runs the search as well as the button.
    await page.locator('body').click({ position: { x: 900, y: 400 } });
    await page.keyboard.press('Enter');
    await page.getByTestId('result-columns').waitFor();
    expect(await count('family-column')).toBeGreaterThan(0);
    expect(await count('module-column')).toBeGreaterThan(0);
    expect(await count('cluster-column')).toBeGreaterThan(0);
    expect(await page.getByText('Macrofamily Selection').isVisible()).toBe(true);
    expect(await page.getByText('Module Selection').isVisible()).toBe(true);
    expect(await page.getByText('Cluster Selection').isVisible()).toBe(true);
    expect(await page.getByText('Open Select (max 30)').isVisible()).toBe(true);
    // Special families come first.
    const firstFamily = await page.getByTestId('family-row').first().innerText();
    expect(firstFamily).toMatch(/BEST SELLERS|NEWNESS/);
    await screenshot(page, 'home-results');

    // Close Filter: 'You searched:' with the values and Edit; Open Filter brings the sidebar back.
    expect(await page.getByTestId('edit-search').count()).toBe(0);
    await page.getByTestId('close-filter').click();
    const summary = page.getByTestId('search-summary');
    await page.getByTestId('edit-search').waitFor();
    expect(await summary.innerText()).toContain('You searched:');
    expect(await summary.innerText()).toContain(formatMonthId(MONTH));
    expect(await summary.innerText()).toContain('Aurora Optics');
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
    expect(await page.getByTestId('open-filter').isVisible()).toBe(true);
    await screenshot(page, 'home-filters-closed');
    await page.getByTestId('edit-search').click();
    await page.getByTestId('sidebar').waitFor();
  });

  it('shows the LEGO badge for a LEGO month, brand and collection (after the debounce)', async () => {
    await loginAs(page);
    const months = await callApi<{ monthId: string; open: boolean }[]>('GET', '/month/all');
    let lego: { monthId: string; collection: string } | null = null;
    for (const m of months.filter((x) => x.open)) {
      for (const collection of ['SUN', 'OPTICAL']) {
        if (!lego && (await callApi<boolean>('POST', '/month/checkLego', { monthId: m.monthId, brandCode: 'AUR', collection }))) lego = { monthId: m.monthId, collection };
      }
    }
    expect(lego).not.toBeNull();
    await pick('filter-month', lego!.monthId);
    await pick('filter-brand', /Aurora Optics/);
    await pick('filter-collection', lego!.collection === 'SUN' ? /Sunglasses/ : /Optical frames/);
    const badge = page.getByTestId('sidebar').getByTestId('lego-badge');
    await badge.waitFor();
    expect(await badge.innerText()).toMatch(/Checking LEGO\.\.\.|LEGO/);
    await page.getByTestId('sidebar').getByText('LEGO', { exact: true }).waitFor();
    await screenshot(page, 'home-lego');
  });

  it('explains an empty search and a search with too many results', async () => {
    await loginAs(page);
    await page.route('**/api/module/macroFamily', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
    await page.route('**/api/cluster/filtered', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
    await pick('filter-month', MONTH);
    await pick('filter-brand', /Velto/);
    await page.getByTestId('search-button').click();
    await page.getByTestId('no-results').waitFor();
    expect(await page.getByText('No search results').isVisible()).toBe(true);
    await screenshot(page, 'home-no-results');

    await page.unroute('**/api/module/macroFamily');
    await page.route('**/api/module/macroFamily', (route) =>
      route.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ error: 'tooManyResults', message: 'The search returned too many elements' }) }),
    );
    await page.getByTestId('search-button').click();
    await page.getByTestId('too-many-results').waitFor();
    expect(await page.getByText('The search returned too many elements').isVisible()).toBe(true);
    expect(await page.getByText('Change the filters and search again').isVisible()).toBe(true);
    await screenshot(page, 'home-too-many');
  });
});

describe('opening items', () => {
  it('opens one module in a new tab and two clusters in the cluster page', async () => {
    await loginAs(page);
    await searchMonthAndBrand();
    const row = page.getByTestId('module-row').first();
    const moduleName = (await row.locator('.mantine-Text-root').nth(1).innerText()).trim();
    await row.getByRole('checkbox').check();
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId('open-modules').click()]);
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    expect(url.pathname).toBe('/backoffice/module');
    expect(url.searchParams.get('moduleName')).toBe(moduleName);
    expect(url.searchParams.get('monthId')).toBe(MONTH);
    await tab.close();

    const clusterRows = page.getByTestId('cluster-row');
    await clusterRows.nth(0).getByRole('checkbox').check();
    await clusterRows.nth(1).getByRole('checkbox').check();
    expect(await page.getByTestId('cluster-counter').innerText()).toBe('2 / 30');
    await screenshot(page, 'home-selection');
    await page.getByTestId('open-clusters').click();
    await page.waitForURL(/\/backoffice\/cluster\?/);
    const clusters = new URL(page.url()).searchParams.get('clusters')!.split(',');
    expect(clusters).toHaveLength(2);
    for (const c of clusters) expect(c).toMatch(new RegExp(`^AUR_\\w+\\|${MONTH}$`));
    await page.getByText('Edit cluster').first().waitFor();
    await screenshot(page, 'home-opened-clusters');
  });
});

describe('creating and deleting', () => {
  it('refuses a bad module name with the spec message, then creates the module', async () => {
    await loginAs(page, 'creator');
    await searchMonthAndBrand();
    const existing = (await page.getByTestId('module-row').first().locator('.mantine-Text-root').nth(1).innerText()).trim();
    await page.getByTestId('create-module').click();
    const modal = dialog('create-module-modal');
    await modal.waitFor();
    await pick('module-family', 'PILOT');
    await pick('module-collection', /Sunglasses/);
    await pick('module-zones', /Europe/);
    await modal.getByTestId('module-name').fill('AUR SUN E2E');
    await modal.getByText("Attention! You can't add a space!").waitFor();
    await modal.getByTestId('module-label').fill('Aurora Sun E2E #1');
    await modal.getByText("Attention! You can't use special characters!").waitFor();
    await settle();
    await screenshot(page, 'home-create-module-errors');

    // An existing name: the server's reason.
    await modal.getByTestId('module-name').fill(existing);
    await modal.getByTestId('module-label').fill('Aurora Sun E2E 01');
    await modal.getByTestId('submit-module').click();
    await modal.getByTestId('create-error').waitFor();
    expect(await modal.getByTestId('create-error').innerText()).toContain(`The module name ${existing} already exists`);
    await settle();
    await screenshot(page, 'home-create-module-exists');

    // Unique per run, so the test also passes against a server that ran it before (E2E_BASE_URL).
    const name = `AUR_SUN_E2E_${String(Date.now()).slice(-6)}`;
    await modal.getByTestId('module-name').fill(name);
    await modal.getByTestId('module-label').fill(`Aurora Sun E2E ${name.slice(-6)}`);
    await modal.getByTestId('module-description').fill('Created by the browser test');
    await modal.getByTestId('submit-module').click();
    await page.getByText(`The module ${name} has been created`).waitFor();
    await modal.waitFor({ state: 'hidden' });
    // The search is refreshed: the new module is listed.
    await page.getByTestId('module-column').getByPlaceholder('Filter this list').fill('E2E');
    await page.getByTestId('module-row').filter({ hasText: name }).waitFor();
    await screenshot(page, 'home-module-created');
  });

  it('creates a cluster with LIAs, zones and a looked-up store, then opens it', async () => {
    await loginAs(page, 'creator');
    await searchMonthAndBrand();
    await page.getByTestId('create-cluster').click();
    const modal = dialog('create-cluster-modal');
    await modal.waitFor();
    await modal.getByTestId('submit-cluster').click();
    await modal.getByText('At least one lia must be selected').waitFor();
    await modal.getByText('Add at least one store').waitFor();
    await modal.getByText('Choose a collection').first().click();
    await page.getByRole('option', { name: /Sunglasses/ }).click();
    await pick('cluster-lias', /WHS_STANDARD/);
    await modal.getByText('Choose zones').click();
    await page.getByRole('option', { name: /Europe/ }).click();
    await page.keyboard.press('Escape');
    await modal.getByTestId('cluster-id').fill('AUR SUN');
    await modal.getByText("Attention! You can't add a space!").waitFor();

    // The store: its SAP code is looked up; Add waits for the lookup.
    await modal.getByTestId('store-sap').fill('S1000000');
    await modal.getByTestId('add-store').and(page.locator(':not([disabled])')).waitFor();
    await modal.getByTestId('add-store').click();
    await modal.getByTestId('cluster-stores').getByText('S1000000').waitFor();

    await modal.getByRole('button', { name: 'Generate a cluster id' }).click();
    await page.waitForFunction(() => /^AUR_SUN_WHO_IT_\d+$/.test((document.querySelector('[data-testid="cluster-id"]') as HTMLInputElement)?.value ?? ''));
    const clusterId = await modal.getByTestId('cluster-id').inputValue();
    expect(clusterId.length).toBeLessThanOrEqual(20);
    await modal.getByTestId('cluster-label').fill(`Aurora Sun Italy ${clusterId.slice(-2)}`);
    await page.mouse.move(5, 5);
    await settle();
    await screenshot(page, 'home-create-cluster');
    await modal.getByTestId('submit-cluster').click();
    await page.waitForURL(/\/backoffice\/cluster\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('clusterId')).toBe(clusterId);
    expect(url.searchParams.get('monthId')).toBe(MONTH);
  });

  it('deletes a module from a start month', async () => {
    await loginAs(page);
    await searchMonthAndBrand(/Velto/);
    const row = page.getByTestId('module-row').first();
    const moduleName = (await row.locator('.mantine-Text-root').nth(1).innerText()).trim();
    const before = await count('module-column');
    await row.getByRole('checkbox').check();
    await page.getByTestId('delete-modules').click();
    const modal = dialog('delete-modal');
    await modal.waitFor();
    await modal.getByTestId('start-month').waitFor();
    expect(await modal.getByTestId('confirm-delete').isDisabled()).toBe(true);
    await modal.getByText('SELECT THE SEARCHED MONTH').click();
    expect(await modal.getByTestId('start-month').innerText()).toContain(formatMonthId(MONTH));
    expect(await modal.getByTestId('confirm-delete').isEnabled()).toBe(true);
    await settle();
    await screenshot(page, 'home-delete');
    await modal.getByTestId('confirm-delete').click();
    await page.getByText(`The module ${moduleName} is deleted from ${formatMonthId(MONTH)} on`).waitFor();
    await page.waitForFunction(
      ([n]) => Number(document.querySelector('[data-testid="module-column-count"]')?.textContent?.replace(/\./g, '')) === n,
      [before - 1],
    );
    expect(await page.getByTestId('module-row').filter({ hasText: moduleName }).count()).toBe(0);
  });
});

describe('locks, sidebar and classifications', () => {
  it("shows who is editing a locked module and asks before unlocking it", async () => {
    await loginAs(page);
    const months = (await callApi<{ monthId: string; open: boolean }[]>('GET', '/month/all')).filter((m) => m.open);
    let found: { monthId: string; brand: string; owner: string } | null = null;
    for (const m of months) {
      const list = await callApi<{ locked: boolean; userLock: string | null; brand: string }[]>('POST', '/module/filtered', { monthId: [m.monthId] });
      const locked = list.find((x) => x.locked);
      if (locked) {
        found = { monthId: m.monthId, brand: locked.brand, owner: locked.userLock! };
        break;
      }
    }
    expect(found).not.toBeNull();
    await pick('filter-month', found!.monthId);
    await pick('filter-brand', new RegExp(`\\b${found!.brand}\\b`));
    await page.getByTestId('search-button').click();
    await page.getByTestId('result-columns').waitFor();
    const lock = page.getByTestId('module-column').getByTestId('lock-indicator').first();
    await lock.scrollIntoViewIfNeeded();
    expect(await lock.getAttribute('aria-label')).toMatch(/ is editing the module$/);
    await lock.hover();
    await page.getByRole('tooltip').filter({ hasText: 'is editing the module' }).waitFor();
    await lock.click();
    await page.getByText('Are you sure you want to unlock this module?').waitFor();
    expect(await page.getByText('The user will lose all unsaved work.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Yes, Unlock' }).isVisible()).toBe(true);
    await settle();
    await screenshot(page, 'home-unlock');
    await expectNoAxeFindings(page, 'home forced-unlock confirmation');
    await page.getByRole('button', { name: 'No, Go Back' }).click();
    await page.getByText('Are you sure you want to unlock this module?').waitFor({ state: 'hidden' });
  });

  it('shows the sidebar buttons by permission and manages client classifications', async () => {
    await loginAs(page, 'viewer');
    expect(await page.getByTestId('nav-manage-users').count()).toBe(0);
    expect(await page.getByTestId('nav-import').count()).toBe(0);
    expect(await page.getByTestId('nav-disco').count()).toBe(0);
    expect(await page.getByTestId('nav-statistics').isDisabled()).toBe(true);
    await context.close();
    ({ context, page } = await openPage(browser));

    await loginAs(page, 'admin');
    for (const id of ['nav-manage-users', 'nav-manage-brands', 'nav-import', 'nav-disco', 'nav-pending', 'nav-export', 'nav-deletion', 'nav-massive-edit']) {
      expect(await page.getByTestId(id).isVisible(), id).toBe(true);
    }
    expect(await page.getByTestId('nav-statistics').isDisabled()).toBe(true);
    await pick('filter-month', MONTH);
    await pick('filter-brand', /Aurora Optics/);
    expect(await page.getByTestId('nav-statistics').isEnabled()).toBe(true);
    await screenshot(page, 'home-sidebar');

    await page.getByTestId('nav-classifications').click();
    const popup = dialog('classification-popup');
    await popup.waitFor();
    const input = popup.getByTestId('classification-label');
    await input.fill('bad name');
    await popup.getByText('Admitted characters: A-Z, 0-9, _, -').waitFor();
    expect(await popup.getByTestId('create-classification').isDisabled()).toBe(true);
    await input.fill('');
    await input.press('Enter');
    await popup.getByText('Insert a valid client classification name').waitFor();
    await input.fill('E2E_CLASS');
    await popup.getByTestId('create-classification').click();
    await popup.getByTestId('classification-table').getByText('E2E_CLASS').waitFor();
    await settle();
    await screenshot(page, 'home-classifications');
    await popup.getByRole('button', { name: 'Delete E2E_CLASS' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await popup.getByTestId('classification-table').getByText('E2E_CLASS').waitFor({ state: 'detached' });
  });
});
