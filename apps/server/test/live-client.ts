/**
 * A live event stream read the way the browser reads it (fetch streaming, `Authorization: Bearer`), for tests against a
 * listening server: every frame kept in order, `next()` waits for one that matches.
 */
import type { LiveEvent, LiveEventType } from '@bo/shared/live-events';

export interface StreamFrame {
  type: LiveEventType;
  data: unknown;
  at: number;
}

export interface TestStream {
  status: number;
  headers: Headers;
  frames: StreamFrame[];
  pings: number;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** The first frame (from `from` on) of `type` that `match` accepts, within `timeoutMs`. */
  next<T extends LiveEventType>(type: T, match?: (data: Extract<LiveEvent, { type: T }>['data']) => boolean, timeoutMs?: number): Promise<Extract<LiveEvent, { type: T }>['data']>;
  close(): void;
}

export async function openStream(baseUrl: string, authorization: string, tab: string): Promise<TestStream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/events?tab=${encodeURIComponent(tab)}`, { headers: { authorization }, signal: abort.signal });
  const frames: StreamFrame[] = [];
  const waiters = new Set<() => void>();
  const stream: TestStream = {
    status: res.status,
    headers: res.headers,
    frames,
    pings: 0,
    ended: Promise.resolve(),
    async next(type, match = () => true, timeoutMs = 2000) {
      const started = Date.now();
      const seen = new Set<StreamFrame>();
      for (;;) {
        const found = frames.find((f) => !seen.has(f) && f.type === type && match(f.data as never));
        if (found) return found.data as never;
        for (const f of frames) seen.add(f);
        const left = timeoutMs - (Date.now() - started);
        if (left <= 0) throw new Error(`no ${type} event within ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => [f.type, f.data]))}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
        });
      }
    },
    close: () => abort.abort(),
  };
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return stream;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) {
            stream.pings += 1;
            continue;
          }
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data !== undefined) frames.push({ type: type as LiveEventType, data: JSON.parse(data), at: Date.now() });
          for (const wake of [...waiters]) wake();
        }
      }
    } catch {
      /* aborted by the test */
    } finally {
      for (const wake of [...waiters]) wake();
    }
  })();
  return stream;
}
