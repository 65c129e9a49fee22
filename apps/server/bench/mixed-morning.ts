/**
 * The load benchmark's "mixed morning" (issue 35, target 1; played by load.bench.ts after its planners and saturation
 * phases, once per WORKERS entry):
 *
 *  1. morning: `clients` planners of three roles — submitters (view every brand; edit and submit one of MRA / NRD),
 *     editors (the same without submit) and viewers (view every brand), 2 : 2 : 1 — each searching in turn a different
 *     open month and brand (`/api/module/filtered`, 4 months × every brand), opening a module from the answer
 *     (`/api/module/modules`) and, every third round for the writers, opening one of their own (lock + modules), saving
 *     it (MH ↔ EL of one line), publishing it (submitters, every third save: checkForPublish, publish) and leaving it
 *     (unlock), pausing 1–3 s between actions, for `seconds`;
 *  2. saturation: the same rounds without pauses for `saturationSeconds` (searches/s with the opens and saves beside);
 *  3. costs: one call at a time, `costCalls` of each kind (measured twice: the first ones, printed for comparison, and
 *     those after `costWarmup` calls of that kind, judged) — a month + brand search computed afresh (a no-op UPDATE of a
 *     module of that month and brand from this script's own connection before each, so its kept answer is stale),
 *     the same search kept, a module open (lock + modules), a save — with the CPU the server's processes and the
 *     PostgreSQL backends serving them spent (/proc/<pid>/stat, so a local PostgreSQL; `pg_stat_statements`' execution
 *     time beside it when the extension is installed), per call.
 * The figures of the whole morning's CPU per request are printed too. Publish jobs are let finish after phases 1 and 2.
 * The planners and their rounds (`morningPlayers`) are made once per run and shared with the bulk phase (bulk-during-morning.ts).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import type pg from 'pg';
import { writeBenchUsers, type BenchGrant } from './bench-users.js';
import { browserAgent, pause, printTable, request, searchAnswersMoved, searchAnswersOf, sleep, Stats, visitModule, type Answer, type Measured, type SearchAnswers, type Summary, type WorkingModule } from './load-client.js';
import { percentile } from './scratch-database.js';

export const MORNING_TARGETS = {
  searchP95: 150,
  saveP95: 100,
  openP95: 150,
  searchCpuMs: 15,
  saveCpuMs: 10,
  openCpuMs: 10,
  /** Today's mixed morning without pauses (issue 35) and the factor the target asks for. */
  saturationBaseline: 17,
  saturationSearchesPerS: 51,
};

const WRITE_BRANDS = ['MRA', 'NRD'];
const MONTHS = 4;
const WRITE_EVERY = 3;
const MORNING_CALLS = ['search', 'modules', 'lock', 'module open', 'save', 'checkForPublish', 'publish', 'unlock'];

/** The PostgreSQL settings a run depends on (printed, and in BENCH_RESULT). */
export async function postgresSettings(client: pg.Client): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of ['shared_buffers', 'work_mem', 'max_connections', 'jit', 'effective_cache_size', 'max_worker_processes', 'autovacuum', 'max_wal_size', 'checkpoint_timeout', 'wal_writer_delay']) {
    out[name] = (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!;
  }
  // The product's sessions turn JIT off whatever the server's default (db/client.ts sessionOptions).
  out.jit = `${out.jit} (the product's sessions: off)`;
  out['pool per server process'] = process.env.DATABASE_POOL_SIZE ?? '10 (DATABASE_POOL_SIZE default)';
  out.pg_stat_statements = (await statementTotals(client)) ? 'installed' : 'not installed';
  out.huge_pages = `${(await client.query<{ huge_pages: string }>('SHOW huge_pages')).rows[0]!.huge_pages}${hugePagesInUse()}`;
  return out;
}

/**
 * The machine's huge pages as /proc/meminfo counts them (a local PostgreSQL: its shared memory is in them when it
 * started with huge pages free, docs/operations.md "Sizing PostgreSQL"): " (this machine: 3,300 huge pages set aside,
 * 3,152 taken)", or "" when unreadable.
 */
function hugePagesInUse(): string {
  try {
    const info = readFileSync('/proc/meminfo', 'utf8');
    const n = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? NaN);
    const total = n('HugePages_Total');
    const used = total - n('HugePages_Free') + n('HugePages_Rsvd');
    return Number.isFinite(total) ? ` (this machine: ${total.toLocaleString('en-US')} huge pages set aside, ${used.toLocaleString('en-US')} taken)` : '';
  } catch {
    return '';
  }
}

// ───────────────────────────── CPU ─────────────────────────────

const TICK_MS = (() => {
  try {
    return 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  } catch {
    return 10;
  }
})();

/**
 * A process's CPU so far (user + system, ms) and its page faults (minor + major), from /proc/<pid>/stat; with `exact`,
 * the CPU is its threads' run time in nanoseconds (/proc/<pid>/task/<tid>/schedstat) rather than whole clock ticks,
 * which a call of a few milliseconds spread over several processes mostly falls between (the ticks' figure is as
 * right on average, far noisier over 40 calls). A thread that ends between two readings takes its time with it:
 * the cost phase starts none.
 */
function processCounters(pid: number, exact = false): { ms: number; faults: number; exact: boolean } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const faults = Number(fields[7]) + Number(fields[9]);
    const ticks = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const ran = exact ? threadsRunTimeMs(pid) : null;
    return ran === null ? { ms: ticks, faults, exact: false } : { ms: ran, faults, exact: true };
  } catch {
    return null;
  }
}

/** The run time of a process's threads so far (ms, from nanoseconds), or null when the kernel does not keep it. */
function threadsRunTimeMs(pid: number): number | null {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        /* the thread ended meanwhile */
      }
    }
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

/** Whether the cost phase's readings were exact (schedstat) or whole ticks: printed with its table. */
let exactCpu: boolean | null = null;

/** The process and its descendants (the server's cluster workers). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      let list = children.get(ppid);
      if (!list) children.set(ppid, (list = []));
      list.push(Number(name));
    } catch {
      /* gone */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

/**
 * The execution time and calls of the database's top-level statements so far. The benchmark's own snapshots (of
 * pg_stat_statements and pg_stat_activity) are left out: once the view holds a long run's statements, its query takes
 * ~25 ms, which fell into the next call's figure.
 */
async function statementTotals(client: pg.Client): Promise<{ ms: number; calls: number } | null> {
  try {
    const { rows } = await client.query<{ ms: number; calls: string }>(
      `SELECT COALESCE(sum(total_exec_time), 0)::float8 AS ms, COALESCE(sum(calls), 0)::text AS calls
         FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND toplevel
          AND query !~ 'pg_stat_(statements|activity)'`,
    );
    return { ms: Number(rows[0]!.ms), calls: Number(rows[0]!.calls) };
  } catch {
    return null;
  }
}

/**
 * BENCH_COST_STATEMENTS=1: after each kind of cost call, its statements as pg_stat_statements saw them (reset before the
 * kind; `track = all` shows the trigger functions' statements, nested, beside the top-level ones), per call of the kind:
 * how many times each ran, its planning and execution ms. The bench's own statements (snapshots, touches) are listed too.
 */
async function printStatements(client: pg.Client, kind: string, calls: number): Promise<void> {
  const { rows } = await client.query<{ n: string; plan: number; exec: number; toplevel: boolean; query: string }>(
    `SELECT calls::text AS n, total_plan_time::float8 AS plan, total_exec_time::float8 AS exec, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_plan_time + total_exec_time DESC LIMIT 25`,
  );
  const per = (x: number) => (x / Math.max(1, calls)).toFixed(3).padStart(7);
  console.log(`  statements of "${kind}", per call (${calls} calls): runs, plan ms, exec ms, nested (n) or top level`);
  for (const r of rows) console.log(`    ${(Number(r.n) / Math.max(1, calls)).toFixed(2).padStart(5)} ${per(r.plan)} ${per(r.exec)} ${r.toplevel ? ' ' : 'n'} ${r.query}`);
}

export interface CpuSnapshot {
  server: Map<number, number>;
  postgres: Map<number, number | null>;
  statements: { ms: number; calls: number } | null;
  /** Page faults so far of each server process and backend (a first touch of a page of PostgreSQL's shared buffers by a backend is one). */
  faults: Map<number, number>;
}

export async function cpuSnapshot(serverPid: number, client: pg.Client, dbName: string): Promise<CpuSnapshot> {
  const faults = new Map<number, number>();
  const counted = (pid: number) => {
    const c = processCounters(pid, true);
    if (c) {
      faults.set(pid, c.faults);
      exactCpu = exactCpu === null ? c.exact : exactCpu && c.exact;
    }
    return c?.ms ?? null;
  };
  const server = new Map(processTree(serverPid).map((pid) => [pid, counted(pid) ?? 0]));
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    [dbName],
  );
  const postgres = new Map(rows.map((r) => [r.pid, counted(r.pid)]));
  return { server, postgres, statements: await statementTotals(client), faults };
}

/**
 * BENCH_COST_PROCESSES=1: the CPU between two snapshots by process, server processes by pid ("server <pid>"), the
 * backends by pid ("backend <pid>").
 */
function perProcess(a: CpuSnapshot, b: CpuSnapshot): [string, number][] {
  const out: [string, number][] = [];
  for (const [pid, ms] of b.server) out.push([`server ${pid}`, ms - (a.server.get(pid) ?? 0)]);
  for (const [pid, ms] of b.postgres) if (ms !== null) out.push([`backend ${pid}`, ms - (a.postgres.get(pid) ?? 0)]);
  return out;
}

/** CPU spent between two snapshots: the server's processes, the PostgreSQL backends serving it (null: not readable). */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot): { serverMs: number; postgresMs: number | null; statementsMs: number | null; faults: number; serverFaults: number; newBackends: number } {
  let serverMs = 0;
  for (const [pid, ms] of b.server) serverMs += ms - (a.server.get(pid) ?? 0);
  let postgresMs: number | null = 0;
  for (const [pid, ms] of b.postgres) {
    if (ms === null) {
      postgresMs = null;
      break;
    }
    // A backend opened meanwhile counts from its start (its connection included).
    postgresMs += ms - (a.postgres.get(pid) ?? 0);
  }
  const statementsMs = a.statements && b.statements ? b.statements.ms - a.statements.ms : null;
  let faults = 0;
  let serverFaults = 0;
  for (const [pid, n] of b.faults) {
    faults += n - (a.faults.get(pid) ?? 0);
    if (b.server.has(pid)) serverFaults += n - (a.faults.get(pid) ?? 0);
  }
  let newBackends = 0;
  for (const pid of b.postgres.keys()) if (!a.postgres.has(pid)) newBackends++;
  return { serverMs, postgresMs, statementsMs, faults, serverFaults, newBackends };
}

/** The machine's CPU counters (/proc/stat's first line, in ticks): busy (user, nice, system, irq, softirq), idle, iowait, steal. */
function machineTicks(): { busy: number; idle: number; iowait: number; steal: number } | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { busy: f[0]! + f[1]! + f[2]! + f[5]! + f[6]!, idle: f[3]!, iowait: f[4]!, steal: f[7] ?? 0 };
  } catch {
    return null;
  }
}

/** Every process's CPU so far (ms), with its name: what ran on the machine beside the calls. */
function allProcessesCpu(): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const counters = processCounters(Number(pid));
    if (!counters) continue; // gone
    let name = pid;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      name = cmd ? cmd.slice(0, 60) : readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      /* gone meanwhile: its pid names it */
    }
    out.set(Number(pid), { name, ms: counters.ms });
  }
  return out;
}

/**
 * The machine with no call in flight, over `ms`: how busy its cores were (and iowait, steal), and the processes that
 * spent CPU meanwhile. The cost phase measures CPU per call, and work left by earlier phases (a checkpoint writing their
 * pages, the kernel flushing them) runs beside it on the same 2 cores.
 */
type MachineTicks = NonNullable<ReturnType<typeof machineTicks>>;
type MachineShares = { busyPct: number; iowaitPct: number; stealPct: number };

/** Busy, iowait and steal between two readings of /proc/stat, in % of the machine's time. */
function machineShares(a: MachineTicks, b: MachineTicks): MachineShares {
  const total = b.busy + b.idle + b.iowait + b.steal - (a.busy + a.idle + a.iowait + a.steal);
  const pct = (x: number) => (100 * x) / Math.max(1, total);
  return { busyPct: pct(b.busy - a.busy), iowaitPct: pct(b.iowait - a.iowait), stealPct: pct(b.steal - a.steal) };
}

const sharesText = (m: MachineShares) => `${m.busyPct.toFixed(1)} % busy, iowait ${m.iowaitPct.toFixed(1)} %, steal ${m.stealPct.toFixed(1)} %`;

/** The event-loop delay gauges of a /api/metrics text (prom-client's, reset at each scrape), in ms. */
export function eventLoopDelay(metricsText: string): { maxMs: number; p99Ms: number } {
  const gauge = (name: string) => Number(metricsText.match(new RegExp(`^nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? ([0-9.e+-]+)`, 'm'))?.[1] ?? NaN) * 1000;
  return { maxMs: gauge('max'), p99Ms: gauge('p99') };
}

export async function machineAtRest(ms: number): Promise<{ busyPct: number; iowaitPct: number; stealPct: number; top: { name: string; msPerS: number }[] } | null> {
  const a = machineTicks();
  const pa = allProcessesCpu();
  await sleep(ms);
  const b = machineTicks();
  const pb = allProcessesCpu();
  if (!a || !b) return null;
  const top = [...pb]
    .map(([pid, p]) => ({ name: p.name, msPerS: ((p.ms - (pa.get(pid)?.ms ?? 0)) * 1000) / ms }))
    .filter((p) => p.msPerS > 0)
    .sort((x, y) => y.msPerS - x.msPerS)
    .slice(0, 6);
  return { ...machineShares(a, b), top };
}

// ───────────────────────────── planners ─────────────────────────────

type Role = 'SUBMITTER' | 'EDITOR' | 'VIEWER';

export interface MorningPlanner {
  username: string;
  role: Role;
  token: string;
  /** Its browser's connections (load-client.ts browserAgent). */
  agent: http.Agent;
  /** The month and brand it writes in (writers), its share of that month-brand's modules: index % of === slot. */
  write: { monthId: string; brand: string; slot: number; of: number } | null;
  workset: { moduleName: string; monthId: string }[];
  next: number;
  visits: number;
  /** Where it starts in the round of searches. */
  offset: number;
}

async function preparePlanners(client: pg.Client, clients: number): Promise<{ planners: MorningPlanner[]; combos: { monthId: string; brand: string }[] }> {
  const months = (await client.query<{ month_id: string }>('SELECT month_id FROM months WHERE open ORDER BY year, month')).rows.map((r) => r.month_id).slice(0, MONTHS);
  const zones = (await client.query<{ zone_code: string }>('SELECT zone_code FROM stars_zones ORDER BY zone_code')).rows.map((r) => r.zone_code);
  const brands = (await client.query<{ brand_code: string }>('SELECT brand_code FROM brands ORDER BY brand_code')).rows.map((r) => r.brand_code);
  if (!months.length || !zones.length || !WRITE_BRANDS.every((b) => brands.includes(b))) throw new Error('the database lacks open months, stars zones or the brands MRA and NRD: seed it first');
  const combos = months.flatMap((monthId) => brands.map((brand) => ({ monthId, brand })));
  const writeCombos = months.flatMap((monthId) => WRITE_BRANDS.map((brand) => ({ monthId, brand })));
  const roles: Role[] = Array.from({ length: clients }, (_, i) => (['SUBMITTER', 'SUBMITTER', 'EDITOR', 'EDITOR', 'VIEWER'] as const)[i % 5]!);
  const writers = roles.filter((r) => r !== 'VIEWER').length;
  let w = 0;
  const planners: MorningPlanner[] = roles.map((role, i) => {
    let write: MorningPlanner['write'] = null;
    if (role !== 'VIEWER') {
      const combo = writeCombos[w % writeCombos.length]!;
      write = { ...combo, slot: Math.floor(w / writeCombos.length), of: Math.floor((writers - 1 - (w % writeCombos.length)) / writeCombos.length) + 1 };
      w++;
    }
    return { username: `bench_morning_${String(i + 1).padStart(2, '0')}`, role, token: '', agent: browserAgent(), write, workset: [], next: 0, visits: 0, offset: (i * 7) % combos.length };
  });
  const grantsOf = (p: MorningPlanner) => {
    const grants: BenchGrant[] = [];
    const grant = (type: string, grantBrands: string[]) => {
      for (const b of grantBrands) grants.push(['brand', b, type]);
      for (const z of zones) grants.push(['starszone', z, type]);
    };
    grant('view', brands);
    if (p.write) grant('edit', [p.write.brand]);
    if (p.role === 'SUBMITTER') {
      grant('submit', [p.write!.brand]);
      grants.push(['rule', 'reopen', 'edit']);
    }
    return grants;
  };
  await writeBenchUsers(
    client,
    'bench_morning_',
    planners.map((p) => ({ username: p.username, role: p.role, grants: grantsOf(p) })),
  );
  return { planners, combos };
}

/** A module name of a search answer, picked at a random place (the answer is not parsed: ~1 MB at scale 100). */
function moduleOf(answer: Answer): string | null {
  const bytes = answer.bytes;
  const marker = '"moduleName":"';
  let at = bytes.indexOf(marker, Math.floor(Math.random() * bytes.length));
  if (at < 0) at = bytes.indexOf(marker);
  if (at < 0) return null;
  const start = at + marker.length;
  return bytes.toString('utf8', start, bytes.indexOf('"', start));
}

// ───────────────────────────── the phase ─────────────────────────────

export interface MorningCost {
  calls: number;
  wallP50: number;
  serverMs: number;
  postgresMs: number | null;
  totalMs: number;
  statementsMs: number | null;
  /** Page faults per call of the server's processes and the backends serving it; backends opened during the calls, in all. */
  faults: number;
  /** Of which the server's processes'. */
  serverFaults: number;
  newBackends: number;
}

export interface MorningResult {
  seconds: number;
  calls: Record<string, Summary>;
  errors: number;
  searchP95: number;
  saveP95: number;
  openP95: number;
  /** CPU of the whole morning per request (every call counted once; 'module open' is not a request of its own). */
  cpuPerRequest: { requests: number; serverMs: number; postgresMs: number | null; statementsMs: number | null };
  saturation: { seconds: number; searchesPerS: number; opensPerS: number; savesPerS: number; searchP95: number; saveP95: number; errors: number };
  /** CPU per call after the warm-up (judged). */
  costs: Record<string, MorningCost>;
  /** CPU per call of the first calls of each kind, one at a time after the morning (for comparison). */
  firstCosts: Record<string, MorningCost>;
  /** Search answers kept / computed (one process's count with WORKERS > 1). */
  answers: { morning: { kept: number; refreshed: number; computed: number }; saturation: { kept: number; refreshed: number; computed: number } };
}

export interface MorningOptions {
  base: string;
  server: { child: ChildProcess };
  workers: number;
  client: pg.Client;
  dbName: string;
  clients: number;
  seconds: number;
  saturationSeconds: number;
  costCalls: number;
  /** Calls of each kind made before the judged `costCalls` (the first `costCalls` of them measured too, printed). */
  costWarmup: number;
  /** The server's METRICS_TOKEN: the search answers kept and computed are read from /api/metrics. */
  metricsToken: string;
}

/** The morning's planners, logged in with their modules picked, and how they play (the mixed morning and the bulk phase). */
export interface MorningPlayers {
  planners: MorningPlanner[];
  combos: { monthId: string; brand: string }[];
  /** The months and brands the writers write in (their locks must not be taken by bulk work). */
  writeScopes: { monthId: string; brand: string }[];
  /** The jobs of the publications sent so far. */
  publishJobs: number[];
  measured: Measured<MorningPlanner>;
  /** Every planner's rounds until `until()` (read at each step: a phase may end them when its work is done). */
  play(s: Stats, until: () => number, paused: boolean): Promise<void>;
  /** Waits for the publish jobs sent so far (seconds waited). */
  drain(): Promise<number>;
}

/**
 * Told of every answered call of the planners (live-streams.bench.ts times the live events of their changes from it):
 * the call's name as counted, its planner, its body, the answer, and the wall clock (Date.now()) when it was sent.
 */
export type CallWatcher = (call: string, p: MorningPlanner, body: unknown, answer: Answer, sentAt: number) => void;

/** Creates (or resets) the morning's `clients` planners, logs them in and picks each writer's modules. */
export async function morningPlayers(base: string, client: pg.Client, clients: number, watch?: CallWatcher): Promise<MorningPlayers> {
  const { planners, combos } = await preparePlanners(client, clients);
  for (const p of planners) {
    const res = await request(base, 'POST', '/api/authorization/login', undefined, { username: p.username, password: 'demo' }, p.agent);
    if (res.status !== 200) throw new Error(`login ${p.username}: ${res.status} ${res.text.slice(0, 200)}`);
    p.token = (JSON.parse(res.text) as { access_token: string }).access_token;
    if (!p.write) continue;
    const found = await request(base, 'POST', '/api/module/filtered', p.token, { monthId: [p.write.monthId], brand: [p.write.brand] }, p.agent);
    if (found.status !== 200) throw new Error(`search of ${p.username}: ${found.status} ${found.text.slice(0, 200)}`);
    const items = JSON.parse(found.text) as { moduleName: string; monthId: string; status: string; locked: boolean }[];
    const { slot, of } = p.write;
    p.workset = items
      // A submitted module needs the reopen right, which only the submitters hold.
      .filter((m) => (m.status === 'WIP' || (m.status === 'SUBMITTED' && p.role === 'SUBMITTER')) && !m.locked)
      .filter((_, i) => i % of === slot)
      .slice(0, 40)
      .map(({ moduleName, monthId }) => ({ moduleName, monthId }));
    p.next = Math.floor(Math.random() * Math.max(1, p.workset.length));
    if (!p.workset.length) throw new Error(`${p.username} found no module of its own in ${p.write.monthId} ${p.write.brand}`);
  }
  const publishJobs: number[] = [];

  const measured = async (s: Stats, call: string, p: MorningPlanner, method: string, url: string, body?: unknown): Promise<Answer | undefined> => {
    try {
      const sentAt = Date.now();
      const res = await request(base, method, url, p.token, body, p.agent);
      s.add(call, res.ms);
      watch?.(call, p, body, res, sentAt);
      if (res.status !== 200) {
        s.error(call, `${res.status} ${res.text.slice(0, 160)}`);
        return undefined;
      }
      return res;
    } catch (error) {
      s.error(call, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };

  /** A planner's rounds until `until()`: search a month and brand, open a module of the answer, every third round write. */
  const playOne = async (s: Stats, p: MorningPlanner, until: () => number, paused: boolean) => {
    const wait = paused ? () => pause(until()) : () => Promise.resolve();
    if (paused) await sleep(Math.random() * 3000);
    for (let round = 0; round < 100_000 && performance.now() < until(); round++) {
      const combo = combos[(p.offset + round) % combos.length]!;
      const found = await measured(s, 'search', p, 'POST', '/api/module/filtered', { monthId: [combo.monthId], brand: [combo.brand] });
      await wait();
      if (performance.now() >= until()) break;
      const name = found ? moduleOf(found) : null;
      if (name) {
        const opened = await measured(s, 'modules', p, 'POST', '/api/module/modules', { moduleDtoList: [{ moduleName: name, monthId: combo.monthId }] });
        if (opened) s.add('module open', opened.ms);
        await wait();
      }
      if (p.write && round % WRITE_EVERY === WRITE_EVERY - 1 && performance.now() < until()) {
        await visitModule(measured, s, p, { wait, mayPublish: p.role === 'SUBMITTER', publishJobs, until });
        await wait();
      }
    }
  };

  const drain = async () => {
    const started = performance.now();
    for (let i = 0; i < 1500 && publishJobs.length; i++) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1) AND status IN ('QUEUED', 'RUNNING')`, [publishJobs]);
      if (rows[0]!.n === 0) break;
      await sleep(200);
    }
    return (performance.now() - started) / 1000;
  };

  const writeScopes = [...new Map(planners.filter((p) => p.write).map((p) => [`${p.write!.monthId}|${p.write!.brand}`, { monthId: p.write!.monthId, brand: p.write!.brand }])).values()];
  return {
    planners,
    combos,
    writeScopes,
    publishJobs,
    measured,
    play: async (s, until, paused) => {
      await Promise.all(planners.map((p) => playOne(s, p, until, paused)));
    },
    drain,
  };
}

export async function mixedMorning(o: MorningOptions, players: MorningPlayers): Promise<MorningResult> {
  const { base, client, dbName } = o;
  const serverPid = o.server.child.pid!;
  const { planners, combos, measured, drain } = players;
  /** Search answers kept and computed so far, as counted by the process that answers the scrape (one of WORKERS). */
  const answerCounts = async () => searchAnswersOf((await request(base, 'GET', '/api/metrics', o.metricsToken)).text);
  const answersBetween = (a: SearchAnswers, b: SearchAnswers) => {
    const moved = searchAnswersMoved(a, b);
    return `search answers kept / refreshed / computed ${moved.kept} / ${moved.refreshed} / ${moved.computed}${o.workers > 1 ? ` (one process of the ${o.workers})` : ''}`;
  };

  // 1. The morning.
  const stats = new Stats();
  console.log(`\nWORKERS=${o.workers}: the mixed morning, ${planners.length} planners (${planners.filter((p) => p.role === 'SUBMITTER').length} submitters, ${planners.filter((p) => p.role === 'EDITOR').length} editors, ${planners.filter((p) => p.role === 'VIEWER').length} viewers) over ${combos.length} months × brands for ${o.seconds} s, load average ${os.loadavg()[0]!.toFixed(1)}`);
  const answersBefore = await answerCounts();
  const ticksBefore = machineTicks();
  const before = await cpuSnapshot(serverPid, client, dbName);
  const start = performance.now();
  await players.play(stats, () => start + o.seconds * 1000, true);
  const seconds = (performance.now() - start) / 1000;
  const after = await cpuSnapshot(serverPid, client, dbName);
  const ticksAfter = machineTicks();
  const metricsAfter = (await request(base, 'GET', '/api/metrics', o.metricsToken)).text;
  const answersAfter = searchAnswersOf(metricsAfter);
  const drainS = await drain();
  const rows = MORNING_CALLS.map((c) => stats.summary(c, seconds)).filter((r) => r.count || r.errors);
  const requests = rows.filter((r) => r.call !== 'module open').reduce((n, r) => n + r.count, 0);
  printTable(`WORKERS=${o.workers}, mixed morning (${seconds.toFixed(0)} s, ${(requests / seconds).toFixed(1)} requests/s in all)`, rows);
  for (const [what, n] of stats.notes) console.log(`  note: ${what}: ${n}`);
  for (const [call, list] of stats.errors) console.log(`  errors of ${call} (${list.length}), first: ${list[0]}`);
  const whole = cpuBetween(before, after);
  const per = (ms: number | null) => (ms === null ? '?' : (ms / Math.max(1, requests)).toFixed(2));
  console.log(
    `  CPU per request over the morning: server ${per(whole.serverMs)} ms, PostgreSQL ${per(whole.postgresMs)} ms` +
      `${whole.statementsMs === null ? '' : `, pg_stat_statements execution ${per(whole.statementsMs)} ms`} (${requests} requests); publish jobs drained in ${drainS.toFixed(0)} s`,
  );
  console.log(`  ${answersBetween(answersBefore, answersAfter)}`);
  // What the machine and the server did meanwhile: a stall shows as slow calls of every kind at the same moment.
  console.log(`  the slowest calls: ${stats.slowest(8, start)}`);
  const loop = eventLoopDelay(metricsAfter);
  console.log(
    `  the machine over the morning: ${ticksBefore && ticksAfter ? sharesText(machineShares(ticksBefore, ticksAfter)) : 'not read'}; event-loop delay of the process that answered the metrics: max ${loop.maxMs.toFixed(0)} ms, p99 ${loop.p99Ms.toFixed(0)} ms (since its previous scrape)`,
  );

  // 2. Saturation: the same rounds without pauses.
  const sat = new Stats();
  const satAnswersBefore = await answerCounts();
  const satStart = performance.now();
  if (o.saturationSeconds > 0) await players.play(sat, () => satStart + o.saturationSeconds * 1000, false);
  const satSeconds = Math.max(0.001, (performance.now() - satStart) / 1000);
  const satAnswersAfter = await answerCounts();
  await drain();
  const satRows = MORNING_CALLS.map((c) => sat.summary(c, satSeconds)).filter((r) => r.count || r.errors);
  if (o.saturationSeconds > 0) {
    printTable(`WORKERS=${o.workers}, mixed morning without pauses (${satSeconds.toFixed(0)} s)`, satRows);
    console.log(`  ${answersBetween(satAnswersBefore, satAnswersAfter)}`);
  }
  for (const [call, list] of sat.errors) console.log(`  errors of ${call} (${list.length}), first: ${list[0]}`);

  // 3. What each kind of call costs, one at a time.
  const rest = await machineAtRest(3000);
  if (rest)
    console.log(
      `\nWORKERS=${o.workers}: the machine before the cost calls, 3 s with none in flight: ${sharesText(rest)}` +
        `${rest.top.length ? `; ${rest.top.map((t) => `${t.name} ${t.msPerS.toFixed(0)} ms/s`).join(', ')}` : ''}`,
    );
  const costs: Record<string, MorningCost> = {};
  const firstCosts: Record<string, MorningCost> = {};
  const p = planners.find((x) => x.role === 'SUBMITTER')!;
  const costStats = new Stats();
  /**
   * `calls` calls of a kind measured right away (`firstCosts`: the server's first calls of that kind one at a time, printed
   * for comparison), then more of them unmeasured up to `o.costWarmup` calls in all, then `calls` measured again (`costs`,
   * the figures judged): a call's cost in a server that has run many of them (docs/performance.md, "A call's cost after
   * warm-up"). `between` runs before each call and `after` after it, outside the measure.
   */
  const cost = async (kind: string, calls: number, each: (i: number) => Promise<number | undefined>, between?: (i: number) => Promise<unknown>, after?: (i: number) => Promise<unknown>) => {
    firstCosts[kind] = await measureCalls(kind, 0, calls, each, between, after, false);
    for (let i = calls; i < o.costWarmup; i++) {
      if (between) await between(i);
      await each(i);
      if (after) await after(i);
    }
    costs[kind] = await measureCalls(kind, Math.max(calls, o.costWarmup), calls, each, between, after, true);
  };
  const measureCalls = async (
    kind: string,
    from: number,
    calls: number,
    each: (i: number) => Promise<number | undefined>,
    between: ((i: number) => Promise<unknown>) | undefined,
    after: ((i: number) => Promise<unknown>) | undefined,
    judged: boolean,
  ): Promise<MorningCost> => {
    const walls: number[] = [];
    let spent = { serverMs: 0, postgresMs: 0 as number | null, statementsMs: 0 as number | null, faults: 0, serverFaults: 0, newBackends: 0 };
    const breakdown = judged && process.env.BENCH_COST_STATEMENTS === '1';
    if (breakdown) await client.query('SELECT pg_stat_statements_reset()');
    const byProcess = judged && process.env.BENCH_COST_PROCESSES === '1' ? new Map<string, number>() : null;
    for (let i = from; i < from + calls; i++) {
      if (between) await between(i);
      const a = await cpuSnapshot(serverPid, client, dbName);
      const ms = await each(i);
      const b = await cpuSnapshot(serverPid, client, dbName);
      if (after) await after(i);
      if (ms !== undefined) walls.push(ms);
      const d = cpuBetween(a, b);
      if (byProcess) for (const [name, ms] of perProcess(a, b)) byProcess.set(name, (byProcess.get(name) ?? 0) + ms);
      spent = {
        serverMs: spent.serverMs + d.serverMs,
        postgresMs: spent.postgresMs === null || d.postgresMs === null ? null : spent.postgresMs + d.postgresMs,
        statementsMs: spent.statementsMs === null || d.statementsMs === null ? null : spent.statementsMs + d.statementsMs,
        faults: spent.faults + d.faults,
        serverFaults: spent.serverFaults + d.serverFaults,
        newBackends: spent.newBackends + d.newBackends,
      };
    }
    walls.sort((x, y) => x - y);
    const n = Math.max(1, walls.length);
    const c: MorningCost = {
      calls: walls.length,
      wallP50: walls.length ? percentile(walls, 50) : NaN,
      serverMs: spent.serverMs / n,
      postgresMs: spent.postgresMs === null ? null : spent.postgresMs / n,
      statementsMs: spent.statementsMs === null ? null : spent.statementsMs / n,
      totalMs: (spent.serverMs + (spent.postgresMs ?? 0)) / n,
      faults: spent.faults / n,
      serverFaults: spent.serverFaults / n,
      newBackends: spent.newBackends,
    };
    if (breakdown) await printStatements(client, kind, walls.length);
    if (byProcess)
      console.log(
        `  ${kind}, CPU per call by process: ${[...byProcess]
          .filter(([, ms]) => ms > 0)
          .sort((x, y) => y[1] - x[1])
          .map(([name, ms]) => `${name} ${(ms / n).toFixed(2)}`)
          .join(', ')}`,
      );
    return c;
  };
  const scopes = combos.filter((c) => WRITE_BRANDS.includes(c.brand));
  const searchOf = (i: number) => async () =>
    (await measured(costStats, 'search', p, 'POST', '/api/module/filtered', { monthId: [scopes[i % scopes.length]!.monthId], brand: [scopes[i % scopes.length]!.brand] }))?.ms;
  // A month + brand search computed whole: its month's row touched (no change) from this script's own connection first
  // (the script's backend is not counted), which changes every answer of that month.
  await cost('search (computed)', o.costCalls, (i) => searchOf(i)(), (i) => client.query(`UPDATE months SET open = open WHERE month_id = $1`, [scopes[i % scopes.length]!.monthId]));
  // The same search after one module of that month and brand changed (as by another planner's save): the kept answer is
  // refreshed, only that module read again. Each scope asked 2 × WORKERS times first, so that every server process
  // has an answer to refresh (a process's first search of a scope computes it whole: that is the row above).
  for (let i = 0; i < scopes.length * 2 * o.workers; i++) await searchOf(i)();
  await cost('search (1 changed)', o.costCalls, (i) => searchOf(i)(), async (i) => {
    await client.query(`UPDATE modules SET updated_at = updated_at WHERE id = (SELECT id FROM modules WHERE month_id = $1 AND brand_code = $2 AND deletion_status IS NULL LIMIT 1)`, [
      scopes[i % scopes.length]!.monthId,
      scopes[i % scopes.length]!.brand,
    ]);
  });
  const keptScope = scopes[0]!;
  await measured(costStats, 'search', p, 'POST', '/api/module/filtered', { monthId: [keptScope.monthId], brand: [keptScope.brand] });
  await cost('search (kept)', o.costCalls, async () => (await measured(costStats, 'search', p, 'POST', '/api/module/filtered', { monthId: [keptScope.monthId], brand: [keptScope.brand] }))?.ms);
  // Each open is left again after its measure (unlock, not counted), so that the workset's modules can be opened again.
  await cost(
    'module open',
    Math.min(o.costCalls, p.workset.length),
    async (i) => {
      const key = p.workset[i % p.workset.length]!;
      const t = performance.now();
      const lock = await measured(costStats, 'lock', p, 'POST', '/api/module/lock', [key]);
      if (!lock || !(JSON.parse(lock.text) as { acquired: boolean }[])[0]?.acquired) return undefined;
      const loaded = await measured(costStats, 'modules', p, 'POST', '/api/module/modules', { moduleDtoList: [key] });
      return loaded ? performance.now() - t : undefined;
    },
    undefined,
    (i) => measured(costStats, 'unlock', p, 'POST', '/api/module/unlock', [p.workset[i % p.workset.length]!]),
  );
  const key = p.workset[0]!;
  const lock = await measured(costStats, 'lock', p, 'POST', '/api/module/lock', [key]);
  const loaded = lock ? await measured(costStats, 'modules', p, 'POST', '/api/module/modules', { moduleDtoList: [key] }) : undefined;
  const module = loaded ? (JSON.parse(loaded.text) as WorkingModule[])[0] : undefined;
  if (module) {
    const lines = module.productDtoList.map((l) => ({ upc: l.upc, mustHave: l.mustHave, moduleCompositionStatus: l.moduleCompositionStatus, previousStatus: l.previousStatus, minValue: l.minValue }));
    const active = lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED');
    let version = module.version;
    // An even number of saves in each part and in the warm-up: the module ends as it was.
    await cost('save', o.costCalls + (o.costCalls % 2), async (i) => {
      if (active.length) active[0]!.mustHave = !active[0]!.mustHave;
      void i;
      const saved = await measured(costStats, 'save', p, 'POST', '/api/module/save', { ...key, productDtoList: lines, version });
      if (!saved) return undefined;
      version = (JSON.parse(saved.text) as { version: number }).version;
      return saved.ms;
    });
    console.log(`  (the saved module has ${lines.length} lines)`);
  }
  await measured(costStats, 'unlock', p, 'POST', '/api/module/unlock', [key]);
  for (const [call, list] of costStats.errors) console.log(`  errors of the cost calls, ${call} (${list.length}), first: ${list[0]}`);
  const fmt = (n: number | null) => (n === null ? '?' : n.toFixed(2));
  const printCosts = (title: string, list: Record<string, MorningCost>) => {
    console.log(
      `\nWORKERS=${o.workers}, CPU per call, one call at a time, ${title} (server processes + the PostgreSQL backends serving them; /proc, ${exactCpu ? 'their threads\' run time in ns' : `${TICK_MS} ms ticks`}; faults: their page faults per call, of which the server's` +
        `; backends opened during the calls: ${Object.values(list).reduce((n, c) => n + c.newBackends, 0)})`,
    );
    console.log(`  ${'call'.padEnd(18)}  ${'calls'.padStart(5)}  ${'wall p50'.padStart(8)}  ${'server'.padStart(7)}  ${'PostgreSQL'.padStart(10)}  ${'in all'.padStart(7)}  ${'faults (server)'.padStart(15)}  pg_stat_statements`);
    for (const [kind, c] of Object.entries(list)) {
      console.log(
        `  ${kind.padEnd(18)}  ${String(c.calls).padStart(5)}  ${c.wallP50.toFixed(1).padStart(8)}  ${fmt(c.serverMs).padStart(7)}  ${fmt(c.postgresMs).padStart(10)}  ${fmt(c.totalMs).padStart(7)}  ${`${c.faults.toFixed(0)} (${c.serverFaults.toFixed(0)})`.padStart(15)}  ${c.statementsMs === null ? 'not installed' : `${fmt(c.statementsMs)} ms`}`,
      );
    }
  };
  printCosts(`the first ${o.costCalls} of each kind after the morning (for comparison)`, firstCosts);
  printCosts(`after ${Math.max(o.costCalls, o.costWarmup)} of each kind (judged)`, costs);

  const get = (list: Summary[], call: string) => list.find((r) => r.call === call);
  const satSearch = get(satRows, 'search');
  return {
    seconds,
    calls: Object.fromEntries(rows.map((r) => [r.call, r])),
    errors: stats.errorCount(),
    searchP95: get(rows, 'search')?.p95 ?? NaN,
    saveP95: get(rows, 'save')?.p95 ?? NaN,
    openP95: get(rows, 'module open')?.p95 ?? NaN,
    cpuPerRequest: {
      requests,
      serverMs: whole.serverMs / Math.max(1, requests),
      postgresMs: whole.postgresMs === null ? null : whole.postgresMs / Math.max(1, requests),
      statementsMs: whole.statementsMs === null ? null : whole.statementsMs / Math.max(1, requests),
    },
    saturation: {
      seconds: satSeconds,
      searchesPerS: satSearch?.perSecond ?? 0,
      opensPerS: get(satRows, 'module open')?.perSecond ?? 0,
      savesPerS: get(satRows, 'save')?.perSecond ?? 0,
      searchP95: satSearch?.p95 ?? NaN,
      saveP95: get(satRows, 'save')?.p95 ?? NaN,
      errors: sat.errorCount(),
    },
    costs,
    firstCosts,
    answers: {
      morning: searchAnswersMoved(answersBefore, answersAfter),
      saturation: searchAnswersMoved(satAnswersBefore, satAnswersAfter),
    },
  };
}
