/**
 * The editors as a planner sees them (issue 13, "Screens"): the module page on the current month with its
 * performance popup, the Active SKUs count and height, the cluster page's module chips (SKUs, MH / EL), the
 * module search count and height, the header of an item another user holds (whole name, Unlock / Ask to
 * unlock) and the last LIA taken away as an undoable step. Screenshots at 1440 and 1024 px.
 *
 * Uses items of M11_2026, which no other browser test touches; it finds them through the API.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { apiCall, apiToken } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const MONTH = 'M11_2026';

let browser: Browser;
let context: BrowserContext;
let page: Page;
const tokens: Record<string, string> = {};

async function login(username: string) {
  tokens[username] = await apiToken(username);
}

const call = <T = unknown>(user: string, method: string, path: string, body?: unknown) => apiCall<T>(tokens[user] ?? '', method, path, body);

interface ModuleRow {
  moduleName: string;
  monthId: string;
  brand: string;
  status: string;
  userLock: string | null;
  length: number;
  elLength: number;
}
interface ClusterModule {
  moduleName: string;
  moduleLabel: string;
  clusterCompositionStatus: string;
  length: number;
  elLength: number;
}
interface Cluster {
  clusterId: string;
  monthId: string;
  clusterLabel: string;
  userLock: string | null;
  status: string;
  lias: { liaCode: string; isChecked: boolean }[];
  modules: ClusterModule[];
}

/** Modules of the month for the first brand that has some, WIP and unlocked, with SKUs. */
let modules: ModuleRow[] = [];
/** Clusters of the month, not being submitted and unlocked, with ADDED modules holding SKUs. */
let clusters: Cluster[] = [];

const card = (name: string, p: Page = page) => p.locator(`[data-testid="module-card"][data-module="${name}"]`);
const block = (clusterId: string, p: Page = page) => p.locator(`[data-testid="cluster-block"][data-cluster="${clusterId}"]`);

/** How far an element's bottom is from its scroll container's bottom, and its height. */
const box = async (l: Locator) => (await l.boundingBox())!;

async function atWidth<T>(width: number, work: () => Promise<T>): Promise<T> {
  await page.setViewportSize({ width, height: 900 });
  try {
    return await work();
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
}

beforeAll(async () => {
  for (const u of ['admin', 'creator', 'viewer']) await login(u);
  const brands = ['AUR', 'VLT', 'NRD', 'SLN', 'MRA'];
  for (const brand of brands) {
    const found = await call<ModuleRow[]>('admin', 'POST', '/module/filtered', { monthId: [MONTH], brand: [brand] });
    modules = found.filter((m) => m.status === 'WIP' && !m.userLock && m.length + m.elLength > 0);
    if (modules.length >= 3) break;
  }
  const list = await call<{ clusterId: string; monthId: string; status: string; userLock: string | null }[]>('admin', 'POST', '/cluster/filtered', { monthId: [MONTH] });
  const keys = list.filter((c) => c.status !== 'SUBMIT_IN_PROGRESS' && !c.userLock).slice(0, 40).map(({ clusterId, monthId }) => ({ clusterId, monthId }));
  const details = await call<Cluster[]>('admin', 'POST', '/cluster/clusterDetails', keys);
  clusters = details.filter((c) => c.modules.some((m) => m.clusterCompositionStatus === 'ADDED' && m.length + m.elLength > 0) && c.lias.some((l) => l.isChecked));
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  context.setDefaultTimeout(30_000);
  await loginAs(page, 'admin');
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('editor screens', { timeout: 120_000 }, () => {
  it('has modules and clusters of the current month in the demo data', () => {
    expect(modules.length).toBeGreaterThanOrEqual(3);
    expect(clusters.length).toBeGreaterThanOrEqual(2);
  });

  it('opens a module of the current month and its performance popup lists SKUs with sales', async () => {
    const m = modules[0]!;
    await page.goto(`/backoffice/module?moduleName=${m.moduleName}&monthId=${MONTH}`);
    await card(m.moduleName).waitFor();
    await card(m.moduleName).getByRole('button', { name: 'Performance' }).click();
    const table = page.getByTestId('performance-table');
    await table.or(page.getByTestId('performance-empty')).first().waitFor();
    expect(await page.getByTestId('performance-empty').count()).toBe(0);
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'editor-screens-performance');
    await page.keyboard.press('Escape');
    await table.waitFor({ state: 'detached' });
  });

  it('counts the Active SKUs found and lets their list fill the panel (1440 and 1024 px)', async () => {
    const m = modules[0]!;
    await page.getByRole('button', { name: 'Active SKUs' }).click();
    const panel = page.getByTestId('panel-active');
    await panel.getByLabel('Brand').click();
    await page.getByRole('option').first().click();
    await panel.getByLabel('Collection').click();
    await page.getByRole('option').first().click();
    await page.keyboard.press('Escape');
    await panel.getByRole('button', { name: 'Search' }).click();
    const count = panel.getByTestId('active-sku-count');
    await count.waitFor();
    const found = Number((await count.innerText()).replace(/\D/g, ''));
    expect(await count.innerText()).toMatch(/^[\d.]+ SKUs? found$/);
    if (found > 0) await panel.getByTestId('active-sku-row').first().waitFor();
    // The list is virtual: it draws the rows that fit, never more than were found (counted once: it may still be drawing).
    const drawn = await panel.getByTestId('active-sku-row').count();
    expect(drawn).toBeLessThanOrEqual(found);
    expect(drawn > 0).toBe(found > 0);

    for (const width of [1440, 1024]) {
      await atWidth(width, async () => {
        await page.waitForTimeout(300);
        const results = await box(panel.getByTestId('active-sku-results'));
        const outer = await box(panel);
        // The list reaches the panel's bottom (no empty space under a small box), the panel the window's.
        expect(outer.y + outer.height - (results.y + results.height)).toBeLessThan(24);
        expect(outer.y + outer.height).toBeGreaterThan(900 - 24);
        expect(results.height).toBeGreaterThan(240);
        await screenshot(page, `editor-screens-module-${width}`);
      });
    }
    expect(m.moduleName).toBeTruthy();
  });

  it('shows each module chip of a cluster with its SKUs and MH / EL, as the cluster answer counts them', async () => {
    const c = clusters[0]!;
    await page.goto(`/backoffice/cluster?clusterId=${c.clusterId}&monthId=${MONTH}`);
    await block(c.clusterId).waitFor();
    for (const m of c.modules.filter((x) => x.clusterCompositionStatus === 'ADDED').slice(0, 5)) {
      const chip = block(c.clusterId).getByTestId('cluster-modules').locator(`[data-testid="module-chip"][data-module="${m.moduleName}"]`);
      const total = m.length + m.elLength;
      expect(await chip.getByTestId('chip-counts').innerText()).toBe(`${total.toLocaleString('it-IT')} SKU${total === 1 ? '' : 's'} · MH ${m.length} / EL ${m.elLength}`);
    }
  });

  it('counts the modules the search finds and lets their list fill the column (1440 and 1024 px)', async () => {
    const c = clusters[0]!;
    const label = c.modules[0]!.moduleLabel.slice(0, 6);
    const panel = page.getByTestId('module-search');
    await panel.getByLabel('Module label').fill(label);
    await panel.getByLabel('Module label').press('Enter');
    const count = panel.getByTestId('search-count');
    await count.waitFor();
    expect(await count.innerText()).toMatch(/^\d+ modules? found$/);
    expect(Number((await count.innerText()).replace(/\D/g, ''))).toBeGreaterThan(0);
    await panel.getByTestId('search-results').locator('[data-testid="module-chip"]').first().waitFor();

    await page.waitForTimeout(300);
    const results = await box(panel.getByTestId('search-results-area'));
    const outer = await box(panel);
    expect(outer.y + outer.height - (results.y + results.height)).toBeLessThan(24);
    expect(results.height).toBeGreaterThan(240);
    await screenshot(page, 'editor-screens-cluster-1440');
    // At 1024 px the search column stays beside the clusters (issue 34 item 1), so its list is shorter
    // than the full-width list it was under them; it still shows several results and scrolls.
    await atWidth(1024, async () => {
      await page.waitForTimeout(300);
      expect((await box(panel.getByTestId('search-results-area'))).height).toBeGreaterThan(150);
      const first = await box(block(c.clusterId));
      expect((await box(panel)).x).toBeGreaterThanOrEqual(first.x + first.width - 1);
      await screenshot(page, 'editor-screens-cluster-1024');
    });
  });

  it('takes away the last LIA as an undoable step; Save says which cluster needs one', async () => {
    const c = clusters[0]!;
    const picker = block(c.clusterId).locator('.mantine-MultiSelect-input', { has: page.getByLabel(`LIA of ${c.clusterId}`) });
    await picker.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const checked = c.lias.filter((l) => l.isChecked).length;
    for (let i = 0; i < checked; i++) await picker.locator('.mantine-Pill-remove').first().click();
    expect(await picker.locator('.mantine-Pill-root').count()).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const popup = page.getByRole('dialog').filter({ hasText: 'At least one lia must be selected' });
    await popup.waitFor();
    expect(await popup.innerText()).toContain(c.clusterId);
    await screenshot(page, 'editor-screens-lia-missing');
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    for (let i = 0; i < checked; i++) await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => picker.locator('.mantine-Pill-root').count()).toBe(checked);
    expect(await page.getByRole('button', { name: 'Undo' }).isDisabled()).toBe(true);
  });

  it('names the whole lock owner of a module, and Unlock (admin) takes the module', async () => {
    const m = modules[1]!;
    await call('creator', 'POST', '/module/lock', [{ moduleName: m.moduleName, monthId: MONTH }]);
    await page.goto(`/backoffice/module?moduleName=${m.moduleName}&monthId=${MONTH}`);
    const header = card(m.moduleName).getByTestId('locked-by');
    await header.waitFor();
    const text = header.getByTestId('locked-by-text');
    expect(await text.innerText()).toBe('creator is editing the module');
    expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(await card(m.moduleName).getByLabel('Module description').getAttribute('readonly')).not.toBeNull();
    await screenshot(page, 'editor-screens-module-locked');

    await header.getByRole('button', { name: 'Unlock' }).click();
    const question = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to unlock this module?' });
    await question.getByText('The user will lose all unsaved work.').waitFor();
    await question.getByRole('button', { name: 'Yes, Unlock' }).click();
    await header.waitFor({ state: 'detached' });
    await expect.poll(() => card(m.moduleName).getByLabel('Module description').getAttribute('readonly')).toBeNull();
  });

  it('offers Ask to unlock, not Unlock, to a user who may not force it', async () => {
    const m = modules[2]!;
    await call('creator', 'POST', '/module/lock', [{ moduleName: m.moduleName, monthId: MONTH }]);
    const second = await openPage(browser);
    try {
      await loginAs(second.page, 'viewer');
      await second.page.goto(`/backoffice/module?moduleName=${m.moduleName}&monthId=${MONTH}`);
      const header = card(m.moduleName, second.page).getByTestId('locked-by');
      await header.waitFor();
      expect(await header.getByRole('button', { name: 'Unlock', exact: true }).count()).toBe(0);
      await header.getByRole('button', { name: 'Ask to unlock' }).click();
      const ask = second.page.getByTestId('ask-to-unlock');
      await ask.waitFor();
      expect(await ask.innerText()).toContain('Only creator, an administrator or a user with an edit right here can unlock it.');
      await screenshot(second.page, 'editor-screens-ask-to-unlock');
    } finally {
      await second.context.close();
      await call('creator', 'POST', '/module/unlock', [{ moduleName: m.moduleName, monthId: MONTH }]);
    }
  });

  it('names the lock owner of a cluster and Unlock makes it editable', async () => {
    const c = clusters[1]!;
    await call('creator', 'POST', '/cluster/lock', [{ clusterId: c.clusterId, monthId: MONTH }]);
    await page.goto(`/backoffice/cluster?clusterId=${c.clusterId}&monthId=${MONTH}`);
    const header = block(c.clusterId).getByTestId('locked-by');
    await header.waitFor();
    expect(await header.getByTestId('locked-by-text').innerText()).toBe('creator is editing the cluster');
    await screenshot(page, 'editor-screens-cluster-locked');
    await header.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('dialog').filter({ hasText: 'Are you sure you want to unlock this cluster?' }).getByRole('button', { name: 'Yes, Unlock' }).click();
    await header.waitFor({ state: 'detached' });
    await expect.poll(() => block(c.clusterId).getByLabel(`Description of ${c.clusterId}`).isDisabled()).toBe(false);
  });
});
