/**
 * Massive edit benchmark (issue 14): `npm run bench:massive-edit -w apps/server -- [--scale 100] [--reuse] [--modules 1000] [--clusters 300] [--profile]`
 *
 * Uses the search benchmark's database (`bench_search_s<scale>` next to BENCH_DATABASE_URL's, default
 * postgres://postgres@127.0.0.1:5432/postgres): created, migrated and seeded at `--scale` (100 = the
 * benchmark data set, about 6 minutes) unless `--reuse` finds it seeded already.
 *
 * Picks, in the open month with the most live WIP modules, `--modules` WIP modules (each row: its
 * module, that month, 2 SKUs of the module's brand and collection that are not in it to add, 1 SKU
 * active in it to remove) and `--clusters` clusters (each row: a new description and one module of the
 * cluster's brand in that month that the cluster does not hold, to add). Every row changes something,
 * and a re-run picks SKUs and modules not yet added, so it changes things again.
 *
 * Measures through `app.inject` as the seeded admin, modules then clusters: the preview (dryRun) and
 * the real call (POST, then the job run with `app.jobs.drain()`, until the job row is DONE). Every row
 * must be applied (the run fails otherwise). Targets: 1,000 module rows applied in under 10 s, their
 * preview in under 3 s; clusters are measured without a target. Counts every SQL statement per phase;
 * `--profile` also lists the statements by shape (count and time) and the functions with the most
 * CPU time of this process while the module job runs.
 */
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { ClusterMassiveEditRowInput, MassiveEditResult } from '@bo/shared/massive-edit';
import type { JobStatus } from '@bo/shared/jobs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, queryRows } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { seedDemo } from '../src/seed/seed-demo.js';
import { pickModuleEditRows } from './massive-edit-rows.js';
import { scratchDatabase } from './scratch-database.js';

const TARGET_APPLY_S = 10;
const TARGET_PREVIEW_S = 3;
const TARGET_ROWS = 1000;

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100' },
    reuse: { type: 'boolean', default: false },
    modules: { type: 'string', default: '1000' },
    clusters: { type: 'string', default: '300' },
    profile: { type: 'boolean', default: false },
  },
  strict: true,
});
const scale = Number(values.scale);
const moduleCount = Number(values.modules);
const clusterCount = Number(values.clusters);
if (!(scale > 0) || !(moduleCount > 0) || !(clusterCount >= 0)) throw new Error('--scale and --modules must be numbers above 0, --clusters a number');

// The same database as the search benchmark: both share one seeded data set.
const dbName = `bench_search_s${String(scale).replace(/\W/g, '_')}`;

// ─── SQL statement counter: every statement any pg client sends (the pool's clients included) ───

interface Shape {
  count: number;
  ms: number;
}
const counter = { on: false, count: 0, ms: 0, shapes: new Map<string, Shape>() };
const shapeOf = (text: string) =>
  text
    .replace(/\$\d+(\s*,\s*\$\d+)*/g, '$n')
    .replace(/\s+/g, ' ')
    .slice(0, 140);
const record = (text: string, started: number) => {
  const ms = performance.now() - started;
  counter.count++;
  counter.ms += ms;
  if (!values.profile) return;
  const key = shapeOf(text);
  const s = counter.shapes.get(key) ?? { count: 0, ms: 0 };
  s.count++;
  s.ms += ms;
  counter.shapes.set(key, s);
};
const originalQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
  if (!counter.on) return originalQuery.apply(this, args);
  const first = args[0];
  const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
  const started = performance.now();
  const last = args[args.length - 1];
  if (typeof last === 'function') {
    args[args.length - 1] = (...cbArgs: unknown[]) => {
      record(text, started);
      return (last as (...a: unknown[]) => unknown)(...cbArgs);
    };
    return originalQuery.apply(this, args);
  }
  const out = originalQuery.apply(this, args);
  if (out && typeof (out as Promise<unknown>).then === 'function') {
    return (out as Promise<unknown>).then(
      (v) => {
        record(text, started);
        return v;
      },
      (e: unknown) => {
        record(text, started);
        throw e;
      },
    );
  }
  return out;
};

interface Measure {
  wallS: number;
  cpuS: number;
  queries: number;
  queryMs: number;
  shapes: Map<string, Shape>;
}
async function measure<T>(fn: () => Promise<T>): Promise<{ value: T; m: Measure }> {
  counter.count = 0;
  counter.ms = 0;
  counter.shapes = new Map();
  counter.on = true;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    const value = await fn();
    const wallS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    return { value, m: { wallS, cpuS: (cpu.user + cpu.system) / 1e6, queries: counter.count, queryMs: counter.ms, shapes: counter.shapes } };
  } finally {
    counter.on = false;
  }
}

const fmtS = (s: number) => `${s.toFixed(2)} s`;
function describe(label: string, m: Measure, rows: number) {
  console.log(
    `  ${label.padEnd(26)} ${fmtS(m.wallS).padStart(9)}  ${(rows / m.wallS).toFixed(0).padStart(6)} rows/s  node cpu ${fmtS(m.cpuS)}  ${m.queries} SQL statements (${(m.queries / rows).toFixed(1)}/row, ${fmtS(m.queryMs / 1000)} awaiting them)`,
  );
  if (!values.profile || m.shapes.size === 0) return;
  const top = [...m.shapes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15);
  for (const [shape, s] of top) console.log(`      ${String(s.count).padStart(6)} × ${s.ms.toFixed(0).padStart(6)} ms  ${shape}`);
}

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Runs fn under the V8 CPU profiler and prints the functions with the most self time. */
async function cpuProfiled<T>(title: string, fn: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    session.disconnect();
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    (profile.samples ?? []).forEach((id, i) => {
      const f = byId.get(id)!.callFrame;
      const where = f.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/apps\/server\//, '');
      const name = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber}`;
      self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
    });
    console.log(`    ${title}, self time:`);
    for (const [name, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`      ${t.toFixed(0).padStart(6)} ms  ${name}`);
  }
}

const failures: string[] = [];
function checkResult(what: string, result: MassiveEditResult, rows: number) {
  const { saved: applied, unchanged, failed } = result.counts;
  console.log(`  ${what}: status ${result.status}, saved ${applied}, unchanged ${unchanged}, failed ${failed} (of ${rows} rows)`);
  const notApplied = result.rows.filter((r) => r.outcome !== 'applied');
  if (result.status !== 'DONE' || applied !== rows || unchanged !== 0 || failed !== 0 || notApplied.length) {
    const msg = `${what}: not every row was applied (${notApplied.length} rows not applied)`;
    console.error(`  FAIL — ${msg}`);
    for (const r of notApplied.slice(0, 10)) console.error(`    row ${r.row}: ${r.outcome} — ${r.message}`);
    failures.push(msg);
  }
}

async function main() {
  const { url: benchUrl, fresh } = await scratchDatabase(dbName, values.reuse);
  const database = await openDatabase({ url: benchUrl, poolSize: 10 });
  try {
    const applied = await migrate(database);
    if (applied.length) console.log(`migrations applied: ${applied.join(', ')}`);
    if (fresh) {
      console.log(`Seeding ${dbName} at scale ${scale} …`);
      const started = performance.now();
      const summary = await seedDemo(database, { scale, log: (line) => console.log(`  ${line}`) });
      console.log(`Seeded ${summary.totalRows.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    } else {
      console.log(`Reusing ${dbName}`);
    }
    const db = database.db;
    // A bulk load (and a previous run's rewrites) leave dead rows and stale statistics: measure the
    // steady state a running database reaches.
    await database.execScript('VACUUM ANALYZE');

    const server = new URL(benchUrl);
    const [{ version } = { version: '?' }] = await queryRows<{ version: string }>(db, sql`SELECT version() AS version`);
    console.log(`\nPostgreSQL server: ${server.hostname}:${server.port || '5432'}, database ${dbName}: ${version}`);
    console.log(`${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg()[0]!.toFixed(1)} at start, Node ${process.version}`);

    // ─── The data: the open month with the most live WIP modules ───
    const [month] = await queryRows<{ month_id: string; n: number }>(
      db,
      sql`SELECT m.month_id, count(*)::int AS n
            FROM modules m
            JOIN months mo ON mo.month_id = m.month_id
            LEFT JOIN releases r ON r.release_id = mo.release_id
           WHERE mo.open AND coalesce(r.status, 'OPEN') <> 'CLOSED' AND m.deletion_status IS NULL AND m.status = 'WIP'
           GROUP BY m.month_id
           ORDER BY n DESC, m.month_id
           LIMIT 1`,
    );
    if (!month) throw new Error('No open month with live WIP modules');
    const monthId = month.month_id;
    console.log(`Month ${monthId}: ${month.n} live WIP modules`);

    const pendingJobs = await queryRows<{ status: string; n: number }>(db, sql`SELECT status, count(*)::int AS n FROM jobs WHERE status IN ('QUEUED', 'RUNNING') GROUP BY status`);
    if (pendingJobs.length) console.log(`Note: jobs waiting before the run (drain() runs them too): ${pendingJobs.map((j) => `${j.n} ${j.status}`).join(', ')}`);

    const pickStarted = performance.now();
    const moduleRows = await pickModuleEditRows((q) => queryRows(db, q), { months: [monthId], count: moduleCount });
    if (moduleRows.length < moduleCount) throw new Error(`Only ${moduleRows.length} modules of ${monthId} fit (wanted ${moduleCount})`);

    const stamp = new Date().toISOString().slice(0, 19);
    // Clusters nobody holds a lock on (WIP first), each with one live module of its brand in the month
    // that it does not hold at all (its collection first).
    const pickedClusters = await queryRows<{ cluster_id: string; add_module: string | null }>(
      db,
      sql`WITH c AS (
            SELECT c.id, c.cluster_id, c.brand_code, c.collection, c.month_id
              FROM clusters c
             WHERE c.month_id = ${monthId} AND c.deletion_status IS NULL AND c.status <> 'SUBMIT_IN_PROGRESS'
               AND NOT EXISTS (SELECT 1 FROM locks l WHERE l.item_type = 'cluster' AND l.item_key = c.cluster_id AND l.month_id = c.month_id)
             ORDER BY (c.status = 'WIP') DESC, c.id
             LIMIT ${clusterCount})
          SELECT c.cluster_id,
                 (SELECT mo.module_name FROM modules mo
                   WHERE mo.month_id = c.month_id AND mo.brand_code = c.brand_code AND mo.deletion_status IS NULL
                     AND NOT EXISTS (SELECT 1 FROM cluster_modules cm WHERE cm.cluster_pk = c.id AND cm.module_name = mo.module_name)
                   ORDER BY (mo.collection = c.collection) DESC, mo.module_name
                   LIMIT 1) AS add_module
            FROM c
           ORDER BY c.id`,
    );
    const clusterRows: ClusterMassiveEditRowInput[] = pickedClusters
      .filter((c) => c.add_module)
      .map((c) => ({ clusterLabels: [c.cluster_id], clusterDescription: `Bench massive edit ${stamp}`, moduleLabelsToAdd: [c.add_module!], months: [monthId] }));
    if (clusterRows.length < clusterCount) throw new Error(`Only ${clusterRows.length} clusters of ${monthId} fit (wanted ${clusterCount})`);
    const clusterStatuses = await queryRows<{ status: string; n: number }>(
      db,
      sql`SELECT status, count(*)::int AS n FROM clusters WHERE month_id = ${monthId} AND cluster_id IN ${pickedClusters.map((c) => c.cluster_id)} GROUP BY status`,
    );
    const sizes = await queryRows<{ avg: number; max: number }>(
      db,
      sql`SELECT avg(n)::float AS avg, max(n)::int AS max FROM (
            SELECT count(*) AS n FROM module_skus ms JOIN modules mo ON mo.id = ms.module_id
             WHERE mo.month_id = ${monthId} AND mo.module_name IN ${moduleRows.map((r) => r.moduleLabels![0]!)} GROUP BY mo.id) t`,
    );
    console.log(
      `Picked ${moduleRows.length} modules (composition ${sizes[0]!.avg.toFixed(0)} SKU lines on average, max ${sizes[0]!.max}) and ${clusterRows.length} clusters (${clusterStatuses.map((s) => `${s.n} ${s.status}`).join(', ')}) in ${((performance.now() - pickStarted) / 1000).toFixed(1)} s`,
    );

    // ─── The app, as the seeded admin ───
    const config = loadConfig({ LOG_LEVEL: 'silent' }, { WEB_DIST_DIR: '/nonexistent-web-dist' });
    const app = await buildApp({ config, database, logger: false });
    // The job runs when the benchmark drains the queue, from the POST's answer on: no polling delay.
    await app.jobs.stop();
    const login = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'admin', password: 'demo' } });
    if (login.statusCode !== 200) throw new Error(`login admin: ${login.statusCode} ${login.body}`);
    const headers = { authorization: `Bearer ${login.json().access_token}` };

    const post = async (url: string, payload: object) => {
      const res = await app.inject({ method: 'POST', url, headers, payload });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      return res.json();
    };

    const runs = [
      { name: 'modules', url: '/api/module/massiveEdit/', body: (dryRun: boolean) => ({ massiveEditList: moduleRows, toPublish: false, dryRun }), rows: moduleRows.length },
      { name: 'clusters', url: '/api/cluster/massiveEdit/', body: (dryRun: boolean) => ({ rowsClusterMassiveEdit: clusterRows, toPublish: false, dryRun }), rows: clusterRows.length },
    ];
    const figures = new Map<string, { preview: number; apply: number }>();
    for (const run of runs) {
      if (run.rows === 0) continue;
      console.log(`\n${run.name}: ${run.rows} rows, one item each, in ${monthId}`);
      const preview = await measure(() => post(run.url, run.body(true)) as Promise<MassiveEditResult>);
      describe('preview (dryRun)', preview.m, run.rows);
      checkResult('preview', preview.value, run.rows);

      const request = await measure(() => post(run.url, run.body(false)) as Promise<{ jobId: number; status: string }>);
      const { jobId } = request.value;
      const job = await measure(() => (values.profile ? cpuProfiled(`CPU profile of the ${run.name} job`, () => app.jobs.drain()) : app.jobs.drain()));
      const status = (await app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers })).json<JobStatus>();
      const totalS = request.m.wallS + job.m.wallS;
      describe('request (POST → jobId)', request.m, run.rows);
      describe('job (drain → DONE)', job.m, run.rows);
      const [row] = await queryRows<{ wait_s: number; run_s: number }>(
        db,
        sql`SELECT extract(epoch FROM started_at - created_at)::float AS wait_s, extract(epoch FROM finished_at - started_at)::float AS run_s FROM jobs WHERE id = ${jobId}`,
      );
      console.log(`  job ${jobId} row: ${status.status}, progress ${status.progress}, queued ${fmtS(row!.wait_s)}, ran ${fmtS(row!.run_s)} (started_at → finished_at)`);
      console.log(`  apply total (POST → job DONE): ${fmtS(totalS)}, ${(run.rows / totalS).toFixed(0)} rows/s`);
      if (status.status !== 'DONE') {
        failures.push(`${run.name}: job ${jobId} is ${status.status}: ${status.response ?? ''}`);
        console.error(`  FAIL — job ${jobId} ended ${status.status}: ${status.response ?? ''}`);
      } else {
        checkResult('job result', status.result as MassiveEditResult, run.rows);
      }
      figures.set(run.name, { preview: preview.m.wallS, apply: totalS });
    }
    await app.close();

    if (values.profile) {
      // The floor under one transaction per row on this machine: round trips and commits alone.
      const lastJob = (await queryRows<{ id: number }>(db, sql`SELECT max(id)::int AS id FROM jobs`))[0]!.id;
      const n = 1000;
      let t = performance.now();
      for (let i = 0; i < n; i++) await db.execute(sql`SELECT 1`);
      const roundTripMs = (performance.now() - t) / n;
      t = performance.now();
      for (let i = 0; i < n; i++) await db.transaction(async (tx) => tx.execute(sql`UPDATE jobs SET progress = progress WHERE id = ${lastJob}`));
      const txMs = (performance.now() - t) / n;
      console.log(`\nFloor: SELECT 1 round trip ${roundTripMs.toFixed(2)} ms; BEGIN + one-row UPDATE + COMMIT ${txMs.toFixed(2)} ms (× ${TARGET_ROWS} rows = ${fmtS((txMs * TARGET_ROWS) / 1000)})`);
    }

    console.log('\nSummary');
    const mod = figures.get('modules')!;
    const scaleNote = moduleRows.length === TARGET_ROWS ? '' : ` (measured with ${moduleRows.length} rows, the targets are for ${TARGET_ROWS})`;
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    const previewOk = mod.preview < TARGET_PREVIEW_S;
    const applyOk = mod.apply < TARGET_APPLY_S;
    console.log(`  modules preview: ${fmtS(mod.preview)} (${(moduleRows.length / mod.preview).toFixed(0)} rows/s) — target < ${TARGET_PREVIEW_S} s: ${verdict(previewOk)}${scaleNote}`);
    console.log(`  modules apply:   ${fmtS(mod.apply)} (${(moduleRows.length / mod.apply).toFixed(0)} rows/s) — target < ${TARGET_APPLY_S} s: ${verdict(applyOk)}${scaleNote}`);
    const cl = figures.get('clusters');
    if (cl) {
      console.log(`  clusters preview: ${fmtS(cl.preview)} (${(clusterRows.length / cl.preview).toFixed(0)} rows/s), no target`);
      console.log(`  clusters apply:   ${fmtS(cl.apply)} (${(clusterRows.length / cl.apply).toFixed(0)} rows/s), no target`);
    }
    console.log(`  outcomes: ${failures.length ? `FAIL (${failures.join('; ')})` : 'every row applied'}; load average ${os.loadavg()[0]!.toFixed(1)} at the end`);
    if (failures.length || !previewOk || !applyOk) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
