/**
 * Migration 0020 on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL): each cluster_modules row holds
 * its cluster's month, filled when an insert leaves it out (in replica mode too), refused when it disagrees, and moved
 * with the cluster's.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCluster } from '../../test/builders.js';
import { buildTestApp } from '../../test/test-app.js';
import { queryRows, type Db } from './client.js';
import { inReplicaMode } from './replica-mode.js';
import { clusters } from './schema.js';

let db: Db;
let close: () => Promise<void>;

beforeEach(async () => {
  const t = await buildTestApp({ reference: true });
  db = t.db;
  close = () => t.app.close();
});
afterEach(async () => close());

const monthsOf = async () =>
  queryRows<{ module: string; month: string; cluster: string }>(
    db,
    sql`SELECT cm.module_name AS module, cm.month_id AS month, c.month_id AS cluster FROM cluster_modules cm JOIN clusters c ON c.id = cm.cluster_pk ORDER BY 1`,
  );

describe("cluster_modules' month", () => {
  it("is filled with the cluster's when an insert leaves it out (the cluster services' writes)", async () => {
    await buildCluster(db, { clusterId: 'C1', monthId: 'M02_2027', modules: [{ moduleName: 'A1' }, { moduleName: 'A2', status: 'REMOVED' }] });
    expect(await monthsOf()).toEqual([
      { module: 'A1', month: 'M02_2027', cluster: 'M02_2027' },
      { module: 'A2', month: 'M02_2027', cluster: 'M02_2027' },
    ]);
  });

  it('is filled in replica mode too (the loads that leave the foreign keys out)', async () => {
    const c = await buildCluster(db, { clusterId: 'C1', monthId: 'M02_2027' });
    await db.transaction(async (tx) => {
      await inReplicaMode(tx, () => tx.execute(sql`INSERT INTO cluster_modules (cluster_pk, module_name, status) VALUES (${c.id}, 'A1', 'ADDED')`));
    });
    expect(await monthsOf()).toEqual([{ module: 'A1', month: 'M02_2027', cluster: 'M02_2027' }]);
  });

  it("refuses a month that is not the cluster's, and writes nothing", async () => {
    const c = await buildCluster(db, { clusterId: 'C1', monthId: 'M02_2027' });
    const refused = await db
      .execute(sql`INSERT INTO cluster_modules (cluster_pk, month_id, module_name, status) VALUES (${c.id}, 'M01_2027', 'A1', 'ADDED')`)
      .then(() => undefined, (err: Error & { cause?: Error }) => err.cause ?? err);
    expect(refused?.message).toMatch(/cluster_modules_cluster_month_fk/);
    expect(await monthsOf()).toEqual([]);
  });

  it("moves with its cluster's month, and goes with its cluster", async () => {
    const c = await buildCluster(db, { clusterId: 'C1', monthId: 'M02_2027', modules: [{ moduleName: 'A1' }] });
    await db.update(clusters).set({ monthId: 'M01_2027' }).where(eq(clusters.id, c.id));
    expect(await monthsOf()).toEqual([{ module: 'A1', month: 'M01_2027', cluster: 'M01_2027' }]);
    await db.delete(clusters).where(eq(clusters.id, c.id));
    expect(await monthsOf()).toEqual([]);
  });
});
