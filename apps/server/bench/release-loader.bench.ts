/**
 * Release loader benchmark: `npm run bench:release-loader -w apps/server -- [--rows 1000000] [--keep] [--bulk-min-lines N]`
 *
 * Generates a release whose Module Composition has `--rows` lines (50 SKUs per module-month), with a
 * matching Sku Registry, Customer Segmentation and Cluster Composition, as CSV files in a temp dir. Loads
 * them (massive) into a fresh PostgreSQL database (`bench_release_loader`, next to BENCH_DATABASE_URL's)
 * holding the test reference data, sampling the process RSS. Then `\copy`s the same module CSV with psql
 * into a bare table of the same columns. PASS when the loader's module rows/s (its whole load time, all
 * four files, checks and merges included) reach 25% of the bare COPY's, with peak RSS under 500 MB.
 * `--bulk-min-lines` is the load's `bulkMinLines` (from how many lines a load may rewrite module_skus in bulk;
 * the loader's default otherwise): a number above `--rows` times the lines written row by row.
 * `--reload-every N` then loads the same files again, one module line in N changed (its minimum value), and
 * prints that reload's time (with `--bulk-min-lines` above `--rows`, a reload row by row writes only what changed).
 * It also prints how busy the load kept this process's main thread — the thread that answers the planners in the
 * server — during the staging (progress 0–70 %, the files read and typed) and in all: its event-loop utilisation
 * and the longest event-loop delays (what a planner's call arriving then would have waited).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance as perf, type EventLoopUtilization } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { FORMATS, RELEASE_FILE_KINDS, type ReleaseFileKind } from '../src/areas/uploads/release-loader/formats.js';
import { fileSource, type FileSource } from '../src/areas/uploads/release-loader/read-records.js';
import { loadRelease } from '../src/areas/uploads/release-loader/release-loader.service.js';
import { prepareReleaseWorld, writeReleaseFiles } from '../test/release-files.js';
import { scratchDatabase } from './scratch-database.js';

const TARGET_SHARE = 0.25;
const MAX_RSS_MB = 500;

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, keep: { type: 'boolean', default: false }, 'bulk-min-lines': { type: 'string' }, 'reload-every': { type: 'string' } },
  strict: true,
});
const moduleRows = Number(values.rows);
const bulkMinLines = values['bulk-min-lines'] === undefined ? undefined : Number(values['bulk-min-lines']);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-release-'));
  console.log(`Generating files in ${dir} …`);
  const generated = await writeReleaseFiles(dir, moduleRows);
  const files = {} as Record<ReleaseFileKind, FileSource>;
  const counts: Record<string, number> = {};
  for (const kind of RELEASE_FILE_KINDS) {
    files[kind] = fileSource(generated[kind].path);
    counts[kind] = generated[kind].rows;
    console.log(`  ${kind}: ${counts[kind]!.toLocaleString('en-US')} rows, ${(files[kind].size / 1e6).toFixed(1)} MB`);
  }

  const { url } = await scratchDatabase('bench_release_loader', false);
  const database = await openDatabase({ url, poolSize: 4 });
  try {
    await migrate(database);
    await prepareReleaseWorld(database.db);

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    let lastProgress = -1;
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    const stagingDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    stagingDelay.enable();
    const busyAtStart = perf.eventLoopUtilization();
    let busyStaging: EventLoopUtilization | null = null;
    const started = performance.now();
    const result = await loadRelease(database.db, {
      releaseId: 'R2027',
      type: 'massive',
      files,
      username: 'bench',
      ...(bulkMinLines === undefined ? {} : { bulkMinLines }),
      onProgress: (p) => {
        if (p >= 70 && !busyStaging) {
          busyStaging = perf.eventLoopUtilization(busyAtStart);
          stagingDelay.disable();
        }
        if (p >= lastProgress + 10 || p === 100) {
          lastProgress = p;
          console.log(`  ${String(p).padStart(3)}%  ${((performance.now() - started) / 1000).toFixed(1)} s  rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
        }
      },
    });
    const loadSeconds = (performance.now() - started) / 1000;
    const busyAll = perf.eventLoopUtilization(busyAtStart);
    loopDelay.disable();
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (!result.ok) throw new Error(`refused (${result.errorCount}): ${result.errors.slice(0, 10).join('\n')}`);
    const allRows = Object.values(result.rows).reduce((s, n) => s + n, 0);
    const loaderRate = counts.module! / loadSeconds;
    console.log(`Loader: ${allRows.toLocaleString('en-US')} rows of four files in ${loadSeconds.toFixed(1)} s = ${(allRows / loadSeconds).toFixed(0)} rows/s;`);
    console.log(`        module rows / load time = ${loaderRate.toFixed(0)} rows/s; peak RSS ${(peakRss / 1e6).toFixed(0)} MB`);
    console.log(`        staged: ${JSON.stringify(result.staged)}; merged: ${JSON.stringify(result.merged)}`);
    const busy = (u: EventLoopUtilization | null, h: ReturnType<typeof monitorEventLoopDelay>) =>
      u
        ? `busy ${(u.active / 1000).toFixed(1)} s of ${((u.active + u.idle) / 1000).toFixed(1)} s (${(u.utilization * 100).toFixed(0)} %), event-loop delay p99 ${(h.percentile(99) / 1e6).toFixed(0)} ms, max ${(h.max / 1e6).toFixed(0)} ms`
        : 'not reached';
    console.log(`Main thread during the staging (0–70 %): ${busy(busyStaging, stagingDelay)}`);
    console.log(`Main thread during the whole load:      ${busy(busyAll, loopDelay)}`);
    if (values['reload-every'] !== undefined) {
      const every = Number(values['reload-every']);
      const again = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-reload-'));
      const changed = await writeReleaseFiles(again, moduleRows, every);
      const reloadStarted = performance.now();
      const reloaded = await loadRelease(database.db, {
        releaseId: 'R2027',
        type: 'massive',
        files: Object.fromEntries(RELEASE_FILE_KINDS.map((k) => [k, fileSource(changed[k].path)])) as Record<ReleaseFileKind, FileSource>,
        username: 'bench',
        ...(bulkMinLines === undefined ? {} : { bulkMinLines }),
        onProgress: (p) => console.log(`  reload ${String(p).padStart(3)}%  ${((performance.now() - reloadStarted) / 1000).toFixed(1)} s`),
      });
      fs.rmSync(again, { recursive: true, force: true });
      if (!reloaded.ok) throw new Error(`reload refused (${reloaded.errorCount}): ${reloaded.errors.slice(0, 10).join('\n')}`);
      console.log(`Reload, one module line in ${every} changed: ${((performance.now() - reloadStarted) / 1000).toFixed(1)} s; merged: ${JSON.stringify(reloaded.merged)}`);
    }

    const defs = FORMATS.module.columns.map((c) => `"${c.name}" text`).join(", ");
    await database.db.execute(sql.raw('DROP TABLE IF EXISTS bare_module_copy'));
    await database.db.execute(sql.raw(`CREATE TABLE bare_module_copy (${defs})`));
    const copyStarted = performance.now();
    execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\copy bare_module_copy FROM '${path.join(dir, 'module.csv')}' WITH (FORMAT csv, HEADER true, DELIMITER ',')`], { stdio: 'inherit' });
    const copySeconds = (performance.now() - copyStarted) / 1000;
    const copyRate = counts.module! / copySeconds;
    console.log(`Bare COPY (psql \\copy): ${counts.module!.toLocaleString('en-US')} rows in ${copySeconds.toFixed(1)} s = ${copyRate.toFixed(0)} rows/s`);

    const share = loaderRate / copyRate;
    const pass = share >= TARGET_SHARE && peakRss / 1e6 < MAX_RSS_MB;
    console.log(`Loader at ${(share * 100).toFixed(0)}% of bare COPY (target ≥ ${TARGET_SHARE * 100}%), peak RSS ${(peakRss / 1e6).toFixed(0)} MB (target < ${MAX_RSS_MB} MB): ${pass ? 'PASS' : 'FAIL'}`);
    if (!pass) process.exitCode = 1;
  } finally {
    await database.close();
    if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
