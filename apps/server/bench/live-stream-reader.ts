/**
 * The browsers of the live streams benchmark: live-streams.bench.ts starts this file in a process of its own (Node with
 * the tsx loader, `--import tsx`, as export.bench.ts starts its product process) at a lower CPU priority (nice, every
 * thread), so that reading the event streams does not delay the planners' HTTP client, whose answers the bench times, nor
 * the server: browsers are on other machines. It only reads and timestamps; the bench matches the events to the changes.
 *
 * Orders over IPC (one at a time, each answered once; `{ type: 'error', message }` when one fails):
 *  - `{ type: 'open', base, tabs: { user, token }[] }` opens a stream per tab (`GET /api/events?tab=<uuid>`, Bearer,
 *    fetch streaming as the browser reads it, 20 at a time) and waits for every `hello` → `{ type: 'opened', seconds }`;
 *  - `{ type: 'mark' }` forgets the item events read so far and starts timing this process' event loop →
 *    `{ type: 'marked', usage }`;
 *  - `{ type: 'usage' }` → `{ type: 'usage', usage }`;
 *  - `{ type: 'collect' }` → `{ type: 'collected', usage, arrivals, pings, endedEarly, loop }`: the item events read
 *    since the mark, per stream (in the order of `tabs`) as `[at, name, monthId, lockedBy, savedAt]`; the heartbeats
 *    read since the streams were opened (per stream); how many streams the server ended; the event loop's delay
 *    since the mark (p99, max ms);
 *  - `{ type: 'close' }` closes every stream → `{ type: 'closed' }`.
 * `usage` is this process' CPU so far (user + system ms, every thread), the heartbeats read so far (all streams) and its
 * clock when it answered.
 * The arrival time `at` is `performance.timeOrigin + performance.now()` when the chunk holding the frame was read: the
 * machine's clock as the bench reads it (same machine), with sub-millisecond steps. The process ends when the bench
 * disconnects.
 */
import crypto from 'node:crypto';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export type Arrival = [at: number, name: string, monthId: string, lockedBy: string | null, savedAt: string | null];

export type ReaderOrder = { type: 'open'; base: string; tabs: { user: string; token: string }[] } | { type: 'mark' } | { type: 'usage' } | { type: 'collect' } | { type: 'close' };

export interface ReaderUsage {
  cpuMs: number;
  pings: number;
  /** This process' clock when it answered (the bench checks that it falls between its order and the answer). */
  at: number;
}

export type ReaderAnswer =
  | { type: 'ready' }
  | { type: 'opened'; seconds: number }
  | { type: 'marked'; usage: ReaderUsage }
  | { type: 'usage'; usage: ReaderUsage }
  | { type: 'collected'; usage: ReaderUsage; arrivals: Arrival[][]; pings: number[]; endedEarly: number; loop: { p99: number; max: number } }
  | { type: 'closed' }
  | { type: 'error'; message: string };

interface ReadStream {
  abort: AbortController;
  arrivals: Arrival[];
  pings: number;
  closedByUs: boolean;
  endedEarly: boolean;
}

const now = () => performance.timeOrigin + performance.now();
let streams: ReadStream[] = [];
let delay: IntervalHistogram | null = null;

function send(answer: ReaderAnswer) {
  process.send!(answer);
}

const usage = (): ReaderUsage => {
  const u = process.cpuUsage();
  return { cpuMs: (u.user + u.system) / 1000, pings: streams.reduce((n, s) => n + s.pings, 0), at: now() };
};

/** Opens one stream and resolves once its `hello` is read; reads it on until it ends. */
async function openOne(base: string, token: string): Promise<ReadStream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/events?tab=${crypto.randomUUID()}`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    throw new Error(`GET /api/events: ${res.status}`);
  }
  const s: ReadStream = { abort, arrivals: [], pings: 0, closedByUs: false, endedEarly: false };
  let helloRead: () => void = () => {};
  let failed: (e: Error) => void = () => {};
  const hello = new Promise<void>((resolve, reject) => {
    helloRead = resolve;
    failed = reject;
  });
  const timer = setTimeout(() => failed(new Error('no hello within 60 s')), 60_000);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const at = now();
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) {
            s.pings += 1;
            continue;
          }
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type === 'hello') helloRead();
          else if (type === 'item' && data !== undefined) {
            const d = JSON.parse(data) as { name: string; monthId: string; lockedBy: string | null; savedAt: string | null };
            s.arrivals.push([at, d.name, d.monthId, d.lockedBy, d.savedAt]);
          }
        }
      }
    } catch {
      /* aborted by the bench, or cut */
    } finally {
      clearTimeout(timer);
      failed(new Error('the stream ended before its hello'));
      if (!s.closedByUs) s.endedEarly = true;
    }
  })();
  await hello;
  clearTimeout(timer);
  return s;
}

async function open(base: string, tabs: { user: string; token: string }[]): Promise<number> {
  const started = performance.now();
  const opened: ReadStream[] = new Array<ReadStream>(tabs.length);
  let next = 0;
  const opener = async () => {
    while (next < tabs.length) {
      const i = next++;
      try {
        opened[i] = await openOne(base, tabs[i]!.token);
      } catch (error) {
        throw new Error(`stream ${i} of ${tabs[i]!.user}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: 20 }, opener));
  } finally {
    streams = opened.filter(Boolean);
  }
  return (performance.now() - started) / 1000;
}

function close() {
  for (const s of streams) {
    s.closedByUs = true;
    s.abort.abort();
  }
  streams = [];
}

async function handle(order: ReaderOrder): Promise<ReaderAnswer> {
  switch (order.type) {
    case 'open':
      if (streams.length) throw new Error('streams are open already');
      return { type: 'opened', seconds: await open(order.base, order.tabs) };
    case 'mark':
      for (const s of streams) s.arrivals = [];
      delay?.disable();
      delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      return { type: 'marked', usage: usage() };
    case 'usage':
      return { type: 'usage', usage: usage() };
    case 'collect': {
      delay?.disable();
      const loop = delay ? { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 } : { p99: NaN, max: NaN };
      delay = null;
      const arrivals = streams.map((s) => s.arrivals);
      for (const s of streams) s.arrivals = [];
      return { type: 'collected', usage: usage(), arrivals, pings: streams.map((s) => s.pings), endedEarly: streams.filter((s) => s.endedEarly).length, loop };
    }
    case 'close':
      close();
      return { type: 'closed' };
  }
}

if (!process.send) throw new Error('live-stream-reader.ts is started by live-streams.bench.ts (it talks over IPC)');
process.on('message', (order: ReaderOrder) => {
  handle(order).then(send, (error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
});
process.on('disconnect', () => {
  close();
  process.exit(0);
});
send({ type: 'ready' });
