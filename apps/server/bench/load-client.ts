/**
 * The load benchmark's HTTP client and figures (load.bench.ts, mixed-morning.ts): one keep-alive agent, timed requests,
 * per-call statistics and their table, the planners' pauses.
 */
import http from 'node:http';
import { percentile } from './scratch-database.js';

const REQUEST_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------------
// HTTP: one keep-alive agent, a socket per client at most (clients ≤ 500); the timer covers the whole answer.

export const agent = new http.Agent({ keepAlive: true, maxSockets: 510 });

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

export function request(base: string, method: string, url: string, token?: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
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
// Figures per call

export class Stats {
  readonly times = new Map<string, number[]>();
  readonly errors = new Map<string, string[]>();
  readonly notes = new Map<string, number>();
  add(call: string, ms: number) {
    let list = this.times.get(call);
    if (!list) this.times.set(call, (list = []));
    list.push(ms);
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
/** A planner's pause between two actions, 1–3 s (cut short at the end of the phase). */
export const pause = (until: number) => sleep(Math.max(0, Math.min(1000 + Math.random() * 2000, until - performance.now())));

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

