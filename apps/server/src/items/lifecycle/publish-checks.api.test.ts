/**
 * Publishing tells the truth (docs/LIFECYCLE.md "Publish"): the planning system's checks run before
 * anything is sent — `POST /api/module/checkForPublish`, the `blocking` field of
 * `POST /api/cluster/checkForPublish` — and the publish calls refuse (422 `publishBlocked`) what the
 * planning system would reject, leaving every status as it was.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { AUR_EU, buildCluster, buildModule, buildSku, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';
import { auditLog, clusters, jobs, locks, moduleSkus, modules, skus } from '../../db/schema.js';

const USERS = {
  submitter: { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: AUR_EU } },
  vltonly: { grants: { view: { brands: ['VLT'], zones: ['EU'] } } },
} as const;
type User = keyof typeof USERS;

let t: TestApp<User>;
let upcs: { ok: string; z: string; i: string; ok2: string };
const MONTH = 'M01_2027';

beforeEach(async () => {
  t = await buildTestApp({ reference: true, users: USERS, tempDataDir: true, manualJobs: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 } });
  const db = t.db;
  upcs = {
    ok: (await buildSku(db)).upc,
    z: (await buildSku(db, { sapStatus: 'Z' })).upc,
    i: (await buildSku(db, { sapStatus: 'I' })).upc,
    ok2: (await buildSku(db, { sapStatus: 'A' })).upc,
  };
  await buildModule(db, { moduleName: 'CLEAN', skus: [{ upc: upcs.ok }, { upc: upcs.ok2 }] });
  // Z is active, I is REMOVED (does not count).
  await buildModule(db, { moduleName: 'SAP_OFF', skus: [{ upc: upcs.ok }, { upc: upcs.z }, { upc: upcs.i, status: 'REMOVED' }] });
  await buildModule(db, { moduleName: 'EMPTY', skus: [{ upc: upcs.ok, status: 'REMOVED' }] });
  await buildModule(db, { moduleName: 'SUBMITTED_M', status: 'SUBMITTED', skus: [{ upc: upcs.ok }] });
  await buildModule(db, { moduleName: 'WIP_M', skus: [{ upc: upcs.ok2 }] });
  const s1 = await buildStore(db);
  const s2 = await buildStore(db);
  await buildCluster(db, { clusterId: 'C_OK', storeJdas: [s1.storeJda, s2.storeJda], modules: [{ moduleName: 'SUBMITTED_M' }] });
  await buildCluster(db, { clusterId: 'C_NOSTORE', modules: [{ moduleName: 'SUBMITTED_M' }] });
  await buildCluster(db, { clusterId: 'C_NOMODULE', storeJdas: [s1.storeJda], modules: [{ moduleName: 'WIP_M', status: 'REMOVED' }] });
  await buildCluster(db, { clusterId: 'C_WIP', storeJdas: [s1.storeJda], modules: [{ moduleName: 'SUBMITTED_M' }, { moduleName: 'WIP_M' }] });
});
afterEach(async () => {
  await t.app.close();
});

const post = async (user: User, url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: await t.as(user) });
const mkey = (moduleName: string) => ({ moduleName, monthId: MONTH });
const ckey = (clusterId: string) => ({ clusterId, monthId: MONTH });
const moduleRow = async (moduleName: string) => (await t.db.select().from(modules).where(and(eq(modules.moduleName, moduleName), eq(modules.monthId, MONTH))))[0]!;
const clusterRow = async (clusterId: string) => (await t.db.select().from(clusters).where(and(eq(clusters.clusterId, clusterId), eq(clusters.monthId, MONTH))))[0]!;
const publishJobs = async () => t.db.select().from(jobs).where(eq(jobs.kind, 'publish'));
const publishAudits = async () => t.db.select().from(auditLog).where(eq(auditLog.action, 'publish'));
/** WIP_M as a blocking module of a cluster: WIP, clean, the submitter's to publish, not locked. */
const WIP_M_BLOCKING = { moduleName: 'WIP_M', moduleLabel: 'WIP_M label', monthId: MONTH, status: 'WIP', canPublish: true, publishable: true, userLock: null, reasons: [] };

describe('POST /api/module/checkForPublish', () => {
  it('names each SKU disabled in SAP (status Z or I) and the module with no active SKU; a clean module is not listed', async () => {
    await t.db.update(skus).set({ sapStatus: 'I' }).where(eq(skus.upc, upcs.ok2));
    const res = await post('viewer', '/api/module/checkForPublish', [mkey('CLEAN'), mkey('SAP_OFF'), mkey('EMPTY')]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      blocking: [
        { moduleName: 'CLEAN', monthId: MONTH, moduleLabel: 'CLEAN label', reasons: [{ code: 'skuSapDisabled', message: `SKU ${upcs.ok2} is disabled in SAP`, upc: upcs.ok2 }] },
        { moduleName: 'SAP_OFF', monthId: MONTH, moduleLabel: 'SAP_OFF label', reasons: [{ code: 'skuSapDisabled', message: `SKU ${upcs.z} is disabled in SAP`, upc: upcs.z }] },
        { moduleName: 'EMPTY', monthId: MONTH, moduleLabel: 'EMPTY label', reasons: [{ code: 'noActiveSku', message: 'The module has no active SKU' }] },
      ],
    });
  });

  it('answers an empty list when nothing blocks', async () => {
    expect((await post('submitter', '/api/module/checkForPublish', [mkey('CLEAN')])).json()).toEqual({ blocking: [] });
  });

  it('checks the unsaved lines a module carries instead of the stored ones', async () => {
    const res = await post('submitter', '/api/module/checkForPublish', [
      { ...mkey('SAP_OFF'), productDtoList: [{ upc: upcs.ok, moduleCompositionStatus: 'ADDED' }, { upc: upcs.z, moduleCompositionStatus: 'REMOVED' }] },
      { ...mkey('CLEAN'), productDtoList: [{ upc: upcs.i, moduleCompositionStatus: 'NEW' }] },
      { ...mkey('EMPTY'), productDtoList: [] },
    ]);
    expect(res.json().blocking.map((b: { moduleName: string; reasons: { code: string; upc?: string }[] }) => [b.moduleName, b.reasons.map((r) => r.upc ?? r.code)])).toEqual([
      ['CLEAN', [upcs.i]],
      ['EMPTY', ['noActiveSku']],
    ]);
  });

  it('needs the view right on every module (403) and a module that exists (404); it takes no lock', async () => {
    const refused = await post('vltonly', '/api/module/checkForPublish', [mkey('CLEAN')]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    const unknown = await post('viewer', '/api/module/checkForPublish', [mkey('NOPE')]);
    expect(unknown.statusCode).toBe(404);
    expect((await post('viewer', '/api/module/checkForPublish', [{ moduleName: 'CLEAN' }])).statusCode).toBe(400);
  });
});

describe('module publish refuses what the planning system would reject', () => {
  it('answers 422 publishBlocked naming the SKU; the module stays WIP, no job, no audit', async () => {
    await post('submitter', '/api/module/lock', [mkey('SAP_OFF')]);
    const res = await post('submitter', '/api/module/publish', mkey('SAP_OFF'));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'publishBlocked', message: `The module SAP_OFF cannot be published: SKU ${upcs.z} is disabled in SAP` });
    expect((await moduleRow('SAP_OFF')).status).toBe('WIP');
    expect(await publishJobs()).toHaveLength(0);
    expect(await publishAudits()).toHaveLength(0);
  });

  it('checks the composition the call saves first, and saves nothing when refused', async () => {
    await post('submitter', '/api/module/lock', [mkey('CLEAN')]);
    const before = await t.db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, (await moduleRow('CLEAN')).id));
    const res = await post('submitter', '/api/module/publish', {
      ...mkey('CLEAN'),
      productDtoList: [
        { upc: upcs.ok, mustHave: true, moduleCompositionStatus: 'REMOVED' },
        { upc: upcs.ok2, mustHave: true, moduleCompositionStatus: 'REMOVED' },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'publishBlocked', message: 'The module CLEAN cannot be published: The module has no active SKU' });
    const row = await moduleRow('CLEAN');
    expect(row.status).toBe('WIP');
    expect(row.version).toBe(1);
    expect(await t.db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, row.id))).toEqual(before);
    expect(await publishJobs()).toHaveLength(0);
  });

  it('publishList names the blocked module and publishes none', async () => {
    await post('submitter', '/api/module/lock', [mkey('CLEAN'), mkey('EMPTY')]);
    const res = await post('submitter', '/api/module/publishList', [mkey('CLEAN'), mkey('EMPTY')]);
    expect(res.json()).toEqual({ errors: ['EMPTY (M01_2027): The module EMPTY cannot be published: The module has no active SKU'] });
    expect((await moduleRow('CLEAN')).status).toBe('WIP');
    expect(await publishJobs()).toHaveLength(0);
  });

  it('a clean module still starts its submission', async () => {
    await post('submitter', '/api/module/lock', [mkey('CLEAN')]);
    const res = await post('submitter', '/api/module/publish', mkey('CLEAN'));
    expect(res.json()).toEqual({ message: 'The submission process has been started', jobId: expect.any(Number) });
    await t.app.jobs.drain();
    expect((await moduleRow('CLEAN')).status).toBe('SUBMITTED');
  });
});

describe('POST /api/cluster/checkForPublish: blocking', () => {
  it('lists the cluster without stores, without modules and with modules in WIP; keeps the duplicates map', async () => {
    const keys = [ckey('C_OK'), ckey('C_NOSTORE'), ckey('C_NOMODULE'), ckey('C_WIP')];
    await post('submitter', '/api/cluster/lock', keys);
    const res = await post('submitter', '/api/cluster/checkForPublish', keys);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      clusterDuplicatedResponseMap: { C_OK: ['C_NOSTORE'], C_NOSTORE: ['C_OK'] },
      blocking: [
        { clusterId: 'C_NOSTORE', monthId: MONTH, clusterLabel: 'C_NOSTORE label', reasons: [{ code: 'noStore', message: 'The cluster has no store' }], modules: [] },
        { clusterId: 'C_NOMODULE', monthId: MONTH, clusterLabel: 'C_NOMODULE label', reasons: [{ code: 'noModule', message: 'The cluster has no module' }], modules: [] },
        {
          clusterId: 'C_WIP',
          monthId: MONTH,
          clusterLabel: 'C_WIP label',
          reasons: [{ code: 'moduleInWip', message: 'The module WIP_M is in work in progress', moduleName: 'WIP_M' }],
          modules: [WIP_M_BLOCKING],
        },
      ],
    });
  });

  it("uses the body's unsaved modules", async () => {
    await post('submitter', '/api/cluster/lock', [ckey('C_OK'), ckey('C_WIP')]);
    const res = await post('submitter', '/api/cluster/checkForPublish', [
      { ...ckey('C_OK'), modules: [{ moduleName: 'WIP_M', clusterCompositionStatus: 'ADDED' }] },
      { ...ckey('C_WIP'), modules: [{ moduleName: 'SUBMITTED_M', clusterCompositionStatus: 'ADDED' }, { moduleName: 'WIP_M', clusterCompositionStatus: 'REMOVED' }] },
    ]);
    expect(res.json().blocking).toEqual([
      {
        clusterId: 'C_OK',
        monthId: MONTH,
        clusterLabel: 'C_OK label',
        reasons: [{ code: 'moduleInWip', message: 'The module WIP_M is in work in progress', moduleName: 'WIP_M' }],
        modules: [WIP_M_BLOCKING],
      },
    ]);
  });

  it('spells out each blocking module: label, month, status, whether the caller may publish it and whether it would pass, its lock holder, and each SKU at fault as model / colour / size', async () => {
    await t.db.update(skus).set({ model: 'AU2000', color: '002', colorDescription: 'Havana', size: '54', gedExpireDate: '2020-01-31', flagDisco: true }).where(eq(skus.upc, upcs.z));
    await buildCluster(t.db, { clusterId: 'C_TWO', storeJdas: [(await buildStore(t.db)).storeJda], modules: [{ moduleName: 'SAP_OFF' }, { moduleName: 'WIP_M' }] });
    await t.db.insert(locks).values({ itemType: 'module', itemKey: 'WIP_M', monthId: MONTH, owner: 'someone', acquiredAt: new Date(), renewedAt: new Date() });
    await post('submitter', '/api/cluster/lock', [ckey('C_TWO'), ckey('C_OK')]);
    const res = await post('submitter', '/api/cluster/checkForPublish', [ckey('C_TWO'), ckey('C_OK')]);
    expect(res.statusCode).toBe(200);
    const [two, ...others] = res.json().blocking;
    expect(others).toEqual([]);
    expect(two.reasons.map((r: { moduleName: string }) => r.moduleName)).toEqual(['SAP_OFF', 'WIP_M']);
    expect(two.modules).toEqual([
      {
        moduleName: 'SAP_OFF',
        moduleLabel: 'SAP_OFF label',
        monthId: MONTH,
        status: 'WIP',
        canPublish: true,
        publishable: false,
        userLock: null,
        reasons: [
          {
            code: 'skuSapDisabled',
            message: `SKU ${upcs.z} is disabled in SAP`,
            upc: upcs.z,
            sku: { upc: upcs.z, model: 'AU2000', color: '002', colorDescription: 'Havana', size: '54', sapStatus: 'Z', gedExpired: true, discontinued: true },
          },
        ],
      },
      { ...WIP_M_BLOCKING, userLock: 'someone' },
    ]);
    // A caller with the submit right elsewhere only: the same modules, not theirs to publish.
    await t.db.update(modules).set({ brandCode: 'VLT' }).where(eq(modules.moduleName, 'SAP_OFF'));
    const again = (await post('submitter', '/api/cluster/checkForPublish', [ckey('C_TWO')])).json();
    expect(again.blocking[0].modules.map((m: { moduleName: string; canPublish: boolean }) => [m.moduleName, m.canPublish])).toEqual([
      ['SAP_OFF', false],
      ['WIP_M', true],
    ]);
  });
});

describe('POST /api/cluster/publish: per cluster', () => {
  it('publishes the clusters without blockers and answers each cluster; the blocked one waits with its reasons', async () => {
    const keys = [ckey('C_WIP'), ckey('C_OK'), ckey('C_NOSTORE')];
    await post('submitter', '/api/cluster/lock', keys);
    const res = await post('submitter', '/api/cluster/publish', keys);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'The submission process has been started',
      jobId: expect.any(Number),
      clusters: [
        {
          clusterId: 'C_WIP',
          monthId: MONTH,
          clusterLabel: 'C_WIP label',
          published: false,
          reasons: [{ code: 'moduleInWip', message: 'The module WIP_M is in work in progress', moduleName: 'WIP_M' }],
        },
        { clusterId: 'C_OK', monthId: MONTH, clusterLabel: 'C_OK label', published: true, reasons: [] },
        { clusterId: 'C_NOSTORE', monthId: MONTH, clusterLabel: 'C_NOSTORE label', published: false, reasons: [{ code: 'noStore', message: 'The cluster has no store' }] },
      ],
    });
    expect((await clusterRow('C_OK')).status).toBe('SUBMIT_IN_PROGRESS');
    expect((await clusterRow('C_WIP')).status).toBe('WIP');
    expect((await publishAudits()).map((a) => a.itemKey)).toEqual(['C_OK']);
    await t.app.jobs.drain();
    expect((await clusterRow('C_OK')).status).toBe('SUBMITTED');
    expect((await clusterRow('C_NOSTORE')).status).toBe('WIP');
  });

  it('when every cluster of the page is blocked: refused as the spec says, nothing changes', async () => {
    const keys = [ckey('C_NOSTORE'), ckey('C_WIP')];
    await post('submitter', '/api/cluster/lock', keys);
    const res = await post('submitter', '/api/cluster/publish', keys);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('modulesInWip');
    await post('submitter', '/api/cluster/lock', [ckey('C_NOMODULE')]);
    const planning = await post('submitter', '/api/cluster/publish', [ckey('C_NOSTORE'), ckey('C_NOMODULE')]);
    expect(planning.json()).toEqual({
      error: 'publishBlocked',
      message: 'The cluster C_NOSTORE cannot be published: The cluster has no store; The cluster C_NOMODULE cannot be published: The cluster has no module',
    });
    expect(await publishJobs()).toHaveLength(0);
  });
});

describe('cluster publish refuses what the planning system would reject', () => {
  it.each([
    ['C_NOSTORE', 'The cluster C_NOSTORE cannot be published: The cluster has no store'],
    ['C_NOMODULE', 'The cluster C_NOMODULE cannot be published: The cluster has no module'],
  ])('%s: 422 publishBlocked, still WIP, no job', async (clusterId, message) => {
    await post('submitter', '/api/cluster/lock', [ckey(clusterId)]);
    const res = await post('submitter', '/api/cluster/publish', [ckey(clusterId)]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'publishBlocked', message });
    expect((await clusterRow(clusterId)).status).toBe('WIP');
    expect(await publishJobs()).toHaveLength(0);
    expect(await publishAudits()).toHaveLength(0);
  });

  it('with modules in WIP: the spec\'s 422 modulesInWip, still WIP', async () => {
    await post('submitter', '/api/cluster/lock', [ckey('C_WIP')]);
    const res = await post('submitter', '/api/cluster/publish', [ckey('C_WIP')]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('modulesInWip');
    expect((await clusterRow('C_WIP')).status).toBe('WIP');
    expect(await publishJobs()).toHaveLength(0);
  });

  it('a clean cluster is published', async () => {
    await post('submitter', '/api/cluster/lock', [ckey('C_OK')]);
    expect((await post('submitter', '/api/cluster/publish', [ckey('C_OK')])).statusCode).toBe(200);
    await t.app.jobs.drain();
    expect((await clusterRow('C_OK')).status).toBe('SUBMITTED');
  });
});
