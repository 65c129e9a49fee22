import { LIVE_EVENTS_PATH, LIVE_HEARTBEAT_SECONDS, type LiveEvent } from '@bo/shared/live-events';
import { toLiveEvent } from './live-event';
import { reconnectDelay } from './reconnect-delay';
import { createSseReader } from './sse-frames';

export type LiveStreamStatus = 'connecting' | 'open' | 'waiting' | 'stopped';

export interface LiveStreamOptions {
  tabId: string;
  /** The session's current token, read at every (re)connection: a refreshed token is used by the next one. */
  token: () => string | null;
  onEvent: (event: LiveEvent) => void;
  onStatus?: (status: LiveStreamStatus) => void;
  /**
   * The stream is back after it was lost: events sent meanwhile were missed, so what the screens show may be
   * stale (they refetch). Not called for the first connection.
   */
  onReconnected?: () => void;
  /** No byte for this long (the server pings every LIVE_HEARTBEAT_SECONDS): the connection is dead, reconnect. */
  silenceMs?: number;
  fetch?: typeof fetch;
  delay?: (attempt: number) => number;
}

export interface LiveStream {
  /** Ends the stream for good (logout, the layout unmounts). */
  stop(): void;
  /** Drops the current connection and connects again at once (a new token). */
  restart(): void;
}

/**
 * One live event stream (GET /api/events?tab=…), read with fetch streaming since EventSource cannot send the
 * `Authorization: Bearer` header. It reconnects by itself, with growing waits (reconnect-delay.ts), after a
 * server restart, a network cut, a silent dead connection (no ping within `silenceMs`) or a refused token
 * (401: the session's own calls end the session if the token really is gone; the stream only waits).
 */
export function startLiveStream(options: LiveStreamOptions): LiveStream {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const delay = options.delay ?? ((attempt: number) => reconnectDelay(attempt));
  const silenceMs = options.silenceMs ?? LIVE_HEARTBEAT_SECONDS * 1000 * 2.5;
  let stopped = false;
  let attempt = 0;
  let everOpened = false;
  let controller: AbortController | null = null;
  let wake: (() => void) | null = null;
  /** restart() asked for a new connection without the wait. */
  let now = false;

  const status = (s: LiveStreamStatus) => options.onStatus?.(s);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });

  /** One connection, until it ends; true when it delivered its hello (it was a working stream). */
  const connect = async (): Promise<boolean> => {
    const token = options.token();
    if (!token) return false;
    controller = new AbortController();
    const abort = controller;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(silence);
      silence = setTimeout(() => abort.abort(), silenceMs);
    };
    let opened = false;
    try {
      alive();
      const response = await doFetch(`${LIVE_EVENTS_PATH}?tab=${encodeURIComponent(options.tabId)}`, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
        cache: 'no-store',
        signal: abort.signal,
      });
      if (!response.ok || !response.body) return false;
      const reader = response.body.getReader();
      const sse = createSseReader(alive);
      for (;;) {
        const { done, value } = await reader.read();
        if (done || stopped) break;
        alive();
        for (const frame of sse.push(value)) {
          const outcome = toLiveEvent(frame);
          if (!outcome.ok) {
            if (outcome.reason !== 'unknownType') console.warn(`Live event '${outcome.type}' left out: ${outcome.reason}`);
            continue;
          }
          if (outcome.event.type === 'hello' && !opened) {
            opened = true;
            attempt = 0;
            status('open');
            if (everOpened) options.onReconnected?.();
            everOpened = true;
          }
          options.onEvent(outcome.event);
        }
      }
    } catch {
      // network cut, abort (silence, restart, stop): the loop decides what comes next
    } finally {
      clearTimeout(silence);
      abort.abort();
      if (controller === abort) controller = null;
    }
    return opened;
  };

  void (async () => {
    while (!stopped) {
      status('connecting');
      const worked = await connect();
      if (stopped) break;
      if (now) {
        now = false;
        continue;
      }
      status('waiting');
      await sleep(delay(worked ? 0 : attempt++));
    }
    status('stopped');
  })();

  return {
    stop() {
      stopped = true;
      controller?.abort();
      wake?.();
    },
    restart() {
      attempt = 0;
      now = !wake;
      controller?.abort();
      wake?.();
    },
  };
}
