/**
 * Route rights, for EVERY route of /api/openapi.json (a new route is covered the day it is added):
 *
 * 1. Without a valid token every protected route answers 401 `{ error, message }`: no token, garbage,
 *    `alg: none`, a wrong secret, an expired token, the session cookie on a write, and percent-encoded
 *    or otherwise disguised paths. The public routes are listed here: a new one is a conscious decision.
 * 2. As each demo role of contract §4, every write route is called with a valid body on an item of a
 *    small world (route-rights.world.ts) and must answer as route-rights.expectations.ts says: 403 where
 *    the role may not, a success where it may. The world is restored from a snapshot between calls
 *    that change it, so every call meets the same state.
 */
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks, serverSettings } from '../../src/db/schema.js';
import { withJobRunner } from '../cluster-test-app.js';
import { TEST_NOW } from '../deletion-helpers.js';
import { multipartBody } from '../multipart.js';
import { buildTestApp, loginAs } from '../test-app.js';
import { isWrite, listApiRoutes, listServerRoutes, urlFor, type ApiRoute } from './openapi-routes.js';
import { READ_RIGHTS, UNDOCUMENTED_ROUTES, WRITE_RIGHTS, type Cell, type RightsRow } from './route-rights.expectations.js';
import { buildRightsWorld, OPEN_MONTH, ROLES, snapshotWorld, type Role, type Target, type World, type WorldSnapshot } from './route-rights.world.js';
import { injectFinite } from './finite-inject.js';

/**
 * The routes that answer without a token (declared `config: { public: true }`, OpenAPI `security: []`).
 * Adding one is a security decision: list it here on purpose.
 */
const EXPECTED_PUBLIC = [
  'GET /',
  'GET /api/health',
  // Its own bearer token (METRICS_TOKEN), not a user's: plugins/metrics.ts; off (404) in the tests.
  'GET /api/metrics',
  'GET /backoffice',
  'GET /backoffice/',
  'GET /backoffice/{*}',
  'POST /api/authorization/login',
  // Ends the browser's session whatever the token (valid, expired, forged or none): session.service.ts.
  'POST /api/authorization/logout',
];
/** Rows of the protected routes that the description leaves out (they join the walk below). */
const UNDOCUMENTED_ROWS = Object.fromEntries(Object.entries(UNDOCUMENTED_ROUTES).filter((e): e is [string, RightsRow] => e[1] !== 'public'));

let app: FastifyInstance;
/** The routes of /api/openapi.json, plus the protected ones it leaves out (UNDOCUMENTED_ROUTES). */
let routes: ApiRoute[];
let serverRoutes: string[];
let world: World;
let snapshot: WorldSnapshot;
let secret: Uint8Array;
const bearer = {} as Record<Role, string>;
/** A call may have changed the world: restore it before the next one. */
let dirty = false;
const READ_ROWS: Record<string, RightsRow> = { ...READ_RIGHTS, ...UNDOCUMENTED_ROWS };

beforeAll(async () => {
  // The Deletion Area's clock fixed like the deletion tests', so the world's months stay in its window.
  ({ app } = await buildTestApp({ tempDataDir: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 }, now: () => TEST_NOW }));
  await app.ready();
  serverRoutes = listServerRoutes(app);
  routes = [
    ...(await listApiRoutes(app)),
    ...Object.keys(UNDOCUMENTED_ROWS).map((key): ApiRoute => {
      const [method, p] = key.split(' ') as [ApiRoute['method'], string];
      return { method, path: p, key, protected: true, parameters: [], body: null };
    }),
  ];
  const db = app.database.db;
  // The real signing secret, as auth.api.test.ts reads it (generated at start, kept in server_settings).
  const [setting] = await db.select().from(serverSettings).where(eq(serverSettings.key, 'jwt_secret'));
  secret = new TextEncoder().encode(setting!.value);
  world = await buildRightsWorld(db);
  snapshot = await snapshotWorld(app.database);
  for (const role of ROLES) bearer[role] = (await loginAs(app, role)).authorization;
});

afterAll(async () => {
  await snapshot?.drop();
  await app?.close();
});

// ───────────────────────────── helpers ─────────────────────────────

const routeOf = (key: string): ApiRoute => {
  const route = routes.find((r) => r.key === key);
  if (!route) throw new Error(`${key} is not in /api/openapi.json: remove or rename its row in route-rights.expectations.ts`);
  return route;
};

/** The URL and body of a row's call on a target (AUR when the row is not item-scoped). */
function requestOf(route: ApiRoute, row: RightsRow | undefined, target: Target = 'AUR') {
  const t = world.items[target];
  const query = typeof row?.query === 'function' ? row.query(t, world) : (row?.query ?? '');
  const url = urlFor(route, row?.params?.(t, world) ?? {}, query);
  const body = row?.body ? row.body(t, world) : route.body ? {} : undefined;
  return { method: route.method, url, body };
}

const inject = (req: { method: string; url: string; body?: unknown }, headers: Record<string, string> = {}) =>
  injectFinite(app, {
    method: req.method as 'GET',
    url: req.url,
    headers,
    ...(req.body === undefined ? {} : { payload: JSON.stringify(req.body), headers: { ...headers, 'content-type': 'application/json' } }),
  });

const isErrorBody = (res: LightMyRequestResponse) => {
  try {
    const body = res.json() as { error?: unknown; message?: unknown };
    return typeof body.error === 'string' && typeof body.message === 'string';
  } catch {
    return false;
  }
};

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const adminClaims = () => ({ user_name: 'admin', authorities: ['ADMIN'] });

// ───────────────────────────── 1. authentication ─────────────────────────────

describe('public routes', () => {
  it('/api/openapi.json marks no other route public (security: [])', () => {
    const documented = routes.filter((r) => !r.protected).map((r) => r.key);
    expect(
      documented.filter((k) => !EXPECTED_PUBLIC.includes(k)),
      'a route became public: if that is meant, add it to EXPECTED_PUBLIC (a security decision)',
    ).toEqual([]);
  });

  it('every expected public route is in the description', () => {
    const keys = new Set(routes.map((r) => r.key));
    expect(EXPECTED_PUBLIC.filter((k) => !keys.has(k))).toEqual([]);
  });

  it('every expected public route is marked public in the description', () => {
    const documentedProtected = routes.filter((r) => r.protected && EXPECTED_PUBLIC.includes(r.key)).map((r) => r.key);
    expect(documentedProtected).toEqual([]);
  });

  it('every route the server has is in /api/openapi.json or listed in UNDOCUMENTED_ROUTES', () => {
    const documented = new Set(routes.map((r) => r.key));
    const unlisted = serverRoutes.filter((k) => !documented.has(k) && !(k in UNDOCUMENTED_ROUTES));
    expect(unlisted, 'a route hidden from the description: list it in UNDOCUMENTED_ROUTES (route-rights.expectations.ts)').toEqual([]);
    const gone = Object.keys(UNDOCUMENTED_ROUTES).filter((k) => !serverRoutes.includes(k));
    expect(gone, 'UNDOCUMENTED_ROUTES names routes the server no longer has').toEqual([]);
    // The parse of the route tree found the documented routes too (else the comparison above means nothing).
    expect(routes.filter((r) => !serverRoutes.includes(r.key)).map((r) => r.key)).toEqual([]);
  });

  it('answer without a token', async () => {
    const calls: Record<string, { url: string; body?: unknown }> = {
      'POST /api/authorization/login': { url: '/api/authorization/login', body: { username: 'viewer', password: 'secret' } },
      'GET /backoffice/{*}': { url: '/backoffice/module' },
    };
    const failures: string[] = [];
    for (const key of EXPECTED_PUBLIC) {
      const [method, p] = key.split(' ') as [string, string];
      const call = calls[key] ?? { url: p };
      const res = await inject({ method, ...call });
      // The web app is not built in the tests (503 'not built'); what matters is that no token is asked for.
      if (res.statusCode === 401 || res.statusCode === 403) failures.push(`${key} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    for (const [key, rights] of Object.entries(UNDOCUMENTED_ROUTES)) {
      if (rights !== 'public') continue;
      const url = key.split(' ')[1]!.replace('{*}', 'static/swagger-ui.css');
      const res = await inject({ method: 'GET', url });
      if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) failures.push(`${key}: GET ${url} → ${res.statusCode}`);
    }
    expect(failures.join('\n')).toBe('');
  });
});

describe('401 on every protected route', () => {
  const protectedRoutes = () => routes.filter((r) => !EXPECTED_PUBLIC.includes(r.key));
  const anyRow = (key: string) => WRITE_RIGHTS[key] ?? READ_ROWS[key];

  /** Sends every protected route (or those `only` keeps) with `headers`; lists what did not answer 401 { error, message }. */
  async function unauthorizedEverywhere(
    headers: () => Promise<Record<string, string>> | Record<string, string>,
    opts: { only?: (r: ApiRoute) => boolean; urls?: (url: string, r: ApiRoute) => string[]; method?: (r: ApiRoute) => string } = {},
  ) {
    const h = await headers();
    const failures: string[] = [];
    let sent = 0;
    for (const route of protectedRoutes().filter(opts.only ?? (() => true))) {
      const req = requestOf(route, anyRow(route.key));
      for (const url of opts.urls ? opts.urls(req.url, route) : [req.url]) {
        const method = opts.method?.(route) ?? req.method;
        const res = await inject({ method, url, ...(method === 'HEAD' ? {} : { body: req.body }) }, h);
        sent++;
        if (res.statusCode !== 401 || (method !== 'HEAD' && !isErrorBody(res))) failures.push(`${route.key}: ${method} ${url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(sent).toBeGreaterThan(0);
    expect(failures.join('\n')).toBe('');
  }

  it('without a token', () => unauthorizedEverywhere(() => ({})));

  it('without a token, as HEAD of every GET route', () => unauthorizedEverywhere(() => ({}), { only: (r) => r.method === 'GET', method: () => 'HEAD' }));

  it('with garbage in the Authorization header', async () => {
    await unauthorizedEverywhere(() => ({ authorization: 'Bearer not-a-token' }));
    await unauthorizedEverywhere(() => ({ authorization: 'Basic YWRtaW46c2VjcmV0' }), { only: isWrite });
  });

  it('with an alg: none token claiming to be the admin', () =>
    unauthorizedEverywhere(() => ({ authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...adminClaims(), exp: inAnHour() })}.` })));

  it('with a token signed with another secret', () =>
    unauthorizedEverywhere(async () => ({
      authorization: `Bearer ${await new SignJWT(adminClaims()).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setExpirationTime(inAnHour()).sign(new TextEncoder().encode('x'.repeat(48)))}`,
    })));

  it('with an expired token signed with the real secret', () =>
    unauthorizedEverywhere(async () => ({
      authorization: `Bearer ${await new SignJWT(adminClaims())
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(secret)}`,
    })));

  it('with a token after its logout (header, and the cookie on GET routes)', async () => {
    const { authorization } = await loginAs(app, 'admin');
    expect((await inject({ method: 'POST', url: '/api/authorization/logout' }, { authorization })).statusCode).toBe(204);
    dirty = true; // the logout released the admin's locks and wrote its audit entry
    await unauthorizedEverywhere(() => ({ authorization }));
    await unauthorizedEverywhere(() => ({ cookie: `bo_token=${authorization.slice('Bearer '.length)}` }), { only: (r) => r.method === 'GET' });
  });

  it('with a valid token in the bo_token cookie on a write route (the cookie is for GET/HEAD only)', () =>
    unauthorizedEverywhere(() => ({ cookie: `bo_token=${bearer.admin.slice('Bearer '.length)}` }), { only: isWrite }));

  it('the bo_token cookie is accepted on GET routes (the control of the case above)', async () => {
    const failures: string[] = [];
    for (const route of protectedRoutes().filter((r) => r.method === 'GET')) {
      const res = await inject(requestOf(route, READ_ROWS[route.key]), { cookie: `bo_token=${bearer.admin.slice('Bearer '.length)}` });
      if (res.statusCode === 401) failures.push(`${route.key} → 401`);
    }
    expect(failures.join('\n')).toBe('');
  });

  it('without a token on percent-encoded and disguised paths', () =>
    unauthorizedEverywhere(() => ({}), {
      urls: (url, route) => {
        const variants = disguisedPaths(url);
        // A `/` inside a path parameter still reaches the route.
        if (/\{[^}*]+\}/.test(route.path)) variants.push(urlFor(route, Object.fromEntries(route.parameters.filter((p) => p.in === 'path').map((p) => [p.name, 'a/b']))));
        return variants;
      },
    }));

  it('percent-encoded paths reach the same routes as the plain ones (with a token)', async () => {
    const failures: string[] = [];
    for (const route of protectedRoutes().filter((r) => r.method === 'GET' && !r.path.includes('{'))) {
      const req = requestOf(route, READ_ROWS[route.key]);
      const plain = await inject(req, { authorization: bearer.admin });
      for (const url of disguisedPaths(req.url).slice(0, 2)) {
        const res = await inject({ ...req, url }, { authorization: bearer.admin });
        if (res.statusCode !== plain.statusCode) failures.push(`${route.key}: ${url} → ${res.statusCode}, plain ${plain.statusCode}`);
      }
    }
    expect(failures.join('\n')).toBe('');
  });
});

/** The same path written otherwise: letters percent-encoded (both hex cases), `/` as %2F, dot segments, doubled or trailing slashes, double encoding. */
function disguisedPaths(url: string): string[] {
  const [p, q] = url.split('?') as [string, string | undefined];
  const suffix = q === undefined ? '' : `?${q}`;
  const segments = p.split('/').slice(1);
  const hex = (c: string, upper: boolean) => `%${c.charCodeAt(0).toString(16)[upper ? 'toUpperCase' : 'toLowerCase']()}`;
  const encodeFirstLetter = (s: string, upper: boolean) => s.replace(/[A-Za-z]/, (c) => hex(c, upper));
  const encodeAllLetters = (s: string) => s.replace(/[A-Za-z]/g, (c) => hex(c, true));
  const join = (parts: string[]) => `/${parts.join('/')}`;
  const variants = [
    join(segments.map((s) => encodeFirstLetter(s, false))),
    join(segments.map((s, i) => (i === 0 ? encodeAllLetters(s) : encodeFirstLetter(s, true)))),
    join([`${segments[0]}%2F${segments[1] ?? ''}`, ...segments.slice(2)]),
    `/${segments.join('%2f')}`,
    join([segments[0]!.replace(/[A-Za-z]/, (c) => `%25${c.charCodeAt(0).toString(16)}`), ...segments.slice(1)]),
    `/x/%2E%2E${p}`,
    `/${p}`,
    `${p}/`,
  ];
  return [...new Set(variants.filter((v) => v !== p))].map((v) => v + suffix);
}

// ───────────────────────────── 2. rights per role ─────────────────────────────

describe('the rights table', () => {
  it('has a row for every protected write route of /api/openapi.json', () => {
    const missing = routes.filter((r) => isWrite(r) && !EXPECTED_PUBLIC.includes(r.key) && !(r.key in WRITE_RIGHTS)).map((r) => r.key);
    expect(missing, `add a row to WRITE_RIGHTS in apps/server/test/attack/route-rights.expectations.ts for: ${missing.join(', ')}`).toEqual([]);
  });

  it('names only routes that exist, with the right method', () => {
    const keys = new Set(routes.map((r) => r.key));
    const stale = [...Object.keys(WRITE_RIGHTS), ...Object.keys(READ_ROWS)].filter((k) => !keys.has(k));
    expect(stale, 'rows for routes that are gone: remove or rename them').toEqual([]);
    expect(Object.keys(WRITE_RIGHTS).filter((k) => k.startsWith('GET '))).toEqual([]);
    expect(Object.keys(READ_ROWS).filter((k) => !k.startsWith('GET '))).toEqual([]);
  });
});

type Outcome = 'forbidden' | 'hidden' | 'readOnly' | 'allowed';

/** Does a list of cells ('viewer', 'editor@VLT') name this role (at this target)? */
const has = (list: readonly Cell[] | undefined, role: Role, target: Target | undefined) => !!list?.some((c) => c === role || (target && c === `${role}@${target}`));

function outcomeOf(row: RightsRow, role: Role, target: Target | undefined): Outcome {
  if (has(row.forbidden, role, target)) return 'forbidden';
  if (has(row.hidden, role, target)) return 'hidden';
  if (has(row.readOnly, role, target)) return 'readOnly';
  return 'allowed';
}

/** Calls a row's route as `role` on `target` from the world's state, and checks the answer against the row. */
async function checkCell(key: string, row: RightsRow, role: Role, target: Target | undefined) {
  const db = app.database.db;
  if (dirty) await snapshot.restore();
  dirty = false;
  if (row.setup) {
    dirty = true;
    await row.setup(db, world);
  }
  const t = world.items[target ?? 'AUR'];
  if (row.lock) {
    dirty = true;
    const itemKey = row.lock.kind === 'module' ? t.module : row.lock.kind === 'cluster' ? t.cluster : t.family;
    await db.insert(locks).values({ itemType: row.lock.kind, itemKey, monthId: OPEN_MONTH, owner: row.lock.owner === 'caller' ? role : 'holder' });
  }
  const req = requestOf(routeOf(key), row, target);
  const call = row.multipart
    ? row.multipart(t, world).then((file) => {
        const { payload, headers } = multipartBody(Array.isArray(file) ? file : [{ field: 'excelFile', ...file }]);
        return app.inject({ method: req.method as 'POST', url: req.url, headers: { authorization: bearer[role], ...headers }, payload });
      })
    : inject(req, { authorization: bearer[role] });
  const res = row.waitsForJob ? await withJobRunner(app, call) : await call;
  // A refused call stores nothing (contract §6), so only an accepted write makes the next call restore the world.
  if (!row.reads && res.statusCode < 400) dirty = true;

  const outcome = outcomeOf(row, role, target);
  const seen = `${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, seen).not.toBe(401);
  expect(res.statusCode, seen).toBeLessThan(500);
  const body = () => res.json() as Record<string, unknown> | unknown[];
  if (outcome === 'forbidden' && row.answer) {
    expect(res.statusCode, seen).toBe(200);
    expect(refusals(row.answer, body()), seen).not.toEqual([]);
  } else if (outcome === 'forbidden') {
    expect(res.statusCode, seen).toBe(403);
    expect(isErrorBody(res), seen).toBe(true);
  } else if (outcome === 'hidden') {
    expect(res.statusCode, seen).toBe(404);
    expect(isErrorBody(res), seen).toBe(true);
  } else {
    expect(res.statusCode, seen).not.toBe(403);
    if (outcome === 'allowed' && has(row.unseen, role, target)) {
      const v = world.items.VLT;
      const named = [v.module, v.submittedModule, v.emptyModule, v.cluster, v.deletedModule, v.deletedCluster, v.suggestion, v.family].filter((n) => res.body.includes(`"${n}"`));
      expect(named, `the answer names items the caller may not view: ${seen}`).toEqual([]);
    }
    if (row.ok !== undefined) expect([row.ok].flat(), seen).toContain(res.statusCode);
    if (row.answer) expect(refusals(row.answer, body()), seen).toEqual([]);
    if (row.notAuthorized) {
      const { edit, submit } = (body() as { notAuthorizedItems: { edit: string[]; submit: string[] } }).notAuthorizedItems;
      const named = key.includes('/cluster/') ? t.cluster : t.module;
      if (has(row.notAuthorized, role, target)) expect([...edit, ...submit], seen).toEqual([named]);
      else expect([...edit, ...submit], seen).toEqual([]);
    }
    // Lock calls: the lock is taken exactly when the caller may edit.
    if (row.readOnly) expect((body() as { acquired: boolean }[]).map((e) => e.acquired), seen).toEqual([outcome === 'allowed']);
  }
}

/** The refusals a 200 answer carries (spec part 2 §6/§7): cluster save's unauthorizedList, save-all's messages, publish-all's errors. */
function refusals(kind: NonNullable<RightsRow['answer']>, body: Record<string, unknown> | unknown[]): unknown[] {
  if (kind === 'messages') return body as unknown[];
  if (kind === 'errors') return ((body as { errors?: unknown[] }).errors ?? []) as unknown[];
  const b = body as { unauthorizedList: unknown[]; errorsMap: Record<string, unknown> };
  return [...b.unauthorizedList, ...Object.keys(b.errorsMap)];
}

function describeRows(table: Record<string, RightsRow>) {
  for (const [key, row] of Object.entries(table)) {
    describe(key, () => {
      for (const target of row.targets ?? [undefined]) {
        for (const role of ROLES) {
          const cell = (target ? `${role}@${target}` : role) as Cell;
          const outcome = outcomeOf(row, role, target);
          const expected =
            outcome === 'forbidden' && row.answer
              ? `refused in ${row.answer}`
              : has(row.notAuthorized, role, target)
                ? 'named in notAuthorizedItems'
                : { forbidden: '403', hidden: '404', readOnly: '200, not acquired', allowed: 'allowed' }[outcome];
          const bug = row.knownBug?.[cell];
          const name = `${cell} → ${expected}${bug ? ` [KNOWN BUG: ${bug.length > 90 ? `${bug.slice(0, 90)}…` : bug}]` : ''}`;
          (bug ? it.fails : it)(name, () => checkCell(key, row, role, target));
        }
      }
    });
  }
}

describe('write routes, as each role', () => describeRows(WRITE_RIGHTS));

describe('read routes, as each role', () => {
  describeRows(READ_ROWS);

  it('every other protected GET route answers every role', async () => {
    if (dirty) await snapshot.restore();
    dirty = false;
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET' && !EXPECTED_PUBLIC.includes(r.key) && !(r.key in READ_ROWS))) {
      for (const role of ROLES) {
        const res = await inject(requestOf(route, undefined), { authorization: bearer[role] });
        if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) failures.push(`${route.key} as ${role} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures.join('\n')).toBe('');
  });
});

// ───────────────────────────── 3. macro-family locks ─────────────────────────────

describe('POST /api/module/macroFamily/lock', () => {
  const lockFamily = (role: Role, macroFamily: string, monthId: string) =>
    inject({ method: 'POST', url: '/api/module/macroFamily/lock', body: [{ macroFamily, monthId }] }, { authorization: bearer[role] });
  const familyLocks = () => app.database.db.select().from(locks).where(and(eq(locks.itemType, 'macroFamily')));

  it('refuses a viewer (403) and takes no lock', async () => {
    await snapshot.restore();
    dirty = true;
    const res = await lockFamily('viewer', world.items.AUR.family, OPEN_MONTH);
    expect(res.statusCode, res.body).toBe(403);
    expect(isErrorBody(res)).toBe(true);
    expect(await familyLocks()).toEqual([]);
  });

  it('refuses a viewer for a family with no module in the month, too', async () => {
    const res = await lockFamily('viewer', world.items.AUR.family, 'M02_2027');
    expect(res.statusCode, res.body).toBe(403);
    expect(await familyLocks()).toEqual([]);
  });

  it('answers 404 to an admin for a month that does not exist, and takes no lock', async () => {
    const res = await lockFamily('admin', world.items.AUR.family, 'M05_2031');
    expect([404, 422], res.body).toContain(res.statusCode);
    expect(isErrorBody(res)).toBe(true);
    expect(await familyLocks()).toEqual([]);
  });

  it('answers 422 to an admin for a closed month', async () => {
    const res = await lockFamily('admin', world.items.AUR.family, 'M12_2026');
    expect(res.statusCode, res.body).toBe(422);
    expect(await familyLocks()).toEqual([]);
  });

  it('lets an editor lock a family of a brand they edit', async () => {
    const res = await lockFamily('editor', world.items.AUR.family, OPEN_MONTH);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([expect.objectContaining({ acquired: true, userLock: 'editor' })]);
  });
});
