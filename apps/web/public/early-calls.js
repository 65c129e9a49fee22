// @ts-check
/**
 * Early calls (docs/web-app.md "Early calls"): a plain script that runs while the app's code is still
 * loading and starts the calls its first screen will make, so that they overlap the download instead
 * of following it. The CSP forbids inline scripts, hence this file (public/: copied as it is, revalidated
 * on every load). It does nothing unless a stored session is fresh (the same test as
 * lib/session.ts `beginRestore`):
 * - every screen: GET /api/authorization/session and /api/authorization/user (both authenticated by the
 *   session cookie, as features/auth/restore-session.ts sends them), then GET /api/authorization/grant
 *   with the answered token (as features/auth/api/get-grants.ts);
 * - the module page opened with `?moduleName=&monthId=` or `?modules=` (logic/page-params.ts): POST
 *   /api/module/lock and /api/module/modules with the bodies the page would send.
 * Each call waits in `window.__boEarlyCalls` until the API client makes the same call (method, path,
 * body and token equal: lib/early-calls.ts) and takes it, once; any other call goes to the network.
 * Locks taken here and never taken by the page (the app did not get that far) are released when the
 * tab closes, or a minute later.
 */
(function () {
  try {
    const SESSION_MAX_AGE_MS = 6 * 60 * 60 * 1000;
    const raw = localStorage.getItem('bo_session');
    const stored = raw ? JSON.parse(raw) : null;
    const now = Date.now();
    if (!stored || typeof stored !== 'object' || !stored.user || typeof stored.savedAt !== 'number' || stored.savedAt > now || now - stored.savedAt >= SESSION_MAX_AGE_MS) return;

    /** @typedef {{ method: string; path: string; body: string | null; token: Promise<string | null>; response: Promise<Response>; data: Promise<unknown>; release?: () => void }} EarlyCall */
    /** @type {Record<string, EarlyCall>} */
    const calls = {};
    /** @type {Window & { __boEarlyCalls?: Record<string, EarlyCall> }} */ (window).__boEarlyCalls = calls;
    const accept = { Accept: 'application/json' };
    /** @param {string} path */
    const cookieGet = (path) => fetch(`/api${path}`, { method: 'GET', headers: accept });
    /** @param {string} method @param {string} path @param {string | null} body @param {Promise<string | null>} token @param {Promise<Response>} response @returns {EarlyCall} */
    const add = (method, path, body, token, response) => {
      // A successful answer is read and parsed as soon as it arrives, while the app's code may still be
      // loading (the modules of a page are megabytes of JSON); an error answer is left for the API client.
      const data = response.then((r) => (r.ok && r.status !== 204 ? r.text().then((t) => (t ? JSON.parse(t) : undefined)) : undefined));
      const call = { method, path: `/api${path}`, body, token, response, data };
      calls[`${method} /api${path}`] = call;
      // An answer nobody takes must not be reported as an unhandled rejection.
      response.catch(() => undefined);
      data.catch(() => undefined);
      return call;
    };

    const session = add('GET', '/authorization/session', null, Promise.resolve(null), cookieGet('/authorization/session'));
    add('GET', '/authorization/user', null, Promise.resolve(null), cookieGet('/authorization/user'));
    /** The session's token, or a rejection when there is none (the app then logs out; nothing else is sent). */
    const token = session.data.then((s) => {
      if (!s || typeof s !== 'object' || typeof (/** @type {{ access_token?: unknown }} */ (s).access_token) !== 'string') throw new Error('no session');
      return /** @type {string} */ (/** @type {{ access_token: string }} */ (s).access_token);
    });
    token.catch(() => undefined);
    /** @param {string} method @param {string} path @param {string | null} body */
    const withToken = (method, path, body) =>
      add(
        method,
        path,
        body,
        token,
        token.then((t) => fetch(`/api${path}`, { method, headers: body === null ? { ...accept, Authorization: `Bearer ${t}` } : { ...accept, Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' }, body })),
      );
    withToken('GET', '/authorization/grant', null);

    // The module page (logic/page-params.ts readPageRequest, kind 'modules').
    if (location.pathname.replace(/\/+$/, '') !== '/backoffice/module') return;
    const params = new URLSearchParams(location.search);
    const moduleName = params.get('moduleName');
    const monthId = params.get('monthId');
    const list = params.get('modules');
    /** @type {{ moduleName: string; monthId: string }[]} */
    const keys = [];
    if (list) {
      for (const part of list.split(',')) {
        const [name, month] = part.split('|');
        if (name && month) keys.push({ moduleName: name.trim(), monthId: month.trim() });
      }
    }
    if (moduleName && monthId) keys.unshift({ moduleName, monthId });
    if (keys.length === 0) return;
    const lockBody = JSON.stringify(keys);
    const lock = withToken('POST', '/module/lock', lockBody);
    withToken('POST', '/module/modules', JSON.stringify({ moduleDtoList: keys }));

    let released = false;
    lock.release = () => {
      if (released) return;
      released = true;
      void Promise.all([token, lock.response])
        .then(([t, r]) => {
          if (r.ok) void fetch('/api/module/unlock', { method: 'POST', keepalive: true, headers: { ...accept, Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' }, body: lockBody }).catch(() => undefined);
        })
        .catch(() => undefined);
    };
    const releaseIfLeft = () => {
      if (calls['POST /api/module/lock'] === lock) {
        delete calls['POST /api/module/lock'];
        lock.release?.();
      }
    };
    addEventListener('pagehide', releaseIfLeft);
    setTimeout(releaseIfLeft, 60_000);
  } catch {
    // Storage or fetch unavailable: the app makes every call itself.
  }
})();
