import type { UserInfo } from '@bo/shared/auth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  beginRestore,
  completeRestore,
  decodeTokenPayload,
  getSession,
  isStoredSessionFresh,
  LOGOUT_URL,
  logout,
  onLogout,
  SAVE_THROTTLE_MS,
  SESSION_MAX_AGE_MS,
  SESSION_STORAGE_KEY,
  setGrants,
  setUser,
  startSession,
  tokenExpiresAt,
} from './session';
import { queryClient } from './query-client';

function fakeJwt(payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

describe('token helpers', () => {
  it('reads the payload and the expiry of a JWT', () => {
    const token = fakeJwt({ user_name: 'admin', authorities: ['ADMIN'], exp: 1_900_000_000 });
    expect(decodeTokenPayload(token)).toMatchObject({ user_name: 'admin' });
    expect(tokenExpiresAt(token)).toBe(1_900_000_000_000);
  });

  it('handles base64url characters and non-ASCII names', () => {
    const token = fakeJwt({ user_name: 'Nicolò ~?>>', exp: 1 });
    expect(decodeTokenPayload(token)?.user_name).toBe('Nicolò ~?>>');
  });

  it('gives null for tokens it cannot read', () => {
    expect(decodeTokenPayload('garbage')).toBeNull();
    expect(decodeTokenPayload('a.%%%.c')).toBeNull();
    expect(tokenExpiresAt(fakeJwt({ user_name: 'x' }))).toBeNull();
  });
});

describe('isStoredSessionFresh', () => {
  const now = Date.UTC(2026, 10, 21, 12);
  it('accepts sessions saved less than 6 hours ago', () => {
    expect(isStoredSessionFresh(now, now)).toBe(true);
    expect(isStoredSessionFresh(now - SESSION_MAX_AGE_MS + 1000, now)).toBe(true);
  });
  it('rejects older, future or missing timestamps', () => {
    expect(isStoredSessionFresh(now - SESSION_MAX_AGE_MS, now)).toBe(false);
    expect(isStoredSessionFresh(now + 60_000, now)).toBe(false);
    expect(isStoredSessionFresh(undefined, now)).toBe(false);
    expect(isStoredSessionFresh('yesterday', now)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Transitions: no script reads or writes the session cookie (it is HttpOnly, the server's business);
// the server clears it on logout.

const user: UserInfo = { username: 'admin', email: 'admin@example.com', firstName: 'Ada', lastName: 'Min', roles: [] };

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
}

describe('session transitions', () => {
  const NOW = Date.UTC(2026, 10, 21, 12);
  let storage: ReturnType<typeof memoryStorage>;
  let fetchMock: ReturnType<typeof vi.fn>;

  const logoutCalls = () =>
    fetchMock.mock.calls.filter(([url]) => url === LOGOUT_URL) as unknown as [string, RequestInit][];

  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    const cookieTouched = () => {
      throw new Error('document.cookie must not be used');
    };
    vi.stubGlobal('document', {
      get cookie(): string {
        return cookieTouched();
      },
      set cookie(_value: string) {
        cookieTouched();
      },
    });
  });
  afterEach(() => {
    logout();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts a session with the token in memory, persists the user once the throttle allows, and never touches the cookie', () => {
    const token = fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 });
    startSession(token, user, 3600);
    expect(getSession()).toMatchObject({ status: 'authenticated', token, user });
    vi.advanceTimersByTime(SAVE_THROTTLE_MS);
    expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? 'null')).toMatchObject({ user, savedAt: expect.any(Number) });
    expect(storage.getItem(SESSION_STORAGE_KEY)).not.toContain(token);
    expect(logoutCalls()).toHaveLength(0);
  });

  it('logs out at the token expiry, and asks the server to clear the cookie', () => {
    const token = fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 60 });
    startSession(token, user);
    vi.advanceTimersByTime(59_000);
    expect(getSession().status).toBe('authenticated');
    vi.advanceTimersByTime(2_000);
    expect(getSession()).toMatchObject({ status: 'anonymous', token: null, user: null, logoutReason: 'expired' });
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    const init = logoutCalls()[0]![1];
    expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'same-origin' });
    expect(init.headers).toEqual({ Authorization: `Bearer ${token}` });
  });

  it('logout clears user, grants, storage and the query cache and tells the server (fire-and-forget)', () => {
    fetchMock.mockImplementation(async () => {
      throw new TypeError('Failed to fetch');
    });
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 }), user);
    setGrants([]);
    vi.advanceTimersByTime(SAVE_THROTTLE_MS);
    logout('user');
    expect(getSession()).toMatchObject({ status: 'anonymous', token: null, user: null, grants: null, logoutReason: 'user' });
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(logoutCalls()).toHaveLength(1);
  });

  it('restores a fresh stored session: restoring without a token, then live with the token the server gave back', () => {
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ user, savedAt: NOW - 60_000 }));
    expect(beginRestore(NOW)).toEqual({ user });
    expect(getSession()).toMatchObject({ status: 'restoring', token: null, user });
    expect(logoutCalls()).toHaveLength(0);

    const token = fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 120 });
    const refreshed = { ...user, firstName: 'Ada L.' };
    completeRestore(token, refreshed, 120);
    expect(getSession()).toMatchObject({ status: 'authenticated', token, user: refreshed });
    // The refreshed user is saved again (the 6-hour window counts from this load) …
    vi.advanceTimersByTime(SAVE_THROTTLE_MS);
    expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY)!).user.firstName).toBe('Ada L.');
    // … and the restored token's expiry is armed.
    vi.advanceTimersByTime(120_000);
    expect(getSession().logoutReason).toBe('expired');
  });

  it('does not restore a stale, future or missing stored session, and clears what is left (the cookie through the server)', () => {
    for (const stored of [{ user, savedAt: NOW - SESSION_MAX_AGE_MS }, { user, savedAt: NOW + 60_000 }, null]) {
      fetchMock.mockClear();
      if (stored) storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(stored));
      expect(beginRestore(NOW)).toBeNull();
      expect(getSession().status).toBe('anonymous');
      expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
      const init = logoutCalls()[0]![1];
      expect(init.headers).toEqual({});
    }
  });

  it('a logout during the restore wins over its late confirmation', () => {
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ user, savedAt: NOW - 60_000 }));
    beginRestore(NOW);
    logout('unauthorized');
    completeRestore(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 120 }), user, 120);
    expect(getSession()).toMatchObject({ status: 'anonymous', token: null, logoutReason: 'unauthorized' });
  });
  it('logout empties the query cache, so the next user sees none of the previous data', () => {
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 }), user);
    queryClient.setQueryData(['cluster-editor', 'details', 'C1|M01_2027'], [{ clusterId: 'C1' }]);
    queryClient.setQueryData(['grants'], []);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(2);
    logout('user');
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(queryClient.getQueryData(['cluster-editor', 'details', 'C1|M01_2027'])).toBeUndefined();
  });

  it('logout drops a user save still waiting for its throttle window', () => {
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 }), user);
    logout('user');
    vi.advanceTimersByTime(SAVE_THROTTLE_MS * 2);
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('writes the stored user at most once per throttle window', () => {
    const setItem = vi.spyOn(storage, 'setItem');
    startSession(fakeJwt({ user_name: 'admin' }), user); // no expiry: the only timer is the save
    vi.runOnlyPendingTimers();
    expect(setItem).toHaveBeenCalledTimes(1);
    setUser({ ...user, firstName: 'A' });
    setUser({ ...user, firstName: 'B' });
    vi.advanceTimersByTime(SAVE_THROTTLE_MS - 1);
    expect(setItem).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(setItem).toHaveBeenCalledTimes(2);
    expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY)!).user.firstName).toBe('B');
  });

  it('without an exp claim, the expiry timer uses expires_in', () => {
    startSession(fakeJwt({ user_name: 'admin' }), user, 30);
    vi.advanceTimersByTime(29_000);
    expect(getSession().status).toBe('authenticated');
    vi.advanceTimersByTime(1_000);
    expect(getSession()).toMatchObject({ status: 'anonymous', logoutReason: 'expired' });
  });

  it('a token already expired ends the session at once; one without any expiry arms no timer', () => {
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 - 1 }), user);
    expect(getSession()).toMatchObject({ status: 'anonymous', logoutReason: 'expired' });
    startSession(fakeJwt({ user_name: 'admin' }), user);
    vi.advanceTimersByTime(SESSION_MAX_AGE_MS * 10);
    expect(getSession().status).toBe('authenticated');
  });

  it('waits in steps for an expiry beyond the longest setTimeout delay (about 24.8 days)', () => {
    const days = (n: number) => n * 24 * 60 * 60 * 1000;
    startSession(fakeJwt({ user_name: 'admin', exp: (NOW + days(30)) / 1000 }), user);
    vi.advanceTimersByTime(days(25));
    expect(getSession().status).toBe('authenticated');
    vi.advanceTimersByTime(days(5));
    expect(getSession().logoutReason).toBe('expired');
  });

  it("logout stops the expiry timer: the previous token's expiry does not end the next session", () => {
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 60 }), user);
    logout('user');
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 }), user);
    vi.advanceTimersByTime(120_000);
    expect(getSession().status).toBe('authenticated');
  });

  it('does not restore an unreadable stored session', () => {
    for (const raw of ['{not json', JSON.stringify({ savedAt: NOW - 1000 }), 'null']) {
      storage.setItem(SESSION_STORAGE_KEY, raw);
      expect(beginRestore(NOW)).toBeNull();
      expect(getSession().status).toBe('anonymous');
      expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    }
  });

  it('a restore completes only from the restoring state, and arms the expiry from expires_in without exp', () => {
    completeRestore(fakeJwt({ user_name: 'admin' }), user, 60);
    expect(getSession().status).toBe('anonymous');
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ user, savedAt: NOW - 60_000 }));
    beginRestore(NOW);
    completeRestore(fakeJwt({ user_name: 'admin' }), user, 60);
    expect(getSession().status).toBe('authenticated');
    vi.advanceTimersByTime(60_000);
    expect(getSession().logoutReason).toBe('expired');
  });
});

// ---------------------------------------------------------------------------------------------
// Logout and the next user of the tab (issue 13): the pages release their locks and the server is told
// while the token is still there; the screens' per-tab state does not outlive the user who left it.

function listStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    get length() {
      return items.size;
    },
    key: (i: number) => [...items.keys()][i] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    keys: () => [...items.keys()].sort(),
  };
}

describe('logout and the next user of the tab', () => {
  const NOW = Date.UTC(2026, 10, 21, 12);
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    logout();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("clears the home search and every other screen's `bo.` key, in sessionStorage and localStorage; other keys stay", () => {
    const search = JSON.stringify({ selection: { monthId: 'M01_2027', planningChannel: [], brand: ['AUR'], collection: [], starsZone: [] }, searched: null });
    const tab = listStorage({ 'bo.home.search': search, 'bo.home.massiveEditSelection': '{}', 'other.app': 'x' });
    const local = listStorage({ 'bo.massiveEdit.rows': '[]', 'mantine-color-scheme-value': 'light' });
    vi.stubGlobal('sessionStorage', tab);
    vi.stubGlobal('localStorage', local);
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 }), user);
    logout('user');
    expect(tab.keys()).toEqual(['other.app']);
    expect(local.keys()).toEqual(['mantine-color-scheme-value']);
  });

  it('an expiry logout clears them too', () => {
    const tab = listStorage({ 'bo.home.search': '{}' });
    vi.stubGlobal('sessionStorage', tab);
    vi.stubGlobal('localStorage', listStorage());
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 60 }), user);
    vi.advanceTimersByTime(61_000);
    expect(getSession().logoutReason).toBe('expired');
    expect(tab.keys()).toEqual([]);
  });

  it('runs the pages’ logout listeners and calls the server while the token is still in the session', () => {
    vi.stubGlobal('localStorage', listStorage());
    const token = fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 });
    startSession(token, user);
    const seen: { step: string; token: string | null }[] = [];
    const stop = onLogout(() => seen.push({ step: 'page', token: getSession().token }));
    fetchMock.mockImplementation(async () => {
      seen.push({ step: 'server', token: getSession().token });
      return new Response(null, { status: 204 });
    });
    logout('user');
    stop();
    expect(seen).toEqual([
      { step: 'page', token },
      { step: 'server', token },
    ]);
    expect(getSession().token).toBeNull();
  });

  it('a listener that throws does not keep the session alive; an unsubscribed one is not called', () => {
    vi.stubGlobal('localStorage', listStorage());
    startSession(fakeJwt({ user_name: 'admin', exp: NOW / 1000 + 3600 }), user);
    const late = vi.fn();
    const stopLate = onLogout(late);
    stopLate();
    const stopBroken = onLogout(() => {
      throw new Error('page gone');
    });
    logout('user');
    stopBroken();
    expect(getSession().status).toBe('anonymous');
    expect(late).not.toHaveBeenCalled();
    expect(fetchMock.mock.calls.filter(([url]) => url === LOGOUT_URL)).toHaveLength(1);
  });
});
