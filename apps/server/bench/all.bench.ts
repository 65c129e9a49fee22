/**
 * Issue 19's figures in one command: `npm run bench [-- --scale 100] [--seconds 60] [--only 1,2,4] [--no-build]`
 * (the root's script; not part of `npm test` nor .ci/run).
 *
 * Builds the web app and the server (`npm run build`), then runs each benchmark as a child process,
 * one after the other, on the local PostgreSQL (BENCH_DATABASE_URL's server), and reads the last
 * `BENCH_RESULT {json}` line of each:
 *   1  search within 1.5× its bare SQL   npm run bench:search -w apps/server -- --scale S --reuse
 *                                         (seeds bench_search_s<S> first when it does not exist)
 *   2  50 planners, 3 WORKERS=2, 6 metrics   npm run bench:load -w apps/server -- --scale S
 *      and issue 35's mixed morning (35.1: latencies and CPU per call; 35.2: without pauses), printed
 *      with the PostgreSQL settings it ran with (rows "35.…", after issue 19's), and bulk work during that morning
 *      (35.3: a release load, a massive edit and an export with photos; search and save p95 against the morning's alone)
 *   4  light first load                   npm run size -w apps/web
 *   5  compiled server start              npm run bench:start -w apps/server
 *   7  module page 30 × 100 and 60 × 200  npm run bench:module-page -w apps/server -- --reuse [--modules 60 --skus 200]
 *                                         (opened: usable, timed in the page; drag frames p95 of both pages)
 * and prints a table: target, measured figure, target figure, met or not. Each child's output is shown
 * as it runs. Exit code 1 when a benchmark gave no figure (crashed); targets not met are FAIL rows.
 */
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MODULE_PAGE = { small: { modules: 30, skus: 100, openP50: 350 }, large: { modules: 60, skus: 200, openP50: 800 }, dragP95: 33 };

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '60' },
    only: { type: 'string', default: '1,2,3,4,5,6,7' },
    'no-build': { type: 'boolean', default: false },
  },
  strict: true,
});
const scale = Number(values.scale);
if (!(scale > 0)) throw new Error('--scale must be a number above 0');
const only = new Set(values.only.split(',').map((s) => s.trim()));
const dbName = `bench_search_s${String(scale).replace(/\W/g, '_')}`;
const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Row {
  target: string;
  measured: string;
  goal: string;
  met: boolean | null;
}
const rows: Row[] = [];
let crashed = 0;

/** Runs `npm args…` in the repository, echoing its output, and answers the JSON of its last BENCH_RESULT line. */
function runStep(title: string, args: string[], timeoutMs: number): Promise<Record<string, unknown> | null> {
  console.log(`\n=== ${title}: npm ${args.join(' ')}`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let last: string | null = null;
    let pending = '';
    const onData = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
      stream.write(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.startsWith('BENCH_RESULT ')) last = line.slice('BENCH_RESULT '.length);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    const timer = setTimeout(() => {
      console.log(`\n${title}: no end after ${timeoutMs / 60_000} min, stopped`);
      child.kill('SIGTERM');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (pending.startsWith('BENCH_RESULT ')) last = pending.slice('BENCH_RESULT '.length);
      console.log(`=== ${title}: exit ${code}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      try {
        resolve(last ? (JSON.parse(last) as Record<string, unknown>) : null);
      } catch {
        resolve(null);
      }
    });
  });
}

const noFigure = (target: string, goal: string) => {
  crashed++;
  rows.push({ target, measured: 'no figure (the benchmark failed: see its output above)', goal, met: null });
};

async function machine() {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount === 1;
    return { version, exists };
  } finally {
    await client.end();
  }
}

async function moduleCount(): Promise<number> {
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(`SELECT CASE WHEN to_regclass('modules') IS NULL THEN 0 ELSE (SELECT count(*)::int FROM modules) END AS n`)).rows[0]!.n;
  } finally {
    await client.end();
  }
}

async function main() {
  const startedAt = new Date();
  const { version, exists } = await machine();
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`${startedAt.toISOString()}: ${os.availableParallelism()} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GB memory, PostgreSQL ${version}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);

  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });

  // The benchmark data set: seeded once, reused afterwards (never dropped here).
  let seeded = exists;
  if (exists && (await moduleCount()) === 0) {
    throw new Error(`${dbName} exists but holds no modules (a seed still running, or one that failed): wait for it, or drop it to seed again`);
  }

  if (only.has('1') || !seeded) {
    const search = await runStep('1 search (seeds the benchmark data set when missing)', ['run', 'bench:search', '-w', 'apps/server', '--', '--scale', String(scale), ...(seeded ? ['--reuse'] : [])], 60 * 60_000);
    seeded = true;
    if (!only.has('1')) {
      /* seeding only */
    } else if (!search) noFigure('1 search: product within 1.5× its bare SQL', '≤ 1.5×');
    else {
      const calls = Array.isArray(search.calls) ? (search.calls as { call?: string; user?: string; ratio?: number; pass?: boolean }[]) : [];
      const worst = calls.filter((c) => typeof c.ratio === 'number').sort((a, b) => b.ratio! - a.ratio!)[0];
      const within = calls.filter((c) => c.pass).length;
      rows.push({
        target: '1 search: product p50 / bare SQL p50',
        measured: worst ? `worst ${worst.ratio!.toFixed(2)}× (${worst.call}, ${worst.user}); ${within} of ${calls.length} calls within` : JSON.stringify(search).slice(0, 120),
        goal: typeof search.target === 'string' ? search.target : '≤ 1.5×',
        met: typeof search.pass === 'boolean' ? search.pass : typeof search.met === 'boolean' ? search.met : null,
      });
    }
  }

  if (only.has('2') || only.has('3')) {
    const load = await runStep('2, 3, 6 load: 50 planners, WORKERS=1 and 2, the mixed morning and bulk work during it (issue 35)', ['run', 'bench:load', '-w', 'apps/server', '--', '--scale', String(scale), '--seconds', values.seconds], 30 * 60_000);
    if (!load) noFigure('2 load / 3 workers / 6 metrics', 'see the issue');
    else {
      for (const t of load.targets as Row[]) rows.push({ target: t.target, measured: t.measured, goal: t.goal, met: t.met });
      const settings = load.postgresSettings as Record<string, string> | undefined;
      if (settings) rows.push({ target: '35 PostgreSQL settings of the run', measured: Object.entries(settings).map(([k, v]) => `${k} ${v}`).join(', '), goal: '(printed)', met: null });
    }
  }

  if (only.has('4')) {
    const size = await runStep('4 light first load', ['run', 'size', '-w', 'apps/web'], 5 * 60_000);
    if (!size) noFigure('4 first load: gzipped JavaScript', 'login ≤ 200 KB, home ≤ 300 KB');
    else {
      const kb = size.kb as Record<string, number>;
      for (const [route, limit] of Object.entries(size.targets as Record<string, number>)) {
        rows.push({ target: `4 first load: ${route} (gzipped JS)`, measured: `${kb[route]?.toFixed(1)} KB`, goal: `≤ ${limit} KB`, met: kb[route] !== undefined && kb[route]! <= limit });
      }
    }
  }

  if (only.has('5')) {
    const start = await runStep('5 compiled server start', ['run', 'bench:start', '-w', 'apps/server'], 20 * 60_000);
    if (!start) noFigure('5 start: login page served, compiled', 'faster than through tsx');
    else {
      const compiled = start.compiledMs as number;
      const tsx = start.tsxMs as number;
      rows.push({
        target: '5 start: login page served (median)',
        measured: `compiled ${(compiled / 1000).toFixed(2)} s, through tsx ${(tsx / 1000).toFixed(2)} s (RSS ${String(start.compiledRssMb)} MB)`,
        goal: 'compiled faster than through tsx',
        met: compiled < tsx,
      });
    }
  }

  if (only.has('6') && !only.has('2')) console.log('\nTarget 6 (metrics) is checked by the load benchmark (2).');

  if (only.has('7')) {
    for (const spec of [MODULE_PAGE.small, MODULE_PAGE.large]) {
      const args = ['run', 'bench:module-page', '-w', 'apps/server', '--', '--reuse', '--modules', String(spec.modules), '--skus', String(spec.skus)];
      const page = await runStep(`7 module page ${spec.modules} × ${spec.skus}`, args, 20 * 60_000);
      const name = `7 module page ${spec.modules} × ${spec.skus}: opened (p50)`;
      if (!page || typeof page.openP50 !== 'number') {
        noFigure(name, `≤ ${spec.openP50} ms`);
        continue;
      }
      // Usable, timed in the page from the navigation's start; the test driver's polling sees it later (module-page.bench.ts).
      const driver = typeof page.driverP50 === 'number' ? `, ${page.driverP50.toFixed(0)} seen by the test driver` : '';
      rows.push({
        target: name,
        measured: `${page.openP50.toFixed(0)} ms (modules call on the server ${Number(page.serverP50).toFixed(0)} ms${driver})`,
        goal: `≤ ${spec.openP50} ms`,
        met: page.openP50 <= spec.openP50,
      });
      // "drag frames p95 ≤ 33 ms in both" pages.
      const drag = page.dragP95;
      rows.push({
        target: `7 module page ${spec.modules} × ${spec.skus}: drag frames p95`,
        measured: typeof drag === 'number' ? `${drag.toFixed(1)} ms` : 'no frames',
        goal: `≤ ${MODULE_PAGE.dragP95} ms`,
        met: typeof drag === 'number' ? drag <= MODULE_PAGE.dragP95 : null,
      });
    }
  }

  // By target number (a stable sort: each benchmark's rows keep their order).
  rows.sort((a, b) => parseFloat(a.target) - parseFloat(b.target));
  const width = (k: keyof Row) => Math.max(k.length, ...rows.map((r) => String(r[k]).length));
  const [wt, wm, wg] = [width('target'), width('measured'), width('goal')];
  console.log(`\nIssue 19 and 35 figures, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.availableParallelism()} cores, PostgreSQL ${version}, ${dbName}, load average now ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`${'target'.padEnd(wt)}  ${'measured'.padEnd(wm)}  ${'target figure'.padEnd(wg)}  met`);
  for (const r of rows) console.log(`${r.target.padEnd(wt)}  ${r.measured.padEnd(wm)}  ${r.goal.padEnd(wg)}  ${r.met === null ? '—' : r.met ? 'PASS' : 'FAIL'}`);
  console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'all', date: startedAt.toISOString(), cores: os.availableParallelism(), postgres: version, database: dbName, rows })}`);
  if (crashed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
