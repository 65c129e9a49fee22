import type { UserInfo } from '@bo/shared/auth';
import type { Grant } from '@bo/shared/grants';
import { discardEarlyCalls } from './early-calls';
import { queryClient } from './query-client';
import { createStore, useStore } from './store';

/**
 * The browser session (spec part 1 §4 "Session", §9):
 * - the token is kept in memory and sent as `Authorization: Bearer`; the server also sets it as the
 *   HttpOnly cookie `bo_token` at login, so that plain <img> requests for SKU pictures and downloads
 *   are authenticated too. No script here reads or writes that cookie;
 * - only the authenticated user is persisted (localStorage `bo_session`), at most once per second,
 *   and restored on load only when saved less than 6 hours earlier: the token then comes back from
 *   GET /api/authorization/session, which the cookie authenticates (features/auth/restore-session.ts);
 * - a timer logs out when the token expires;
 * - logging out first lets the open pages release what they hold (`onLogout`: the editors' locks, with a
 *   keepalive unlock) and asks the server to end the session (POST /api/authorization/logout, with the
 *   token still attached: the server releases every lock of the user and clears the cookie), then
 *   clears user, grants, storage, the per-tab state of the screens (every `bo.` key of sessionStorage
 *   and localStorage: the next user of the tab starts with empty home filters) and cached server data;
 *   the route guard then sends the browser to /login.
 */

export const SESSION_STORAGE_KEY = 'bo_session';
export const SESSION_MAX_AGE_MS = 6 * 60 * 60 * 1000;
export const SAVE_THROTTLE_MS = 1000;

export type SessionStatus = 'anonymous' | 'restoring' | 'authenticated';
export type LogoutReason = 'user' | 'expired' | 'unauthorized';

export interface SessionState {
  status: SessionStatus;
  token: string | null;
  user: UserInfo | null;
  /** Grants from GET /authorization/grant; null until loaded for this session. */
  grants: Grant[] | null;
  /** Why the last session ended, for the login page to explain it. */
  logoutReason: LogoutReason | null;
}

export interface StoredSession {
  user: UserInfo;
  savedAt: number;
}

const anonymous: SessionState = {
  status: 'anonymous',
  token: null,
  user: null,
  grants: null,
  logoutReason: null,
};

export const sessionStore = createStore<SessionState>(anonymous);

export function getSession(): SessionState {
  return sessionStore.get();
}

export function useSession<S>(selector: (state: SessionState) => S): S {
  return useStore(sessionStore, selector);
}

// ---------------------------------------------------------------------------------------------
// Token helpers

/** The payload of a JWT, without verifying it (the server does that); null when unreadable. */
export function decodeTokenPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    return payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** When the token expires (ms since epoch), from its `exp` claim; null when it has none. */
export function tokenExpiresAt(token: string): number | null {
  const exp = decodeTokenPayload(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

export function isStoredSessionFresh(savedAt: unknown, now = Date.now()): boolean {
  return typeof savedAt === 'number' && savedAt <= now && now - savedAt < SESSION_MAX_AGE_MS;
}

// ---------------------------------------------------------------------------------------------
// Server side of the session (the HttpOnly cookie)

export const LOGOUT_URL = '/api/authorization/logout';

/**
 * Fire-and-forget: the server clears the cookie (and learns whose session ended from the token).
 * keepalive lets it finish when the page is going away; a failure changes nothing here, the local
 * session is gone either way.
 */
export function endServerSession(token: string | null): void {
  try {
    void fetch(LOGOUT_URL, {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    }).catch(() => undefined);
  } catch {
    // no fetch (very old browser or a test without one): nothing to tell the server
  }
}

function expiryOf(token: string, expiresInSeconds?: number): number | null {
  return tokenExpiresAt(token) ?? (expiresInSeconds ? Date.now() + expiresInSeconds * 1000 : null);
}

// ---------------------------------------------------------------------------------------------
// Persistence (throttled)

let saveTimer: ReturnType<typeof setTimeout> | null = null;
let lastSavedAt = 0;
let persistedUser: UserInfo | null = null;

function writeStorage(): void {
  const { user } = sessionStore.get();
  try {
    if (user) {
      lastSavedAt = Date.now();
      const stored: StoredSession = { user, savedAt: lastSavedAt };
      localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(stored));
    } else {
      localStorage.removeItem(SESSION_STORAGE_KEY);
    }
  } catch {
    // Storage full or disabled: the session still works, it just will not survive a reload.
  }
}

function scheduleSave(): void {
  if (saveTimer) return;
  const wait = Math.max(0, lastSavedAt + SAVE_THROTTLE_MS - Date.now());
  saveTimer = setTimeout(() => {
    saveTimer = null;
    writeStorage();
  }, wait);
}

function cancelSave(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = null;
}

/** A save still waiting for its throttle window is written before the page goes away. */
function flushPendingSave(): void {
  if (!saveTimer) return;
  cancelSave();
  writeStorage();
}

function readStorage(): StoredSession | null {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredSession> | null;
    if (!parsed || typeof parsed !== 'object' || !parsed.user) return null;
    return { user: parsed.user, savedAt: parsed.savedAt as number };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Expiry timer

// setTimeout fires at once for delays above 2^31-1 ms (about 24.8 days): wait in steps.
const MAX_TIMER_DELAY = 2_147_483_647;
let expiryTimer: ReturnType<typeof setTimeout> | null = null;

function scheduleExpiry(expiresAt: number | null): void {
  if (expiryTimer) clearTimeout(expiryTimer);
  expiryTimer = null;
  if (expiresAt === null) return;
  const delay = expiresAt - Date.now();
  if (delay <= 0) {
    logout('expired');
    return;
  }
  expiryTimer = setTimeout(() => scheduleExpiry(expiresAt), Math.min(delay, MAX_TIMER_DELAY));
}

// ---------------------------------------------------------------------------------------------
// Transitions

/** After a successful login: keep the token (the server has set the cookie), arm the expiry timer, persist the user. */
export function startSession(token: string, user: UserInfo, expiresInSeconds?: number): void {
  sessionStore.set({ status: 'authenticated', token, user, grants: null, logoutReason: null });
  scheduleExpiry(expiryOf(token, expiresInSeconds));
}

/**
 * On load: a stored session younger than 6 hours moves to `restoring` and its user is returned, so
 * that the caller can get the token back from the server (the cookie authenticates that call) and
 * confirm the user — or null, and anything left over is cleared, the cookie included.
 */
export function beginRestore(now = Date.now()): { user: UserInfo } | null {
  const stored = readStorage();
  if (!stored || !isStoredSessionFresh(stored.savedAt, now)) {
    clearPersisted();
    endServerSession(null);
    return null;
  }
  lastSavedAt = stored.savedAt;
  persistedUser = stored.user;
  sessionStore.set({ status: 'restoring', token: null, user: stored.user, grants: null, logoutReason: null });
  return { user: stored.user };
}

/** The server gave the token back and confirmed the user: the session is live again. */
export function completeRestore(token: string, user: UserInfo, expiresInSeconds?: number): void {
  // A logout while the restore was under way wins.
  if (sessionStore.get().status !== 'restoring') return;
  sessionStore.set((s) => ({ ...s, status: 'authenticated', token, user }));
  scheduleExpiry(expiryOf(token, expiresInSeconds));
}

export function setUser(user: UserInfo): void {
  sessionStore.set((s) => (s.token ? { ...s, user } : s));
}

/** The grants, or none yet: one stable empty list, so that memos depending on it do not rerun. */
export const NO_GRANTS: readonly Grant[] = [];

export function setGrants(grants: Grant[] | null): void {
  sessionStore.set((s) => (s.token ? { ...s, grants } : s));
}

function clearPersisted(): void {
  cancelSave();
  try {
    localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // ignore: nothing to clear
  }
  persistedUser = null;
}

// ---------------------------------------------------------------------------------------------
// Logout

type LogoutListener = () => void;
const logoutListeners = new Set<LogoutListener>();

/**
 * Runs `listener` at the start of every logout, while the session's token is still there (the editors
 * release their locks with it). Answers the unsubscribe function.
 */
export function onLogout(listener: LogoutListener): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

/** The prefix of every key the screens keep in the browser's storage (home search, massive-edit selection…). */
export const TAB_STATE_PREFIX = 'bo.';

/** The screens' state belongs to the user who left it: none of it is shown to the next one. */
function clearTabState(): void {
  for (const storage of [globalThis.sessionStorage, globalThis.localStorage]) {
    try {
      if (!storage) continue;
      const keys: string[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key?.startsWith(TAB_STATE_PREFIX)) keys.push(key);
      }
      for (const key of keys) storage.removeItem(key);
    } catch {
      // storage disabled: nothing was kept
    }
  }
}

/**
 * Ends the session. The pages release what they hold and the server is told (it releases the user's
 * locks and clears the cookie) while the token is still valid; then user, grants, storage, the screens'
 * per-tab state, timers and cached server data go.
 */
export function logout(reason: LogoutReason = 'user'): void {
  const { token } = sessionStore.get();
  for (const listener of [...logoutListeners]) {
    try {
      listener();
    } catch {
      // one page failing to clean up does not keep the session alive
    }
  }
  endServerSession(token);
  discardEarlyCalls();
  if (expiryTimer) clearTimeout(expiryTimer);
  expiryTimer = null;
  clearPersisted();
  clearTabState();
  queryClient.clear();
  sessionStore.set({ ...anonymous, logoutReason: reason });
}

// Persist the user whenever it changes (throttled); nothing else is stored.
sessionStore.subscribe(() => {
  const { user, status } = sessionStore.get();
  if (status !== 'authenticated' || user === persistedUser) return;
  persistedUser = user;
  scheduleSave();
});

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushPendingSave);
}
