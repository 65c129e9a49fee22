import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUR_EU, buildCluster, buildModule, buildSku } from '../../../test/builders.js';
import { openStream, type TestStream } from '../../../test/live-client.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';

/**
 * The live event stream (issue 36, docs/LIVE.md) against a listening server and the test database: item events within
 * 2 s of another user's lock, save and unlock; presence; jobs; forced unlock; lease lapse; visibility.
 */
const planner = { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } } as const;
type Name = 'anna' | 'bruno';
let t: TestApp<Name>;
let base: string;
const streams: TestStream[] = [];

const moduleKey = { moduleName: 'MOD_L', monthId: 'M01_2027' };
let upcs: string[];

beforeEach(async () => {
  t = await buildTestApp({ reference: true, users: { anna: planner, bruno: planner } });
  upcs = [(await buildSku(t.db)).upc, (await buildSku(t.db)).upc];
  await buildModule(t.db, { ...moduleKey, skus: [{ upc: upcs[0]! }] });
  await buildCluster(t.db, { clusterId: 'CL_L', monthId: 'M01_2027', modules: [{ moduleName: 'MOD_L' }] });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
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

  it('gets an item event within 2 s after another user locks, saves and unlocks', async () => {
    const s = await stream('anna');
    await s.next('hello');
    let started = Date.now();
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    const locked = await s.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === 'bruno');
    expect(locked).toMatchObject({ kind: 'module', monthId: 'M01_2027', brand: 'AUR', status: 'WIP' });
    const lockMs = Date.now() - started;
    started = Date.now();
    const saved = await post('bruno', '/api/module/save', { ...moduleKey, productDtoList: [{ upc: upcs[1]!, mustHave: true, moduleCompositionStatus: 'ADDED' }] });
    expect(saved.statusCode).toBe(200);
    const withVersion = await s.next('item', (d) => d.name === 'MOD_L' && d.savedAt !== null);
    expect(withVersion.lockedBy).toBe('bruno');
    const saveMs = Date.now() - started;
    started = Date.now();
    await post('bruno', '/api/module/unlock', [moduleKey]);
    await s.next('item', (d) => d.name === 'MOD_L' && d.lockedBy === null);
    const unlockMs = Date.now() - started;
    console.log(`live event latency: lock ${lockMs} ms, save ${saveMs} ms, unlock ${unlockMs} ms`);
  });
});
