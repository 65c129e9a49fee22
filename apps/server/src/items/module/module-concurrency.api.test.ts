import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { AUR_EU, buildModule, buildSku } from '../../../test/builders.js';
import { buildTestApp, type AuthHeader, type TestUser } from '../../../test/test-app.js';
import { locks, modules } from '../../db/schema.js';

/**
 * 20 clients race on the same modules: to lock, to save (read-modify-write of the composition) and
 * to publish. On PostgreSQL the requests really run in parallel (a pool of 10 connections).
 */
const CLIENTS = 20;
const ROUNDS = 4;
const users = Array.from({ length: CLIENTS }, (_, i) => `racer${String(i + 1).padStart(2, '0')}`);
const racer: TestUser = { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } };
let app: FastifyInstance;
let dataDir: string;
const headers = new Map<string, AuthHeader>();
let spareUpcs: string[] = [];

beforeAll(async () => {
  const test = await buildTestApp({
    tempDataDir: true,
    config: { PLANNING_SYSTEM_DELAY_MS: 0 },
    reference: true,
    users: Object.fromEntries(users.map((u) => [u, racer])),
  });
  ({ app, dataDir } = test);
  const db = app.database.db;
  const first = await buildSku(db);
  spareUpcs = [];
  for (let i = 0; i < CLIENTS * ROUNDS * 2; i++) spareUpcs.push((await buildSku(db)).upc);
  for (const name of ['RACE_A', 'RACE_B']) await buildModule(db, { moduleName: name, skus: [{ upc: first.upc }] });
  // Everyone logged in up front: the races below are between the requests, not the logins.
  for (const u of users) headers.set(u, await test.as(u));
}, 120_000);
afterAll(async () => {
  await app.close();
});

const post = (user: string, url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: headers.get(user), payload: payload as object });

async function currentLockOwners(moduleName: string) {
  return app.database.db
    .select({ owner: locks.owner })
    .from(locks)
    .where(and(eq(locks.itemType, 'module'), eq(locks.itemKey, moduleName)));
}

describe('20 clients racing on the same modules', () => {
  it('give the lock to exactly one client at a time, and lose no update', async () => {
    let nextSpare = 0;
    const expected = new Map<string, string[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const moduleName of ['RACE_A', 'RACE_B']) {
        const key = { moduleName, monthId: 'M01_2027' };
        // Everybody tries to open the module for editing at once.
        const answers = await Promise.all(users.map((u) => post(u, '/api/module/lock', [key]).then((r) => ({ u, body: r.json()[0] }))));
        const winners = answers.filter((a) => a.body.acquired);
        expect(winners).toHaveLength(1);
        const holder = winners[0]!.u;
        for (const a of answers) expect(a.body.userLock).toBe(holder);
        expect(await currentLockOwners(moduleName)).toEqual([{ owner: holder }]);

        // Everybody reads the module, adds a SKU of their own and saves: only the holder may write.
        const reads = await Promise.all(users.map((u) => post(u, '/api/module/details', [key]).then((r) => ({ u, module: r.json()[0] }))));
        const saves = await Promise.all(
          reads.map(({ u, module }) => {
            const upc = spareUpcs[nextSpare++]!;
            if (u === holder) expected.set(moduleName, [...(expected.get(moduleName) ?? module.productDtoList.map((p: { upc: string }) => p.upc)), upc]);
            const productDtoList = [...module.productDtoList, { upc, mustHave: false, moduleCompositionStatus: 'ADDED' }];
            return post(u, '/api/module/save', { ...key, productDtoList }).then((r) => ({ u, status: r.statusCode }));
          }),
        );
        expect(saves.filter((s) => s.status === 200).map((s) => s.u)).toEqual([holder]);
        expect(saves.filter((s) => s.status !== 200).every((s) => s.status === 422)).toBe(true);
        await post(holder, '/api/module/unlock', [key]);
      }
    }
    for (const moduleName of ['RACE_A', 'RACE_B']) {
      const [detail] = (await post(users[0]!, '/api/module/details', [{ moduleName, monthId: 'M01_2027' }])).json();
      expect(detail.productDtoList.map((p: { upc: string }) => p.upc)).toEqual(expected.get(moduleName));
      const [row] = await app.database.db.select().from(modules).where(eq(modules.moduleName, moduleName));
      expect(row!.version).toBe(1 + ROUNDS);
    }
  }, 180_000);

  it('share out locks of several modules asked at once in opposite orders: one holder per module, no deadlock', async () => {
    const keys = ['RACE_A', 'RACE_B'].map((moduleName) => ({ moduleName, monthId: 'M01_2027' }));
    for (let round = 0; round < ROUNDS; round++) {
      await app.database.db.delete(locks);
      const answers = await Promise.all(
        users.map((u, i) => post(u, '/api/module/lock', i % 2 ? [...keys].reverse() : keys).then((r) => ({ u, status: r.statusCode, body: r.json() as { moduleName: string; userLock: string; acquired: boolean }[] }))),
      );
      expect(answers.map((a) => a.status)).toEqual(users.map(() => 200));
      for (const k of keys) {
        const owners = await currentLockOwners(k.moduleName);
        expect(owners).toHaveLength(1);
        for (const a of answers) {
          const entry = a.body.find((e) => e.moduleName === k.moduleName)!;
          expect(entry).toMatchObject({ userLock: owners[0]!.owner, acquired: a.u === owners[0]!.owner });
        }
      }
    }
    await app.database.db.delete(locks);
  });

  it('let every publish end SUBMITTED or WIP with errors, each module published once', async () => {
    const keys = ['RACE_A', 'RACE_B'].map((moduleName) => ({ moduleName, monthId: 'M01_2027' }));
    const lockAnswers = await Promise.all(users.map((u) => post(u, '/api/module/lock', keys).then((r) => ({ u, body: r.json() }))));
    const holders = keys.map((_, i) => lockAnswers.find((a) => a.body[i].acquired)!.u);
    const attempts = await Promise.all(
      users.flatMap((u) => keys.map((k) => post(u, '/api/module/publish', k).then((r) => ({ u, k, status: r.statusCode, body: r.json() })))),
    );
    for (const [i, k] of keys.entries()) {
      const ok = attempts.filter((a) => a.k === k && a.status === 200);
      expect(ok.map((a) => a.u)).toEqual([holders[i]]);
      expect(ok[0]!.body.message).toBe('The submission process has been started');
    }
    expect(attempts.filter((a) => a.status !== 200).every((a) => a.status === 422)).toBe(true);
    await app.jobs.drain();
    const rows = await app.database.db.select().from(modules);
    for (const r of rows) {
      expect(r.status === 'SUBMITTED' || (r.status === 'WIP' && !!r.rpasErrors)).toBe(true);
    }
    expect(fs.readdirSync(path.join(dataDir, 'outbox'))).toHaveLength(2);
  }, 180_000);
});
