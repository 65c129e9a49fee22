/**
 * Live streams benchmark (issue 36, the last "Done when"; docs/LIVE.md "Measured"): `npm run bench:live -w apps/server --
 * [--scale 100] [--db NAME] [--streams 500] [--stream-users 10] [--idle-seconds 60] [--baseline-idle-seconds 15]
 * [--clients 50] [--seconds 40] [--rounds 3] [--warmup-seconds 20] [--workers 1,2] [--grace-seconds 5] [--reader-nice 10] [--build]`
 *
 * Starts the compiled server (bench-server.ts, as the load benchmark does) on `bench_search_s<scale>` (seeded by
 * `npm run bench:search -w apps/server -- --scale <scale>`) once per `--workers` entry, and:
 *
 *  1. prepares the mixed morning's `--clients` planners (mixed-morning.ts `morningPlayers`: submitters and editors
 *     writing MRA / NRD, viewers), and `--stream-users` stream users (`bench_live_…`, role VIEWER) of five kinds of
 *     grants: every brand; MRA; NRD; MRA + NRD in the EU stars zone only; AUR (where no planner writes); starts the
 *     stream reader (below);
 *  2. the planners play `--warmup-seconds` without streams, not counted (a fresh server's first answers are its slowest,
 *     and only the windows without would pay them), then a window of `--seconds` WITHOUT streams;
 *  3. idle without streams for `--baseline-idle-seconds`: the server's CPU (its process tree) and the PostgreSQL
 *     backends serving it (/proc, mixed-morning.ts `cpuSnapshot`), its memory (RSS of the tree, V8 heap used from
 *     /api/metrics of every worker);
 *  then `--rounds` rounds of:
 *  4. the reader opens `--streams` event streams (`GET /api/events?tab=<uuid>`, Bearer token, spread over the stream
 *     users) and waits for every `hello`; in the first round: memory again → memory per stream, then idle with the
 *     streams open for `--idle-seconds` (CPU, memory, heartbeats received); in later rounds a 3 s pause;
 *  5. a window of `--seconds` of the planners WITH the streams: every lock (acquired), save and unlock they make is
 *     timed from its HTTP answer (and from its sending) to the arrival of its `item` event (the first one of that item
 *     after the call was sent whose state shows the change: the planner as lock holder, no holder, a version saved
 *     since the call) on EVERY stream whose user may see the item — known from the stream users' grants and the
 *     module's brand and stars zones read in SQL, not from the product's rules —; after `--grace-seconds` the reader
 *     hands over what it read, and the bench counts the expected events that never came, and the item events a stream
 *     received about an item its user may not see;
 *  6. the reader closes the streams (3 s pause) and a window of `--seconds` of the planners WITHOUT streams.
 * So the windows alternate, without / with / without / … / without (`--rounds` with, one more without), and the save
 * p95 with the streams is compared with the one without on the samples of every window of each kind pooled: warm-up,
 * drift and other work on the machine weigh on both kinds. The streams are closed for the windows without (and opened
 * anew for each window with) because the baseline is the server with no stream open at all: streams left open, only
 * idle, would still cost their heartbeats, session checks and tab renewals, and the with / without difference is what
 * the issue asks for. Opening them is not timed in a window (every hello is awaited, then the pause).
 *
 * The reader (live-stream-reader.ts) reads the streams in a process of its own, started with the tsx loader at nice
 * `--reader-nice` (every thread): reading 500 streams takes ~100 ms of CPU per second, which in this process delayed
 * every planner answer it timed (an event-loop p99 of 73 ms, an artifact: browsers are elsewhere) — at a low priority it
 * also takes as little as it can from the server and PostgreSQL on a small machine. It stamps each event with
 * `performance.timeOrigin + performance.now()` when it is read (the same machine's clock as the answers' times here)
 * and hands the events over between the windows only (IPC, none during a window). An event it reads late is timed
 * late: its CPU and event-loop delay are printed apart, as this process' own.
 *
 * Prints the pooled tables, the windows in order (save p95 of each, the search p95 the streams do not touch, CPU per
 * request, event p95, the client's and the reader's CPU and event-loop delay), the server's CPU per planner request in
 * both kinds of windows, the PostgreSQL settings, PASS/FAIL per target (change → event p95 ≤ 1 s, none missing, none
 * about an unseen item, pooled save p95 with streams ≤ 1.1 × without) and `BENCH_RESULT {json}`.
 * A database other runs use at the same time spoils the figures: their jobs run in this server too, their changes
 * reach its streams, their PostgreSQL backends count as its CPU, and their planners (the same `bench_morning_…` users)
 * would take these planners' locks. On a shared machine give it a copy of its own:
 * `psql -c 'CREATE DATABASE bench_live_s5 TEMPLATE bench_search_s5'`, then `--db bench_live_s5`.
 */
import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { LIVE_HEARTBEAT_SECONDS } from '@bo/shared/live-events';
import { writeBenchUsers, type BenchGrant } from './bench-users.js';
import type { Arrival, ReaderAnswer, ReaderOrder } from './live-stream-reader.js';
import { SERVER_DIR, startBenchServer, type Server } from './bench-server.js';
import { CALLS, closeAgents, printTable, request, sleep, Stats } from './load-client.js';
import { cpuBetween, cpuSnapshot, morningPlayers, postgresSettings, processTree, type CallWatcher } from './mixed-morning.js';
import { percentile } from './scratch-database.js';

const TARGETS = { eventP95Ms: 1000, saveFactor: 1.1 };

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100' },
    db: { type: 'string' },
    streams: { type: 'string', default: '500' },
    'stream-users': { type: 'string', default: '10' },
    'idle-seconds': { type: 'string', default: '60' },
    'baseline-idle-seconds': { type: 'string', default: '15' },
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '3' },
    'warmup-seconds': { type: 'string', default: '20' },
    'reader-nice': { type: 'string', default: '10' },
    'grace-seconds': { type: 'string', default: '5' },
    workers: { type: 'string', default: '1,2' },
    build: { type: 'boolean', default: false },
  },
  strict: true,
});
const streamCount = Number(values.streams);
const streamUsers = Number(values['stream-users']);
const idleSeconds = Number(values['idle-seconds']);
const baselineIdleSeconds = Number(values['baseline-idle-seconds']);
const clients = Number(values.clients);
const seconds = Number(values.seconds);
const graceSeconds = Number(values['grace-seconds']);
const rounds = Number(values.rounds);
const warmupSeconds = Number(values['warmup-seconds']);
const readerNice = Number(values['reader-nice']);
const workerRuns = values.workers.split(',').map(Number);
if (!(streamCount >= 1 && streamCount <= 5000) || !(streamUsers >= 1 && streamUsers <= 100) || !(clients >= 1 && clients <= 500)) {
  throw new Error('--streams (1–5000), --stream-users (1–100) and --clients (1–500) must be numbers');
}
if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 20) || !(Number.isInteger(readerNice) && readerNice >= 0 && readerNice <= 19)) {
  throw new Error('--rounds (1–20) and --reader-nice (0–19) must be whole numbers');
}
if (!(warmupSeconds >= 0)) throw new Error('--warmup-seconds must be 0 or more');
if (!(idleSeconds >= 0) || !(baselineIdleSeconds >= 0) || !(seconds > 0) || !(graceSeconds >= 0) || workerRuns.some((n) => !(n >= 1 && n <= 16))) {
  throw new Error('--idle-seconds, --baseline-idle-seconds, --grace-seconds (0 or more), --seconds (> 0) and --workers (1–16 each) must be numbers');
}
const dbName = values.db ?? `bench_search_s${String(Number(values.scale)).replace(/\W/g, '_')}`;
const dbUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
dbUrl.pathname = `/${dbName}`;

// ───────────────────────────── who may see what ─────────────────────────────

/** A kind of stream user: the brands and stars zones it may view ('all': every one). */
interface Profile {
  label: string;
  brands: readonly string[] | 'all';
  zones: readonly string[] | 'all';
}

const PROFILES: Profile[] = [
  { label: 'every brand', brands: 'all', zones: 'all' },
  { label: 'MRA', brands: ['MRA'], zones: 'all' },
  { label: 'NRD', brands: ['NRD'], zones: 'all' },
  { label: 'MRA+NRD, EU zone only', brands: ['MRA', 'NRD'], zones: ['EU'] },
  { label: 'AUR (no planner writes)', brands: ['AUR'], zones: 'all' },
];

/** A module's brand and stars zones, read in SQL. */
interface Scope {
  brand: string;
  zones: string[];
}

/** The grants' rule, written from the grants given here: the brand, and a stars zone in common unless the module has none. */
function mayView(p: Profile, s: Scope): boolean {
  if (p.brands !== 'all' && !p.brands.includes(s.brand)) return false;
  return p.zones === 'all' || s.zones.length === 0 || s.zones.some((z) => p.zones.includes(z));
}

const itemKey = (name: string, monthId: string) => `${monthId}|${name}`;

async function moduleScopes(client: pg.Client, keys: readonly { moduleName: string; monthId: string }[]): Promise<Map<string, Scope>> {
  const { rows } = await client.query<{ module_name: string; month_id: string; brand_code: string; zones: string[] }>(
    `SELECT m.module_name, m.month_id, m.brand_code, COALESCE(array_agg(z.stars_zone) FILTER (WHERE z.stars_zone IS NOT NULL), '{}') AS zones
       FROM unnest($1::text[], $2::text[]) AS w(name, month_id)
       JOIN modules m ON m.module_name = w.name AND m.month_id = w.month_id AND m.deletion_status IS NULL
       LEFT JOIN module_stars_zones z ON z.module_id = m.id
      GROUP BY m.id`,
    [keys.map((k) => k.moduleName), keys.map((k) => k.monthId)],
  );
  return new Map(rows.map((r) => [itemKey(r.module_name, r.month_id), { brand: r.brand_code, zones: r.zones }]));
}

async function prepareStreamUsers(client: pg.Client): Promise<{ username: string; profile: Profile }[]> {
  const zones = (await client.query<{ zone_code: string }>('SELECT zone_code FROM stars_zones ORDER BY zone_code')).rows.map((r) => r.zone_code);
  const brands = (await client.query<{ brand_code: string }>('SELECT brand_code FROM brands ORDER BY brand_code')).rows.map((r) => r.brand_code);
  for (const p of PROFILES) if (p.brands !== 'all' && !p.brands.every((b) => brands.includes(b))) throw new Error(`${dbName} lacks the brands ${String(p.brands)}: seed it first`);
  const users = Array.from({ length: streamUsers }, (_, i) => ({ username: `bench_live_${String(i + 1).padStart(2, '0')}`, profile: PROFILES[i % PROFILES.length]! }));
  const grantsOf = (p: Profile): BenchGrant[] => [
    ...(p.brands === 'all' ? brands : p.brands).map((b): BenchGrant => ['brand', b, 'view']),
    ...(p.zones === 'all' ? zones : p.zones).map((z): BenchGrant => ['starszone', z, 'view']),
  ];
  await writeBenchUsers(
    client,
    'bench_live_',
    users.map((u) => ({ username: u.username, role: 'VIEWER', grants: grantsOf(u.profile) })),
  );
  // The tabs of earlier runs (their streams are long closed).
  await client.query(`DELETE FROM live_tabs WHERE lower(username) LIKE 'bench\\_live\\_%'`);
  return users;
}

// ───────────────────────────── the server's memory ─────────────────────────────

/** RSS of the server's process tree (every worker and the primary), bytes. */
function treeRss(root: number): number {
  let kb = 0;
  for (const pid of processTree(root)) {
    try {
      kb += Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return kb * 1024;
}

/** /api/metrics of one process, on a connection of its own (with WORKERS > 1 the connections are shared out). */
function scrape(base: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/metrics`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

interface ProcessMetrics {
  heapUsed: number;
  streams: number;
  sent: Record<string, number>;
  lagSum: number;
  lagCount: number;
}

/** The metrics of every worker (scraped until each one answered, at most 100 tries). */
async function workerMetrics(base: string, token: string, workers: number): Promise<Map<string, ProcessMetrics>> {
  const seen = new Map<string, ProcessMetrics>();
  for (let i = 0; i < 100 && seen.size < workers; i++) {
    const text = await scrape(base, token);
    const pid = /^bo_process_info\{pid="(\d+)"\} 1$/m.exec(text)?.[1];
    if (!pid || seen.has(pid)) continue;
    const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
    const sent: Record<string, number> = {};
    for (const m of text.matchAll(/^bo_live_events_sent_total\{type="(\w+)"\} (\d+)$/gm)) sent[m[1]!] = Number(m[2]);
    seen.set(pid, {
      heapUsed: num(/^nodejs_heap_size_used_bytes (\S+)$/m),
      streams: num(/^bo_live_streams (\d+)$/m),
      sent,
      lagSum: num(/^bo_live_event_lag_seconds_sum (\S+)$/m),
      lagCount: num(/^bo_live_event_lag_seconds_count (\S+)$/m),
    });
  }
  return seen;
}

interface Memory {
  rss: number;
  heapUsed: number;
  streams: number;
}

async function memory(server: Server, token: string, workers: number): Promise<Memory> {
  const per = [...(await workerMetrics(server.url, token, workers)).values()];
  return { rss: treeRss(server.child.pid!), heapUsed: per.reduce((n, m) => n + m.heapUsed, 0), streams: per.reduce((n, m) => n + m.streams, 0) };
}

// ───────────────────────────── the streams, read in a process of their own ─────────────────────────────

interface ItemData {
  name: string;
  monthId: string;
  lockedBy: string | null;
  savedAt: string | null;
}

/** A change a planner made, as its answer told it. */
interface Change {
  kind: 'lock' | 'save' | 'unlock';
  name: string;
  monthId: string;
  planner: string;
  /** Date.now() when the call was sent (mixed-morning.ts). */
  sentAt: number;
  /** performance.timeOrigin + performance.now() when its answer came (the reader's clock). */
  answeredAt: number;
}

/** The event shows the change: the planner holds the lock, nobody does, a version saved since the call was sent. */
function shows(c: Change, d: ItemData): boolean {
  if (c.kind === 'lock') return d.lockedBy?.toLowerCase() === c.planner.toLowerCase();
  if (c.kind === 'unlock') return d.lockedBy === null;
  // The version's time is the save transaction's start (PostgreSQL's clock, this machine's), to the millisecond.
  return d.savedAt !== null && Date.parse(d.savedAt) >= c.sentAt - 2;
}

/** The reader process (live-stream-reader.ts): its orders, answered one at a time. */
interface Reader {
  pid: number;
  /** The nice values of its threads, read back from /proc. */
  nice: string;
  /** How far (ms) the reader's clock fell outside the round trip of an order at worst (0: within every one; same clock). */
  clockOff: () => number;
  ask<T extends ReaderAnswer['type']>(order: ReaderOrder, expect: T): Promise<Extract<ReaderAnswer, { type: T }>>;
  stop(): Promise<void>;
}

/**
 * Sets the nice value of every thread of `pid`: on Linux a priority is a thread's own (setpriority of a pid changes only
 * its main thread), V8's and libuv's threads started before keep theirs; threads started later inherit their starter's.
 * Returns the nice values now seen (e.g. "10").
 */
function niceThreads(pid: number, nice: number): string {
  const tids = readdirSync(`/proc/${pid}/task`);
  const seen = new Set<string>();
  for (const tid of tids) {
    try {
      os.setPriority(Number(tid), nice);
      // /proc/<pid>/task/<tid>/stat: the 19th field is the nice value (the 17th after the command's closing parenthesis).
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      seen.add(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]!);
    } catch {
      /* the thread ended */
    }
  }
  return `${[...seen].join('/')} (${tids.length} threads)`;
}

async function startReader(): Promise<Reader> {
  const child = fork(path.join(SERVER_DIR, 'bench', 'live-stream-reader.ts'), [], {
    cwd: SERVER_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The main thread at once (the threads it starts inherit it); every thread once the reader is ready.
  os.setPriority(child.pid!, readerNice);
  let pending: { resolve: (a: ReaderAnswer) => void; reject: (e: Error) => void } | null = null;
  const wait = () => new Promise<ReaderAnswer>((resolve, reject) => (pending = { resolve, reject }));
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      pending?.reject(new Error(`the stream reader exited (${code ?? signal})`));
      pending = null;
      resolve();
    }),
  );
  child.on('message', (a: ReaderAnswer) => {
    const p = pending;
    pending = null;
    if (a.type === 'error') p?.reject(new Error(`the stream reader: ${a.message}`));
    else p?.resolve(a);
  });
  let clockOff = 0;
  const ready = await wait();
  if (ready.type !== 'ready') throw new Error(`the stream reader said ${ready.type} first`);
  return {
    pid: child.pid!,
    nice: niceThreads(child.pid!, readerNice),
    clockOff: () => clockOff,
    ask: async <T extends ReaderAnswer['type']>(order: ReaderOrder, expect: T) => {
      const answer = wait();
      const sentAt = performance.timeOrigin + performance.now();
      child.send(order);
      const a = await answer;
      const back = performance.timeOrigin + performance.now();
      if ('usage' in a) clockOff = Math.max(clockOff, sentAt - a.usage.at, a.usage.at - back);
      if (a.type !== expect) throw new Error(`the stream reader answered ${a.type} to ${order.type}`);
      return a as Extract<ReaderAnswer, { type: T }>;
    },
    stop: async () => {
      if (child.connected) child.disconnect();
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** The item events of the changes of one window with the streams, on every stream that may see them. */
interface Matched {
  changes: number;
  kinds: Map<Change['kind'], number>;
  expected: number;
  missing: number;
  /** Events that came after a later change of the same item had been sent, and show that one (their state is read when sent). */
  superseded: number;
  missingExamples: string[];
  itemEvents: number;
  unseenItemEvents: number;
  fromAnswer: number[];
  fromSent: number[];
  perKind: Map<Change['kind'], number[]>;
}

async function matchEvents(
  client: pg.Client,
  changes: readonly Change[],
  arrivals: readonly Arrival[][],
  profiles: readonly { username: string; profile: Profile }[],
  scopes: Map<string, Scope>,
): Promise<Matched> {
  const unknown = new Set<string>();
  for (const list of arrivals) for (const a of list) if (!scopes.has(itemKey(a[1], a[2]))) unknown.add(itemKey(a[1], a[2]));
  const extra = await moduleScopes(
    client,
    [...unknown].map((k) => ({ monthId: k.split('|')[0]!, moduleName: k.slice(k.indexOf('|') + 1) })),
  );
  for (const [k, v] of extra) scopes.set(k, v);
  const m: Matched = { changes: changes.length, kinds: new Map(), expected: 0, missing: 0, superseded: 0, missingExamples: [], itemEvents: 0, unseenItemEvents: 0, fromAnswer: [], fromSent: [], perKind: new Map() };
  for (const c of changes) m.kinds.set(c.kind, (m.kinds.get(c.kind) ?? 0) + 1);
  const changesOf = new Map<string, Change[]>();
  for (const c of [...changes].sort((a, b) => a.sentAt - b.sentAt)) {
    const list = changesOf.get(itemKey(c.name, c.monthId)) ?? [];
    list.push(c);
    changesOf.set(itemKey(c.name, c.monthId), list);
  }
  for (const [i, list] of arrivals.entries()) {
    const s = profiles[i]!;
    const byItem = new Map<string, { at: number; data: ItemData }[]>();
    for (const [at, name, monthId, lockedBy, savedAt] of list) {
      m.itemEvents += 1;
      const key = itemKey(name, monthId);
      const scope = scopes.get(key);
      if (!scope || !mayView(s.profile, scope)) m.unseenItemEvents += 1;
      const events = byItem.get(key) ?? [];
      events.push({ at, data: { name, monthId, lockedBy, savedAt } });
      byItem.set(key, events);
    }
    for (const c of changes) {
      const scope = scopes.get(itemKey(c.name, c.monthId));
      if (!scope || !mayView(s.profile, scope)) continue;
      m.expected += 1;
      const events = byItem.get(itemKey(c.name, c.monthId)) ?? [];
      const later = changesOf.get(itemKey(c.name, c.monthId))!.filter((c2) => c2.sentAt > c.sentAt);
      let got = events.find((e) => e.at >= c.sentAt && shows(c, e.data));
      const newer = events.find((e) => e.at >= c.sentAt && later.some((c2) => c2.sentAt <= e.at && shows(c2, e.data)));
      if (newer && (!got || newer.at < got.at)) {
        got = newer;
        m.superseded += 1;
      }
      if (!got) {
        m.missing += 1;
        if (m.missingExamples.length < 3) {
          const shown = events.map((e) => `+${(e.at - c.sentAt).toFixed(0)} ms lockedBy ${e.data.lockedBy} savedAt ${e.data.savedAt}`).join(', ');
          m.missingExamples.push(`${c.kind} ${c.name} ${c.monthId} by ${c.planner} (answered +${(c.answeredAt - c.sentAt).toFixed(0)} ms) on a stream of ${s.username}; the item's events there: ${shown || 'none'}`);
        }
        continue;
      }
      const ms = Math.max(0, got.at - c.answeredAt);
      m.fromAnswer.push(ms);
      m.fromSent.push(got.at - c.sentAt);
      const perKind = m.perKind.get(c.kind) ?? [];
      perKind.push(ms);
      m.perKind.set(c.kind, perKind);
    }
  }
  m.fromAnswer.sort((a, b) => a - b);
  m.fromSent.sort((a, b) => a - b);
  return m;
}

/** The matches of several windows as one. */
function poolMatched(list: readonly Matched[]): Matched {
  const m: Matched = { changes: 0, kinds: new Map(), expected: 0, missing: 0, superseded: 0, missingExamples: [], itemEvents: 0, unseenItemEvents: 0, fromAnswer: [], fromSent: [], perKind: new Map() };
  for (const w of list) {
    m.changes += w.changes;
    m.expected += w.expected;
    m.missing += w.missing;
    m.superseded += w.superseded;
    m.itemEvents += w.itemEvents;
    m.unseenItemEvents += w.unseenItemEvents;
    m.missingExamples.push(...w.missingExamples.slice(0, Math.max(0, 3 - m.missingExamples.length)));
    m.fromAnswer.push(...w.fromAnswer);
    m.fromSent.push(...w.fromSent);
    for (const [k, n] of w.kinds) m.kinds.set(k, (m.kinds.get(k) ?? 0) + n);
    for (const [k, l] of w.perKind) m.perKind.set(k, [...(m.perKind.get(k) ?? []), ...l]);
  }
  m.fromAnswer.sort((a, b) => a - b);
  m.fromSent.sort((a, b) => a - b);
  for (const l of m.perKind.values()) l.sort((a, b) => a - b);
  return m;
}

/** The planners' figures of several windows as one. */
function poolStats(list: readonly Stats[]): Stats {
  const s = new Stats();
  for (const w of list) {
    for (const [call, times] of w.times) for (const ms of times) s.add(call, ms);
    for (const [call, errors] of w.errors) for (const e of errors) s.error(call, e);
  }
  return s;
}

// ───────────────────────────── one run ─────────────────────────────

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const pct = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p) : NaN);
/** The pause after the streams were opened (rounds after the first, which idles) or closed, before the next window. */
const SETTLE_MS = 3000;

/** One window of the planners' play. */
interface Window {
  kind: 'without' | 'with';
  round: number;
  stats: Stats;
  seconds: number;
  /** The CPU the server and the PostgreSQL backends serving it spent in the window. */
  serverMs: number;
  postgresMs: number | null;
  /** This process' CPU (ms) and event-loop delay in the window: the planners' client (a late answer is timed late). */
  clientCpuMs: number;
  loop: { p99: number; max: number };
  /** With the streams: the reader's CPU and event-loop delay (from the mark before the window to the answer after). */
  reader?: { cpuMs: number; seconds: number; loop: { p99: number; max: number } };
  events?: Matched;
}

async function run(workers: number, client: pg.Client) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-live-w${workers}-`));
  const metricsToken = `bench-live-metrics-${process.pid}-${Date.now()}`;
  const server = await startBenchServer({ databaseUrl: dbUrl.toString(), workers, dataDir, metricsToken });
  const base = server.url;
  const serverPid = server.child.pid!;
  let changes: Change[] = [];
  let recording = false;
  const watch: CallWatcher = (call, p, body, answer, sentAt) => {
    if (!recording || answer.status !== 200) return;
    const answeredAt = performance.timeOrigin + performance.now();
    const add = (kind: Change['kind'], key: { moduleName: string; monthId: string }) => changes.push({ kind, name: key.moduleName, monthId: key.monthId, planner: p.username, sentAt, answeredAt });
    if (call === 'lock') {
      if ((JSON.parse(answer.text) as { acquired: boolean }[])[0]?.acquired) add('lock', (body as { moduleName: string; monthId: string }[])[0]!);
    } else if (call === 'save') add('save', body as { moduleName: string; monthId: string });
    else if (call === 'unlock') for (const key of body as { moduleName: string; monthId: string }[]) add('unlock', key);
  };
  let reader: Reader | null = null;
  try {
    const players = await morningPlayers(base, client, clients, watch);
    const users = await prepareStreamUsers(client);
    const tokens = new Map<string, string>();
    for (const u of users) {
      const res = await request(base, 'POST', '/api/authorization/login', undefined, { username: u.username, password: 'demo' });
      if (res.status !== 200) throw new Error(`login ${u.username}: ${res.status} ${res.text.slice(0, 200)}`);
      tokens.set(u.username, (JSON.parse(res.text) as { access_token: string }).access_token);
    }
    const scopes = await moduleScopes(client, players.planners.flatMap((p) => p.workset));
    const writers = players.planners.filter((p) => p.write).length;
    const tabs = Array.from({ length: streamCount }, (_, i) => users[i % users.length]!);
    const tabOrders = tabs.map((u) => ({ user: u.username, token: tokens.get(u.username)! }));
    reader = await startReader();
    console.log(
      `\nWORKERS=${workers}: ${players.planners.length} planners (${writers} writing MRA / NRD), ${streamCount} streams over ${users.length} stream users ` +
        `(${PROFILES.map((p) => p.label).join('; ')}), read by process ${reader.pid} (live-stream-reader.ts, nice ${reader.nice}); ` +
        `${rounds} rounds of ${seconds} s windows; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );

    const windows: Window[] = [];
    const play = async (kind: Window['kind'], round: number): Promise<Window> => {
      const stats = new Stats();
      const before = await cpuSnapshot(serverPid, client, dbName);
      const cpu0 = process.cpuUsage();
      // One histogram per window: one enabled again would count the time between the windows as a delay.
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const start = performance.now();
      await players.play(stats, () => start + seconds * 1000, true);
      const spent = (performance.now() - start) / 1000;
      delay.disable();
      const clientCpuMs = ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpu0));
      const d = cpuBetween(before, await cpuSnapshot(serverPid, client, dbName));
      const w: Window = { kind, round, stats, seconds: spent, serverMs: d.serverMs, postgresMs: d.postgresMs, clientCpuMs, loop: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 } };
      windows.push(w);
      return w;
    };

    // 2. The warm-up (not counted: a fresh server's first answers are the slowest, and only windows without would pay them).
    if (warmupSeconds > 0) {
      const start = performance.now();
      await players.play(new Stats(), () => start + warmupSeconds * 1000, true);
      await players.drain();
    }
    // Planners without streams (the first window).
    await play('without', 1);
    await players.drain();

    // 3. Idle without streams (after the planners' last answers have settled).
    await sleep(5000);
    const idleBase0 = await cpuSnapshot(serverPid, client, dbName);
    const baseStart = performance.now();
    await sleep(baselineIdleSeconds * 1000);
    const idleBase = cpuBetween(idleBase0, await cpuSnapshot(serverPid, client, dbName));
    const idleBaseS = (performance.now() - baseStart) / 1000;
    const memBefore = await memory(server, metricsToken, workers);

    let memOpen: Memory | null = null;
    let memIdle: Memory | null = null;
    let memClosed: Memory | null = null;
    let idle: ReturnType<typeof cpuBetween> | null = null;
    let idleS = 0;
    let idlePings = 0;
    let endedEarly = 0;
    const openSeconds: number[] = [];
    let metricsAfter = new Map<string, ProcessMetrics>();
    for (let round = 1; round <= rounds; round++) {
      // 4. The streams (opened again each round: the windows without are the server with no stream open).
      const opened = await reader.ask({ type: 'open', base, tabs: tabOrders }, 'opened');
      openSeconds.push(opened.seconds);
      const memR = await memory(server, metricsToken, workers);
      console.log(`  round ${round}: ${streamCount} streams open, every hello received, in ${opened.seconds.toFixed(1)} s; the server counts ${memR.streams}`);
      if (round === 1) {
        memOpen = memR;
        // 5. Idle with the streams (the first round only: the issue's idle minute).
        const pings0 = (await reader.ask({ type: 'usage' }, 'usage')).usage.pings;
        const idle0 = await cpuSnapshot(serverPid, client, dbName);
        const idleStart = performance.now();
        await sleep(idleSeconds * 1000);
        idle = cpuBetween(idle0, await cpuSnapshot(serverPid, client, dbName));
        idleS = (performance.now() - idleStart) / 1000;
        idlePings = (await reader.ask({ type: 'usage' }, 'usage')).usage.pings - pings0;
        memIdle = await memory(server, metricsToken, workers);
      } else await sleep(SETTLE_MS);

      // 6. Planners with the streams; their changes matched to the events the reader read.
      changes = [];
      const mark = await reader.ask({ type: 'mark' }, 'marked');
      const markAt = performance.now();
      recording = true;
      const w = await play('with', round);
      recording = false;
      const after = await reader.ask({ type: 'usage' }, 'usage');
      const readerSeconds = (performance.now() - markAt) / 1000;
      await players.drain();
      await sleep(graceSeconds * 1000);
      const got = await reader.ask({ type: 'collect' }, 'collected');
      w.reader = { cpuMs: after.usage.cpuMs - mark.usage.cpuMs, seconds: readerSeconds, loop: got.loop };
      endedEarly += got.endedEarly;
      metricsAfter = await workerMetrics(base, metricsToken, workers);
      w.events = await matchEvents(client, changes, got.arrivals, tabs, scopes);

      // 7. Streams closed; planners without streams.
      await reader.ask({ type: 'close' }, 'closed');
      await sleep(SETTLE_MS);
      memClosed = await memory(server, metricsToken, workers);
      await play('without', round + 1);
      await players.drain();
    }

    // ── Figures ──
    const withoutW = windows.filter((w) => w.kind === 'without');
    const withW = windows.filter((w) => w.kind === 'with');
    const without = poolStats(withoutW.map((w) => w.stats));
    const withStreams = poolStats(withW.map((w) => w.stats));
    const withoutS = withoutW.reduce((n, w) => n + w.seconds, 0);
    const withS = withW.reduce((n, w) => n + w.seconds, 0);
    const ev = poolMatched(withW.map((w) => w.events!));
    const callRows = (s: Stats, secs: number) => CALLS.map((c) => s.summary(c, secs)).filter((r) => r.count || r.errors);
    printTable(`WORKERS=${workers}, planners WITHOUT streams (${withoutW.length} windows, ${withoutS.toFixed(0)} s, pooled)`, callRows(without, withoutS));
    printTable(`WORKERS=${workers}, planners WITH ${streamCount} streams open (${withW.length} windows, ${withS.toFixed(0)} s, pooled)`, callRows(withStreams, withS));
    for (const [call, list] of [...without.errors, ...withStreams.errors]) console.log(`  errors of ${call} (${list.length}), first: ${list[0]}`);
    const requestsOf = (s: Stats) => CALLS.filter((c) => c !== 'module open').reduce((n, c) => n + (s.times.get(c)?.length ?? 0), 0);
    const perRequest = (list: Window[], s: Stats) => {
      const requests = Math.max(1, requestsOf(s));
      const postgres = list.some((w) => w.postgresMs === null) ? null : list.reduce((n, w) => n + w.postgresMs!, 0);
      return { requests: requestsOf(s), serverMs: list.reduce((n, w) => n + w.serverMs, 0) / requests, postgresMs: postgres === null ? null : postgres / requests };
    };
    const cpuWithout = perRequest(withoutW, without);
    const cpuWith = perRequest(withW, withStreams);
    const f2 = (n: number | null) => (n === null ? '?' : n.toFixed(2));
    console.log(
      `  CPU per planner request (server + the PostgreSQL backends serving it): without streams ${f2(cpuWithout.serverMs)} + ${f2(cpuWithout.postgresMs)} ms (${cpuWithout.requests} requests), ` +
        `with ${streamCount} streams ${f2(cpuWith.serverMs)} + ${f2(cpuWith.postgresMs)} ms (${cpuWith.requests} requests; the events written to the streams included)`,
    );

    const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
    console.log(`\nWORKERS=${workers}, the windows in order (save p95 of each; search p95 beside it, a call the streams do not touch)`);
    const head = ['window', 'streams', 's', 'saves', 'save p50', 'save p95', 'search p95', 'CPU/request ms', 'event p95', 'client loop p99', 'reader CPU ms/s', 'reader loop p99'];
    const rowsW = windows.map((w, i) => {
      const save = w.stats.summary('save', w.seconds);
      const req = Math.max(1, requestsOf(w.stats));
      return [
        `${i + 1}`,
        w.kind === 'with' ? String(streamCount) : '0',
        w.seconds.toFixed(0),
        String(save.count),
        fmt(save.p50),
        fmt(save.p95),
        fmt(w.stats.summary('search', w.seconds).p95),
        `${(w.serverMs / req).toFixed(2)} + ${w.postgresMs === null ? '?' : (w.postgresMs / req).toFixed(2)}`,
        w.events ? fmt(pct(w.events.fromAnswer, 95)) : '',
        w.loop.p99.toFixed(0),
        w.reader ? (w.reader.cpuMs / w.reader.seconds).toFixed(0) : '',
        w.reader ? w.reader.loop.p99.toFixed(0) : '',
      ];
    });
    const widths = head.map((h, i) => Math.max(h.length, ...rowsW.map((r) => r[i]!.length)));
    for (const r of [head, ...rowsW]) console.log('  ' + r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  '));

    const opened1 = Math.max(1, memOpen!.streams || streamCount);
    console.log(`\nWORKERS=${workers}, memory (RSS of the server's processes; V8 heap used, every worker; the first round's streams)`);
    console.log(`  before the streams   RSS ${mb(memBefore.rss)} MB, heap ${mb(memBefore.heapUsed)} MB`);
    console.log(`  streams open         RSS ${mb(memOpen!.rss)} MB, heap ${mb(memOpen!.heapUsed)} MB  → per stream: RSS ${((memOpen!.rss - memBefore.rss) / opened1 / 1024).toFixed(1)} KB, heap ${((memOpen!.heapUsed - memBefore.heapUsed) / opened1 / 1024).toFixed(1)} KB`);
    console.log(`  after ${idleS.toFixed(0)} s idle      RSS ${mb(memIdle!.rss)} MB, heap ${mb(memIdle!.heapUsed)} MB  → per stream: RSS ${((memIdle!.rss - memBefore.rss) / opened1 / 1024).toFixed(1)} KB, heap ${((memIdle!.heapUsed - memBefore.heapUsed) / opened1 / 1024).toFixed(1)} KB`);
    console.log(`  streams closed       RSS ${mb(memClosed!.rss)} MB, heap ${mb(memClosed!.heapUsed)} MB, streams the server counts: ${memClosed!.streams} (after the last round)`);
    const perS = (ms: number | null, s: number) => (ms === null ? '?' : (ms / s).toFixed(1));
    console.log(`\nWORKERS=${workers}, CPU while idle (ms of CPU per second; server processes + the PostgreSQL backends serving them)`);
    console.log(`  no stream (${idleBaseS.toFixed(0)} s)        server ${perS(idleBase.serverMs, idleBaseS)} ms/s, PostgreSQL ${perS(idleBase.postgresMs, idleBaseS)} ms/s`);
    console.log(
      `  ${streamCount} streams (${idleS.toFixed(0)} s)    server ${perS(idle!.serverMs, idleS)} ms/s, PostgreSQL ${perS(idle!.postgresMs, idleS)} ms/s; ` +
        `heartbeats received ${idlePings} (${(idlePings / streamCount).toFixed(1)} per stream, every ${LIVE_HEARTBEAT_SECONDS} s)`,
    );
    const sent = [...metricsAfter.values()].reduce<Record<string, number>>((acc, m) => {
      for (const [k, v] of Object.entries(m.sent)) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {});
    const lag = [...metricsAfter.values()].reduce((a, m) => ({ sum: a.sum + m.lagSum, count: a.count + m.lagCount }), { sum: 0, count: 0 });
    console.log(`\nWORKERS=${workers}, change → item event on every stream that may see it (${withW.length} windows, ${ev.changes} changes: ${[...ev.kinds].map(([k, n]) => `${n} ${k}`).join(', ')})`);
    console.log(`  ${'from'.padEnd(28)}  ${'pairs'.padStart(7)}  ${'p50 ms'.padStart(7)}  ${'p95 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'max ms'.padStart(7)}`);
    const line = (label: string, l: number[]) => console.log(`  ${label.padEnd(28)}  ${String(l.length).padStart(7)}  ${fmt(pct(l, 50)).padStart(7)}  ${fmt(pct(l, 95)).padStart(7)}  ${fmt(pct(l, 99)).padStart(7)}  ${fmt(l.at(-1) ?? NaN).padStart(7)}`);
    line('the HTTP answer', ev.fromAnswer);
    line('the call sent', ev.fromSent);
    for (const [k, l] of ev.perKind) line(`the answer, ${k}`, l);
    console.log(`  of them shown by an event sent after a later change of the same item (the event's state is read when it is sent): ${ev.superseded}`);
    console.log(`  expected ${ev.expected}, missing ${ev.missing}${ev.missingExamples.length ? ` (e.g. ${ev.missingExamples.join('; ')})` : ''}; item events received ${ev.itemEvents}, about an item the stream's user may not see: ${ev.unseenItemEvents}; streams ended early: ${endedEarly}`);
    console.log(`  the server (all rounds): events sent ${Object.entries(sent).map(([k, v]) => `${k} ${v}`).join(', ')}; mean lag (notification → written) ${lag.count ? ((lag.sum / lag.count) * 1000).toFixed(0) : '–'} ms`);
    const readerCpu = withW.reduce((n, w) => n + w.reader!.cpuMs, 0) / Math.max(0.001, withW.reduce((n, w) => n + w.reader!.seconds, 0));
    const worst = (l: { p99: number; max: number }[]) => ({ p99: Math.max(...l.map((x) => x.p99)), max: Math.max(...l.map((x) => x.max)) });
    const loopOf = (l: { p99: number; max: number }[]) => `p99 ${worst(l).p99.toFixed(0)} ms, max ${worst(l).max.toFixed(0)} ms`;
    console.log(
      `  the stream reader (another process, nice ${reader.nice}) while the planners played with the streams: CPU ${readerCpu.toFixed(0)} ms/s; ` +
        `its event-loop delay ${loopOf(withW.map((w) => w.reader!.loop))} (the worst of its windows; an event read late is timed late); ` +
        `its clock outside an order's round trip by ${reader.clockOff().toFixed(1)} ms at worst (0: the same clock)`,
    );
    const clientCpu = (list: Window[]) => list.reduce((n, w) => n + w.clientCpuMs, 0) / Math.max(0.001, list.reduce((n, w) => n + w.seconds, 0));
    console.log(
      `  the planners' client (this process): CPU ${clientCpu(withoutW).toFixed(0)} ms/s without streams, ${clientCpu(withW).toFixed(0)} ms/s with; ` +
        `event-loop delay without ${loopOf(withoutW.map((w) => w.loop))}, with ${loopOf(withW.map((w) => w.loop))} (the worst of its windows; the planners' answers wait as much)`,
    );

    const saveP95 = (list: Window[]) => list.map((w) => w.stats.summary('save', w.seconds).p95);
    return {
      workers,
      streams: streamCount,
      rounds,
      openSeconds,
      memory: {
        before: memBefore,
        open: memOpen!,
        idle: memIdle!,
        closed: memClosed!,
        perStreamRssKb: (memIdle!.rss - memBefore.rss) / opened1 / 1024,
        perStreamHeapKb: (memIdle!.heapUsed - memBefore.heapUsed) / opened1 / 1024,
      },
      idleCpu: {
        baseline: { seconds: idleBaseS, serverMsPerS: idleBase.serverMs / idleBaseS, postgresMsPerS: idleBase.postgresMs === null ? null : idleBase.postgresMs / idleBaseS },
        streams: { seconds: idleS, serverMsPerS: idle!.serverMs / idleS, postgresMsPerS: idle!.postgresMs === null ? null : idle!.postgresMs / idleS },
        heartbeats: idlePings,
      },
      planners: {
        without: { seconds: withoutS, calls: Object.fromEntries(callRows(without, withoutS).map((r) => [r.call, r])), errors: without.errorCount() },
        with: { seconds: withS, calls: Object.fromEntries(callRows(withStreams, withS).map((r) => [r.call, r])), errors: withStreams.errorCount() },
        saveP95Without: without.summary('save', withoutS).p95,
        saveP95With: withStreams.summary('save', withS).p95,
        saveP95PerWindow: { without: saveP95(withoutW), with: saveP95(withW) },
        cpuPerRequest: { without: cpuWithout, with: cpuWith },
      },
      windows: windows.map((w) => ({
        kind: w.kind,
        round: w.round,
        seconds: w.seconds,
        saves: w.stats.summary('save', w.seconds).count,
        saveP95: w.stats.summary('save', w.seconds).p95,
        searchP95: w.stats.summary('search', w.seconds).p95,
        serverMsPerRequest: w.serverMs / Math.max(1, requestsOf(w.stats)),
        postgresMsPerRequest: w.postgresMs === null ? null : w.postgresMs / Math.max(1, requestsOf(w.stats)),
        eventP95: w.events ? pct(w.events.fromAnswer, 95) : null,
        clientLoop: w.loop,
        reader: w.reader ? { cpuMsPerS: w.reader.cpuMs / w.reader.seconds, loop: w.reader.loop } : null,
      })),
      events: {
        changes: ev.changes,
        expected: ev.expected,
        missing: ev.missing,
        superseded: ev.superseded,
        unseenItemEvents: ev.unseenItemEvents,
        itemEvents: ev.itemEvents,
        endedEarly,
        fromAnswer: { p50: pct(ev.fromAnswer, 50), p95: pct(ev.fromAnswer, 95), p99: pct(ev.fromAnswer, 99), max: ev.fromAnswer.at(-1) ?? NaN },
        fromSent: { p50: pct(ev.fromSent, 50), p95: pct(ev.fromSent, 95), max: ev.fromSent.at(-1) ?? NaN },
        serverSent: sent,
        serverMeanLagMs: lag.count ? (lag.sum / lag.count) * 1000 : NaN,
      },
      readerNice: reader.nice,
      readerCpuMsPerS: readerCpu,
      readerClockOffMs: reader.clockOff(),
      clientCpuMsPerS: { without: clientCpu(withoutW), with: clientCpu(withW) },
    };
  } finally {
    await reader?.stop();
    const code = await server.stop();
    // The live events' warnings (a batch not sent, the listener's connection failing…) of the whole run.
    const warnings = readFileSync(server.logFile, 'utf8')
      .split('\n')
      .filter((l) => /"level":(4|5)\d/.test(l) && l.includes('live events'));
    console.log(`  live events' warnings in the server's log: ${warnings.length}${warnings.length ? `, first: ${warnings[0]!.slice(0, 300)}` : ''}`);
    if (code !== 0) console.log(`  the server stopped with ${code}; its log: ${server.logFile}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

// ───────────────────────────── main ─────────────────────────────

async function main() {
  if (values.build || !existsSync(path.join(SERVER_DIR, 'dist', 'server.js'))) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: SERVER_DIR, stdio: 'inherit' });
  const client = new pg.Client({ connectionString: dbUrl.toString() });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`cannot open ${dbName} (${error instanceof Error ? error.message : error}): seed it with npm run bench:search -w apps/server -- --scale ${values.scale}`);
  }
  try {
    const pgVersion = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    const moduleCount = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM modules')).rows[0]!.n;
    console.log(`${dbName}: ${moduleCount.toLocaleString('en-US')} modules; PostgreSQL ${pgVersion}; ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; Node ${process.version}`);
    const settings = await postgresSettings(client);
    console.log(`PostgreSQL settings: ${Object.entries(settings).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const results = [];
    for (const workers of workerRuns) results.push(await run(workers, client));

    const targets: { target: string; measured: string; goal: string; met: boolean }[] = [];
    for (const r of results) {
      const w = `WORKERS=${r.workers}`;
      const e = r.events;
      const ratio = r.planners.saveP95With / r.planners.saveP95Without;
      targets.push(
        { target: `${w}: change → event p95 on every stream (from the answer)`, measured: `${e.fromAnswer.p95.toFixed(0)} ms (${e.expected} pairs)`, goal: `≤ ${TARGETS.eventP95Ms} ms`, met: e.fromAnswer.p95 <= TARGETS.eventP95Ms },
        { target: `${w}: expected events that never came`, measured: String(e.missing), goal: '0', met: e.missing === 0 && e.expected > 0 },
        { target: `${w}: events about an item the user may not see`, measured: String(e.unseenItemEvents), goal: '0', met: e.unseenItemEvents === 0 },
        { target: `${w}: streams ended by the server`, measured: String(e.endedEarly), goal: '0', met: e.endedEarly === 0 },
        {
          target: `${w}: save p95 with ${r.streams} streams / without (pooled windows)`,
          measured:
            `${ratio.toFixed(2)}× (${r.planners.saveP95With.toFixed(0)} / ${r.planners.saveP95Without.toFixed(0)} ms; per window with ` +
            `${r.planners.saveP95PerWindow.with.map((n) => n.toFixed(0)).join(', ')}, without ${r.planners.saveP95PerWindow.without.map((n) => n.toFixed(0)).join(', ')} ms)`,
          goal: `≤ ${TARGETS.saveFactor}×`,
          met: ratio <= TARGETS.saveFactor,
        },
        { target: `${w}: planners' errors`, measured: String(r.planners.without.errors + r.planners.with.errors), goal: '0', met: r.planners.without.errors + r.planners.with.errors === 0 },
      );
    }
    console.log('\nTargets');
    const width = Math.max(...targets.map((t) => t.target.length));
    for (const t of targets) console.log(`  ${t.met ? 'PASS' : 'FAIL'}  ${t.target.padEnd(width)}  ${t.measured} (target ${t.goal})`);
    for (const r of results) {
      console.log(
        `  info  WORKERS=${r.workers}: memory per stream ${r.memory.perStreamRssKb.toFixed(1)} KB RSS, ${r.memory.perStreamHeapKb.toFixed(1)} KB heap; ` +
          `CPU while idle ${r.idleCpu.streams.serverMsPerS.toFixed(1)} ms/s with ${r.streams} streams, ${r.idleCpu.baseline.serverMsPerS.toFixed(1)} ms/s without (server); ` +
          `the stream reader's CPU ${r.readerCpuMsPerS.toFixed(0)} ms/s (another process, nice ${r.readerNice})`,
      );
    }
    const round = (_: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 10) / 10 : v);
    console.log(
      `BENCH_RESULT ${JSON.stringify({ bench: 'live-streams', database: dbName, postgresSettings: settings, streams: streamCount, streamUsers, idleSeconds, baselineIdleSeconds, clients, seconds, rounds, warmupSeconds, readerNice, targets, runs: results }, round)}`,
    );
  } finally {
    await client.end();
    closeAgents();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
