import { SignJWT } from 'jose';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUR_EU, buildCluster, buildModule, buildSku } from '../../test/builders.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { auditLog, locks, serverSettings } from '../db/schema.js';
import { LOGOUT_GRACE_SECONDS } from './session.service.js';

/** Logout releases every lock the user holds: the next planner can open the items at once (issue 13). */
const planner = { role: 'EDITOR', grants: { view: AUR_EU, edit: AUR_EU } } as const;
let t: TestApp<'anna' | 'bruno'>;

const moduleKey = { moduleName: 'MOD_A', monthId: 'M01_2027' };
const clusterKey = { clusterId: 'CL_A', monthId: 'M01_2027' };
const familyKey = { macroFamily: 'PILOT', monthId: 'M01_2027' };

beforeEach(async () => {
  t = await buildTestApp({ reference: true, users: { anna: planner, bruno: planner } });
  const sku = await buildSku(t.db);
  await buildModule(t.db, { ...moduleKey, skus: [{ upc: sku.upc }] });
  await buildCluster(t.db, { ...clusterKey, modules: [{ moduleName: 'MOD_A' }] });
});
afterEach(async () => {
  await t.app.close();
});

const post = async (user: 'anna' | 'bruno', url: string, payload: unknown, headers?: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, headers: headers ?? (await t.as(user)), payload: payload as object });

/** Anna opens the module, the cluster and the macro family for editing. */
async function annaLocksEverything() {
  expect((await post('anna', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
  expect((await post('anna', '/api/cluster/lock', [clusterKey])).json()[0].acquired).toBe(true);
  expect((await post('anna', '/api/module/macroFamily/lock', [familyKey])).json()[0].acquired).toBe(true);
}

async function brunoGets() {
  return {
    module: (await post('bruno', '/api/module/lock', [moduleKey])).json()[0],
    cluster: (await post('bruno', '/api/cluster/lock', [clusterKey])).json()[0],
    family: (await post('bruno', '/api/module/macroFamily/lock', [familyKey])).json()[0],
  };
}

async function annaSignedToken(expSecondsFromNow: number): Promise<string> {
  const [row] = await t.db.select().from(serverSettings).where(eq(serverSettings.key, 'jwt_secret'));
  return new SignJWT({ user_name: 'anna', authorities: [] })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + expSecondsFromNow)
    .sign(new TextEncoder().encode(row!.value));
}

describe('logout releases the locks of the user whose session ends', () => {
  it('while anna is logged in, bruno opens her items read-only', async () => {
    await annaLocksEverything();
    const got = await brunoGets();
    expect([got.module, got.cluster, got.family].map((g) => [g.acquired, g.userLock])).toEqual([
      [false, 'anna'],
      [false, 'anna'],
      [false, 'anna'],
    ]);
  });

  it('after anna logs out, bruno gets the module, cluster and macro-family locks at once; the audit counts what went', async () => {
    await annaLocksEverything();
    const res = await post('anna', '/api/authorization/logout', undefined);
    expect(res.statusCode).toBe(204);
    expect(await t.db.select().from(locks).where(eq(locks.owner, 'anna'))).toEqual([]);

    const got = await brunoGets();
    expect([got.module, got.cluster, got.family].map((g) => [g.acquired, g.userLock])).toEqual([
      [true, 'bruno'],
      [true, 'bruno'],
      [true, 'bruno'],
    ]);
    const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'logout'), eq(auditLog.username, 'anna')));
    expect(entry?.summary).toEqual({ locksReleased: 3, byKind: { module: 1, cluster: 1, macroFamily: 1 } });
  });

  it("leaves other users' locks alone", async () => {
    expect((await post('bruno', '/api/module/lock', [moduleKey])).json()[0].acquired).toBe(true);
    await post('anna', '/api/cluster/lock', [clusterKey]);
    await post('anna', '/api/authorization/logout', undefined);
    const left = await t.db.select({ owner: locks.owner, itemType: locks.itemType }).from(locks);
    expect(left).toEqual([{ owner: 'bruno', itemType: 'module' }]);
  });

  it('a token that expired moments ago (the browser logs out at its expiry) still releases; an older one or a forged one does not', async () => {
    await annaLocksEverything();
    const stale = await annaSignedToken(-(LOGOUT_GRACE_SECONDS + 60));
    await post('anna', '/api/authorization/logout', undefined, { authorization: `Bearer ${stale}` });
    await post('anna', '/api/authorization/logout', undefined, { authorization: 'Bearer not.a.token' });
    expect(await t.db.select().from(locks).where(eq(locks.owner, 'anna'))).toHaveLength(3);

    const justExpired = await annaSignedToken(-5);
    const res = await post('anna', '/api/authorization/logout', undefined, { authorization: `Bearer ${justExpired}` });
    expect(res.statusCode).toBe(204);
    expect(await t.db.select().from(locks).where(eq(locks.owner, 'anna'))).toEqual([]);
  });

  it('an expired token is still refused by every other call', async () => {
    const justExpired = await annaSignedToken(-5);
    const res = await post('anna', '/api/module/lock', [moduleKey], { authorization: `Bearer ${justExpired}` });
    expect(res.statusCode).toBe(401);
  });
});
