import { PRESENCE_PATH, PRESENCE_RENEW_SECONDS, type LiveEvent, type LiveItemRef, type PresenceMode } from '@bo/shared/live-events';
import { api, buildUrl } from '../api-client';
import { getSession } from '../session';
import { createStore } from '../store';
import { startLiveStream, type LiveStream, type LiveStreamStatus } from './live-stream';
import { applyPresence, EMPTY_PRESENCE, presenceFromSnapshot, presenceKey, type PresenceMap } from './presence-map';

/**
 * The tab's live connection (issue 36; docs/web-app.md "Live"): one event stream per tab while signed in,
 * the presence of everyone the stream reports, and what this tab's pages have open. Like the session, it is
 * a module-level store: one per tab, read by hooks (components/live/).
 */

/** A tab's own id: a new one per page load (a reloaded tab is a new tab to the server). */
export const liveTabId: string = globalThis.crypto?.randomUUID?.() ?? '00000000-0000-4000-8000-000000000000'.replace(/0/g, () => Math.floor(Math.random() * 16).toString(16));

/** Everything the stream says, plus 'reconnected' when it came back after a loss (events may have been missed). */
export type LiveMessage = LiveEvent | { type: 'reconnected'; data: null };

export const presenceStore = createStore<PresenceMap>(EMPTY_PRESENCE);
export const liveStatusStore = createStore<LiveStreamStatus>('stopped');

/** PRESENCE_PATH under the API client's `/api` prefix. */
const PRESENCE = PRESENCE_PATH.replace(/^\/api/, '');

const listeners = new Set<(message: LiveMessage) => void>();

/** Every message of the stream, as it comes; returns the unsubscribe. */
export function onLiveMessage(listener: (message: LiveMessage) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function dispatch(message: LiveMessage): void {
  if (message.type === 'hello') presenceStore.set(presenceFromSnapshot(message.data.presence));
  else if (message.type === 'presence') presenceStore.set((map) => applyPresence(map, message.data));
  for (const listener of [...listeners]) {
    try {
      listener(message);
    } catch (error) {
      console.error('A live event listener failed', error);
    }
  }
  // The server may have lost the tab's presence with the connection (a restart): say it again.
  if (message.type === 'hello') sendPresenceSoon(0);
}

// ─────────────── the stream ───────────────

let stream: LiveStream | null = null;

/** Starts the tab's stream (idempotent); a second call with another token reconnects with it. */
export function startLive(): void {
  if (stream) return;
  stream = startLiveStream({
    tabId: liveTabId,
    token: () => getSession().token,
    onEvent: dispatch,
    onStatus: (s) => liveStatusStore.set(s),
    onReconnected: () => dispatch({ type: 'reconnected', data: null }),
  });
  startRenewal();
}

/** The token changed (a restored or new session): the stream reconnects with it now. */
export function restartLive(): void {
  stream?.restart();
}

/** Logout or the signed-in frame unmounting: the tab says it has nothing open (while the token is still there) and the stream ends. */
export function stopLive(): void {
  withdrawPresence();
  stream?.stop();
  stream = null;
  stopRenewal();
  presenceStore.set(EMPTY_PRESENCE);
  liveStatusStore.set('stopped');
}

// ─────────────── what this tab has open ───────────────

export type OpenItem = LiveItemRef & { mode: PresenceMode };

const reports = new Map<string, readonly OpenItem[]>();
let lastSent = '';
let sendTimer: ReturnType<typeof setTimeout> | null = null;
let renewTimer: ReturnType<typeof setInterval> | null = null;

/** Everything the tab's pages report, one line per item ('editing' wins over 'viewing'). */
export function openItems(): OpenItem[] {
  const byKey = new Map<string, OpenItem>();
  for (const items of reports.values())
    for (const item of items) {
      const key = presenceKey(item);
      const seen = byKey.get(key);
      if (!seen || (item.mode === 'editing' && seen.mode !== 'editing')) byKey.set(key, { kind: item.kind, name: item.name, monthId: item.monthId, mode: item.mode });
    }
  return [...byKey.values()].slice(0, 200);
}

/** A page says what it has open now (an empty list: nothing); `id` is the page's own, so that two parts of a page do not overwrite each other. */
export function reportOpenItems(id: string, items: readonly OpenItem[]): void {
  if (items.length) reports.set(id, items);
  else reports.delete(id);
  sendPresenceSoon(100);
}

function sendPresenceSoon(ms: number): void {
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = setTimeout(() => {
    sendTimer = null;
    void sendPresence(false);
  }, ms);
}

let sending: Promise<void> = Promise.resolve();

/**
 * PUT /api/presence; `renew` sends even when nothing changed (it renews the presence and, for 'editing', the page's lock
 * leases). One PUT at a time, in order, each with what the tab has open when it leaves: two in flight at once could be
 * committed in the other order (another connection, with WORKERS another process) and leave the older list on the server.
 */
function sendPresence(renew: boolean): Promise<void> {
  sending = sending.then(() => putPresence(renew));
  return sending;
}

async function putPresence(renew: boolean): Promise<void> {
  if (!stream || !getSession().token) return;
  const items = openItems();
  const body = JSON.stringify(items);
  if (!renew && body === lastSent) return;
  if (renew && items.length === 0 && lastSent === '[]') return;
  lastSent = body;
  try {
    await api.put(PRESENCE, { tabId: liveTabId, items }, { alertOnError: false });
  } catch {
    lastSent = ''; // sent again at the next change or renewal
  }
}

function startRenewal(): void {
  stopRenewal();
  renewTimer = setInterval(() => void sendPresence(true), PRESENCE_RENEW_SECONDS * 1000);
  window.addEventListener('pagehide', withdrawPresence);
  window.addEventListener('pageshow', onPageShow);
}

function stopRenewal(): void {
  if (renewTimer) clearInterval(renewTimer);
  renewTimer = null;
  if (sendTimer) clearTimeout(sendTimer);
  sendTimer = null;
  window.removeEventListener('pagehide', withdrawPresence);
  window.removeEventListener('pageshow', onPageShow);
}

/** Back from the browser's page cache: the tab was withdrawn on pagehide, report it again. */
function onPageShow(event: PageTransitionEvent): void {
  if (!event.persisted) return;
  lastSent = '';
  sendPresenceSoon(0);
}

/** DELETE /api/presence/:tabId with a keepalive fetch: it outlives a closing tab and carries the Authorization header. */
function withdrawPresence(): void {
  const token = getSession().token;
  if (!token || lastSent === '' || lastSent === '[]') return;
  lastSent = '';
  try {
    void fetch(buildUrl('/api', `${PRESENCE}/${liveTabId}`), {
      method: 'DELETE',
      keepalive: true,
      headers: { Authorization: `Bearer ${token}` },
    }).catch(() => undefined);
  } catch {
    // no fetch: the server's presence lapses by itself
  }
}
