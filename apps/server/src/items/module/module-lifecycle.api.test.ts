import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { AUR_EU, buildModule, buildSku } from '../../../test/builders.js';
import { buildTestApp, type TestUsers } from '../../../test/test-app.js';
import { auditLog, locks, months, moduleSkus, modules, releases } from '../../db/schema.js';

let app: FastifyInstance;
let dataDir: string;
let h: Record<string, { authorization: string }>;
let upcs: string[];

const NOT_LOCKED = "Sorry! The module was unlocked by another user, you can't save or publish.";

const aurEu = AUR_EU;
const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: aurEu, edit: aurEu } },
  other: { grants: { view: aurEu, edit: aurEu } },
  reopener: { grants: { view: aurEu, edit: { ...aurEu, rules: ['reopen'] } } },
  submitter: { role: 'SUBMITTER', grants: { view: aurEu, edit: aurEu, submit: aurEu } },
  viewer: { role: 'VIEWER', grants: { view: aurEu } },
  creator: { role: 'CREATOR', grants: { view: aurEu, edit: aurEu } },
  creatorsub: { role: 'CREATOR', grants: { view: aurEu, edit: aurEu, submit: aurEu } },
  // A creator who may publish, but not this brand: its copies are made and reported as not published.
  pcreator: { role: 'CREATOR', grants: { view: aurEu, edit: aurEu, submit: { brands: ['VLT'], zones: ['EU'] } } },
  vltonly: { grants: { view: { brands: ['VLT'], zones: ['EU'] }, edit: { brands: ['VLT'], zones: ['EU'] } } },
  bothbrands: { grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU'] }, edit: { brands: ['AUR', 'VLT'], zones: ['EU'] } } },
} as const satisfies TestUsers;

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: USERS, tempDataDir: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 } });
  app = test.app;
  dataDir = test.dataDir;
  const db = test.db;
  upcs = [];
  for (let i = 0; i < 4; i++) upcs.push((await buildSku(db)).upc);
  await buildModule(db, {
    moduleName: 'MOD_A',
    skus: [
      { upc: upcs[0]!, mustHave: true },
      { upc: upcs[1]!, mustHave: false },
    ],
  });
  h = {};
  for (const u of Object.keys(USERS) as (keyof typeof USERS)[]) h[u] = await test.as(u);
});
afterEach(async () => {
  await app.close();
});

const post = (url: string, user: string, payload: unknown) => app.inject({ method: 'POST', url, headers: h[user], payload: payload as object });
const key = { moduleName: 'MOD_A', monthId: 'M01_2027' };
const lock = (user: string, k = key) => post('/api/module/lock', user, [k]);
const composition = (extra: object[] = []) => ({
  ...key,
  productDtoList: [
    { upc: upcs[0], mustHave: false, moduleCompositionStatus: 'ADDED', minValue: 2 },
    { upc: upcs[1], mustHave: false, moduleCompositionStatus: 'REMOVED' },
    { upc: upcs[2], mustHave: true, moduleCompositionStatus: 'ADDED', minValue: '1.5' },
    ...extra,
  ],
});
const row = async (monthId = 'M01_2027') =>
  (await app.database.db.select().from(modules).where(and(eq(modules.moduleName, 'MOD_A'), eq(modules.monthId, monthId))))[0];
const lines = async (moduleId: number) => app.database.db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, moduleId)).orderBy(moduleSkus.position);

describe('locks', () => {
  it('gives the lock to the first user and read-only with the owner to the next', async () => {
    expect((await lock('editor')).json()).toEqual([{ ...key, locked: true, userLock: 'editor', acquired: true }]);
    expect((await lock('other')).json()).toEqual([{ ...key, locked: true, userLock: 'editor', acquired: false }]);
    expect((await lock('editor')).json()[0].acquired).toBe(true);
  });

  it('compares user names case-insensitively', async () => {
    await app.database.db.insert(locks).values({ itemType: 'module', itemKey: 'MOD_A', monthId: 'M01_2027', owner: 'EDITOR' });
    expect((await lock('editor')).json()[0]).toMatchObject({ acquired: true });
  });

  it('does not lock for a user who cannot edit', async () => {
    expect((await lock('viewer')).json()).toEqual([{ ...key, locked: false, userLock: null, acquired: false }]);
    expect((await lock('vltonly')).json()[0].acquired).toBe(false);
  });

  it('lets a lapsed lock go to the next user', async () => {
    await lock('editor');
    await app.database.db.update(locks).set({ renewedAt: new Date(Date.now() - 121 * 60_000) });
    expect((await lock('other')).json()[0]).toMatchObject({ acquired: true, userLock: 'other' });
  });

  it('shows the lock on the module itself', async () => {
    await lock('editor');
    const [dto] = (await post('/api/module/details', 'viewer', [key])).json();
    expect(dto).toMatchObject({ locked: true, userLock: 'editor' });
  });

  it('releases only the caller\'s own lock without forced', async () => {
    await lock('editor');
    expect((await post('/api/module/unlock', 'other', [key])).json()).toEqual([]);
    expect((await post('/api/module/unlock', 'editor', [key])).json()).toEqual([{ ...key, previousOwner: 'editor' }]);
    expect((await lock('other')).json()[0].acquired).toBe(true);
  });

  it('forced unlock makes the old owner\'s next save fail with 422, and is audited', async () => {
    await lock('editor');
    const forced = await post('/api/module/unlock?forced=true', 'other', [key]);
    expect(forced.json()).toEqual([{ ...key, previousOwner: 'editor' }]);
    const save = await post('/api/module/save', 'editor', composition());
    expect(save.statusCode).toBe(422);
    expect(save.json()).toEqual({ error: 'moduleNotLocked', message: NOT_LOCKED });
    const audits = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'lock-override'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ username: 'other', itemKey: 'MOD_A', summary: { previousOwner: 'editor' } });
  });

  it('refuses forced unlock to a user without an edit right', async () => {
    await lock('editor');
    expect((await post('/api/module/unlock?forced=true', 'viewer', [key])).statusCode).toBe(403);
  });

  it('locks and unlocks macro families', async () => {
    const res = await post('/api/module/macroFamily/lock', 'editor', [{ macroFamily: 'PILOT', monthId: 'M01_2027' }]);
    expect(res.json()).toEqual([{ macroFamily: 'PILOT', monthId: 'M01_2027', locked: true, userLock: 'editor', acquired: true }]);
    expect((await post('/api/module/macroFamily/lock', 'other', [{ macroFamily: 'PILOT', monthId: 'M01_2027' }])).json()[0].acquired).toBe(false);
    await post('/api/module/macroFamily/unlock', 'editor', [{ macroFamily: 'PILOT', monthId: 'M01_2027' }]);
    expect((await post('/api/module/macroFamily/lock', 'other', [{ macroFamily: 'PILOT', monthId: 'M01_2027' }])).json()[0].acquired).toBe(true);
    expect((await post('/api/module/macroFamily/lock', 'other', [{ macroFamily: 'NOPE', monthId: 'M01_2027' }])).statusCode).toBe(404);
  });

  it('gives a macro-family lock only to who may edit the family-month, in an open month that exists', async () => {
    const familyLock = (user: string, monthId: string) => post('/api/module/macroFamily/lock', user, [{ macroFamily: 'PILOT', monthId }]);
    // A viewer, and an editor of another brand than the family's modules, would block every planner.
    expect((await familyLock('viewer', 'M01_2027')).statusCode).toBe(403);
    expect((await familyLock('vltonly', 'M01_2027')).statusCode).toBe(403);
    expect((await familyLock('admin', 'M09_2031')).json()).toMatchObject({ error: 'notFound', message: 'The month M09_2031 does not exist' });
    expect((await familyLock('editor', 'M12_2026')).json()).toMatchObject({ error: 'monthClosed' });
    await app.database.db.update(releases).set({ status: 'CLOSED' });
    expect((await familyLock('editor', 'M01_2027')).json()).toMatchObject({ error: 'releaseClosed' });
    expect(await app.database.db.select().from(locks)).toEqual([]);
    await app.database.db.update(releases).set({ status: 'OPEN' });
    // A family with no module in the month yet: any edit right will do (the planner is about to create one).
    expect((await familyLock('vltonly', 'M02_2027')).json()[0]).toMatchObject({ acquired: true });
    expect((await familyLock('viewer', 'M02_2027')).statusCode).toBe(403);
  });

  it('gives a macro-family lock only to who may edit every live module of the family-month', async () => {
    const db = app.database.db;
    // PILOT in 01/2027 now holds MOD_A (AUR) and two VLT modules; a module being deleted (VLT, NA) does not count.
    await buildModule(db, { moduleName: 'MOD_V1', brandCode: 'VLT' });
    await buildModule(db, { moduleName: 'MOD_V2', brandCode: 'VLT' });
    const gone = await buildModule(db, { moduleName: 'MOD_V3', brandCode: 'VLT', zones: ['NA'] });
    await db.update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.id, gone.id));
    const familyLock = (user: string) => post('/api/module/macroFamily/lock', user, [{ macroFamily: 'PILOT', monthId: 'M01_2027' }]);

    // The lock would hold still the VLT planners' modules too: an AUR editor may not take it.
    const refused = await familyLock('editor');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'forbidden',
      message: "You may not lock the macro family PILOT in M01_2027: 2 of its 3 modules there (brand VLT) are outside your edit rights.",
    });
    expect((await familyLock('vltonly')).json().message).toBe(
      "You may not lock the macro family PILOT in M01_2027: 1 of its 3 modules there (brand AUR) is outside your edit rights.",
    );
    expect(await db.select().from(locks)).toEqual([]);
    // The modules the editor may edit are still locked one by one (the module page opens as usual).
    expect((await lock('editor')).json()[0]).toMatchObject({ acquired: true });
    await post('/api/module/unlock', 'editor', [key]);

    // Edit rights on every live module's brand (and zone), or admin: the lock is taken.
    expect((await familyLock('bothbrands')).json()[0]).toMatchObject({ acquired: true, userLock: 'bothbrands' });
    await post('/api/module/macroFamily/unlock', 'bothbrands', [{ macroFamily: 'PILOT', monthId: 'M01_2027' }]);
    expect((await familyLock('admin')).json()[0]).toMatchObject({ acquired: true, userLock: 'admin' });
  });
});

describe('save', () => {
  it('refuses without the lock (422)', async () => {
    const res = await post('/api/module/save', 'editor', composition());
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(NOT_LOCKED);
  });

  it('saves the composition, bumps the version, audits, and answers the module', async () => {
    await lock('editor');
    const before = (await row())!;
    const res = await post('/api/module/save', 'editor', { ...composition(), moduleDescription: 'Summer core' });
    expect(res.statusCode).toBe(200);
    const dto = res.json();
    expect(dto.moduleDescription).toBe('Summer core');
    expect(dto.productDtoList.map((p: { upc: string; mustHave: boolean; moduleCompositionStatus: string }) => [p.upc, p.mustHave, p.moduleCompositionStatus])).toEqual([
      [upcs[0], false, 'ADDED'],
      [upcs[1], false, 'REMOVED'],
      [upcs[2], true, 'ADDED'],
    ]);
    expect(dto.productDtoList[2].minValue).toBe(1.5);
    expect(dto.productDtoList[1].previousVersion).toBe('EL');
    expect(dto).toMatchObject({ length: 1, elLength: 1, isEdited: false, status: 'WIP', locked: true, userLock: 'editor' });
    expect((await row())!.version).toBe(before.version + 1);
    const [entry] = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'save'));
    expect(entry).toMatchObject({ username: 'editor', itemType: 'module', itemKey: 'MOD_A', monthId: 'M01_2027' });
    expect(entry!.summary).toMatchObject({ composition: { before: { mh: 1, el: 1, removed: 0 }, after: { mh: 1, el: 1, removed: 1 } } });
  });

  it('saves only the description with onlyDescription=true', async () => {
    await lock('editor');
    const res = await post('/api/module/save?onlyDescription=true', 'editor', { ...composition(), newDescription: 'Only this' });
    expect(res.json().moduleDescription).toBe('Only this');
    expect((await lines((await row())!.id)).map((l) => l.upc)).toEqual([upcs[0], upcs[1]]);
  });

  it.each([
    ['a description over 100 characters', { moduleDescription: 'x'.repeat(101) }, 'body.moduleDescription'],
    ['a non-numeric minValue', { productDtoList: [{ upc: 'X', mustHave: true, moduleCompositionStatus: 'ADDED', minValue: 'abc' }] }, 'body.productDtoList.0.minValue'],
    ['an unknown composition status', { productDtoList: [{ upc: 'X', mustHave: true, moduleCompositionStatus: 'GONE' }] }, 'body.productDtoList.0.moduleCompositionStatus'],
  ])('refuses %s with 400 and writes nothing', async (_name, patch, field) => {
    await lock('editor');
    const res = await post('/api/module/save', 'editor', { ...composition(), ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { path: string }) => f.path)).toContain(field);
    expect((await row())!.version).toBe(1);
  });

  it('refuses unknown and duplicated SKUs with 400 and writes nothing', async () => {
    await lock('editor');
    const res = await post('/api/module/save', 'editor', composition([
      { upc: '000000000000', mustHave: true, moduleCompositionStatus: 'ADDED' },
      { upc: upcs[0], mustHave: true, moduleCompositionStatus: 'ADDED' },
    ]));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalidComposition');
    expect(res.json().fields.map((f: { message: string }) => f.message)).toEqual(
      expect.arrayContaining(['Unknown SKU 000000000000', `The SKU ${upcs[0]} is listed twice`]),
    );
    expect((await lines((await row())!.id)).map((l) => l.upc)).toEqual([upcs[0], upcs[1]]);
  });

  it('needs an edit grant on the brand and zone (403)', async () => {
    await app.database.db.insert(locks).values({ itemType: 'module', itemKey: 'MOD_A', monthId: 'M01_2027', owner: 'vltonly' });
    expect((await post('/api/module/save', 'vltonly', composition())).statusCode).toBe(403);
    expect((await post('/api/module/save', 'viewer', composition())).statusCode).toBe(403);
  });

  it('edits a SUBMITTED module only with the reopen rule, reopening it as WIP', async () => {
    await app.database.db.update(modules).set({ status: 'SUBMITTED' });
    await lock('editor');
    const refused = await post('/api/module/save', 'editor', composition());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'reopenRequired', message: 'The module is submitted: changing it needs the reopen right.' });
    await post('/api/module/unlock', 'editor', [key]);
    await lock('reopener');
    const ok = await post('/api/module/save', 'reopener', composition());
    expect(ok.statusCode).toBe(200);
    expect(ok.json().status).toBe('WIP');
  });

  it('blocks editing while SUBMIT_IN_PROGRESS, in a closed month and in a closed release (422)', async () => {
    await lock('admin');
    await app.database.db.update(modules).set({ status: 'SUBMIT_IN_PROGRESS' });
    expect((await post('/api/module/save', 'admin', composition())).json().error).toBe('submitInProgress');
    await app.database.db.update(modules).set({ status: 'WIP' });
    await app.database.db.update(releases).set({ status: 'CLOSED' });
    const closed = await post('/api/module/save', 'admin', composition());
    expect(closed.statusCode).toBe(422);
    expect(closed.json()).toEqual({ error: 'releaseClosed', message: 'The release of this month is closed: its modules are read-only.' });
    await app.database.db.update(releases).set({ status: 'OPEN' });
    await app.database.db.update(months).set({ open: false }).where(eq(months.monthId, 'M01_2027'));
    expect((await post('/api/module/save', 'admin', composition())).json().error).toBe('monthClosed');
  });

  it('answers 404 for an unknown module', async () => {
    expect((await post('/api/module/save', 'editor', { moduleName: 'NOPE', monthId: 'M01_2027' })).statusCode).toBe(404);
  });

  it('saveList saves all or nothing', async () => {
    await buildModule(app.database.db, { moduleName: 'MOD_B', skus: [{ upc: upcs[3]! }] });
    await lock('editor');
    const notLocked = await post('/api/module/saveList', 'editor', [composition(), { moduleName: 'MOD_B', monthId: 'M01_2027', productDtoList: [] }]);
    expect(notLocked.json()).toEqual([`MOD_B (M01_2027): ${NOT_LOCKED}`]);
    expect((await row())!.version).toBe(1);
    await lock('editor', { moduleName: 'MOD_B', monthId: 'M01_2027' });
    const ok = await post('/api/module/saveList', 'editor', [composition(), { moduleName: 'MOD_B', monthId: 'M01_2027', productDtoList: [] }]);
    expect(ok.json()).toEqual([]);
    expect((await row())!.version).toBe(2);
  });
});

describe('publish', () => {
  it('needs a submit grant (403)', async () => {
    await lock('editor');
    expect((await post('/api/module/publish', 'editor', key)).statusCode).toBe(403);
  });

  it('publishes a WIP module through the planning system: SUBMIT_IN_PROGRESS, then SUBMITTED', async () => {
    await lock('submitter');
    const res = await post('/api/module/publish', 'submitter', composition());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'The submission process has been started' });
    expect((await row())!.status).toBe('SUBMIT_IN_PROGRESS');
    // Editing is blocked while the submission runs.
    expect((await post('/api/module/save', 'submitter', composition())).json().error).toBe('submitInProgress');
    await app.jobs.drain();
    const after = (await row())!;
    expect(after.status).toBe('SUBMITTED');
    expect(after.publicationDate).toBeInstanceOf(Date);
    expect(after.rpasErrors).toBeNull();
    const files = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toEqual([`module-MOD_A-M01_2027-job${res.json().jobId}.json`]);
    const sent = JSON.parse(fs.readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8'));
    expect(sent.payload.skus.map((s: { upc: string }) => s.upc)).toEqual([upcs[0], upcs[2]]);
    const job = await app.inject({ method: 'GET', url: `/api/jobs/${res.json().jobId}`, headers: h.submitter });
    expect(job.json()).toMatchObject({ status: 'DONE', progress: 100 });
  });

  it('publishes only from WIP (422)', async () => {
    await app.database.db.update(modules).set({ status: 'SUBMITTED' });
    await lock('submitter');
    const res = await post('/api/module/publish', 'submitter', key);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'notWip', message: 'Only modules in WIP can be published.' });
  });

  it('returns a rejected module to WIP with the planning system\'s errors, semicolon-separated', async () => {
    const { skus } = await import('../../db/schema.js');
    await lock('submitter');
    expect((await post('/api/module/publish', 'submitter', key)).statusCode).toBe(200);
    // The SKUs are disabled in SAP after the checks passed, before the planning system gets the module.
    await app.database.db.update(skus).set({ sapStatus: 'Z' }).where(eq(skus.upc, upcs[0]!));
    await app.database.db.update(skus).set({ sapStatus: 'I' }).where(eq(skus.upc, upcs[1]!));
    await app.jobs.drain();
    const after = (await row())!;
    expect(after.status).toBe('WIP');
    expect(after.rpasErrors).toBe(`SKU ${upcs[0]} is disabled in SAP;SKU ${upcs[1]} is disabled in SAP`);
    const [dto] = (await post('/api/module/details', 'submitter', [key])).json();
    expect(dto.rpasErrors.split(';')).toHaveLength(2);
  });

  it('rejects an empty module with "The module has no active SKU"', async () => {
    await lock('submitter');
    expect((await post('/api/module/publish', 'submitter', key)).statusCode).toBe(200);
    // The lines go after the checks passed, before the planning system gets the module.
    await app.database.db.delete(moduleSkus).where(eq(moduleSkus.moduleId, (await row())!.id));
    await app.jobs.drain();
    expect((await row())!.rpasErrors).toBe('The module has no active SKU');
  });

  it('publishList publishes all or none', async () => {
    await buildModule(app.database.db, { moduleName: 'MOD_B', status: 'SUBMITTED', skus: [{ upc: upcs[3]! }] });
    await lock('submitter');
    await lock('submitter', { moduleName: 'MOD_B', monthId: 'M01_2027' });
    const res = await post('/api/module/publishList', 'submitter', [key, { moduleName: 'MOD_B', monthId: 'M01_2027' }]);
    expect(res.json()).toEqual({ errors: ['MOD_B (M01_2027): Only modules in WIP can be published.'] });
    expect((await row())!.status).toBe('WIP');
    const ok = await post('/api/module/publishList', 'submitter', [key]);
    expect(ok.json().message).toBe('The submission process has been started');
  });
});

describe('copy and months', () => {
  it('lists the open months a module may be copied to, and those it may be deleted from', async () => {
    const copy = await app.inject({ method: 'GET', url: '/api/module/MOD_A/months?monthId=M01_2027', headers: h.editor });
    expect(copy.json()).toEqual(['M02_2027', 'M10_2027']);
    const del = await app.inject({ method: 'GET', url: '/api/module/MOD_A/months?purpose=delete', headers: h.editor });
    expect(del.json()).toEqual(['M01_2027']);
    const none = await app.inject({ method: 'GET', url: '/api/module/NOPE/months', headers: h.editor });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('Failed to fetch months for module NOPE');
    // A caller who may not see the module learns nothing of its months.
    for (const url of ['/api/module/MOD_A/months?monthId=M01_2027', '/api/module/MOD_A/months?purpose=delete']) {
      expect((await app.inject({ method: 'GET', url, headers: h.vltonly })).statusCode, url).toBe(403);
    }
  });

  it('copies into open months, creating or overwriting, and reports the rest', async () => {
    await buildModule(app.database.db, { moduleName: 'MOD_A', monthId: 'M10_2027', skus: [{ upc: upcs[3]! }], moduleDescription: 'old' });
    await buildModule(app.database.db, { moduleName: 'MOD_B', monthId: 'M01_2027' });
    const res = await post('/api/module/copyCompositions', 'creator', {
      modules: [{ ...key, destinationMonthList: ['M02_2027', 'M10_2027', 'M12_2026'] }],
      toPublish: false,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.copied).toEqual([{ moduleName: 'MOD_A', months: ['M02_2027', 'M10_2027'] }]);
    expect(body.errors).toEqual([{ moduleName: 'MOD_A', months: ['M12_2026'], message: 'The month 12/2026 is closed' }]);
    for (const m of ['M02_2027', 'M10_2027']) {
      const copied = (await row(m))!;
      expect((await lines(copied.id)).map((l) => [l.upc, l.mustHave])).toEqual([
        [upcs[0], true],
        [upcs[1], false],
      ]);
      expect(copied.status).toBe('WIP');
    }
    expect((await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'copy'))).length).toBe(2);
  });

  it('does not copy over a module another user is editing', async () => {
    await buildModule(app.database.db, { moduleName: 'MOD_A', monthId: 'M02_2027' });
    await app.database.db.insert(locks).values({ itemType: 'module', itemKey: 'MOD_A', monthId: 'M02_2027', owner: 'other' });
    const res = await post('/api/module/copyCompositions', 'creator', { modules: [{ ...key, destinationMonthList: ['M02_2027'] }] });
    expect(res.json().errors).toEqual([{ moduleName: 'MOD_A', months: ['M02_2027'], message: 'other is editing the module in 02/2027' }]);
  });

  it('publishes the copies with toPublish', async () => {
    const res = await post('/api/module/copyCompositions', 'creatorsub', { modules: [{ ...key, destinationMonthList: ['M02_2027'] }], toPublish: true });
    expect(res.json().copied).toEqual([{ moduleName: 'MOD_A', months: ['M02_2027'] }]);
    expect(res.json().outcome).toMatchObject({ counts: { copied: 1, published: 1, notPublished: 0, failed: 0 }, publishedMonths: [{ itemKey: 'MOD_A', months: ['M02_2027'] }] });
    await app.jobs.drain();
    expect((await row('M02_2027'))!.status).toBe('SUBMITTED');
    expect((await row('M01_2027'))!.status).toBe('WIP');
  });

  it('reports copies that the caller may not publish', async () => {
    const res = await post('/api/module/copyCompositions', 'pcreator', { modules: [{ ...key, destinationMonthList: ['M02_2027'] }], toPublish: true });
    expect(res.json().errors).toEqual([{ moduleName: 'MOD_A', months: ['M02_2027'], message: "Copied, but you don't have the right to publish it" }]);
    // Issue 34 item 2: copied, not published (with the reason), nothing failed.
    expect(res.json().outcome).toEqual({
      toPublish: true,
      counts: { copied: 1, published: 0, notPublished: 1, failed: 0 },
      copiedMonths: [{ itemKey: 'MOD_A', months: ['M02_2027'] }],
      publishedMonths: [],
      notPublished: [{ itemKey: 'MOD_A', months: ['M02_2027'], message: "Copied, but you don't have the right to publish it" }],
      failed: [],
    });
  });

  it('needs an edit or submit right on the module (403), and a month list', async () => {
    expect((await post('/api/module/copyCompositions', 'viewer', { modules: [{ ...key, destinationMonthList: ['M02_2027'] }] })).statusCode).toBe(403);
    expect((await post('/api/module/copyCompositions', 'vltonly', { modules: [{ ...key, destinationMonthList: ['M02_2027'] }] })).statusCode).toBe(403);
  });

  it('is for admins and creators only, as the copy popup (part 1 §6): Save with edit, Save & Publish with submit', async () => {
    const copy = (user: string, toPublish: boolean) => post('/api/module/copyCompositions', user, { modules: [{ ...key, destinationMonthList: ['M02_2027'] }], toPublish });
    expect((await copy('editor', false)).statusCode).toBe(403);
    expect((await copy('submitter', false)).statusCode).toBe(403);
    expect((await copy('submitter', true)).statusCode).toBe(403);
    expect((await copy('creator', true)).statusCode).toBe(403);
    expect(await row('M02_2027')).toBeUndefined();
    expect((await copy('creator', false)).statusCode).toBe(200);
    expect((await copy('admin', false)).statusCode).toBe(200);
    expect((await post('/api/module/copyCompositions', 'editor', { modules: [{ ...key, destinationMonthList: [] }] })).statusCode).toBe(400);
  });
});

describe('audit', () => {
  it('records who did what on every action', async () => {
    await lock('submitter');
    await post('/api/module/save', 'submitter', composition());
    await post('/api/module/publish', 'submitter', key);
    await app.jobs.drain();
    const actions = await app.database.db
      .select({ action: auditLog.action, username: auditLog.username })
      .from(auditLog)
      .where(sql`${auditLog.action} <> 'login'`)
      .orderBy(auditLog.id);
    expect(actions).toEqual([
      { action: 'save', username: 'submitter' },
      { action: 'publish', username: 'submitter' },
      { action: 'publish-accepted', username: 'submitter' },
    ]);
  });
});
