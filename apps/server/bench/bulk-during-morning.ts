/**
 * The load benchmark's "bulk work during the morning" (issue 35, target 3; played by load.bench.ts after the mixed
 * morning, once per WORKERS entry): the mixed morning's planners (mixed-morning.ts `morningPlayers`, with their pauses)
 * play without a break while:
 *  1. nothing else runs, for `baselineSeconds`: the baseline;
 *  2. then, one after the other (5 s apart), each sent by an admin through the product's HTTP API and its job awaited
 *     (bulk-jobs.ts): a release load of `loadLines` module lines (Upload Files, `massive`, the five files of
 *     bench-release-files.ts, into a release of their own), a module massive edit of `editRows` rows (modules of the
 *     morning's months outside the writers' months and brands, massive-edit-rows.ts; sent again on other modules until
 *     its window has lasted EDIT_SECONDS), and a spreadsheet export with
 *     photos of `exportModules` modules of the morning's months, the file downloaded.
 * For each window: the planners' search, save and module open p95 and their ratio to the baseline's (target: search
 * and save within 1.5×), and the bulk job's own time. Everything sent to prepare the bulk work (files generated,
 * rows picked) is done before the planners start; the release loaded is emptied again after the phase.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { emptyBenchRelease, prepareBenchRelease, writeBenchReleaseFiles } from './bench-release-files.js';
import { bulkAdmin, massiveEdit, photoExport, releaseLoad, type BulkJobResult } from './bulk-jobs.js';
import type { ModuleMassiveEditRowInput } from '@bo/shared/massive-edit';
import { request, searchAnswersMoved, searchAnswersOf, sleep, Stats, WindowedStats, type SearchAnswers, type Summary } from './load-client.js';
import { pickModuleEditRows } from './massive-edit-rows.js';
import { eventLoopDelay, type MorningPlayers } from './mixed-morning.js';

export const BULK_TARGETS = {
  /** Search and save p95 during bulk work, at most this many times their value without it. */
  factor: 1.5,
  /** Issue 35: a release load of 1,000,000 module lines takes 23–24 s today; it stays so or better. */
  loadSeconds: 24,
  loadReferenceLines: 1_000_000,
};
const RAMP_MS = 3_000;
/**
 * The massive edit is sent again (other modules each time) until its window has lasted this long: one edit of 1,000
 * rows takes 4–9 s here, a window of 18 saves whose p95 is its slowest call (docs/performance.md, "A call's cost
 * after warm-up, the massive edit's window").
 */
const EDIT_SECONDS = 30;
/** At most this many edits in the window (their rows picked before the planners start). */
const EDIT_SETS = 10;
/** Fewer calls than this in a window: its p95 is its slowest call. */
const FEW = 20;
const GAP_MS = 5_000;

export interface BulkOptions {
  base: string;
  workers: number;
  client: pg.Client;
  players: MorningPlayers;
  baselineSeconds: number;
  loadLines: number;
  editRows: number;
  exportModules: number;
  /** Reads the server's event-loop delay over each window (/api/metrics, prom-client's monitorEventLoopDelay, reset by each scrape). */
  metricsToken?: string;
  /** Which bulk jobs to play, in this order (default: all three). */
  jobs?: readonly BulkJobName[];
}

export const BULK_JOB_NAMES = ['load', 'edit', 'export'] as const;
export type BulkJobName = (typeof BULK_JOB_NAMES)[number];

export interface BulkWindow {
  seconds: number;
  search: Summary;
  save: Summary;
  open: Summary;
  errors: number;
  /** The answering process's event-loop delay over the window (ms; null without a metrics token). */
  loop: { maxMs: number; p99Ms: number } | null;
  /** The answering process's search answers over the window, by source (null without a metrics token). */
  answers: SearchAnswers | null;
}

/** What a scrape of /api/metrics gives a window: the event-loop delay since the previous scrape, and the answers' counters. */
interface Scrape {
  loop: BulkWindow['loop'];
  answers: SearchAnswers | null;
}

export interface BulkRun {
  job: BulkJobResult;
  window: BulkWindow;
  /** p95 during the job / p95 of the baseline. */
  ratios: { search: number; save: number; open: number };
}

export interface BulkResult {
  loadLines: number;
  baseline: BulkWindow;
  runs: BulkRun[];
  /** Errors of the planners over the whole phase. */
  errors: number;
  firstErrors: string[];
}

export interface BenchTarget {
  target: string;
  measured: string;
  goal: string;
  met: boolean;
}

const windowOf = (s: Stats, startedAt: number, first: Scrape, last: Scrape): BulkWindow => {
  const seconds = (performance.now() - startedAt) / 1000;
  const answers = first.answers && last.answers ? searchAnswersMoved(first.answers, last.answers) : null;
  return { seconds, search: s.summary('search', seconds), save: s.summary('save', seconds), open: s.summary('module open', seconds), errors: s.errorCount(), loop: last.loop, answers };
};

/**
 * The event-loop delay (max, p99) since the previous scrape of /api/metrics: prom-client's default metrics
 * (perf_hooks.monitorEventLoopDelay, 10 ms resolution) reset their histogram at each scrape, so a scrape at a
 * window's start and one at its end give the window's figures. With WORKERS > 1, those of the process that answered
 * (the answers' counters too: both scrapes of a window are then not always the same process's; a negative count says so).
 */
async function scrape(base: string, token: string | undefined): Promise<Scrape> {
  if (!token) return { loop: null, answers: null };
  const res = await request(base, 'GET', '/api/metrics', token);
  if (res.status !== 200) return { loop: null, answers: null };
  return { loop: eventLoopDelay(res.text), answers: searchAnswersOf(res.text) };
}

/** Massive edits of `sets` one after the other, the next sent when the last is done, until `seconds` have passed. */
async function repeatedEdits(base: string, token: string, client: pg.Client, sets: ModuleMassiveEditRowInput[][], seconds: number): Promise<BulkJobResult> {
  const started = performance.now();
  const done: BulkJobResult[] = [];
  for (const set of sets) {
    const one = await massiveEdit(base, token, client, set);
    done.push(one);
    if (!one.ok || performance.now() - started >= seconds * 1000) break;
  }
  const first = done[0]!;
  const all = (pick: (r: BulkJobResult) => number | null) => (done.every((r) => pick(r) !== null) ? done.reduce((n, r) => n + pick(r)!, 0) : null);
  return {
    name: done.length > 1 ? `${first.name} × ${done.length}` : first.name,
    ok: done.every((r) => r.ok),
    seconds: (performance.now() - started) / 1000,
    queuedS: all((r) => r.queuedS),
    runS: all((r) => r.runS),
    detail: done.length > 1 ? `${done.length} edits of ${sets[0]!.length} rows, each ${done.map((r) => r.seconds.toFixed(1)).join(' / ')} s; ${done.find((r) => !r.ok)?.detail ?? first.detail}` : first.detail,
  };
}

export async function bulkDuringMorning(o: BulkOptions): Promise<BulkResult> {
  const { base, client, players } = o;
  // ── Prepared before the planners play ──
  const token = await bulkAdmin(base, client);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-bulk-'));
  const playing = new Set<BulkJobName>(o.jobs ?? BULK_JOB_NAMES);
  try {
    const generated = performance.now();
    const files = playing.has('load') ? await writeBenchReleaseFiles(dir, o.loadLines) : null;
    if (files) {
      await prepareBenchRelease(client);
      await emptyBenchRelease(client);
    }
    const dialect = new PgDialect();
    const run = async <T>(query: SQL) => {
      const q = dialect.sqlToQuery(query);
      return (await client.query(q.sql, q.params)).rows as T[];
    };
    const openMonths = (await client.query<{ month_id: string }>('SELECT month_id FROM months WHERE open ORDER BY year, month')).rows.map((r) => r.month_id);
    const morningMonths = [...new Set(players.combos.map((c) => c.monthId))];
    // The morning's months first, so that the edit changes what the planners search (their kept answers too).
    // EDIT_SETS edits' rows, each set of other modules (a set sent again would change nothing).
    const picked = playing.has('edit')
      ? await pickModuleEditRows(run, { months: [...morningMonths, ...openMonths.filter((m) => !morningMonths.includes(m))], count: o.editRows * EDIT_SETS, skip: players.writeScopes })
      : [];
    const fullSets = Array.from({ length: EDIT_SETS }, (_, i) => picked.slice(i * o.editRows, (i + 1) * o.editRows)).filter((set) => set.length === o.editRows);
    // Fewer modules than one edit's rows: one edit of those that fit, as before.
    const editSets = fullSets.length ? fullSets : [picked];
    if (playing.has('edit') && picked.length < o.editRows) console.log(`  note: only ${picked.length} modules fit the massive edit (wanted ${o.editRows})`);
    const exportItems = (
      await client.query<{ module_name: string; month_id: string }>(
        'SELECT module_name, month_id FROM modules WHERE month_id = ANY($1) AND deletion_status IS NULL ORDER BY month_id, brand_code, id LIMIT $2',
        [morningMonths, o.exportModules],
      )
    ).rows.map((r) => ({ moduleName: r.module_name, monthId: r.month_id }));
    const templateId = (await client.query<{ template_id: number }>(`SELECT template_id FROM templates WHERE templates_type = 'modulo' ORDER BY template_id LIMIT 1`)).rows[0]?.template_id;
    if (!templateId) throw new Error('the data set has no module template for the export');
    console.log(
      `\nWORKERS=${o.workers}: bulk work during the morning, ${players.planners.length} planners; prepared in ${((performance.now() - generated) / 1000).toFixed(0)} s: ` +
        `release files (${files ? Object.entries(files).map(([k, f]) => `${k} ${f.rows.toLocaleString('en-US')} rows`).join(', ') : 'not played'}), ${editSets.length} massive edits of ${editSets[0]!.length} rows, ${exportItems.length} modules to export` +
        (playing.size < BULK_JOB_NAMES.length ? `; playing only: ${[...playing].join(', ')}` : ''),
    );

    // ── The planners play; the windows follow one another ──
    const stats = new WindowedStats();
    let end = Infinity;
    const planning = players.play(stats, () => end, true);
    const runs: BulkRun[] = [];
    let baseline: BulkWindow;
    try {
      await sleep(RAMP_MS);
      stats.window = new Stats();
      const baselineFirst = await scrape(base, o.metricsToken);
      const baselineStart = performance.now();
      await sleep(o.baselineSeconds * 1000);
      baseline = windowOf(stats.window, baselineStart, baselineFirst, await scrape(base, o.metricsToken));
      const all: Record<BulkJobName, () => Promise<BulkJobResult>> = {
        load: () => releaseLoad(base, token, client, files!),
        edit: () => repeatedEdits(base, token, client, editSets, EDIT_SECONDS),
        export: () => photoExport(base, token, client, templateId, exportItems),
      };
      const jobs = BULK_JOB_NAMES.filter((name) => playing.has(name)).map((name) => all[name]);
      for (const job of jobs) {
        stats.window = new Stats();
        await sleep(GAP_MS);
        stats.window = new Stats();
        const first = await scrape(base, o.metricsToken);
        const started = performance.now();
        const result = await job();
        const window = windowOf(stats.window, started, first, await scrape(base, o.metricsToken));
        const ratio = (a: Summary, b: Summary) => a.p95 / b.p95;
        runs.push({ job: result, window, ratios: { search: ratio(window.search, baseline.search), save: ratio(window.save, baseline.save), open: ratio(window.open, baseline.open) } });
        console.log(`  ${result.name}: ${result.ok ? 'done' : 'FAILED'} in ${result.seconds.toFixed(1)} s; ${result.detail}`);
      }
    } finally {
      end = performance.now();
      await planning;
    }
    const drainS = await players.drain();
    // The data set as the phase found it: the next WORKERS run's phases do not read a million more lines.
    if (files) {
      const emptied = performance.now();
      const removed = await emptyBenchRelease(client);
      console.log(`  the bench release emptied again (${removed.toLocaleString('en-US')} module lines, vacuumed) in ${((performance.now() - emptied) / 1000).toFixed(1)} s`);
    }

    const result: BulkResult = { loadLines: o.loadLines, baseline, runs, errors: stats.errorCount(), firstErrors: [...stats.errors].map(([call, list]) => `${call} (${list.length}): ${list[0]}`) };
    printBulk(o.workers, result, drainS);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printBulk(workers: number, r: BulkResult, drainS: number) {
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
  const x = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');
  const s = (n: number | null) => (n === null ? '?' : n.toFixed(1));
  const loop = (w: BulkWindow) => (w.loop ? `${ms(w.loop.maxMs)} / ${ms(w.loop.p99Ms)}` : '–');
  const answers = (w: BulkWindow) => (w.answers ? `${w.answers.kept} / ${w.answers.refreshed} / ${w.answers.computed}` : '–');
  const table = [
    ['window', 's', 'searches', 'p95 ms', 'ratio', 'saves', 'p95 ms', 'ratio', 'opens', 'p95 ms', 'ratio', 'errors', 'loop delay max/p99 ms', 'answers kept/refreshed/computed', 'bulk job s (queued, ran)'],
    ['without bulk work', r.baseline.seconds.toFixed(0), String(r.baseline.search.count), ms(r.baseline.search.p95), '', String(r.baseline.save.count), ms(r.baseline.save.p95), '', String(r.baseline.open.count), ms(r.baseline.open.p95), '', String(r.baseline.errors), loop(r.baseline), answers(r.baseline), ''],
    ...r.runs.map(({ job, window: w, ratios }) => [
      `during the ${job.name}`,
      w.seconds.toFixed(0),
      String(w.search.count),
      ms(w.search.p95),
      x(ratios.search),
      String(w.save.count),
      ms(w.save.p95),
      x(ratios.save),
      String(w.open.count),
      ms(w.open.p95),
      x(ratios.open),
      String(w.errors),
      loop(w),
      answers(w),
      `${job.seconds.toFixed(1)} (${s(job.queuedS)}, ${s(job.runS)})${job.ok ? '' : ' FAILED'}`,
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  console.log(`\nWORKERS=${workers}, bulk work during the morning: the planners' search, save and module open p95, and the ratio to the window without bulk work`);
  for (const row of table) console.log(('  ' + row.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')).trimEnd());
  const load = r.runs.find((run) => run.job.name.startsWith('release load'));
  // Not scaled to 1,000,000 lines: the files' SKUs, stores and clusters do not grow with the lines.
  if (load) console.log(`  release load: ${load.job.seconds.toFixed(1)} s for ${r.loadLines.toLocaleString('en-US')} module lines; issue 35's reference: 23–24 s for 1,000,000 lines`);
  console.log(`  publish jobs drained in ${drainS.toFixed(0)} s after the planners stopped`);
  for (const e of r.firstErrors) console.log(`  errors of ${e}`);
}

/** The PASS/FAIL rows of target 35.3 for one run (`w`: "WORKERS=1"; `suffix`: "" or " (for comparison)"). */
export function bulkTargets(r: BulkResult, w: string, suffix: string): BenchTarget[] {
  const F = BULK_TARGETS.factor;
  const targets: BenchTarget[] = [{ target: `35.3 bulk ${w}: planners' errors${suffix}`, measured: String(r.errors), goal: '0', met: r.errors === 0 }];
  // Under FEW calls in a window its p95 is its slowest call: said beside the figure (50 planners and a load of 1,000,000 lines give hundreds).
  const within = (what: string, during: Summary, before: Summary, ratio: number) => ({
    measured: Number.isFinite(ratio)
      ? `${ratio.toFixed(2)}× (${during.p95.toFixed(0)} ms, ${before.p95.toFixed(0)} ms without; ${during.count} ${what}${Math.min(during.count, before.count) < FEW ? ', too few for a p95: the slowest' : ''})`
      : `no figure (${during.count} ${what} during, ${before.count} without)`,
    goal: `≤ ${F}×`,
    met: Number.isFinite(ratio) && ratio <= F,
  });
  for (const { job, window, ratios } of r.runs) {
    targets.push(
      { target: `35.3 bulk ${w}: ${job.name} done${suffix}`, measured: job.ok ? `yes, ${job.seconds.toFixed(1)} s` : `no: ${job.detail.slice(0, 120)}`, goal: 'yes', met: job.ok },
      { target: `35.3 bulk ${w}: search p95 during the ${job.name}${suffix}`, ...within('searches', window.search, r.baseline.search, ratios.search) },
      { target: `35.3 bulk ${w}: save p95 during the ${job.name}${suffix}`, ...within('saves', window.save, r.baseline.save, ratios.save) },
    );
    if (job.name.startsWith('release load') && r.loadLines === BULK_TARGETS.loadReferenceLines) {
      targets.push({ target: `35.3 bulk ${w}: release load time${suffix}`, measured: `${job.seconds.toFixed(1)} s (issue 35: 23–24 s today)`, goal: `≤ ${BULK_TARGETS.loadSeconds} s`, met: job.ok && job.seconds <= BULK_TARGETS.loadSeconds });
    }
  }
  return targets;
}
