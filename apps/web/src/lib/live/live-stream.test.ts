import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@bo/shared/live-events';
import { startLiveStream, type LiveStreamStatus } from './live-stream';
import { reconnectDelay, RECONNECT_MAX_MS } from './reconnect-delay';

const TAB = '11111111-1111-4111-8111-111111111111';
const hello = 'event: hello\ndata: {"tabId":"t","presence":[]}\n\n';
const scope = 'event: scope\ndata: {"monthId":"M01_2027","brand":"AUR"}\n\n';

/** A fake server: each connection is a stream the test writes to and ends. */
function fakeServer() {
  const connections: { token: string | null; push: (text: string) => void; end: () => void; signal: AbortSignal }[] = [];
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const signal = init.signal!;
    signal.addEventListener('abort', () => {
      try {
        controller.error(new DOMException('aborted', 'AbortError'));
      } catch {
        // already closed
      }
    });
    connections.push({
      token: (init.headers as Record<string, string>).Authorization ?? null,
      push: (text) => controller.enqueue(new TextEncoder().encode(text)),
      end: () => controller.close(),
      signal,
    });
    return new Response(body, { status: 200 });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, connections, calls: fetch };
}

describe('reconnect delay', () => {
  it('starts fast, doubles, stops at the cap, with ±20 % jitter', () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(500);
    expect(reconnectDelay(1, () => 0.5)).toBe(1000);
    expect(reconnectDelay(3, () => 0.5)).toBe(4000);
    expect(reconnectDelay(20, () => 0.5)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelay(0, () => 0)).toBe(400);
    expect(reconnectDelay(0, () => 1)).toBe(600);
  });
});

describe('live stream', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('sends the token and tab, parses events, and reconnects after the server ends the stream; the second hello says reconnected', async () => {
    const server = fakeServer();
    const events: LiveEvent[] = [];
    const statuses: LiveStreamStatus[] = [];
    let reconnected = 0;
    let token = 'A';
    const stream = startLiveStream({ tabId: TAB, token: () => token, fetch: server.fetch, onEvent: (e) => events.push(e), onStatus: (s) => statuses.push(s), onReconnected: () => reconnected++, delay: () => 1000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls.mock.calls[0]![0]).toBe(`/api/events?tab=${TAB}`);
    expect(server.connections[0]!.token).toBe('Bearer A');
    server.connections[0]!.push(hello + scope);
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map((e) => e.type)).toEqual(['hello', 'scope']);
    expect(reconnected).toBe(0);

    token = 'B'; // refreshed meanwhile: the next connection uses it
    server.connections[0]!.end();
    await vi.advanceTimersByTimeAsync(999);
    expect(server.connections).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.connections).toHaveLength(2);
    expect(server.connections[1]!.token).toBe('Bearer B');
    server.connections[1]!.push(hello);
    await vi.advanceTimersByTimeAsync(0);
    expect(reconnected).toBe(1);
    expect(statuses).toContain('waiting');
    stream.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toBe('stopped');
  });

  it('waits longer after each failed attempt, and starts again from the shortest wait once a stream worked', async () => {
    const delays: number[] = [];
    let fail = true;
    const server = fakeServer();
    const fetch = vi.fn(async (url: string, init: RequestInit) => (fail ? new Response('no', { status: 503 }) : server.fetch(url, init)));
    const stream = startLiveStream({ tabId: TAB, token: () => 'A', fetch: fetch as unknown as typeof globalThis.fetch, onEvent: () => undefined, delay: (n) => (delays.push(n), 10) });
    await vi.advanceTimersByTimeAsync(35);
    expect(delays.slice(0, 3)).toEqual([0, 1, 2]);
    fail = false;
    await vi.advanceTimersByTimeAsync(10);
    const open = server.connections.at(-1)!;
    open.push(hello);
    await vi.advanceTimersByTimeAsync(0);
    open.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(delays.at(-1)).toBe(0);
    stream.stop();
  });

  it('drops a silent connection (no ping) and connects again', async () => {
    const server = fakeServer();
    const stream = startLiveStream({ tabId: TAB, token: () => 'A', fetch: server.fetch, onEvent: () => undefined, silenceMs: 5000, delay: () => 100 });
    await vi.advanceTimersByTimeAsync(0);
    server.connections[0]!.push(hello);
    await vi.advanceTimersByTimeAsync(4000);
    server.connections[0]!.push(': ping\n\n');
    await vi.advanceTimersByTimeAsync(4000);
    expect(server.connections[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1100);
    expect(server.connections[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(server.connections).toHaveLength(2);
    stream.stop();
  });

  it('restart drops the connection and connects at once; stop ends it for good', async () => {
    const server = fakeServer();
    const stream = startLiveStream({ tabId: TAB, token: () => 'A', fetch: server.fetch, onEvent: () => undefined, delay: () => 60_000 });
    await vi.advanceTimersByTimeAsync(0);
    stream.restart();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.connections).toHaveLength(2);
    expect(server.connections[0]!.signal.aborted).toBe(true);
    stream.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.connections).toHaveLength(2);
    expect(server.connections[1]!.signal.aborted).toBe(true);
  });

  it('does not connect without a token', async () => {
    const server = fakeServer();
    const stream = startLiveStream({ tabId: TAB, token: () => null, fetch: server.fetch, onEvent: () => undefined, delay: () => 1000 });
    await vi.advanceTimersByTimeAsync(3000);
    expect(server.calls).not.toHaveBeenCalled();
    stream.stop();
  });
});
