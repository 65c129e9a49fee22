/**
 * Cluster publish per cluster (issue 34 item 3, docs/LIFECYCLE.md "Publish per cluster"), in real Chromium on
 * the demo data, at 1440 px and at 1024 px. A page of four clusters of one open month: two ready, one waiting
 * for WIP modules that the admin may publish, one waiting for a WIP module with a SKU disabled in SAP. The
 * Publish dialog lists each cluster ready or waiting with its blockers (module links, the SKU as model /
 * colour / size and why); 'Publish the 2 ready clusters' publishes those two while the others wait; then
 * 'Publish the blocking modules' (confirmed) clears one waiting cluster, which is published in turn; the one
 * held by the SAP-disabled SKU stays WIP. The dialog passes the axe scan and is used by keyboard; disabled
 * buttons say why.
 *
 * It stays in the showcase brands (AUR, SLN, VLT) and finds its clusters through the API.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { apiCall, apiToken } from './helpers/api';
import { expectNoAxeFindings } from './helpers/axe';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const BRANDS = ['AUR', 'SLN', 'VLT'];

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

const call = <T = unknown>(method: string, path: string, body?: unknown) => apiCall<T>(token, method, path, body);

interface Blocking {
  clusterId: string;
  reasons: { code: string; moduleName?: string }[];
}
interface ClusterItem {
  clusterId: string;
  monthId: string;
  brandCode: string;
  status: string;
  locked?: boolean;
}
interface ClusterDetails extends ClusterItem {
  modules: { moduleName: string; clusterCompositionStatus: string }[];
}
interface Plan {
  monthId: string;
  ready: [string, string];
  /** Waiting for WIP modules the admin may publish. */
  clearable: { clusterId: string; modules: string[] };
  /** Waiting for a WIP module with a SKU disabled in SAP (added to it through the API). */
  sap: { clusterId: string; moduleName: string; upc: string };
}

async function openMonths(): Promise<string[]> {
  const months = await call<{ monthId: string; open: boolean }[]>('GET', '/month/all');
  return months.filter((m) => m.open).map((m) => m.monthId);
}

async function checkClusters(keys: { clusterId: string; monthId: string }[]): Promise<Blocking[]> {
  await call('POST', '/cluster/lock', keys);
  try {
    return (await call<{ blocking: Blocking[] }>('POST', '/cluster/checkForPublish', keys)).blocking;
  } finally {
    await call('POST', '/cluster/unlock', keys);
  }
}

/** A month with two ready clusters, one waiting for publishable modules, and a SAP-disabled WIP module of a brand with one more WIP cluster. */
async function planPage(): Promise<Plan> {
  for (const monthId of await openMonths()) {
    const clusters = (await call<ClusterItem[]>('POST', '/cluster/filtered', { monthId: [monthId], brand: BRANDS })).filter((c) => c.status === 'WIP' && !c.locked).slice(0, 60);
    if (clusters.length < 4) continue;
    const keys = clusters.map((c) => ({ clusterId: c.clusterId, monthId }));
    const blocking = await checkClusters(keys);
    const blocked = new Set(blocking.map((b) => b.clusterId));
    const ready = clusters.filter((c) => !blocked.has(c.clusterId)).map((c) => c.clusterId);
    if (ready.length < 2) continue;
    // Blocked by at most two WIP modules that pass their own checks (read with the module check, so that the
    // planning works on the API before issue 34 item 3 too: this test must fail there on the page, not here).
    const candidates = blocking.filter((b) => b.reasons.every((r) => r.code === 'moduleInWip') && b.reasons.length <= 2);
    const wipNames = [...new Set(candidates.flatMap((b) => b.reasons.map((r) => r.moduleName!)))];
    if (wipNames.length === 0) continue;
    const moduleCheck = await call<{ blocking: { moduleName: string }[] }>('POST', '/module/checkForPublish', wipNames.map((moduleName) => ({ moduleName, monthId })));
    const details = await call<{ moduleName: string; locked: boolean }[]>('POST', '/module/details', wipNames.map((moduleName) => ({ moduleName, monthId })));
    const failing = new Set([...moduleCheck.blocking.map((b) => b.moduleName), ...details.filter((d) => d.locked).map((d) => d.moduleName)]);
    const clearable = candidates.find((b) => b.reasons.every((r) => !failing.has(r.moduleName!)));
    if (!clearable) continue;
    // A WIP module of the month with a SKU disabled in SAP, and a WIP cluster of its brand to hold it.
    const modules = (await call<{ moduleName: string; brand: string; status: string; locked?: boolean }[]>('POST', '/module/filtered', { monthId: [monthId], brand: BRANDS })).filter(
      (m) => m.status === 'WIP' && !m.locked,
    );
    const checked = await call<{ blocking: { moduleName: string; reasons: { code: string; upc?: string }[] }[] }>(
      'POST',
      '/module/checkForPublish',
      modules.slice(0, 300).map((m) => ({ moduleName: m.moduleName, monthId })),
    );
    const clearNames = new Set(clearable.reasons.map((r) => r.moduleName!));
    for (const hit of checked.blocking.filter((b) => b.reasons.some((r) => r.code === 'skuSapDisabled') && !clearNames.has(b.moduleName))) {
      const brand = modules.find((m) => m.moduleName === hit.moduleName)!.brand;
      const holder = clusters.find((c) => c.brandCode === brand && !ready.slice(0, 2).includes(c.clusterId) && c.clusterId !== clearable.clusterId);
      if (!holder) continue;
      const key = [{ clusterId: holder.clusterId, monthId }];
      const [details] = await call<ClusterDetails[]>('POST', '/cluster/clusterDetails', key);
      const lines = details!.modules.filter((m) => m.moduleName !== hit.moduleName).map((m) => ({ moduleName: m.moduleName, clusterCompositionStatus: m.clusterCompositionStatus }));
      await call('POST', '/cluster/lock', key);
      await call('POST', '/cluster/save', [{ ...key[0], modules: [...lines, { moduleName: hit.moduleName, clusterCompositionStatus: 'ADDED' }] }]);
      await call('POST', '/cluster/unlock', key);
      const upc = hit.reasons.find((r) => r.code === 'skuSapDisabled')!.upc!;
      return { monthId, ready: [ready[0]!, ready[1]!], clearable: { clusterId: clearable.clusterId, modules: [...clearNames] }, sap: { clusterId: holder.clusterId, moduleName: hit.moduleName, upc } };
    }
  }
  throw new Error('the demo data has no month with two ready clusters, a cluster blocked by publishable modules and a SAP-disabled module');
}

const block = (clusterId: string) => page.locator(`[data-testid="cluster-block"][data-cluster="${clusterId}"]`);
const dialog = () => page.getByTestId('publish-blockers');
const entry = (clusterId: string) => dialog().locator(`[data-testid="publish-cluster"][data-cluster="${clusterId}"]`);

async function noAxeFindings(where: string) {
  await page.waitForTimeout(350); // the modal's transition ends
  await expectNoAxeFindings(page, where);
}

/** The spec's steps after the choice: the LIA confirmation, then maybe the duplicates popup; then the submission. */
async function confirmLiasAndDuplicates() {
  const lia = page.getByRole('dialog').filter({ has: page.getByTestId('publish-lia-confirm') });
  await lia.waitFor({ timeout: 60_000 });
  await lia.getByRole('button', { name: 'Publish', exact: true }).click();
  const anyway = page.getByRole('button', { name: 'Publish the clusters anyway' });
  const started = page.getByText('The submission process has been started').first();
  await expect.poll(async () => (await started.isVisible()) || (await anyway.isVisible()), { timeout: 30_000 }).toBe(true);
  if (await anyway.isVisible()) await anyway.click();
  await started.waitFor();
}

const statusOf = async (clusterId: string, monthId: string) => (await call<ClusterItem[]>('POST', '/cluster/clusterDetails', [{ clusterId, monthId }]))[0]!.status;

let plan: Plan;

beforeAll(async () => {
  token = await apiToken('admin');
  plan = await planPage();
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  context.setDefaultTimeout(30_000);
  await loginAs(page, 'admin');
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('cluster publish per cluster', { timeout: 180_000 }, () => {
  it('1440 px: the dialog lists each cluster ready or waiting with its blockers; the ready ones are published, the others wait', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const all = [...plan.ready, plan.clearable.clusterId, plan.sap.clusterId];
    await page.goto(`/backoffice/cluster?clusters=${all.map((id) => `${id}|${plan.monthId}`).join(',')}`);
    for (const id of all) await block(id).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog().waitFor();
    expect(await dialog().innerText()).toContain('It is not possible to publish the cluster, because there are modules in work in progress.');
    for (const id of plan.ready) expect(await entry(id).getAttribute('data-state')).toBe('ready');
    for (const id of [plan.clearable.clusterId, plan.sap.clusterId]) expect(await entry(id).getAttribute('data-state')).toBe('waiting');
    for (const m of plan.clearable.modules) {
      const link = entry(plan.clearable.clusterId).locator(`[data-testid="blocking-module"][data-module="${m}"] a`);
      expect(await link.getAttribute('href')).toBe(`/backoffice/module?moduleName=${m}&monthId=${plan.monthId}`);
      expect(await link.getAttribute('target')).toBe('_blank');
    }
    const sapModule = entry(plan.sap.clusterId).locator(`[data-testid="blocking-module"][data-module="${plan.sap.moduleName}"]`);
    const sapText = (await sapModule.innerText()).replace(/\s+/g, ' ');
    // The SKU as model / colour / size, its UPC, and why.
    expect(sapText).toMatch(new RegExp(`SKU \\S+ / \\S+ .* / \\S+ \\(UPC ${plan.sap.upc}\\): disabled in SAP`));
    expect(sapText).toContain(`${plan.sap.moduleName}`);

    // Keyboard: the dialog opens on its main action; Tab moves through the links and buttons inside it.
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    expect(await focused()).toBe('Publish the 2 ready clusters');
    await noAxeFindings('publish dialog 1440 px');
    await screenshot(page, 'cluster-publish-per-cluster-1440');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toMatch(/^Publish the blocking modules \(\d\)$/);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    await confirmLiasAndDuplicates();
    for (const id of plan.ready) await block(id).getByTestId('cluster-status').filter({ hasText: /^SUBMITTED$/ }).waitFor({ timeout: 45_000 });
    await screenshot(page, 'cluster-publish-per-cluster-1440-published');
    expect(await statusOf(plan.clearable.clusterId, plan.monthId)).toBe('WIP');
    expect(await statusOf(plan.sap.clusterId, plan.monthId)).toBe('WIP');
    // Save has nothing to do: it says so (tooltip and description), and keeps its tab stop.
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.getAttribute('aria-disabled')).toBe('true');
    expect(await save.getAttribute('data-disabled-reason')).toContain('Nothing to save');
  });

  it('1024 px: nothing ready says why; publishing the blocking modules (confirmed) makes their cluster ready, the SAP-held one waits', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.waitForTimeout(300);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog().waitFor();
    // With nothing ready, the dialog opens on the blocking modules.
    const modulesButton = dialog().getByRole('button', { name: /^Publish the blocking modules \(\d+\)$/ });
    await expect.poll(() => modulesButton.evaluate((el) => el === document.activeElement)).toBe(true);
    const none = dialog().getByRole('button', { name: 'Publish the 0 ready clusters' });
    expect(await none.getAttribute('aria-disabled')).toBe('true');
    expect(await none.getAttribute('data-disabled-reason')).toBe('No cluster is ready yet: each one waits for what is listed under it.');
    await none.hover();
    await page.getByRole('tooltip').filter({ hasText: 'No cluster is ready yet' }).waitFor();
    await noAxeFindings('publish dialog 1024 px');
    await screenshot(page, 'cluster-publish-per-cluster-1024');
    await none.click({ force: true }); // a disabled action does nothing
    expect(await dialog().isVisible()).toBe(true);

    // The modules the admin may publish and that would pass: those of the cleared cluster (and any of the SAP-held one that pass).
    await modulesButton.click();
    const confirm = page.getByRole('dialog').filter({ has: page.getByTestId('publish-modules-confirm') });
    await confirm.waitFor();
    for (const m of plan.clearable.modules) expect(await confirm.innerText()).toContain(m);
    expect(await confirm.innerText()).not.toContain(`(${plan.sap.moduleName},`);
    await page.waitForTimeout(300);
    await screenshot(page, 'cluster-publish-per-cluster-1024-confirm-modules');
    await confirm.getByRole('button', { name: /^Publish \d+ modules?$/ }).click();

    // Checked again: the cleared cluster is ready now, the SAP-held one still waits.
    await dialog().locator(`[data-testid="publish-cluster"][data-cluster="${plan.clearable.clusterId}"][data-state="ready"]`).waitFor({ timeout: 60_000 });
    expect(await entry(plan.sap.clusterId).getAttribute('data-state')).toBe('waiting');
    await page.waitForTimeout(300);
    await screenshot(page, 'cluster-publish-per-cluster-1024-rechecked');
    await dialog().getByRole('button', { name: 'Publish the 1 ready cluster' }).click();
    await confirmLiasAndDuplicates();
    await block(plan.clearable.clusterId).getByTestId('cluster-status').filter({ hasText: /^SUBMITTED$/ }).waitFor({ timeout: 45_000 });
    await screenshot(page, 'cluster-publish-per-cluster-1024-published');
    expect(await statusOf(plan.sap.clusterId, plan.monthId)).toBe('WIP');
    for (const m of plan.clearable.modules) {
      const [dto] = await call<{ status: string }[]>('POST', '/module/details', [{ moduleName: m, monthId: plan.monthId }]);
      expect(dto!.status).toBe('SUBMITTED');
    }
  });
});
