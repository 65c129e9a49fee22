import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ClusterDto } from '@bo/shared/clusters';
import { buildClusterWorldApp, type ClusterWorld, type ClusterWorldUser } from '../../../test/cluster-test-app.js';
import type { TestApp } from '../../../test/test-app.js';
import { buildCluster, buildModule, buildSku } from '../../../test/builders.js';

let app: FastifyInstance;
let world: ClusterWorld;
let as: TestApp<ClusterWorldUser>['as'];

beforeEach(async () => {
  ({ app, as, world } = await buildClusterWorldApp());
});
afterEach(async () => {
  await app.close();
});

const details = async (keys: { clusterId: string; monthId: string }[]) => {
  const res = await app.inject({ method: 'POST', url: '/api/cluster/clusterDetails', payload: keys, headers: await as('editor') });
  expect(res.statusCode).toBe(200);
  return res.json() as ClusterDto[];
};
const counts = (c: ClusterDto) => Object.fromEntries(c.modules.map((m) => [m.moduleName, [m.length, m.elLength]]));

describe('cluster module SKU counts (the cluster editor chips: SKUs, MH / EL)', () => {
  it('counts each module’s active must-have and eligible SKUs, leaving the bin out, for ADDED and REMOVED modules', async () => {
    const db = app.database.db;
    const [a, b, c, d] = [await buildSku(db), await buildSku(db), await buildSku(db), await buildSku(db)];
    await buildModule(db, {
      moduleName: 'MIX',
      skus: [
        { upc: a.upc, mustHave: true },
        { upc: b.upc, mustHave: false },
        { upc: c.upc, mustHave: false, status: 'NEW' },
        { upc: d.upc, mustHave: true, status: 'REMOVED' },
      ],
    });
    await buildCluster(db, { clusterId: 'CX', storeJdas: [world.stores.st1.storeJda], modules: [{ moduleName: 'MIX' }, { moduleName: 'A2', status: 'REMOVED' }, { moduleName: 'A3' }] });

    const [cx] = await details([{ clusterId: 'CX', monthId: 'M01_2027' }]);
    // MIX: 1 MH + 2 EL (the REMOVED SKU is in the bin); A2: 1 MH (its other SKU is REMOVED); A3: empty.
    expect(counts(cx!)).toEqual({ MIX: [1, 2], A2: [1, 0], A3: [0, 0] });
  });

  it('reads the counts of the module in the cluster’s own month', async () => {
    const db = app.database.db;
    const e = await buildSku(db);
    // A1 of M02_2027 gets one eligible SKU; A1 of M01_2027 has two must-haves.
    await buildModule(db, { moduleName: 'A5', monthId: 'M02_2027', skus: [{ upc: e.upc, mustHave: false }] });
    await buildCluster(db, { clusterId: 'C5', monthId: 'M02_2027', storeJdas: [world.stores.st1.storeJda], modules: [{ moduleName: 'A5' }, { moduleName: 'A1' }] });
    const [c1, c5] = await details([
      { clusterId: 'C1', monthId: 'M01_2027' },
      { clusterId: 'C5', monthId: 'M02_2027' },
    ]);
    expect(counts(c1!)).toMatchObject({ A1: [2, 0] });
    expect(counts(c5!)).toEqual({ A1: [0, 0], A5: [0, 1] });
  });
});
