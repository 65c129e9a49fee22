import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { formatMonthId } from '@bo/shared/months';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { apiCall, apiToken } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

/**
 * The cluster composition editor on the demo data. It works on Nordika OPTICAL Europe clusters of
 * M12_2027 (no other browser test uses that brand and month): their compositions are set through the API
 * first, then edited, saved and published in the browser.
 */
const MONTH = 'M12_2027';
const C1 = 'NRD_OPT_EU_01';
const C2 = 'NRD_OPT_EU_02';
const C3 = 'NRD_OPT_EU_03';
const SUBMITTED_MODULE = 'NRD_OPT_ROUND_02';
const WIP_MODULE = 'NRD_OPT_RECT_01'; // dragged into C1
const ALL_MODULE = 'NRD_OPT_BEST_01'; // dragged into 'Add to all clusters'

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

const call = <T = unknown>(method: string, path: string, body?: unknown) => apiCall<T>(token, method, path, body);

async function waitJob(id: number) {
  for (let i = 0; i < 120; i++) {
    const job = await call<{ status: string }>('GET', `/jobs/${id}`);
    if (job.status === 'DONE' || job.status === 'FAILED') return job;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`job ${id} did not end`);
}

/** Sets a cluster's modules through the API (lock, save, unlock). */
async function setComposition(clusterId: string, modules: string[]) {
  const key = [{ clusterId, monthId: MONTH }];
  await call('POST', '/cluster/lock', key);
  await call('POST', '/cluster/save', [{ clusterId, monthId: MONTH, modules: modules.map((moduleName) => ({ moduleName, clusterCompositionStatus: 'ADDED' })) }]);
  await call('POST', '/cluster/unlock', key);
}

/** Saving a SUBMITTED module (admin holds the reopen rule) reopens it as WIP. */
async function reopenModule(moduleName: string) {
  const key = [{ moduleName, monthId: MONTH }];
  await call('POST', '/module/lock', key);
  await call('POST', '/module/save', { moduleName, monthId: MONTH, moduleDescription: `Reopened by the browser test ${Date.now()}` });
  await call('POST', '/module/unlock', key);
}

async function publishModule(moduleName: string) {
  const key = [{ moduleName, monthId: MONTH }];
  await call('POST', '/module/lock', key);
  const { jobId } = await call<{ jobId: number }>('POST', '/module/publish', { moduleName, monthId: MONTH });
  await waitJob(jobId);
  await call('POST', '/module/unlock', key);
}

const block = (clusterId: string) => page.locator(`[data-testid="cluster-block"][data-cluster="${clusterId}"]`);
const chipIn = (area: Locator, moduleName: string) => area.locator(`[data-testid="module-chip"][data-module="${moduleName}"]`);

/** A real pointer drag: press on the source, move in steps, release over the target. */
async function drag(source: Locator, target: Locator) {
  await source.scrollIntoViewIfNeeded();
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const from = (await source.boundingBox())!;
  await page.mouse.move(from.x + 20, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 30, from.y + from.height / 2 + 5, { steps: 4 });
  const to = (await target.boundingBox())!;
  // The visible middle of the target (below the sticky toolbar, above the window's bottom).
  const top = Math.max(to.y, 140);
  const bottom = Math.min(to.y + to.height, 890);
  await page.mouse.move(to.x + to.width / 2, (top + bottom) / 2, { steps: 15 });
  await page.waitForTimeout(150);
  await page.mouse.up();
}

async function searchModules(text: string) {
  const panel = page.getByTestId('module-search');
  await panel.getByLabel('Module label').fill(text);
  await panel.getByLabel('Module label').press('Enter');
  await panel.getByTestId('search-results').waitFor();
  return panel;
}

/** The LIA confirmation of Publish (a dialog titled 'Publish' with its own Publish button). */
const liaConfirm = () => page.getByRole('dialog').filter({ has: page.getByTestId('publish-lia-confirm') });

const popupText = async () => (await page.getByRole('dialog').last().innerText()).replace(/\s+/g, ' ');

beforeAll(async () => {
  token = await apiToken('admin');
  // C2 and C3 start identical (the duplicate check at publish time shows them); C1 differs once edited.
  for (const c of [C1, C2, C3]) await setComposition(c, [SUBMITTED_MODULE]);
  // The two modules the test adds start WIP (a previous run may have published them).
  for (const m of [WIP_MODULE, ALL_MODULE]) await reopenModule(m);
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  context.setDefaultTimeout(30_000);
  await loginAs(page, 'admin');
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

// The machine running the tests can be slow: generous per-test time, same assertions.
describe('cluster composition editor', { timeout: 120_000 }, () => {
  it('opens three clusters with header, blocks, footer and the search panel', async () => {
    await page.goto(`/backoffice/cluster?clusters=${C1}|${MONTH},${C2}|${MONTH},${C3}|${MONTH}`);
    await block(C3).waitFor();
    expect(await page.locator('[data-testid="cluster-block"]').count()).toBe(3);
    expect(await page.getByRole('heading', { name: 'Edit cluster' }).isVisible()).toBe(true);
    expect(await page.getByTestId('you-searched').innerText()).toBe(`You searched: ${formatMonthId(MONTH)}`);
    for (const name of ['COPY', 'Save', 'Publish']) expect(await page.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(await block(C1).getByPlaceholder('Cluster Description').isEditable()).toBe(true);
    expect(await block(C1).getByTestId('cluster-status').innerText()).toBe('WIP');
    expect(await block(C1).getByTestId('range-facing').innerText()).toMatch(/^\d+ - \d+$/);
    await block(C1).getByTestId('total-sku').filter({ hasText: /^[1-9]/ }).waitFor();
    expect(await page.getByTestId('module-search').getByText('Filter to start searching').isVisible()).toBe(true);
    // Search stays disabled until a country, a family or more than 4 characters.
    const search = page.getByTestId('module-search').getByRole('button', { name: 'Search' });
    await page.getByTestId('module-search').getByLabel('Module label').fill('Rect');
    expect(await search.isDisabled()).toBe(true);
    await page.getByTestId('module-search').getByLabel('Module label').fill('Nothing like this');
    await page.getByTestId('module-search').getByLabel('Module label').press('Enter');
    await page.getByTestId('module-search').getByText("You search did't return any results").waitFor();
    await screenshot(page, 'cluster-editor-open');
  });

  it('drags a module from the search into a cluster, refuses it twice, removes and restores it', async () => {
    const panel = await searchModules('Nordika Optical Rectangle 01');
    const result = chipIn(panel, WIP_MODULE);
    await drag(result, block(C1).getByTestId('cluster-modules'));
    await chipIn(block(C1).getByTestId('cluster-modules'), WIP_MODULE).waitFor();
    expect(await block(C1).getByText('unsaved').isVisible()).toBe(true);
    await screenshot(page, 'cluster-editor-dragged');

    // Again: 'The module is already present'.
    await drag(chipIn(panel, WIP_MODULE), block(C1).getByTestId('cluster-modules'));
    await page.getByText('The module is already present').waitFor();
    await page.getByRole('button', { name: 'Ok', exact: true }).click();
    // The popup's overlay fades out: a raw mouse drag started before would land on it.
    await page.getByText('The module is already present').waitFor({ state: 'detached' });

    // Remove by dragging into the bin, then restore with the button.
    await drag(chipIn(block(C1).getByTestId('cluster-modules'), WIP_MODULE), block(C1).getByTestId('cluster-bin'));
    await chipIn(block(C1).getByTestId('cluster-bin'), WIP_MODULE).waitFor();
    await screenshot(page, 'cluster-editor-removed');
    await block(C1).getByRole('button', { name: `Restore ${WIP_MODULE}` }).click();
    await chipIn(block(C1).getByTestId('cluster-modules'), WIP_MODULE).waitFor();
    expect(await chipIn(block(C1).getByTestId('cluster-bin'), WIP_MODULE).count()).toBe(0);

    // Undo and redo (Ctrl+Z / Ctrl+Shift+Z) walk the composition history.
    await page.getByRole('heading', { name: 'Edit cluster' }).click();
    await page.keyboard.press('Control+z');
    await chipIn(block(C1).getByTestId('cluster-bin'), WIP_MODULE).waitFor();
    await page.keyboard.press('Control+Shift+z');
    await chipIn(block(C1).getByTestId('cluster-modules'), WIP_MODULE).waitFor();
  });

  it("adds a module to all clusters of the brand through 'Add to all clusters', and removes and restores it there", async () => {
    const panel = await searchModules('Nordika Optical Best Sellers 01');
    const all = page.getByTestId('all-modules');
    await all.scrollIntoViewIfNeeded();
    await drag(chipIn(panel, ALL_MODULE), all);
    await chipIn(all, ALL_MODULE).waitFor();
    for (const c of [C1, C2, C3]) await chipIn(block(c).getByTestId('cluster-modules'), ALL_MODULE).waitFor();

    // Removing in the area removes it from every cluster and keeps it in the area's bin.
    await drag(chipIn(all, SUBMITTED_MODULE), page.getByTestId('all-bin'));
    await chipIn(page.getByTestId('all-bin'), SUBMITTED_MODULE).waitFor();
    for (const c of [C1, C2, C3]) await chipIn(block(c).getByTestId('cluster-bin'), SUBMITTED_MODULE).waitFor();
    await screenshot(page, 'cluster-editor-all-clusters');
    await page.getByTestId('all-bin').getByRole('button', { name: `Restore ${SUBMITTED_MODULE}` }).click();
    for (const c of [C1, C2, C3]) await chipIn(block(c).getByTestId('cluster-modules'), SUBMITTED_MODULE).waitFor();
  });

  it('changes LIAs and the description, then saves (description confirmation, success flash)', async () => {
    // Mantine's MultiSelect (not searchable) keeps its input hidden: the visible field around it opens the list.
    const lia = block(C1).locator('.mantine-MultiSelect-input', { has: page.getByLabel(`LIA of ${C1}`) });
    await lia.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await lia.click();
    const listbox = page.getByRole('listbox').filter({ visible: true });
    await listbox.waitFor();
    // An LIA not chosen yet (a chosen one is shown checked and clicking it would take it away).
    const option = listbox.locator('[role="option"]:not([aria-selected="true"])').first();
    const chosen = (await option.innerText()).split(' ')[0]!;
    await option.click();
    await page.keyboard.press('Escape');
    await block(C1).getByPlaceholder('Cluster Description').fill('Edited by the browser test');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Are you sure you want also to change the cluster description?').waitFor();
    await screenshot(page, 'cluster-editor-confirm-description');
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    await page.getByText('Cluster correctly saved').waitFor();
    await screenshot(page, 'cluster-editor-saved');
    const [saved] = await call<{ clusterDescription: string; lias: { liaCode: string; isChecked: boolean }[]; modules: { moduleName: string; clusterCompositionStatus: string }[] }[]>(
      'POST',
      '/cluster/clusterDetails',
      [{ clusterId: C1, monthId: MONTH }],
    );
    expect(saved!.clusterDescription).toBe('Edited by the browser test');
    expect(saved!.lias.filter((l) => l.isChecked).map((l) => l.liaCode)).toContain(chosen);
    expect(saved!.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName).sort()).toEqual([ALL_MODULE, SUBMITTED_MODULE, WIP_MODULE].sort());
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
  });

  it('refuses to publish with a WIP module, then publishes after the modules are published (duplicate popup first)', async () => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Attention! Module in WIP').waitFor();
    expect(await popupText()).toContain('It is not possible to publish the cluster, because there are modules in work in progress. Please publish all modules WIP before publishing the entire cluster.');
    await page.waitForTimeout(300); // the dialog's opening transition, for the screenshot
    await screenshot(page, 'cluster-editor-module-wip');
    await page.getByTestId('publish-blockers').getByRole('button', { name: 'Close', exact: true }).click();

    for (const m of [WIP_MODULE, ALL_MODULE]) await publishModule(m);
    await page.reload();
    await block(C3).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await liaConfirm().waitFor();
    await page.waitForTimeout(400); // the dialog's opening transition, for the screenshot
    await screenshot(page, 'cluster-editor-publish-lias');
    await liaConfirm().getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByTestId('duplicate-popup').waitFor();
    const text = await page.getByTestId('duplicate-popup').innerText();
    expect(text).toContain(`${C2} is identical to`);
    expect(text).toContain(C3);
    await screenshot(page, 'cluster-editor-duplicates');
    await page.getByRole('button', { name: 'Do not publish' }).click();
    expect(await block(C1).getByTestId('cluster-status').innerText()).toBe('WIP');

    await page.getByTestId('duplicate-popup').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await liaConfirm().getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Publish the clusters anyway' }).click();
    await page.getByText('The submission process has been started').waitFor();
    await block(C1).getByTestId('cluster-status').filter({ hasText: /SUBMIT/ }).waitFor();
    await block(C1).getByTestId('cluster-status').filter({ hasText: /^SUBMITTED$/ }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'cluster-editor-published');
  });

  it('warns before leaving with unsaved changes', async () => {
    await block(C1).getByPlaceholder('Cluster Description').fill('Not saved');
    await page.getByRole('link', { name: 'Home' }).first().click();
    await page.getByText('You are leaving the page without saving. Are you sure you want to continue?').waitFor();
    await screenshot(page, 'cluster-editor-leaving');
    await page.getByRole('button', { name: 'No', exact: true }).click();
    await page.getByText('You are leaving the page without saving. Are you sure you want to continue?').waitFor({ state: 'detached' });
    expect(page.url()).toContain('/backoffice/cluster');
    expect(await block(C1).getByPlaceholder('Cluster Description').inputValue()).toBe('Not saved');
  });
});
