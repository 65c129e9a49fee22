import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUR_EU, buildCluster, buildModule, buildSku } from '../../../test/builders.js';
import { openStream, type TestStream } from '../../../test/live-client.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';
import { queryRows } from '../../db/client.js';
import { claimStreamTab } from './live.repository.js';

/**
 * The live event stream (issue 36, docs/LIVE.md) against a listening server and the test database: item events within
 * 2 s of another user's lock, save and unlock; presence; jobs; forced unlock; lease lapse; visibility.
 */
const planner = { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } } as const;
/** Sees AUR in the NA zone only: none of anna's and bruno's items (AUR/EU), nor VLT. */
const naPlanner = { role: 'EDITOR', grants: { view: { brands: ['AUR'], zones: ['NA'] }, edit: { brands: ['AUR'], zones: ['NA'] } } } as const;
type Name = 'anna' | 'bruno' | 'nadia' | 'admin';
let t: TestApp<Name>;
let base: string;
const streams: TestStream[] = [];

const moduleKey = { moduleName: 'MOD_L', monthId: 'M01_2027' };
let upcs: string[];

beforeEach(async () => {
  t = await buildTestApp({
    reference: true,
    users: { anna: planner, bruno: planner, nadia: naPlanner, admin: { role: 'ADMIN' } },
    config: { LOCK_LEASE_SECONDS: 5, METRICS_TOKEN: 'metrics-token-for-tests' },
  });
  upcs = [(await buildSku(t.db)).upc, (await buildSku(t.db)).upc];
  await buildModule(t.db, { ...moduleKey, skus: [{ upc: upcs[0]! }] });
  await buildModule(t.db, { moduleName: 'MOD_NA', zones: ['NA'], skus: [{ upc: upcs[0]! }] });
  await buildModule(t.db, { moduleName: 'MOD_VLT', brandCode: 'VLT', skus: [{ upc: upcs[0]! }] });
  await buildCluster(t.db, { clusterId: 'CL_L', monthId: 'M01_2027', modules: [{ moduleName: 'MOD_L' }] });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  // fetch opens a spare connection when a stream is aborted, which never sends a request: the server's close would wait
  // for it until the keep-alive timeout.
  t.app.server.closeAllConnections();
  await t.app.close();
});

async function stream(user: Name, tab: string = crypto.randomUUID()): Promise<TestStream> {
  const s = await openStream(base, (await t.as(user)).authorization, tab);
  streams.push(s);
  return s;
}
const post = async (user: Name, url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: await t.as(user), payload: payload as object });

describe('the stream', () => {
  it('opens with hello and the SSE headers', async () => {
    const s = await stream('anna');
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('cache-control')).toBe('no-store');
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    const hello = await s.next('hello');
    expect(hello.presence).toEqual([]);
  });

  it('writes nothing before hello: what happens while the hello is read comes right after it', async () => {
    const hub = t.app.liveHub;
    await hub.ready();
    // The hello waits until the test lets it go (as a slow snapshot read would).
    let letGo: () => void = () => undefined;
    const gate = new Promise<void>((r) => (letGo = r));
    const real = hub.hello.bind(hub);
    hub.hello = async (s) => {
      await gate;
      return real(s);
    };
    const opening = stream('anna');
    await waitFor(async () => hub.openStreams === 1, 3000);
    // Meanwhile bruno opens and locks the module: a batch for the stream before its hello.
    expect((await put('bruno', crypto.randomUUID(), [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'editing' }])).statusCode).toBe(204);
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    letGo();
    const s = await opening;
    await s.next('presence', (d) => d.name === 'MOD_L' && d.viewers.length === 1);
    await s.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === 'bruno');
    expect(s.frames[0]?.type).toBe('hello');
    expect(s.frames.slice(1).map((f) => f.type)).toEqual(expect.arrayContaining(['presence', 'item']));
  });

  it('gets an item event within 2 s after another user locks, saves and unlocks', async () => {
    const s = await stream('anna');
    await s.next('hello');
    let started = Date.now();
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    const locked = await s.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === 'bruno');
    expect(locked).toMatchObject({ kind: 'module', monthId: 'M01_2027', brand: 'AUR', status: 'WIP' });
    // The last version is the one the module was created with (the builder's, by 'system').
    expect(locked.savedBy).toBe('system');
    const lockMs = Date.now() - started;
    started = Date.now();
    const saved = await post('bruno', '/api/module/save', { ...moduleKey, productDtoList: [{ upc: upcs[1]!, mustHave: true, moduleCompositionStatus: 'ADDED' }] });
    expect(saved.statusCode).toBe(200);
    // Who saved the version, from the version itself (not the lock holder: it stays after the unlock below).
    const withVersion = await s.next('item', (d) => d.name === 'MOD_L' && d.savedBy === 'bruno');
    expect(withVersion.lockedBy).toBe('bruno');
    expect(Date.parse(withVersion.savedAt!)).toBeGreaterThan(Date.parse(locked.savedAt!));
    // The item's version, as its DTO has it: the save bumped it, the lock did not.
    const dto = (await post('anna', '/api/module/modules', { moduleDtoList: [moduleKey] })).json()[0];
    expect(withVersion.version).toBe(dto.version);
    expect(withVersion.version).toBeGreaterThan(locked.version);
    const saveMs = Date.now() - started;
    started = Date.now();
    await post('bruno', '/api/module/unlock', [moduleKey]);
    const unlocked = await s.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === null);
    expect(unlocked).toMatchObject({ savedAt: withVersion.savedAt, savedBy: 'bruno', version: withVersion.version });
    const unlockMs = Date.now() - started;
    // Another user takes the lock: the holder changes, the saver stays who saved.
    await post('anna', '/api/module/lock', [moduleKey]);
    expect(await s.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === 'anna')).toMatchObject({ savedBy: 'bruno' });
    console.log(`live event latency: lock ${lockMs} ms, save ${saveMs} ms, unlock ${unlockMs} ms`);
  });
});

const put = async (user: Name, tabId: string, items: { kind: 'module' | 'cluster'; name: string; monthId: string; mode: 'editing' | 'viewing' }[]) =>
  t.app.inject({ method: 'PUT', url: '/api/presence', headers: await t.as(user), payload: { tabId, items } });
const del = async (user: Name, tabId: string) => t.app.inject({ method: 'DELETE', url: `/api/presence/${tabId}`, headers: await t.as(user) });
async function waitFor(check: () => Promise<boolean>, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const presenceCount = async () => (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM presence`))[0]!.n;

describe('presence', () => {
  it('a viewer arriving and leaving (PUT, DELETE) shows on the other stream, and in the hello of a new one', async () => {
    const s = await stream('anna');
    await s.next('hello');
    const tab = crypto.randomUUID();
    expect((await put('bruno', tab, [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'editing' }])).statusCode).toBe(204);
    const joined = await s.next('presence', (d) => d.name === 'MOD_L' && d.viewers.length === 1);
    expect(joined.viewers[0]).toMatchObject({ username: 'bruno', displayName: 'bruno Tester', mode: 'editing' });
    const late = await stream('anna');
    expect((await late.next('hello')).presence).toEqual([expect.objectContaining({ kind: 'module', name: 'MOD_L', viewers: [expect.objectContaining({ username: 'bruno' })] })]);
    expect((await del('bruno', tab)).statusCode).toBe(204);
    await s.next('presence', (d) => d.name === 'MOD_L' && d.viewers.length === 0);
  });

  it("a stream's close removes its tab's presence", async () => {
    const watcher = await stream('anna');
    await watcher.next('hello');
    const tab = crypto.randomUUID();
    const own = await stream('bruno', tab);
    await own.next('hello');
    expect((await put('bruno', tab, [{ kind: 'cluster', name: 'CL_L', monthId: 'M01_2027', mode: 'viewing' }])).statusCode).toBe(204);
    await watcher.next('presence', (d) => d.name === 'CL_L' && d.viewers.length === 1);
    own.close();
    await watcher.next('presence', (d) => d.name === 'CL_L' && d.viewers.length === 0);
  });

  it("a stream's close leaves the presence alone when a newer stream of its tab opened in another process", async () => {
    const tab = crypto.randomUUID();
    const old = await stream('bruno', tab);
    await old.next('hello');
    // The tab reconnected through another worker (which claims the tab for its stream as this one did), and said again
    // what it has open; this process notices the old connection's end only afterwards.
    expect(await claimStreamTab(t.db, tab, 'bruno')).not.toBeNull();
    expect((await put('bruno', tab, [{ kind: 'cluster', name: 'CL_L', monthId: 'M01_2027', mode: 'viewing' }])).statusCode).toBe(204);
    old.close();
    await waitFor(async () => t.app.liveHub.openStreams === 0, 3000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await presenceCount()).toBe(1);
    // The newest stream's own close does remove it.
    const newest = await stream('bruno', tab);
    await newest.next('hello');
    newest.close();
    await waitFor(async () => (await presenceCount()) === 0, 3000);
  });

  it("another user's tab is refused (stream, PUT, DELETE: 403), an unseen item 403, an unknown one 404: nothing stored", async () => {
    const tab = crypto.randomUUID();
    expect((await put('bruno', tab, [])).statusCode).toBe(204);
    expect((await put('anna', tab, [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'viewing' }])).statusCode).toBe(403);
    expect((await del('anna', tab)).statusCode).toBe(403);
    expect((await stream('anna', tab)).status).toBe(403);
    expect((await put('anna', crypto.randomUUID(), [{ kind: 'module', name: 'MOD_VLT', monthId: 'M01_2027', mode: 'viewing' }])).statusCode).toBe(403);
    expect((await put('anna', crypto.randomUUID(), [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'viewing' }, { kind: 'module', name: 'NOPE', monthId: 'M01_2027', mode: 'viewing' }])).statusCode).toBe(404);
    expect(await presenceCount()).toBe(0);
    expect((await put('anna', 'not-a-uuid', [])).statusCode).toBe(400);
    expect((await stream('anna', 'not-a-uuid')).status).toBe(400);
  });
});

describe('jobs and locks', () => {
  it("a job's end goes to its owner only, with a title and a link", async () => {
    const anna = await stream('anna');
    const bruno = await stream('bruno');
    await Promise.all([anna.next('hello'), bruno.next('hello')]);
    const [job] = await queryRows<{ id: string }>(t.db, sql`INSERT INTO jobs (kind, status, payload, created_by) VALUES ('export', 'RUNNING', '{"format":"xls"}', 'anna') RETURNING id`);
    await t.db.execute(sql`UPDATE jobs SET status = 'DONE' WHERE id = ${job!.id}`);
    expect(await anna.next('job')).toEqual({ id: String(job!.id), type: 'export', status: 'DONE', title: 'Your export is done', link: '/history' });
    await anna.next('job', () => false, 300).catch(() => undefined);
    expect(bruno.frames.filter((f) => f.type === 'job')).toEqual([]);
  });

  it('a forced unlock sends lockLost to the holder (by: who), not to others', async () => {
    const anna = await stream('anna');
    const bruno = await stream('bruno');
    await Promise.all([anna.next('hello'), bruno.next('hello')]);
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    const forced = await t.app.inject({ method: 'POST', url: '/api/module/unlock?forced=true', headers: await t.as('anna'), payload: [moduleKey] });
    expect(forced.statusCode).toBe(200);
    expect(await bruno.next('lockLost')).toEqual({ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', by: 'anna', reason: 'forced' });
    await anna.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === null);
    expect(anna.frames.filter((f) => f.type === 'lockLost')).toEqual([]);
  });

  it('a leased lock not renewed lapses after LOCK_LEASE_SECONDS: the other user takes it, the holder is told', async () => {
    const bruno = await stream('bruno');
    await bruno.next('hello');
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    expect((await put('bruno', crypto.randomUUID(), [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'editing' }])).statusCode).toBe(204);
    // Leased: anna cannot take it now…
    expect((await post('anna', '/api/module/lock', [moduleKey])).json()[0]).toMatchObject({ acquired: false, userLock: 'bruno' });
    // …and can once the 5 s lease ran out without a renewal (bruno's page is gone).
    const lost = await bruno.next('lockLost', (d) => d.name === 'MOD_L', 9000);
    expect(lost.reason).toBe('lapsed');
    expect((await post('anna', '/api/module/lock', [moduleKey])).json()[0]).toMatchObject({ acquired: true, userLock: 'anna' });
  }, 20_000);

  it('a renewal by PUT keeps the leased lock past the lease', async () => {
    const tab = crypto.randomUUID();
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    for (let i = 0; i < 4; i++) {
      expect((await put('bruno', tab, [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'editing' }])).statusCode).toBe(204);
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect((await post('anna', '/api/module/lock', [moduleKey])).json()[0]).toMatchObject({ acquired: false, userLock: 'bruno' });
  }, 20_000);

  it("an open stream renews the leases of what its tab edits, without PUTs; once it closes they lapse", async () => {
    const watcher = await stream('anna');
    await watcher.next('hello');
    const tab = crypto.randomUUID();
    const own = await stream('bruno', tab);
    await own.next('hello');
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    // One PUT leases the lock (5 s) and says the tab edits it; then no PUT for longer than the lease.
    expect((await put('bruno', tab, [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'editing' }])).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 8000));
    // The stream's sweeps renewed it (every 1.25 s here): still bruno's.
    expect((await post('anna', '/api/module/lock', [moduleKey])).json()[0]).toMatchObject({ acquired: false, userLock: 'bruno' });
    expect(own.frames.filter((f) => f.type === 'lockLost')).toEqual([]);
    // The tab is killed: its stream drops, its presence goes, nothing renews the lease any more.
    const closed = Date.now();
    own.close();
    await watcher.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === null, 9000);
    // Within the lease and one sweep of the stream's end.
    expect(Date.now() - closed).toBeLessThan(5000 + 1250 + 1500);
    expect((await post('anna', '/api/module/lock', [moduleKey])).json()[0]).toMatchObject({ acquired: true, userLock: 'anna' });
  }, 30_000);

  it('a stream whose tab stopped PUTting (a peer gone without closing) renews nothing once its presence is stale', async () => {
    const tab = crypto.randomUUID();
    const own = await stream('bruno', tab);
    await own.next('hello');
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    expect((await put('bruno', tab, [{ kind: 'module', name: 'MOD_L', monthId: 'M01_2027', mode: 'editing' }])).statusCode).toBe(204);
    // Its last PUT older than PRESENCE_TTL_SECONDS, the stream still open as the server sees it.
    await t.db.execute(sql`UPDATE presence SET seen_at = now() - interval '1 hour'`);
    const lost = await own.next('lockLost', (d) => d.name === 'MOD_L', 9000);
    expect(lost.reason).toBe('lapsed');
    expect(await presenceCount()).toBe(0);
  }, 20_000);

  it('a logout ends the stream at the next session check', async () => {
    const s = await stream('bruno');
    await s.next('hello');
    await t.app.inject({ method: 'POST', url: '/api/authorization/logout', headers: await t.as('bruno') });
    await t.app.liveHub.checkSessionsNow();
    await s.ended;
    expect(t.app.liveHub.openStreams).toBe(0);
  });
});

describe('visibility', () => {
  it('a user never receives an event about an item of a brand or stars zone they may not see', async () => {
    const nadia = await stream('nadia');
    const anna = await stream('anna');
    const admin = await stream('admin');
    await Promise.all([nadia.next('hello'), anna.next('hello'), admin.next('hello')]);
    const items = ['MOD_L', 'MOD_NA', 'MOD_VLT'].map((moduleName) => ({ moduleName, monthId: 'M01_2027' }));
    expect((await post('admin', '/api/module/lock', items)).statusCode).toBe(200);
    expect((await put('admin', crypto.randomUUID(), items.map((i) => ({ kind: 'module' as const, name: i.moduleName, monthId: i.monthId, mode: 'editing' as const })))).statusCode).toBe(204);
    // Many VLT modules at once: a scope event for (M01_2027, VLT).
    await t.db.execute(sql`INSERT INTO modules (module_name, month_id, module_label, module_description, macro_family, brand_code, collection, status)
                           SELECT 'BULK_' || g, 'M01_2027', 'bulk', '', 'PILOT', 'VLT', 'SUN', 'WIP' FROM generate_series(1, 60) g`);
    await admin.next('scope', (d) => d.brand === 'VLT');
    for (const name of ['MOD_L', 'MOD_NA', 'MOD_VLT']) {
      await admin.next('item', (d) => d.name === name && d.lockedBy === 'admin');
      await admin.next('presence', (d) => d.name === name && d.viewers.length === 1);
    }
    await anna.next('item', (d) => d.name === 'MOD_L');
    await nadia.next('item', (d) => d.name === 'MOD_NA');
    await new Promise((r) => setTimeout(r, 300));
    const about = (s: TestStream) =>
      s.frames.flatMap((f) => (f.type === 'hello' ? [] : [[f.type, (f.data as { name?: string; brand?: string }).name ?? (f.data as { brand: string }).brand]]));
    expect(about(anna).filter(([, n]) => n !== 'MOD_L')).toEqual([]);
    expect(about(nadia).filter(([, n]) => n !== 'MOD_NA')).toEqual([]);
    expect(new Set(about(anna).map(([type]) => type))).toEqual(new Set(['item', 'presence']));
  });
});

describe('metrics', () => {
  it('/api/metrics counts open streams, events sent and the lag', async () => {
    const s = await stream('anna');
    await s.next('hello');
    await post('bruno', '/api/module/lock', [moduleKey]);
    await s.next('item');
    const res = await t.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: 'Bearer metrics-token-for-tests' } });
    expect(res.body).toMatch(/^bo_live_streams 1$/m);
    expect(res.body).toMatch(/^bo_live_events_sent_total\{type="item"\} [1-9]/m);
    expect(res.body).toMatch(/^bo_live_event_lag_seconds_count [1-9]/m);
  });
});
