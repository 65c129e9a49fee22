/**
 * The load benchmark's HTTP client and figures (load.bench.ts, mixed-morning.ts): keep-alive agents, timed requests,
 * per-call statistics and their table, the planners' pauses.
 */
import http from 'node:http';
import { percentile } from './scratch-database.js';

const REQUEST_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------------
// HTTP: keep-alive agents; the timer covers the whole answer.

/** The agent of the benchmark's own calls and of the load phase's clients: a socket per client at most (clients ≤ 500). */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 510 });

/** Sockets a browser opens to one host at most. */
const BROWSER_SOCKETS = 6;
const browsers: http.Agent[] = [];

/**
 * The connections of one planner's browser (the mixed morning's planners): its calls go over sockets of its own, so
 * a server of several processes gets the planners spread as the cluster hands out their connections. Through the
 * one shared agent, which reuses the socket freed last, about 5 calls in 6 went to one process (docs/performance.md
 * "The planners' own connections").
 */
export function browserAgent(): http.Agent {
  const browser = new http.Agent({ keepAlive: true, maxSockets: BROWSER_SOCKETS });
  browsers.push(browser);
  return browser;
}

/** Closes every agent's sockets (the end of a benchmark). */
export function closeAgents(): void {
  agent.destroy();
  for (const browser of browsers.splice(0)) browser.destroy();
}

export interface Answer {
  status: number;
  ms: number;
  /** The body as text, decoded when first read (a search answer is ~1 MB the saturation phase never reads). */
  readonly text: string;
  /** The body's bytes (joined when first read). */
  readonly bytes: Buffer;
}

function answerOf(status: number, ms: number, chunks: Buffer[]): Answer {
  let text: string | undefined;
  let bytes: Buffer | undefined;
  return {
    status,
    ms,
    get bytes() {
      return (bytes ??= Buffer.concat(chunks));
    },
    get text() {
      return (text ??= this.bytes.toString('utf8'));
    },
  };
}

export function request(base: string, method: string, url: string, token?: string, body?: unknown, via: http.Agent = agent): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers, agent: via, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(answerOf(res.statusCode ?? 0, performance.now() - started, chunks)));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer in ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

// ---------------------------------------------------------------------------------------------------
// The server's search answers by source (`bo_search_answers` of /api/metrics: kept, refreshed item by item, computed
// whole), as counted by the process that answered the scrape (one of WORKERS): NaN when the text has no such line.

export interface SearchAnswers {
  kept: number;
  refreshed: number;
  computed: number;
}

export function searchAnswersOf(metricsText: string): SearchAnswers {
  const count = (source: string) => Number(metricsText.match(new RegExp(`^bo_search_answers\\{source="${source}"\\} (\\d+)`, 'm'))?.[1] ?? NaN);
  return { kept: count('kept'), refreshed: count('refreshed'), computed: count('computed') };
}

/** The answers given between two scrapes (`a` before `b`). */
export const searchAnswersMoved = (a: SearchAnswers, b: SearchAnswers): SearchAnswers => ({
  kept: b.kept - a.kept,
  refreshed: b.refreshed - a.refreshed,
  computed: b.computed - a.computed,
});

// ---------------------------------------------------------------------------------------------------
// Figures per call

export class Stats {
  readonly times = new Map<string, number[]>();
  /** Every call as it ended (performance.now()), with its time: when the slowest ones happened. */
  readonly ended: { call: string; ms: number; at: number }[] = [];
  readonly errors = new Map<string, string[]>();
  readonly notes = new Map<string, number>();
  add(call: string, ms: number) {
    let list = this.times.get(call);
    if (!list) this.times.set(call, (list = []));
    list.push(ms);
    this.ended.push({ call, ms, at: performance.now() });
  }
  /** The `n` slowest calls, each with when it started, in seconds from `since` (a performance.now()). */
  slowest(n: number, since: number): string {
    return [...this.ended]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, n)
      .map((c) => `${c.call} ${c.ms.toFixed(0)} ms at ${((c.at - c.ms - since) / 1000).toFixed(1)} s`)
      .join(', ');
  }
  error(call: string, what: string) {
    let list = this.errors.get(call);
    if (!list) this.errors.set(call, (list = []));
    list.push(what);
  }
  note(what: string) {
    this.notes.set(what, (this.notes.get(what) ?? 0) + 1);
  }
  errorCount() {
    return [...this.errors.values()].reduce((n, l) => n + l.length, 0);
  }
  summary(call: string, elapsedS: number) {
    const t = [...(this.times.get(call) ?? [])].sort((a, b) => a - b);
    const p = (q: number) => (t.length ? percentile(t, q) : NaN);
    return { call, count: t.length, errors: this.errors.get(call)?.length ?? 0, perSecond: t.length / elapsedS, p50: p(50), p95: p(95), p99: p(99), max: t.at(-1) ?? NaN };
  }
}

/** Figures of a whole phase that also go to its current window (`window`, replaced by the phase as its windows start). */
export class WindowedStats extends Stats {
  window = new Stats();
  override add(call: string, ms: number) {
    super.add(call, ms);
    this.window.add(call, ms);
  }
  override error(call: string, what: string) {
    super.error(call, what);
    this.window.error(call, what);
  }
  override note(what: string) {
    super.note(what);
    this.window.note(what);
  }
}

export type Summary = ReturnType<Stats['summary']>;

export const CALLS = ['search', 'lock', 'modules', 'module open', 'save', 'checkForPublish', 'publish', 'unlock'];

export function printTable(title: string, rows: Summary[]) {
  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
  const table = [
    ['call', 'count', 'errors', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
    ...rows.map((r) => [r.call, String(r.count), String(r.errors), r.perSecond.toFixed(1), fmt(r.p50), fmt(r.p95), fmt(r.p99), fmt(r.max)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  console.log(`\n${title}`);
  for (const r of table) console.log('  ' + r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  '));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * A planner's pause between two actions: 1–3 s, none once `until` has passed. Never cut short at `until`: every
 * planner would then wake at that instant and send its next call at once, a burst of up to 50 calls that the
 * phase's last figures counted (docs/performance.md, "A call's cost after warm-up": the morning's "stall"). The
 * caller checks `until` after it and makes no more calls but leaving a module (visitModule).
 */
export const pause = (until: number) => sleep(performance.now() >= until ? 0 : 1000 + Math.random() * 2000);

export interface Line {
  upc: string;
  mustHave: boolean;
  moduleCompositionStatus: string;
  previousStatus: string | null;
  minValue: number;
}
export interface WorkingModule {
  moduleName: string;
  monthId: string;
  version: number;
  productDtoList: Line[];
}


/** A planner as a module visit needs it: its token and its share of modules, visited in turn. */
export interface Visitor {
  token: string;
  workset: { moduleName: string; monthId: string }[];
  next: number;
  visits: number;
}

/** A call measured under `call` for planner `p`: an unexpected status or a failure is an error, answered undefined. */
export type Measured<P> = (s: Stats, call: string, p: P, method: string, url: string, body?: unknown) => Promise<Answer | undefined>;

/** Every how many visits a planner who may publish checks and publishes the module it saved. */
export const PUBLISH_EVERY = 3;

/**
 * One visit of a planner to one of its modules, as the module page makes it: lock, then the module (the two
 * counted together as 'module open'), a real composition change (MH ↔ EL of one active SKU, toggled back on a
 * later visit) saved, every PUBLISH_EVERY-th visit checked and published when `mayPublish` and nothing blocks,
 * then unlocked (leaving the page). `wait` is the pause between actions. False when the lock was refused (someone
 * else holds it, or it is no longer editable): nothing else was sent.
 */
export async function visitModule<P extends Visitor>(
  measured: Measured<P>,
  s: Stats,
  p: P,
  o: { wait: () => Promise<unknown>; mayPublish: boolean; publishJobs: number[]; until?: () => number },
): Promise<boolean> {
  /** Past the phase's end (`until`), the visit makes no more calls but leaving the module. */
  const going = () => !o.until || performance.now() < o.until();
  const key = p.workset[p.next++ % p.workset.length]!;
  const opened = performance.now();
  const lock = await measured(s, 'lock', p, 'POST', '/api/module/lock', [key]);
  if (!lock) return false;
  const lockAnswer = JSON.parse(lock.text) as { acquired: boolean; userLock: string | null }[];
  if (!lockAnswer[0]?.acquired) {
    s.note(`lock refused (${lockAnswer[0]?.userLock ?? 'not editable'})`);
    return false;
  }
  const loaded = await measured(s, 'modules', p, 'POST', '/api/module/modules', { moduleDtoList: [key] });
  if (loaded) s.add('module open', performance.now() - opened);
  const module = loaded ? (JSON.parse(loaded.text) as WorkingModule[])[0] : undefined;
  await o.wait();
  if (module && going()) {
    const lines = module.productDtoList.map((l) => ({ upc: l.upc, mustHave: l.mustHave, moduleCompositionStatus: l.moduleCompositionStatus, previousStatus: l.previousStatus, minValue: l.minValue }));
    const active = lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED');
    if (active.length) {
      const line = active[p.visits % active.length]!;
      line.mustHave = !line.mustHave;
    }
    p.visits++;
    const saved = await measured(s, 'save', p, 'POST', '/api/module/save', { moduleName: key.moduleName, monthId: key.monthId, productDtoList: lines, version: module.version });
    if (saved && o.mayPublish && p.visits % PUBLISH_EVERY === 0) {
      await o.wait();
      if (!going()) return leave();
      const checked = await measured(s, 'checkForPublish', p, 'POST', '/api/module/checkForPublish', [key]);
      const blocking = checked ? (JSON.parse(checked.text) as { blocking: unknown[] }).blocking : [null];
      if (blocking.length === 0) {
        if (!going()) return leave();
        const version = (JSON.parse(saved.text) as { version: number }).version;
        const published = await measured(s, 'publish', p, 'POST', '/api/module/publish', { ...key, version });
        if (published) o.publishJobs.push((JSON.parse(published.text) as { jobId: number }).jobId);
      } else if (checked) s.note('publish blocked by the checks (not sent)');
    }
  }
  return leave();
  async function leave() {
    await measured(s, 'unlock', p, 'POST', '/api/module/unlock', [key]);
    return true;
  }
}
