/**
 * Item versions benchmark (issue 18; docs/versions.md): `npx tsx apps/server/bench/history.bench.ts [--runs 20]`
 *
 * On a scratch PostgreSQL database (`bench_history` next to BENCH_DATABASE_URL's, default
 * postgres://postgres@127.0.0.1:5432/postgres), created and migrated afresh:
 * 1. one module of 100 SKUs saved 499 times (one min value each time, each save one transaction with the
 *    version trigger, as the app writes it): 500 versions. Measures the saves (the trigger's cost is in
 *    them) and GET /api/module/history (first and last page) and …/version/:n. Target: a history page
 *    in under 200 ms (p95 of `--runs` calls, through `app.inject`).
 * 2. a cluster with 200 stores and 40 modules (50 SKUs each), published, then changed (100 stores and 20
 *    modules replaced), with a published previous month: POST /api/cluster/publishDiff. Target: under
 *    300 ms (p95).
 * Prints the figures and PASS or FAIL; exits 1 on FAIL.
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, queryRows, type Db } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { recordVersionsAs } from '../src/items/lifecycle/item-versions.repository.js';
import { buildCluster, buildModule, buildReference, buildSku, buildStore, buildUser } from '../test/builders.js';
import { percentile, scratchDatabase } from './scratch-database.js';

const TARGET_HISTORY_MS = 200;
const TARGET_DIFF_MS = 300;
const VERSIONS = 500;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } }, strict: true });
const runs = Number(values.runs);
if (!(runs > 0)) throw new Error('--runs must be a number above 0');

const { url } = await scratchDatabase('bench_history', false);
const database = await openDatabase({ url, poolSize: 4 });
const ms = (t0: number) => performance.now() - t0;
const fmt = (n: number) => `${n.toFixed(1)} ms`;
let failed = false;

try {
  await migrate(database);
  const db = database.db;
  const inTx = <T>(build: (tx: Db) => Promise<T>) => db.transaction((tx) => build(tx as unknown as Db));
  await buildReference(db);
  await buildUser(db, { username: 'admin', role: 'ADMIN' });

  // ─── 1. 500 versions of one module ───
  const upcs: string[] = [];
  for (let i = 0; i < 2100; i++) upcs.push((await buildSku(db)).upc);
  await inTx((tx) => buildModule(tx, { moduleName: 'HIST', skus: upcs.slice(0, 100).map((upc, i) => ({ upc, mustHave: i % 3 !== 0 })) }));
  const saves: number[] = [];
  for (let v = 2; v <= VERSIONS; v++) {
    const t0 = performance.now();
    await db.transaction(async (tx) => {
      await recordVersionsAs(tx, 'save', 'admin');
      await tx.execute(sql`UPDATE module_skus SET min_value = ${1 + (v % 50)} WHERE upc = ${upcs[v % 100]!}`);
      await tx.execute(sql`UPDATE modules SET version = version + 1, updated_at = now(), updated_by = 'admin' WHERE module_name = 'HIST'`);
    });
    saves.push(ms(t0));
  }
  const [count] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM item_versions WHERE item_key = 'HIST'`);
  if (count!.n !== VERSIONS) throw new Error(`expected ${VERSIONS} versions, found ${count!.n}`);

  const config = loadConfig({ LOG_LEVEL: 'silent' }, { WEB_DIST_DIR: '/nonexistent-web-dist' });
  const app = await buildApp({ config, database, logger: false });
  await app.jobs.stop();
  const login = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'admin', password: 'secret' } });
  const headers = { authorization: `Bearer ${login.json().access_token}` };
  const timed = async (method: 'GET' | 'POST', target: string, payload?: unknown) => {
    const figures: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method, url: target, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
      const t = ms(t0);
      if (res.statusCode !== 200) throw new Error(`${method} ${target}: ${res.statusCode} ${res.body}`);
      if (i >= 2) figures.push(t); // two warm-up calls
    }
    return figures.sort((a, b) => a - b);
  };
  const report = (label: string, sorted: number[], target?: number) => {
    const p95 = percentile(sorted, 95);
    const verdict = target === undefined ? '' : p95 < target ? `  PASS (< ${target} ms)` : `  FAIL (≥ ${target} ms)`;
    if (target !== undefined && p95 >= target) failed = true;
    console.log(`${label.padEnd(52)} p50 ${fmt(percentile(sorted, 50))}  p95 ${fmt(p95)}  max ${fmt(sorted[sorted.length - 1]!)}${verdict}`);
  };

  console.log(`Module HIST: ${VERSIONS} versions of 100 SKUs; ${runs} timed calls each (after 2 warm-up calls)`);
  report('a save with its version (the trigger included)', [...saves].sort((a, b) => a - b));
  report('GET /api/module/history (newest page)', await timed('GET', '/api/module/history?moduleName=HIST&monthId=M01_2027&page=0'), TARGET_HISTORY_MS);
  report('GET /api/module/history (oldest page)', await timed('GET', '/api/module/history?moduleName=HIST&monthId=M01_2027&page=24'), TARGET_HISTORY_MS);
  report('GET /api/module/history/version/250', await timed('GET', '/api/module/history/version/250?moduleName=HIST&monthId=M01_2027'));

  // ─── 2. A cluster of 200 stores and 40 modules, against its last publication and the previous month ───
  const stores: string[] = [];
  for (let i = 0; i < 300; i++) stores.push((await buildStore(db)).storeJda);
  const moduleNames = Array.from({ length: 60 }, (_, m) => `CM${m}`);
  for (const monthId of ['M12_2026', 'M01_2027']) {
    await inTx(async (tx) => {
      for (const [m, name] of moduleNames.entries()) {
        await buildModule(tx, { moduleName: name, monthId, status: 'SUBMITTED', skus: upcs.slice(100 + m * 30, 100 + m * 30 + 50).map((upc) => ({ upc })) });
      }
    });
  }
  const first = { storeJdas: stores.slice(0, 200), modules: moduleNames.slice(0, 40).map((moduleName) => ({ moduleName })) };
  await inTx((tx) => buildCluster(tx, { clusterId: 'BIG', monthId: 'M12_2026', status: 'SUBMITTED', ...first }));
  await inTx((tx) => buildCluster(tx, { clusterId: 'BIG', ...first }));
  // Published (a 'publish' version), then 100 stores and 20 modules replaced.
  await db.execute(sql`UPDATE clusters SET status = 'SUBMIT_IN_PROGRESS' WHERE cluster_id = 'BIG' AND month_id = 'M01_2027'`);
  await db.transaction(async (tx) => {
    await recordVersionsAs(tx, 'save', 'admin');
    await tx.execute(sql`DELETE FROM cluster_stores WHERE store_jda = ANY(${sql.param(stores.slice(0, 100))}::text[])
                           AND cluster_pk = (SELECT id FROM clusters WHERE cluster_id = 'BIG' AND month_id = 'M01_2027')`);
    await tx.execute(sql`INSERT INTO cluster_stores (cluster_pk, store_jda)
                         SELECT c.id, s FROM clusters c, unnest(${sql.param(stores.slice(200, 300))}::text[]) AS s WHERE c.cluster_id = 'BIG' AND c.month_id = 'M01_2027'`);
    await tx.execute(sql`UPDATE cluster_modules SET module_name = 'CM' || (substring(module_name from 3)::int + 40)
                          WHERE substring(module_name from 3)::int < 20 AND cluster_pk = (SELECT id FROM clusters WHERE cluster_id = 'BIG' AND month_id = 'M01_2027')`);
    await tx.execute(sql`UPDATE clusters SET status = 'WIP', version = version + 1, updated_at = now() WHERE cluster_id = 'BIG' AND month_id = 'M01_2027'`);
  });
  const diffBody = [{ clusterId: 'BIG', monthId: 'M01_2027' }];
  const answer = (await app.inject({ method: 'POST', url: '/api/cluster/publishDiff', headers, payload: diffBody })).json();
  const last = answer[0].lastPublished.diff;
  console.log(
    `\nCluster BIG: 200 stores × 40 modules of 50 SKUs; vs last published: +${last.storesAdded.length}/−${last.storesRemoved.length} stores, ` +
      `+${last.modulesAdded.length}/−${last.modulesRemoved.length} modules, store groups ${JSON.stringify(last.skusPerStore)}; previous month ${answer[0].previousMonth?.monthId}`,
  );
  if (last.storesAdded.length !== 100 || last.modulesRemoved.length !== 20 || !answer[0].previousMonth) throw new Error('unexpected diff');
  report('POST /api/cluster/publishDiff', await timed('POST', '/api/cluster/publishDiff', diffBody), TARGET_DIFF_MS);
  report('POST /api/module/publishDiff (HIST, saved lines)', await timed('POST', '/api/module/publishDiff', [{ moduleName: 'HIST', monthId: 'M01_2027' }]));
  await app.close();
  console.log(failed ? '\nFAIL' : '\nPASS');
} finally {
  await database.close();
}
process.exit(failed ? 1 : 0);
