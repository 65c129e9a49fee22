/**
 * Item versions (issue 18) in real Chromium on the demo data: a module card's and a cluster block's History panel
 * (versions newest first, two versions compared side by side, "Restore this version", the normal save recording the
 * revert), and the publish confirmations showing what changes against the last published version and the previous month.
 *
 * Uses what no other browser test touches: Nordika (NRD) modules and clusters of M07_2027. Their starting versions are
 * written through the API first (publish, then a change), so the panel has something to compare.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { HistoryPage } from '@bo/shared/item-versions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/auth';
import { apiCall, apiToken } from './helpers/api';
import { launchBrowser, openPage, screenshot } from './helpers/browser';

const MONTH = 'M07_2027';
const BRAND = 'NRD';

interface Line {
  upc: string;
  mustHave: boolean;
  minValue: number;
  moduleCompositionStatus: string;
}
interface ModuleRow {
  moduleName: string;
  monthId: string;
  brand: string;
  collection: string;
  status: string;
  userLock: string | null;
  length: number;
  elLength: number;
}
interface ModuleDetail extends ModuleRow {
  moduleDescription: string;
  version: number;
  productDtoList: Line[];
}
interface Cluster {
  clusterId: string;
  monthId: string;
  collection: string;
  status: string;
  userLock: string | null;
  lias: { liaCode: string; isChecked: boolean }[];
  stores: unknown[];
  modules: { moduleName: string; clusterCompositionStatus: string }[];
}

let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
const call = <T = unknown>(method: string, path: string, body?: unknown) => apiCall<T>(token, method, path, body);

async function waitJob(id: number) {
  for (let i = 0; i < 240; i++) {
    const job = await call<{ status: string }>('GET', `/jobs/${id}`);
    if (job.status === 'DONE' || job.status === 'FAILED') return job;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`job ${id} did not end`);
}

const moduleDetail = async (moduleName: string) => (await call<ModuleDetail[]>('POST', '/module/details', [{ moduleName, monthId: MONTH }]))[0]!;

async function publishModuleByApi(moduleName: string) {
  const key = [{ moduleName, monthId: MONTH }];
  await call('POST', '/module/lock', key);
  try {
    const { jobId } = await call<{ jobId: number }>('POST', '/module/publish', { moduleName, monthId: MONTH });
    await waitJob(jobId);
  } finally {
    await call('POST', '/module/unlock', key);
  }
}

async function saveModuleByApi(moduleName: string, change: (lines: Line[]) => Line[]) {
  const key = [{ moduleName, monthId: MONTH }];
  await call('POST', '/module/lock', key);
  try {
    const d = await moduleDetail(moduleName);
    const productDtoList = change(d.productDtoList.map(({ upc, mustHave, minValue, moduleCompositionStatus }) => ({ upc, mustHave, minValue, moduleCompositionStatus })));
    await call('POST', '/module/save', { moduleName, monthId: MONTH, moduleDescription: d.moduleDescription, productDtoList, version: d.version });
  } finally {
    await call('POST', '/module/unlock', key);
  }
}

/** Saving a SUBMITTED module (admin holds the reopen rule) reopens it as WIP. */
async function reopenModule(moduleName: string) {
  const key = [{ moduleName, monthId: MONTH }];
  await call('POST', '/module/lock', key);
  try {
    await call('POST', '/module/save', { moduleName, monthId: MONTH, moduleDescription: `Reopened by the versions browser test ${Date.now()}` });
  } finally {
    await call('POST', '/module/unlock', key);
  }
}

async function setClusterModules(clusterId: string, modules: string[]) {
  const key = [{ clusterId, monthId: MONTH }];
  await call('POST', '/cluster/lock', key);
  try {
    await call('POST', '/cluster/save', [{ clusterId, monthId: MONTH, modules: modules.map((moduleName) => ({ moduleName, clusterCompositionStatus: 'ADDED' })) }]);
  } finally {
    await call('POST', '/cluster/unlock', key);
  }
}

async function publishClusterByApi(clusterId: string) {
  const key = [{ clusterId, monthId: MONTH }];
  await call('POST', '/cluster/lock', key);
  try {
    const [c] = await call<(Cluster & { clusterDescription: string; version: number; classifications: { classificationId: number }[] })[]>('POST', '/cluster/clusterDetails', key);
    const body = {
      clusterId,
      monthId: MONTH,
      clusterDescription: c!.clusterDescription,
      modules: c!.modules.map((m) => ({ moduleName: m.moduleName, clusterCompositionStatus: m.clusterCompositionStatus })),
      lias: c!.lias.map((l) => ({ liaCode: l.liaCode, isChecked: l.isChecked })),
      classifications: c!.classifications.map((x) => ({ classificationId: x.classificationId })),
      version: c!.version,
    };
    const { jobId } = await call<{ jobId: number }>('POST', '/cluster/publish', [body]);
    await waitJob(jobId);
  } finally {
    await call('POST', '/cluster/unlock', key);
  }
}

const moduleHistory = (moduleName: string) => call<HistoryPage>('GET', `/module/history?moduleName=${moduleName}&monthId=${MONTH}&page=0`);
const clusterHistory = (clusterId: string) => call<HistoryPage>('GET', `/cluster/history?clusterId=${clusterId}&monthId=${MONTH}&page=0`);

/** Answers the questions a save or publish may ask with the given buttons until `done` shows up. */
async function answerUntil(done: Locator, answers: Record<string, string>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done.isVisible().catch(() => false)) return;
    for (const [question, button] of Object.entries(answers)) {
      const dialog = page.getByRole('dialog').filter({ hasText: question });
      if (await dialog.isVisible().catch(() => false)) await dialog.getByRole('button', { name: button, exact: true }).click({ timeout: 2000 }).catch(() => undefined);
    }
    await page.waitForTimeout(100);
  }
  await done.waitFor({ timeout: 1 });
}

const SAVE_QUESTIONS = { 'also to change the module description': 'No', 'different number of SKUs': 'Proceed' };

let mod = ''; // the module of the test
let cluster = ''; // the cluster of the test
let m1 = ''; // SUBMITTED module the cluster starts (and is published) with
let m2 = ''; // SUBMITTED module the cluster gains afterwards

const drawer = () => page.getByTestId('history-panel');
const row = (version: number) => drawer().locator(`[data-testid="history-row"][data-version="${version}"]`);

async function compareWith(version: number) {
  await drawer().getByTestId('compare-with').click();
  await page.getByRole('option', { name: `Version ${version}`, exact: true }).click();
}

beforeAll(async () => {
  token = await apiToken('admin');
  const rows = await call<ModuleRow[]>('POST', '/module/filtered', { monthId: [MONTH], brand: [BRAND] });
  const open = rows.filter((m) => !m.userLock && m.status !== 'SUBMIT_IN_PROGRESS');
  // Only modules the planning system would take (the demo data disables a few SKUs in SAP).
  const { blocking } = await call<{ blocking: { moduleName: string }[] }>('POST', '/module/checkForPublish', open.slice(0, 200).map(({ moduleName }) => ({ moduleName, monthId: MONTH })));
  const blocked = new Set(blocking.map((b) => b.moduleName));
  const free = open.slice(0, 200).filter((m) => !blocked.has(m.moduleName));
  // The module: at least 2 MH and 1 EL SKU, so that the change below has something to move.
  const withSkus = free.filter((m) => m.length >= 2 && m.elLength >= 1).sort((a, b) => Number(b.status === 'WIP') - Number(a.status === 'WIP'));
  mod = withSkus[0]?.moduleName ?? '';
  if (!mod) throw new Error(`no ${BRAND} module of ${MONTH} with SKUs`);
  if (withSkus[0]!.status !== 'WIP') await reopenModule(mod);

  // Its starting versions: published, then one MH SKU moved to EL and one EL SKU binned (saved).
  await publishModuleByApi(mod);
  await saveModuleByApi(mod, (lines) => {
    const active = lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED');
    const toEl = active.find((l) => l.mustHave)!.upc;
    const toBin = active.find((l) => !l.mustHave)!.upc;
    return lines.map((l) => (l.upc === toEl ? { ...l, mustHave: false } : l.upc === toBin ? { ...l, moduleCompositionStatus: 'REMOVED' } : l));
  });

  // The cluster: one of the month with a checked LIA, and two SUBMITTED modules of its collection (m1 then m1 + m2).
  const list = await call<Cluster[]>('POST', '/cluster/filtered', { monthId: [MONTH], brand: [BRAND] });
  const keys = list.filter((c) => !c.userLock && c.status !== 'SUBMIT_IN_PROGRESS').map(({ clusterId, monthId }) => ({ clusterId, monthId }));
  const details = keys.length ? await call<Cluster[]>('POST', '/cluster/clusterDetails', keys.slice(0, 40)) : [];
  const target = details.find((c) => c.lias.some((l) => l.isChecked) && c.stores.length > 0);
  if (!target) throw new Error(`no ${BRAND} cluster of ${MONTH} with a LIA and stores`);
  cluster = target.clusterId;
  const candidates = free.filter((m) => m.collection === target.collection && m.moduleName !== mod && m.length + m.elLength > 0).slice(0, 2);
  if (candidates.length < 2) throw new Error(`no two ${BRAND} ${target.collection} modules of ${MONTH}`);
  for (const m of candidates) if (m.status !== 'SUBMITTED') await publishModuleByApi(m.moduleName);
  [m1, m2] = candidates.map((m) => m.moduleName) as [string, string];
  await setClusterModules(cluster, [m1]);
  await publishClusterByApi(cluster);
  await setClusterModules(cluster, [m1, m2]);

  browser = await launchBrowser();
  ({ context, page } = await openPage(browser));
  context.setDefaultTimeout(30_000);
  await page.setViewportSize({ width: 1600, height: 1100 });
  await loginAs(page, 'admin');
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('item versions', { timeout: 180_000 }, () => {
  it('module: opens History, compares two versions, restores the published one and saves it as a revert', async () => {
    const before = await moduleHistory(mod);
    const [saved, published] = before.content as [HistoryPage['content'][number], HistoryPage['content'][number]];
    expect(saved.action).toBe('save');
    expect(published.action).toBe('publish');

    await page.goto(`/backoffice/module?moduleName=${mod}&monthId=${MONTH}`);
    const card = page.locator(`[data-testid="module-card"][data-module="${mod}"]`);
    await card.waitFor();
    await card.getByTestId('module-history').click();
    await drawer().waitFor();
    // Newest first, with the action, the user and the summary the server computed.
    await row(saved.version).waitFor();
    const versions = await drawer().getByTestId('history-row').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-version'))));
    expect(versions).toEqual(before.content.map((e) => e.version));
    expect(await row(saved.version).innerText()).toContain('Saved');
    expect(await row(saved.version).innerText()).toContain('admin');
    expect(await row(saved.version).getByTestId('history-summary').innerText()).toBe(saved.summary);

    // The saved version against the published one: one SKU MH→EL, one removed.
    await row(saved.version).click();
    await compareWith(published.version);
    const summary = drawer().getByTestId('compare-summary');
    await summary.filter({ hasText: `to version ${published.version}` }).waitFor();
    expect(await summary.innerText()).toContain('EL→MH');
    expect(await summary.innerText()).toContain('+1 SKU');
    expect(await drawer().locator('[data-testid="compare-row"][data-change="elToMh"]').count()).toBe(1);
    expect(await drawer().locator('[data-testid="compare-row"][data-change="added"]').count()).toBe(1);
    await page.waitForTimeout(300);
    await screenshot(page, 'versions-module-compare');

    // Restore the published version: the card shows it as unsaved changes.
    await row(published.version).click();
    await drawer().getByTestId('restore-version').click();
    await drawer().waitFor({ state: 'hidden' });
    await card.getByTestId('unsaved-dot').waitFor();
    await screenshot(page, 'versions-module-restored');
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await answerUntil(page.getByText('MODULE/MODULES CORRECTLY SAVED').first(), SAVE_QUESTIONS);

    const after = await moduleHistory(mod);
    expect(after.content[0]).toMatchObject({ action: 'revert', revertOf: published.version, user: 'admin' });
    const restored = await moduleDetail(mod);
    const published1 = await call<{ content: { lines: { upc: string; mustHave: boolean }[] } }>('GET', `/module/history/version/${published.version}?moduleName=${mod}&monthId=${MONTH}`);
    const active = restored.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED').map((p) => `${p.upc}:${p.mustHave}`).sort();
    expect(active).toEqual(published1.content.lines.map((l) => `${l.upc}:${l.mustHave}`).sort());

    await card.getByTestId('module-history').click();
    await drawer().waitFor();
    const newest = row(after.content[0]!.version);
    await newest.waitFor();
    expect(await newest.getAttribute('data-action')).toBe('revert');
    expect(await newest.innerText()).toContain(`Restored version ${published.version}`);
    await page.waitForTimeout(300);
    await screenshot(page, 'versions-module-history-revert');
    await page.keyboard.press('Escape');
    await drawer().waitFor({ state: 'hidden' });
  });

  it('module: the publish confirmation shows what changes against the last published version and the previous month', async () => {
    const card = page.locator(`[data-testid="module-card"][data-module="${mod}"]`);
    // One change on screen: an EL SKU to MH (its ⋮ menu), unsaved; the confirmation compares the page's composition.
    const elTile = card.locator('[data-testid="area-EL"] [data-testid="sku-tile"]').first();
    const upc = (await elTile.getAttribute('data-upc'))!;
    await elTile.dblclick();
    await card.locator(`[data-testid="area-MH"] [data-testid="sku-tile"][data-upc="${upc}"]`).waitFor();
    await card.getByRole('button', { name: 'Save & Publish' }).click();
    const confirmation = page.getByRole('dialog').filter({ has: page.getByTestId('publish-confirmation') });
    await answerUntil(confirmation, SAVE_QUESTIONS);
    const last = confirmation.getByTestId('diff-last-published');
    await last.getByTestId('diff-summary').waitFor();
    expect(await last.innerText()).toContain('Against the last published version');
    expect(await last.getByTestId('diff-summary').first().innerText()).toContain('1 EL→MH');
    expect(await last.innerText()).toContain(upc);
    const previous = confirmation.getByTestId('diff-previous-month');
    expect(await previous.innerText()).toMatch(/Against .*2027 \(published\)|No published version in a previous month/);
    await page.waitForTimeout(300);
    await screenshot(page, 'versions-module-publish-diff');
    await confirmation.getByRole('button', { name: 'Yes', exact: true }).click();
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 60_000, interval: 250 }).toBe('SUBMITTED');
    expect((await moduleHistory(mod)).content[0]!.action).toBe('publish');
  });

  it('cluster: opens History, compares two versions, restores the published one and saves it as a revert', async () => {
    const before = await clusterHistory(cluster);
    const [saved, published] = before.content as [HistoryPage['content'][number], HistoryPage['content'][number]];
    expect(saved.action).toBe('save');
    expect(published.action).toBe('publish');

    await page.goto(`/backoffice/cluster?clusterId=${cluster}&monthId=${MONTH}`);
    const block = page.locator(`[data-testid="cluster-block"][data-cluster="${cluster}"]`);
    await block.waitFor();
    await block.getByTestId('cluster-history').click();
    await drawer().waitFor();
    await row(saved.version).click();
    await compareWith(published.version);
    await drawer().getByTestId('compare-summary').filter({ hasText: `to version ${published.version}` }).waitFor();
    expect(await drawer().getByTestId('compare-summary').innerText()).toContain('−1 module');
    expect(await drawer().getByTestId('compare-modules').innerText()).toContain(m2);
    await page.waitForTimeout(300);
    await screenshot(page, 'versions-cluster-compare');

    await row(published.version).click();
    await drawer().getByTestId('restore-version').click();
    await drawer().waitFor({ state: 'hidden' });
    await block.getByText('unsaved').first().waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await answerUntil(page.getByText('Cluster correctly saved').first(), { 'change the cluster description': 'Yes' });
    const after = await clusterHistory(cluster);
    expect(after.content[0]).toMatchObject({ action: 'revert', revertOf: published.version });
    const [fresh] = await call<Cluster[]>('POST', '/cluster/clusterDetails', [{ clusterId: cluster, monthId: MONTH }]);
    expect(fresh!.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName)).toEqual([m1]);

    await block.getByTestId('cluster-history').click();
    await drawer().waitFor();
    await row(after.content[0]!.version).waitFor();
    expect(await row(after.content[0]!.version).innerText()).toContain(`Restored version ${published.version}`);
    await page.waitForTimeout(300);
    await screenshot(page, 'versions-cluster-history-revert');

    // Back to the version with both modules (a second revert), to publish a real change next.
    await row(saved.version).click();
    await drawer().getByTestId('restore-version').click();
    await drawer().waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await answerUntil(page.getByText('Cluster correctly saved').first(), { 'change the cluster description': 'Yes' });
    await expect.poll(async () => (await clusterHistory(cluster)).content[0]!.revertOf, { timeout: 20_000 }).toBe(saved.version);
  });

  it('cluster: the publish confirmation shows the modules added and how many stores gain SKUs', async () => {
    const block = page.locator(`[data-testid="cluster-block"][data-cluster="${cluster}"]`);
    await expect.poll(async () => block.getByText('unsaved').count(), { timeout: 20_000 }).toBe(0);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const lia = page.getByRole('dialog').filter({ has: page.getByTestId('publish-lia-confirm') });
    await lia.waitFor();
    const last = lia.getByTestId('diff-last-published');
    await last.getByTestId('diff-summary').waitFor();
    const text = (await last.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('1 module added');
    expect(text).toContain(m2);
    expect(await last.getByTestId('diff-store-gains').innerText()).toMatch(/stores? gains? \d+ SKUs?/);
    expect(await lia.getByTestId('diff-previous-month').innerText()).toMatch(/Against .*2027 \(published\)|No published version in a previous month/);
    await page.waitForTimeout(300);
    await screenshot(page, 'versions-cluster-publish-diff');
    await lia.getByRole('button', { name: 'Publish', exact: true }).click();
    const anyway = page.getByRole('button', { name: 'Publish the clusters anyway' });
    const started = page.getByText('The submission process has been started').first();
    await expect.poll(async () => (await started.isVisible()) || (await anyway.isVisible()), { timeout: 30_000 }).toBe(true);
    if (await anyway.isVisible()) await anyway.click();
    await started.waitFor();
    await expect.poll(async () => (await clusterHistory(cluster)).content[0]!.action, { timeout: 60_000, interval: 500 }).toBe('publish');
  });

  it('module: restoring a version never says "not restored" of a discontinued SKU that is on screen (issue 34 item 9)', async () => {
    // A module of the month holding an active discontinued SKU, and two saves (a flip and its flip back), so that
    // the older save (which holds the discontinued SKU active) can be restored over the current composition.
    const rows = await call<ModuleRow[]>('POST', '/module/filtered', { monthId: [MONTH], brand: [BRAND] });
    const keys = rows.filter((r) => !r.userLock && r.status === 'WIP' && ![mod, m1, m2].includes(r.moduleName)).map((r) => ({ moduleName: r.moduleName, monthId: MONTH }));
    const details = keys.length ? await call<(Omit<ModuleDetail, 'productDtoList'> & { productDtoList: (Line & { flagDisco: boolean })[] })[]>('POST', '/module/details', keys.slice(0, 60)) : [];
    let target: { name: string; disco: string; other: string } | null = null;
    for (const d of details) {
      const active = d.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED');
      const disco = active.find((p) => p.flagDisco);
      const other = active.find((p) => !p.flagDisco);
      if (disco && other) {
        target = { name: d.moduleName, disco: disco.upc, other: other.upc };
        break;
      }
    }
    expect(target, `a WIP ${BRAND} module of ${MONTH} with an active discontinued SKU in the demo data`).not.toBeNull();
    const { name, disco, other } = target!;
    const flip = (lines: Line[]) => lines.map((l) => (l.upc === other ? { ...l, mustHave: !l.mustHave } : l));
    await saveModuleByApi(name, flip);
    await saveModuleByApi(name, flip);
    const history = await moduleHistory(name);
    const older = history.content[1]!;
    const detail = await call<{ flags: { discontinued: string[] } }>('GET', `/module/history/version/${older.version}?moduleName=${name}&monthId=${MONTH}`);
    expect(detail.flags.discontinued).toContain(disco);

    await page.goto(`/backoffice/module?moduleName=${name}&monthId=${MONTH}`);
    const card = page.locator(`[data-testid="module-card"][data-module="${name}"]`);
    await card.locator(`[data-testid="sku-tile"][data-upc="${disco}"]`).waitFor();
    await card.getByTestId('module-history').click();
    await drawer().waitFor();
    await row(older.version).click();
    await drawer().getByTestId('restore-version').click();
    await drawer().waitFor({ state: 'hidden' });
    await card.getByTestId('unsaved-dot').waitFor();
    await page.waitForTimeout(600); // a 'Not restored' popup would be open by now
    expect(await page.getByRole('dialog', { name: 'Not restored' }).count()).toBe(0);
    expect(await page.getByText(/is discontinued now: it is not restored/).count()).toBe(0);
    // The discontinued SKU is still on screen, active, and the flipped SKU is back as the older version had it.
    await card.locator(`[data-testid="area-MH"] [data-testid="sku-tile"][data-upc="${disco}"], [data-testid="area-EL"] [data-testid="sku-tile"][data-upc="${disco}"]`).first().waitFor();
    await screenshot(page, 'versions-module-restore-discontinued');
    // Left unsaved: the page is left and its lock given back.
    await page.goto('/backoffice/');
    await call('POST', '/module/unlock', [{ moduleName: name, monthId: MONTH }]);
  });
});
