/**
 * Save & Publish's preview (docs/MASSIVE-EDIT.md, docs/versions.md): with dryRun and toPublish the answer says,
 * per item-month the rows would change (and so publish), what publishing it changes against its last published
 * version and the previous month's, computed from the content it will have once the rows apply.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { MassiveEditResult } from '@bo/shared/massive-edit';
import { AUR_EU, buildCluster, buildModule, buildStore } from '../../../test/builders.js';
import type { TestUsers } from '../../../test/test-app.js';
import { buildModuleA, buildVersionsApp, type VersionsApp } from '../../../test/versions-app.js';
import { queryRows } from '../../db/client.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  submitter: { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let { app, db, h, upc, inTx } = {} as VersionsApp<User>;

beforeEach(async () => {
  ({ app, db, h, upc, inTx } = await buildVersionsApp(USERS));
  await inTx((tx) => buildModuleA(tx, upc));
  await inTx((tx) => buildModule(tx, { moduleName: 'MOD_B', skus: [{ upc: upc[0]! }] }));
});
afterEach(async () => {
  await app.close();
});

const post = (url: string, user: User, payload: unknown) => app.inject({ method: 'POST', url, headers: h[user], payload: payload as object });
const noChange = { added: [], removed: [], mhToEl: [], elToMh: [], minChanged: [] };

async function preview(url: string, body: object, user: User = 'admin'): Promise<MassiveEditResult> {
  const res = await post(url, user, { ...body, dryRun: true });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as MassiveEditResult;
}
const modulePreview = (rows: object[], toPublish = true, user: User = 'admin') => preview('/api/module/massiveEdit/', { massiveEditList: rows, toPublish }, user);

/** Publishes through the module page's own call, so the item has a recorded 'publish' version. */
async function publishModule(moduleName: string) {
  const key = { moduleName, monthId: 'M01_2027' };
  expect((await post('/api/module/lock', 'admin', [key])).statusCode).toBe(200);
  const res = await post('/api/module/publish', 'admin', key);
  expect(res.statusCode, res.body).toBe(200);
  await app.jobs.drain();
  await post('/api/module/unlock', 'admin', [key]);
}

describe('module rows', () => {
  it('a SKU added to a module published before: exactly that SKU added against the last published version; nothing written', async () => {
    await publishModule('MOD_A');
    const before = await queryRows(db, sql`SELECT status, version FROM modules WHERE module_name = 'MOD_A' AND month_id = 'M01_2027'`);
    expect(before).toEqual([{ status: 'SUBMITTED', version: expect.any(Number) }]);

    const result = await modulePreview([{ moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: [upc[2]] }]);
    expect(result.publishDiff).toEqual({
      total: 1,
      modules: [
        {
          moduleName: 'MOD_A',
          monthId: 'M01_2027',
          label: 'MOD_A label',
          lastPublished: { version: 2, at: expect.any(String), diff: { ...noChange, added: [upc[2]] } },
          previousMonth: null,
        },
      ],
      clusters: [],
    });
    // A preview: the module is still as published, no version recorded.
    expect(await queryRows(db, sql`SELECT status, version FROM modules WHERE module_name = 'MOD_A' AND month_id = 'M01_2027'`)).toEqual(before);
    expect(await queryRows(db, sql`SELECT count(*)::int AS n FROM item_versions WHERE item_key = 'MOD_A'`)).toEqual([{ n: 2 }]);
    // Without toPublish the preview has no publish diff.
    expect((await modulePreview([{ moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: [upc[2]] }], false)).publishDiff).toBeUndefined();
  });

  it('diffs the content after every row: a later row on the same module counts, as do switches and min values', async () => {
    await publishModule('MOD_A');
    const result = await modulePreview([
      { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: [upc[2]], upcToRemoveList: [upc[0]] },
      { moduleLabels: ['mod_a label'], monthIdList: ['M01_2027'], upcToAddList: [upc[1]], upcStatus: 'MH', upcMinValueSkuList: [upc[1]], upcMinValueSkuValue: 4 },
    ]);
    expect(result.publishDiff!.total).toBe(1);
    expect(result.publishDiff!.modules[0]!.lastPublished!.diff).toEqual({
      added: [upc[2]],
      removed: [upc[0]],
      mhToEl: [],
      elToMh: [upc[1]],
      minChanged: [{ upc: upc[1], from: 2, to: 4 }],
    });
  });

  it('says a module was never published; compares with the previous month; lists only the modules that change', async () => {
    await inTx((tx) => buildModule(tx, { moduleName: 'MOD_B', monthId: 'M12_2026', status: 'SUBMITTED', skus: [{ upc: upc[0]! }, { upc: upc[4]! }] }));
    const result = await modulePreview([
      { moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[3]] },
      // Already as asked: unchanged, so not published, so not listed.
      { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: [upc[0]] },
      // Refused: not listed either.
      { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: ['0000000000000'] },
    ]);
    expect(result.counts).toMatchObject({ saved: 1, unchanged: 1, failed: 1 });
    expect(result.publishDiff).toEqual({
      total: 1,
      modules: [
        {
          moduleName: 'MOD_B',
          monthId: 'M01_2027',
          label: 'MOD_B label',
          lastPublished: null,
          previousMonth: { monthId: 'M12_2026', diff: { ...noChange, added: [upc[3]], removed: [upc[4]] } },
        },
      ],
      clusters: [],
    });
  });

  it('keeps the call’s rules: Save & Publish without the submit right is 403, an invalid row 400', async () => {
    const res = await post('/api/module/massiveEdit/', 'editor', { massiveEditList: [{ moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: [upc[2]] }], toPublish: true, dryRun: true });
    expect(res.statusCode).toBe(403);
    const bad = await post('/api/module/massiveEdit/', 'admin', { massiveEditList: [{ moduleLabels: ['MOD_A'], upcToAddList: [upc[2]] }], toPublish: true, dryRun: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].path).toBe('body.massiveEditList.0');
  });
});

describe('cluster rows', () => {
  it('a module added to a published cluster: the module added and the stores gaining its SKUs', async () => {
    const [s1, s2] = [await buildStore(db), await buildStore(db)];
    await db.execute(sql`UPDATE modules SET status = 'SUBMITTED'`);
    // MOD_C brings upc2 and upc3; upc0 the cluster's stores already get through MOD_A.
    await inTx((tx) => buildModule(tx, { moduleName: 'MOD_C', status: 'SUBMITTED', skus: [{ upc: upc[0]! }, { upc: upc[2]! }, { upc: upc[3]! }] }));
    await inTx((tx) => buildCluster(tx, { clusterId: 'CL_A', storeJdas: [s1.storeJda, s2.storeJda], modules: [{ moduleName: 'MOD_A' }] }));
    const ck = { clusterId: 'CL_A', monthId: 'M01_2027' };
    expect((await post('/api/cluster/lock', 'submitter', [ck])).statusCode).toBe(200);
    const published = await post('/api/cluster/publish', 'submitter', [ck]);
    expect(published.statusCode, published.body).toBe(200);
    await app.jobs.drain();

    const result = await preview('/api/cluster/massiveEdit/', { rowsClusterMassiveEdit: [{ clusterLabels: ['CL_A'], months: ['M01_2027'], moduleLabelsToAdd: ['MOD_C label'] }], toPublish: true }, 'submitter');
    expect(result.counts).toEqual({ saved: 1, partial: 0, unchanged: 0, failed: 0, published: 1, notPublished: 0, notPublishedReasons: [] });
    expect(result.publishDiff).toEqual({
      total: 1,
      modules: [],
      clusters: [
        {
          clusterId: 'CL_A',
          monthId: 'M01_2027',
          label: 'CL_A label',
          lastPublished: {
            version: 2,
            at: expect.any(String),
            diff: { storesAdded: [], storesRemoved: [], modulesAdded: ['MOD_C'], modulesRemoved: [], skusPerStore: [{ gained: 2, lost: 0, stores: 2 }] },
          },
          previousMonth: null,
        },
      ],
    });
  });

  it('a cluster never published says so; classification rows never publish', async () => {
    const s1 = await buildStore(db);
    await inTx((tx) => buildCluster(tx, { clusterId: 'CL_B', storeJdas: [s1.storeJda], modules: [{ moduleName: 'MOD_A' }] }));
    const result = await preview('/api/cluster/massiveEdit/', { rowsClusterMassiveEdit: [{ clusterLabels: ['CL_B'], months: ['M01_2027'], moduleLabelsToAdd: ['MOD_B'] }], toPublish: true });
    expect(result.publishDiff!.clusters).toEqual([{ clusterId: 'CL_B', monthId: 'M01_2027', label: 'CL_B label', lastPublished: null, previousMonth: null }]);
    const classification = await preview('/api/cluster/massiveEdit/classification', { rowsClusterClassificationMassiveEdit: [{ clusterLabels: ['CL_B'], classificationsToAdd: ['Nope'] }] });
    expect(classification.publishDiff).toBeUndefined();
  });
});
