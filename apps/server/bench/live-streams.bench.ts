/**
 * Live streams benchmark (issue 36, the last "Done when"; docs/LIVE.md "Measured"): `npm run bench:live -w apps/server --
 * [--scale 100] [--db NAME] [--streams 500] [--stream-users 10] [--idle-seconds 60] [--baseline-idle-seconds 15]
 * [--clients 50] [--seconds 60] [--workers 1,2] [--grace-seconds 5] [--build]`
 *
 * Starts the compiled server (bench-server.ts, as the load benchmark does) on `bench_search_s<scale>` (seeded by
 * `npm run bench:search -w apps/server -- --scale <scale>`) once per `--workers` entry, and:
 *
 *  1. prepares the mixed morning's `--clients` planners (mixed-morning.ts `morningPlayers`: submitters and editors
 *     writing MRA / NRD, viewers), and `--stream-users` stream users (`bench_live_…`, role VIEWER) of five kinds of
 *     grants: every brand; MRA; NRD; MRA + NRD in the EU stars zone only; AUR (where no planner writes);
 *  2. planners WITHOUT streams for `--seconds` (first half of the baseline);
 *  3. idle without streams for `--baseline-idle-seconds`: the server's CPU (its process tree) and the PostgreSQL
 *     backends serving it (/proc, mixed-morning.ts `cpuSnapshot`), its memory (RSS of the tree, V8 heap used from
 *     /api/metrics of every worker);
 *  4. opens `--streams` event streams (`GET /api/events?tab=<uuid>`, Bearer token, read with fetch streaming by
 *     test/live-client.ts, spread over the stream users) and waits for every `hello`: memory again → memory per stream;
 *  5. idle with the streams open for `--idle-seconds`: CPU, memory, heartbeats received;
 *  6. planners WITH the streams for `--seconds`: every lock (acquired), save and unlock they make is timed from its
 *     HTTP answer (and from its sending) to the arrival of its `item` event (the first one of that item after the call
 *     was sent whose state shows the change: the planner as lock holder, no holder, a version saved since the call) on
 *     EVERY stream whose user may see the item — known from the stream users' grants and the module's brand and stars
 *     zones read in SQL, not from the product's rules —; waits `--grace-seconds`, then counts the expected events that
 *     never came, and the item events a stream received about an item its user may not see;
 *  7. closes the streams; planners WITHOUT streams again for `--seconds` (second half of the baseline, so the
 *     with-streams phase is bracketed and warm-up or drift weigh on both sides).
 * Prints the tables, the server's CPU per planner request in both kinds of windows, the PostgreSQL settings, PASS/FAIL
 * per target (change → event p95 ≤ 1 s, none missing, none about an unseen item, save p95 with streams ≤ 1.1 × without)
 * and `BENCH_RESULT {json}`. The streams are read in this process, beside the planners' client: its CPU is printed too
 * (on a small machine it competes with the server and PostgreSQL, which a browser elsewhere would not).
 * A database other runs use at the same time spoils the figures: their jobs run in this server too, their changes
 * reach its streams, their PostgreSQL backends count as its CPU, and their planners (the same `bench_morning_…` users)
 * would take these planners' locks. On a shared machine give it a copy of its own:
 * `psql -c 'CREATE DATABASE bench_live_s5 TEMPLATE bench_search_s5'`, then `--db bench_live_s5`.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { LIVE_HEARTBEAT_SECONDS } from '@bo/shared/live-events';
import { openStream, type TestStream } from '../test/live-client.js';
import { writeBenchUsers, type BenchGrant } from './bench-users.js';
import { SERVER_DIR, startBenchServer, type Server } from './bench-server.js';
import { agent, CALLS, printTable, request, sleep, Stats } from './load-client.js';
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
    seconds: { type: 'string', default: '60' },
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
const workerRuns = values.workers.split(',').map(Number);
if (!(streamCount >= 1 && streamCount <= 5000) || !(streamUsers >= 1 && streamUsers <= 100) || !(clients >= 1 && clients <= 500)) {
  throw new Error('--streams (1–5000), --stream-users (1–100) and --clients (1–500) must be numbers');
}
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

// ───────────────────────────── the streams ─────────────────────────────

interface BenchStream {
  stream: TestStream;
  user: string;
  profile: Profile;
  /** The server ended it before the bench closed it. */
  endedEarly: boolean;
}

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
  sentAt: number;
  answeredAt: number;
}

/** The event shows the change: the planner holds the lock, nobody does, a version saved since the call was sent. */
function shows(c: Change, d: ItemData): boolean {
  if (c.kind === 'lock') return d.lockedBy?.toLowerCase() === c.planner.toLowerCase();
  if (c.kind === 'unlock') return d.lockedBy === null;
  // The version's time is the save transaction's start (PostgreSQL's clock, this machine's), to the millisecond.
  return d.savedAt !== null && Date.parse(d.savedAt) >= c.sentAt - 2;
}

/** The streams the bench closed itself (any other end is the server's). */
const closing = new Set<TestStream>();

async function openStreams(base: string, tokens: Map<string, string>, users: { username: string; profile: Profile }[]): Promise<{ streams: BenchStream[]; seconds: number }> {
  const started = performance.now();
  const streams: BenchStream[] = [];
  let next = 0;
  const opener = async () => {
    while (next < streamCount) {
      const i = next++;
      const u = users[i % users.length]!;
      const stream = await openStream(base, `Bearer ${tokens.get(u.username)!}`, crypto.randomUUID());
      if (stream.status !== 200) throw new Error(`stream ${i} of ${u.username}: ${stream.status}`);
      await stream.next('hello', undefined, 60_000);
      const s: BenchStream = { stream, user: u.username, profile: u.profile, endedEarly: false };
      void stream.ended.then(() => (s.endedEarly = !closing.has(stream)));
      streams.push(s);
    }
  };
  await Promise.all(Array.from({ length: 20 }, opener));
  return { streams, seconds: (performance.now() - started) / 1000 };
}

// ───────────────────────────── one run ─────────────────────────────

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const pct = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p) : NaN);

async function run(workers: number, client: pg.Client) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-live-w${workers}-`));
  const metricsToken = `bench-live-metrics-${process.pid}-${Date.now()}`;
  const server = await startBenchServer({ databaseUrl: dbUrl.toString(), workers, dataDir, metricsToken });
  const base = server.url;
  const serverPid = server.child.pid!;
  const changes: Change[] = [];
  let recording = false;
  const watch: CallWatcher = (call, p, body, answer, sentAt) => {
    if (!recording || answer.status !== 200) return;
    const answeredAt = Date.now();
    const add = (kind: Change['kind'], key: { moduleName: string; monthId: string }) => changes.push({ kind, name: key.moduleName, monthId: key.monthId, planner: p.username, sentAt, answeredAt });
    if (call === 'lock') {
      if ((JSON.parse(answer.text) as { acquired: boolean }[])[0]?.acquired) add('lock', (body as { moduleName: string; monthId: string }[])[0]!);
    } else if (call === 'save') add('save', body as { moduleName: string; monthId: string });
    else if (call === 'unlock') for (const key of body as { moduleName: string; monthId: string }[]) add('unlock', key);
  };
  let streams: BenchStream[] = [];
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
    console.log(
      `\nWORKERS=${workers}: ${players.planners.length} planners (${writers} writing MRA / NRD), ${streamCount} streams over ${users.length} stream users ` +
        `(${PROFILES.map((p) => p.label).join('; ')}), load average ${os.loadavg()[0]!.toFixed(1)}`,
    );

    // 2. Planners without streams (first half).
    const without = new Stats();
    let withoutS = 0;
    /** The CPU the server and the PostgreSQL backends serving it spent while the planners played, by window kind. */
    const cpu = { without: { serverMs: 0, postgresMs: 0 as number | null }, with: { serverMs: 0, postgresMs: 0 as number | null } };
    /** This client's own event-loop delay while the planners play: a late answer is timed late (the streams are read here too). */
    const loop = { without: [] as { p99: number; max: number }[], with: [] as { p99: number; max: number }[] };
    const play = async (s: Stats, into: (typeof cpu)['with']) => {
      const before = await cpuSnapshot(serverPid, client, dbName);
      // One histogram per window: one enabled again would count the time between the windows as a delay.
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const start = performance.now();
      await players.play(s, () => start + seconds * 1000, true);
      const spent = (performance.now() - start) / 1000;
      delay.disable();
      (into === cpu.with ? loop.with : loop.without).push({ p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 });
      const d = cpuBetween(before, await cpuSnapshot(serverPid, client, dbName));
      into.serverMs += d.serverMs;
      into.postgresMs = into.postgresMs === null || d.postgresMs === null ? null : into.postgresMs + d.postgresMs;
      await players.drain();
      return spent;
    };
    withoutS += await play(without, cpu.without);

    // 3. Idle without streams (after the planners' last answers have settled).
    await sleep(5000);
    const idleBase0 = await cpuSnapshot(serverPid, client, dbName);
    const baseStart = performance.now();
    await sleep(baselineIdleSeconds * 1000);
    const idleBase = cpuBetween(idleBase0, await cpuSnapshot(serverPid, client, dbName));
    const idleBaseS = (performance.now() - baseStart) / 1000;
    const memBefore = await memory(server, metricsToken, workers);

    // 4. The streams.
    const opened = await openStreams(base, tokens, users);
    streams = opened.streams;
    const memOpen = await memory(server, metricsToken, workers);
    console.log(`  ${streams.length} streams open, every hello received, in ${opened.seconds.toFixed(1)} s; the server counts ${memOpen.streams}`);

    // 5. Idle with the streams.
    const pings0 = streams.reduce((n, s) => n + s.stream.pings, 0);
    const idle0 = await cpuSnapshot(serverPid, client, dbName);
    const idleStart = performance.now();
    await sleep(idleSeconds * 1000);
    const idle = cpuBetween(idle0, await cpuSnapshot(serverPid, client, dbName));
    const idleS = (performance.now() - idleStart) / 1000;
    const pingsPerStream = streams.map((s) => s.stream.pings).sort((a, b) => a - b);
    const idlePings = pingsPerStream.reduce((n, p) => n + p, 0) - pings0;
    const memIdle = await memory(server, metricsToken, workers);

    // 6. Planners with the streams.
    const framesBefore = streams.map((s) => s.stream.frames.length);
    const withStreams = new Stats();
    const cpuClient0 = process.cpuUsage();
    recording = true;
    const withS = await play(withStreams, cpu.with);
    recording = false;
    const clientCpuMs = ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpuClient0));
    await sleep(graceSeconds * 1000);
    const metricsAfter = await workerMetrics(base, metricsToken, workers);

    // The events of the changes on every stream that may see them.
    const extra = await moduleScopes(
      client,
      [...new Set(streams.flatMap((s) => s.stream.frames.filter((f) => f.type === 'item').map((f) => itemKey((f.data as ItemData).name, (f.data as ItemData).monthId))))]
        .filter((k) => !scopes.has(k))
        .map((k) => ({ monthId: k.split('|')[0]!, moduleName: k.slice(k.indexOf('|') + 1) })),
    );
    for (const [k, v] of extra) scopes.set(k, v);
    const fromAnswer: number[] = [];
    const fromSent: number[] = [];
    let expected = 0;
    let missing = 0;
    /** Events that came after a later change of the same item had been sent, and show that one (their state is read when sent). */
    let superseded = 0;
    const missingExamples: string[] = [];
    const changesOf = new Map<string, Change[]>();
    for (const c of [...changes].sort((a, b) => a.sentAt - b.sentAt)) {
      const list = changesOf.get(itemKey(c.name, c.monthId)) ?? [];
      list.push(c);
      changesOf.set(itemKey(c.name, c.monthId), list);
    }
    let unseenItemEvents = 0;
    let itemEvents = 0;
    const perKind = new Map<Change['kind'], number[]>();
    for (const [i, s] of streams.entries()) {
      const byItem = new Map<string, { at: number; data: ItemData }[]>();
      for (const f of s.stream.frames.slice(framesBefore[i])) {
        if (f.type !== 'item') continue;
        const d = f.data as ItemData;
        itemEvents += 1;
        const scope = scopes.get(itemKey(d.name, d.monthId));
        if (!scope || !mayView(s.profile, scope)) unseenItemEvents += 1;
        const list = byItem.get(itemKey(d.name, d.monthId)) ?? [];
        list.push({ at: f.at, data: d });
        byItem.set(itemKey(d.name, d.monthId), list);
      }
      for (const c of changes) {
        const scope = scopes.get(itemKey(c.name, c.monthId));
        if (!scope || !mayView(s.profile, scope)) continue;
        expected += 1;
        const events = byItem.get(itemKey(c.name, c.monthId)) ?? [];
        const later = changesOf.get(itemKey(c.name, c.monthId))!.filter((c2) => c2.sentAt > c.sentAt);
        let got = events.find((e) => e.at >= c.sentAt && shows(c, e.data));
        const newer = events.find((e) => e.at >= c.sentAt && later.some((c2) => c2.sentAt <= e.at && shows(c2, e.data)));
        if (newer && (!got || newer.at < got.at)) {
          got = newer;
          superseded += 1;
        }
        if (!got) {
          missing += 1;
          if (missingExamples.length < 3) {
            const shown = events.map((e) => `+${e.at - c.sentAt} ms lockedBy ${e.data.lockedBy} savedAt ${e.data.savedAt}`).join(', ');
            missingExamples.push(`${c.kind} ${c.name} ${c.monthId} by ${c.planner} (answered +${c.answeredAt - c.sentAt} ms) on a stream of ${s.user}; the item's events there: ${shown || 'none'}`);
          }
          continue;
        }
        const ms = Math.max(0, got.at - c.answeredAt);
        fromAnswer.push(ms);
        fromSent.push(got.at - c.sentAt);
        const list = perKind.get(c.kind) ?? [];
        list.push(ms);
        perKind.set(c.kind, list);
      }
    }
    fromAnswer.sort((a, b) => a - b);
    fromSent.sort((a, b) => a - b);
    const endedEarly = streams.filter((s) => s.endedEarly).length;

    // 7. Streams closed; planners without streams (second half).
    for (const s of streams) {
      closing.add(s.stream);
      s.stream.close();
    }
    await sleep(2000);
    const memClosed = await memory(server, metricsToken, workers);
    withoutS += await play(without, cpu.without);

    // ── Figures ──
    const callRows = (s: Stats, secs: number) => CALLS.map((c) => s.summary(c, secs)).filter((r) => r.count || r.errors);
    printTable(`WORKERS=${workers}, planners WITHOUT streams (two windows of ${seconds} s, before and after the streams)`, callRows(without, withoutS));
    printTable(`WORKERS=${workers}, planners WITH ${streams.length} streams open (${withS.toFixed(0)} s)`, callRows(withStreams, withS));
    for (const [call, list] of [...without.errors, ...withStreams.errors]) console.log(`  errors of ${call} (${list.length}), first: ${list[0]}`);
    const requestsOf = (s: Stats) => CALLS.filter((c) => c !== 'module open').reduce((n, c) => n + (s.times.get(c)?.length ?? 0), 0);
    const perRequest = (c: (typeof cpu)['with'], s: Stats) => ({
      requests: requestsOf(s),
      serverMs: c.serverMs / Math.max(1, requestsOf(s)),
      postgresMs: c.postgresMs === null ? null : c.postgresMs / Math.max(1, requestsOf(s)),
    });
    const cpuWithout = perRequest(cpu.without, without);
    const cpuWith = perRequest(cpu.with, withStreams);
    const f2 = (n: number | null) => (n === null ? '?' : n.toFixed(2));
    console.log(
      `  CPU per planner request (server + the PostgreSQL backends serving it): without streams ${f2(cpuWithout.serverMs)} + ${f2(cpuWithout.postgresMs)} ms (${cpuWithout.requests} requests), ` +
        `with ${streams.length} streams ${f2(cpuWith.serverMs)} + ${f2(cpuWith.postgresMs)} ms (${cpuWith.requests} requests; the events written to the streams included)`,
    );
    const opened1 = Math.max(1, memOpen.streams || streams.length);
    console.log(`\nWORKERS=${workers}, memory (RSS of the server's processes; V8 heap used, every worker)`);
    console.log(`  before the streams   RSS ${mb(memBefore.rss)} MB, heap ${mb(memBefore.heapUsed)} MB`);
    console.log(`  streams open         RSS ${mb(memOpen.rss)} MB, heap ${mb(memOpen.heapUsed)} MB  → per stream: RSS ${((memOpen.rss - memBefore.rss) / opened1 / 1024).toFixed(1)} KB, heap ${((memOpen.heapUsed - memBefore.heapUsed) / opened1 / 1024).toFixed(1)} KB`);
    console.log(`  after ${idleS.toFixed(0)} s idle      RSS ${mb(memIdle.rss)} MB, heap ${mb(memIdle.heapUsed)} MB  → per stream: RSS ${((memIdle.rss - memBefore.rss) / opened1 / 1024).toFixed(1)} KB, heap ${((memIdle.heapUsed - memBefore.heapUsed) / opened1 / 1024).toFixed(1)} KB`);
    console.log(`  streams closed       RSS ${mb(memClosed.rss)} MB, heap ${mb(memClosed.heapUsed)} MB, streams the server counts: ${memClosed.streams}`);
    const perS = (ms: number | null, s: number) => (ms === null ? '?' : (ms / s).toFixed(1));
    console.log(`\nWORKERS=${workers}, CPU while idle (ms of CPU per second; server processes + the PostgreSQL backends serving them)`);
    console.log(`  no stream (${idleBaseS.toFixed(0)} s)        server ${perS(idleBase.serverMs, idleBaseS)} ms/s, PostgreSQL ${perS(idleBase.postgresMs, idleBaseS)} ms/s`);
    console.log(
      `  ${streams.length} streams (${idleS.toFixed(0)} s)    server ${perS(idle.serverMs, idleS)} ms/s, PostgreSQL ${perS(idle.postgresMs, idleS)} ms/s; ` +
        `heartbeats received ${idlePings} (${(idlePings / Math.max(1, streams.length)).toFixed(1)} per stream, every ${LIVE_HEARTBEAT_SECONDS} s)`,
    );
    const sent = [...metricsAfter.values()].reduce<Record<string, number>>((acc, m) => {
      for (const [k, v] of Object.entries(m.sent)) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {});
    const lag = [...metricsAfter.values()].reduce((a, m) => ({ sum: a.sum + m.lagSum, count: a.count + m.lagCount }), { sum: 0, count: 0 });
    const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
    console.log(`\nWORKERS=${workers}, change → item event on every stream that may see it (${changes.length} changes: ${[...perKind.keys()].map((k) => `${changes.filter((c) => c.kind === k).length} ${k}`).join(', ')})`);
    console.log(`  ${'from'.padEnd(28)}  ${'pairs'.padStart(7)}  ${'p50 ms'.padStart(7)}  ${'p95 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'max ms'.padStart(7)}`);
    const line = (label: string, l: number[]) => console.log(`  ${label.padEnd(28)}  ${String(l.length).padStart(7)}  ${fmt(pct(l, 50)).padStart(7)}  ${fmt(pct(l, 95)).padStart(7)}  ${fmt(pct(l, 99)).padStart(7)}  ${fmt(l.at(-1) ?? NaN).padStart(7)}`);
    line('the HTTP answer', fromAnswer);
    line('the call sent', fromSent);
    for (const [k, l] of perKind) line(`the answer, ${k}`, l.sort((a, b) => a - b));
    console.log(`  of them shown by an event sent after a later change of the same item (the event's state is read when it is sent): ${superseded}`);
    console.log(`  expected ${expected}, missing ${missing}${missingExamples.length ? ` (e.g. ${missingExamples.join('; ')})` : ''}; item events received ${itemEvents}, about an item the stream's user may not see: ${unseenItemEvents}; streams ended early: ${endedEarly}`);
    console.log(`  the server: events sent ${Object.entries(sent).map(([k, v]) => `${k} ${v}`).join(', ')}; mean lag (notification → written) ${lag.count ? ((lag.sum / lag.count) * 1000).toFixed(0) : '–'} ms`);
    console.log(`  this client's CPU while the planners played with the streams: ${(clientCpuMs / withS).toFixed(0)} ms/s (it reads the ${streams.length} streams too)`);
    const worst = (l: { p99: number; max: number }[]) => ({ p99: Math.max(...l.map((x) => x.p99)), max: Math.max(...l.map((x) => x.max)) });
    const loopOf = (l: { p99: number; max: number }[]) => `p99 ${worst(l).p99.toFixed(0)} ms, max ${worst(l).max.toFixed(0)} ms`;
    console.log(`  this client's event-loop delay while the planners played: without streams ${loopOf(loop.without)}, with ${loopOf(loop.with)} (the worse of its windows; the planners' answers wait as much)`);

    const saveWithout = without.summary('save', withoutS).p95;
    const saveWith = withStreams.summary('save', withS).p95;
    return {
      workers,
      streams: streams.length,
      openSeconds: opened.seconds,
      memory: {
        before: memBefore,
        open: memOpen,
        idle: memIdle,
        closed: memClosed,
        perStreamRssKb: (memIdle.rss - memBefore.rss) / opened1 / 1024,
        perStreamHeapKb: (memIdle.heapUsed - memBefore.heapUsed) / opened1 / 1024,
      },
      idleCpu: {
        baseline: { seconds: idleBaseS, serverMsPerS: idleBase.serverMs / idleBaseS, postgresMsPerS: idleBase.postgresMs === null ? null : idleBase.postgresMs / idleBaseS },
        streams: { seconds: idleS, serverMsPerS: idle.serverMs / idleS, postgresMsPerS: idle.postgresMs === null ? null : idle.postgresMs / idleS },
        heartbeats: idlePings,
      },
      planners: {
        without: { seconds: withoutS, calls: Object.fromEntries(callRows(without, withoutS).map((r) => [r.call, r])), errors: without.errorCount() },
        with: { seconds: withS, calls: Object.fromEntries(callRows(withStreams, withS).map((r) => [r.call, r])), errors: withStreams.errorCount() },
        saveP95Without: saveWithout,
        saveP95With: saveWith,
        cpuPerRequest: { without: cpuWithout, with: cpuWith },
      },
      events: {
        changes: changes.length,
        expected,
        missing,
        superseded,
        unseenItemEvents,
        itemEvents,
        endedEarly,
        fromAnswer: { p50: pct(fromAnswer, 50), p95: pct(fromAnswer, 95), p99: pct(fromAnswer, 99), max: fromAnswer.at(-1) ?? NaN },
        fromSent: { p50: pct(fromSent, 50), p95: pct(fromSent, 95), max: fromSent.at(-1) ?? NaN },
        serverSent: sent,
        serverMeanLagMs: lag.count ? (lag.sum / lag.count) * 1000 : NaN,
      },
      clientCpuMsPerS: clientCpuMs / withS,
      clientLoopDelayMs: { without: loop.without, with: loop.with },
    };
  } finally {
    for (const s of streams) {
      closing.add(s.stream);
      s.stream.close();
    }
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
          target: `${w}: save p95 with ${r.streams} streams / without`,
          measured: `${ratio.toFixed(2)}× (${r.planners.saveP95With.toFixed(0)} / ${r.planners.saveP95Without.toFixed(0)} ms)`,
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
          `CPU while idle ${r.idleCpu.streams.serverMsPerS.toFixed(1)} ms/s with ${r.streams} streams, ${r.idleCpu.baseline.serverMsPerS.toFixed(1)} ms/s without (server)`,
      );
    }
    const round = (_: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 10) / 10 : v);
    console.log(
      `BENCH_RESULT ${JSON.stringify({ bench: 'live-streams', database: dbName, postgresSettings: settings, streams: streamCount, streamUsers, idleSeconds, baselineIdleSeconds, clients, seconds, targets, runs: results }, round)}`,
    );
  } finally {
    await client.end();
    agent.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
