/**
 * The MH / EL counts kept on each module (modules.mh_count / el_count, migration 0010): after every write of
 * module_skus, through the app's real write paths and through plain SQL, they equal a fresh count of the
 * module's lines not in the bin. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { AUR_EU, buildModule, buildSku } from '../../../test/builders.js';
import { withJobRunner } from '../../../test/cluster-test-app.js';
import { multipartBody } from '../../../test/multipart.js';
import { buildTestApp, type TestUsers } from '../../../test/test-app.js';
import { queryRows, type Db } from '../../db/client.js';
import { clientClassifications, macroFamilies } from '../../db/schema.js';
import { csvField } from '../../areas/uploads/release-loader/release-export.js';
import { FORMATS, RELEASE_FILE_KINDS, type ReleaseFileKind } from '../../areas/uploads/release-loader/formats.js';
import { bufferSource, type FileSource } from '../../areas/uploads/release-loader/read-records.js';
import { loadRelease } from '../../areas/uploads/release-loader/release-loader.service.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let db: Db;
let h: Record<User, { authorization: string }>;
let upc: string[];

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: USERS, manualJobs: true, tempDataDir: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 } });
  app = test.app;
  db = test.db;
  upc = [];
  for (let i = 0; i < 6; i++) upc.push((await buildSku(db)).upc);
  await db.transaction((tx) =>
    buildModule(tx as unknown as Db, {
      moduleName: 'MOD_A',
      skus: [
        { upc: upc[0]!, mustHave: true },
        { upc: upc[1]!, mustHave: false },
        { upc: upc[2]!, mustHave: true, status: 'REMOVED' },
        { upc: upc[3]!, mustHave: false, status: 'NEW' },
      ],
    }),
  );
  await buildModule(db, { moduleName: 'MOD_B', skus: [{ upc: upc[0]!, mustHave: false }] });
  await buildModule(db, { moduleName: 'MOD_EMPTY' });
  h = {} as typeof h;
  for (const u of Object.keys(USERS) as User[]) h[u] = await test.as(u);
});
afterEach(async () => {
  await app.close();
});

const post = (url: string, user: User, payload: unknown) => app.inject({ method: 'POST', url, headers: h[user], payload: payload as object });

interface Counted {
  key: string;
  stored: [number, number];
  counted: [number, number];
}

/** Every module's stored counts beside a fresh count of its lines not in the bin. */
async function countsOfAll(on: Db = db): Promise<Counted[]> {
  const rows = await queryRows<{ key: string; mh_count: number; el_count: number; mh: number; el: number }>(
    on,
    sql`SELECT m.module_name || '/' || m.month_id AS key, m.mh_count, m.el_count,
               count(s.module_id) FILTER (WHERE s.must_have)::int AS mh, count(s.module_id) FILTER (WHERE NOT s.must_have)::int AS el
          FROM modules m LEFT JOIN module_skus s ON s.module_id = m.id AND s.status <> 'REMOVED'
         GROUP BY m.id ORDER BY 1`,
  );
  return rows.map((r) => ({ key: r.key, stored: [Number(r.mh_count), Number(r.el_count)], counted: [Number(r.mh), Number(r.el)] }));
}

/** Asserts every module's stored counts are the fresh count; answers them by `name/month`. */
async function expectCountsTrue(on: Db = db): Promise<Record<string, [number, number]>> {
  const all = await countsOfAll(on);
  expect(all.filter((c) => c.stored[0] !== c.counted[0] || c.stored[1] !== c.counted[1])).toEqual([]);
  return Object.fromEntries(all.map((c) => [c.key, c.stored]));
}

const A = 'MOD_A/M01_2027';

type Line = { upc: string; mustHave: boolean; minValue?: number };
async function save(user: User, lines: Line[], query = '') {
  const key = { moduleName: 'MOD_A', monthId: 'M01_2027' };
  expect((await post('/api/module/lock', user, [key])).json()[0].acquired).toBe(true);
  const res = await post(`/api/module/save${query}`, user, { ...key, productDtoList: lines.map((l) => ({ moduleCompositionStatus: 'ADDED', minValue: 1, ...l })) });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/** The module search's MH / EL of each module (what the home list shows). */
async function listed(): Promise<Record<string, [number, number]>> {
  const res = await post('/api/module/filtered', 'admin', { monthId: ['M01_2027', 'M02_2027'], brand: ['AUR'] });
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json() as { moduleName: string; monthId: string; length: number; elLength: number }[];
  return Object.fromEntries(items.map((m) => [`${m.moduleName}/${m.monthId}`, [m.length, m.elLength]]));
}

describe('line counts kept on the module', () => {
  it('are counted for lines written directly (builders), and the home search shows them', async () => {
    expect(await expectCountsTrue()).toEqual({ [A]: [1, 2], 'MOD_B/M01_2027': [0, 1], 'MOD_EMPTY/M01_2027': [0, 0] });
    expect(await listed()).toEqual({ [A]: [1, 2], 'MOD_B/M01_2027': [0, 1], 'MOD_EMPTY/M01_2027': [0, 0] });
  });

  it('follow a module save and a revert, without bumping the version more than the save does', async () => {
    const [before] = await queryRows<{ version: number; updated_at: string }>(db, sql`SELECT version, updated_at::text FROM modules WHERE module_name = 'MOD_A'`);
    await save('editor', [
      { upc: upc[0]!, mustHave: false },
      { upc: upc[4]!, mustHave: true },
      { upc: upc[5]!, mustHave: true },
    ]);
    expect((await expectCountsTrue())[A]).toEqual([2, 1]);
    expect((await listed())[A]).toEqual([2, 1]);
    const [after] = await queryRows<{ version: number }>(db, sql`SELECT version FROM modules WHERE module_name = 'MOD_A'`);
    expect(after!.version).toBe(before!.version + 1);
    const versions = await queryRows<{ version: number; action: string }>(db, sql`SELECT version, action FROM item_versions WHERE item_key = 'MOD_A' ORDER BY version`);
    expect(versions.map((v) => v.action)).toEqual(['create', 'save']); // one version for the save, none for the counts

    // Back to version 1's composition (a save with revertOf).
    await save('editor', [{ upc: upc[0]!, mustHave: true }, { upc: upc[1]!, mustHave: false }, { upc: upc[3]!, mustHave: false }], '?revertOf=1');
    expect((await expectCountsTrue())[A]).toEqual([1, 2]);
    // Emptied.
    await save('editor', []);
    expect((await expectCountsTrue())[A]).toEqual([0, 0]);
  });

  it('follow a massive edit, a module creation, a copy and an import', async () => {
    const edit = await post('/api/module/massiveEdit/', 'editor', {
      massiveEditList: [{ moduleLabels: ['MOD_A', 'MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[4], upc[2]], upcStatus: 'MH', upcToRemoveList: [upc[1]] }],
      toPublish: false,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await app.jobs.drain();
    let counts = await expectCountsTrue();
    expect(counts[A]).toEqual([3, 1]);
    expect(counts['MOD_B/M01_2027']).toEqual([2, 1]);

    const created = await post('/api/module/create', 'admin', {
      moduleName: 'AUR_SUN_PILOT_99', moduleLabel: 'Aurora Sun Pilot 99', moduleDescription: 'new', monthId: 'M02_2027',
      macroFamily: 'PILOT', brand: 'AUR', collection: 'SUN', starZones: ['EU'], initialSize: 12,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((await expectCountsTrue())['AUR_SUN_PILOT_99/M02_2027']).toEqual([0, 0]);

    const copy = await withJobRunner(app, post('/api/module/copyCompositions', 'admin', { modules: [{ moduleName: 'MOD_A', monthId: 'M01_2027', destinationMonthList: ['M02_2027'] }], toPublish: false }));
    expect(copy.statusCode, copy.body).toBe(200);
    counts = await expectCountsTrue();
    expect(counts['MOD_A/M02_2027']).toEqual([3, 1]);

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Modules');
    ws.addRow(['Module name', 'Month', 'UPC', 'MH/EL', 'Min value', 'Module label', 'Macro family', 'Brand', 'Collection']);
    ws.addRow(['MOD_EMPTY', 'M01_2027', upc[5]!, 'EL', 2]);
    ws.addRow(['MOD_NEW', 'M02_2027', upc[2]!, 'MH', 2, 'New module', 'PILOT', 'AUR', 'SUN']);
    ws.addRow(['MOD_NEW', 'M02_2027', upc[3]!, 'EL', 1, 'New module', 'PILOT', 'AUR', 'SUN']);
    const { payload, headers } = multipartBody([{ field: 'excelFile', fileName: 'modules.xlsx', content: Buffer.from(await wb.xlsx.writeBuffer()) }]);
    const imported = await app.inject({ method: 'POST', url: '/api/upload/module', headers: { ...h.admin, ...headers }, payload });
    expect(imported.statusCode, imported.body).toBe(200);
    await app.jobs.drain();
    counts = await expectCountsTrue();
    expect(counts['MOD_EMPTY/M01_2027']).toEqual([0, 1]);
    expect(counts['MOD_NEW/M02_2027']).toEqual([1, 1]);
    expect(await listed()).toMatchObject({ 'MOD_NEW/M02_2027': [1, 1], 'MOD_A/M02_2027': [3, 1], [A]: [3, 1] });
  });

  it('stay true through a deletion (the lines stay), a module row deleted with its lines, and TRUNCATE', async () => {
    const del = await app.inject({ method: 'DELETE', url: '/api/module', headers: h.admin, payload: [{ moduleName: 'MOD_B', monthId: 'M01_2027' }] });
    expect(del.statusCode, del.body).toBe(200);
    expect((await expectCountsTrue())['MOD_B/M01_2027']).toEqual([0, 1]);
    await db.execute(sql`DELETE FROM modules WHERE module_name = 'MOD_B'`); // its lines go by ON DELETE CASCADE
    expect(await expectCountsTrue()).toEqual({ [A]: [1, 2], 'MOD_EMPTY/M01_2027': [0, 0] });
    await db.execute(sql`TRUNCATE module_skus`);
    expect(await expectCountsTrue()).toEqual({ [A]: [0, 0], 'MOD_EMPTY/M01_2027': [0, 0] });
  });

  it('follow plain SQL writers: moves between modules, bin and back, upserts, rollbacks; the version, updated_at and history untouched', async () => {
    const ids = Object.fromEntries(
      (await queryRows<{ module_name: string; id: number }>(db, sql`SELECT module_name, id::int AS id FROM modules`)).map((r) => [r.module_name, Number(r.id)]),
    );
    const before = await queryRows(db, sql`SELECT id, version, updated_at::text, updated_by FROM modules ORDER BY id`);
    const historyBefore = await queryRows(db, sql`SELECT item_key, version FROM item_versions ORDER BY 1, 2`);
    await db.execute(sql`UPDATE module_skus SET module_id = ${ids.MOD_EMPTY} WHERE module_id = ${ids.MOD_A} AND upc IN (${upc[0]}, ${upc[2]})`);
    expect(await expectCountsTrue()).toMatchObject({ [A]: [0, 2], 'MOD_EMPTY/M01_2027': [1, 0] });
    await db.execute(sql`UPDATE module_skus SET status = CASE status WHEN 'REMOVED' THEN 'ADDED' ELSE 'REMOVED' END`);
    expect(await expectCountsTrue()).toMatchObject({ [A]: [0, 0], 'MOD_B/M01_2027': [0, 0], 'MOD_EMPTY/M01_2027': [1, 0] });
    await db.execute(
      sql`INSERT INTO module_skus (module_id, upc, must_have, status, position) VALUES (${ids.MOD_A}, ${upc[1]}, true, 'ADDED', 0), (${ids.MOD_A}, ${upc[5]}, false, 'NEW', 9)
          ON CONFLICT (module_id, upc) DO UPDATE SET must_have = EXCLUDED.must_have, status = EXCLUDED.status`,
    );
    expect(await expectCountsTrue()).toMatchObject({ [A]: [1, 1] });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM module_skus`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await expectCountsTrue()).toMatchObject({ [A]: [1, 1] });
    // A statement that touches no line, and one that changes nothing counted.
    await db.execute(sql`DELETE FROM module_skus WHERE upc = 'nothing'`);
    await db.execute(sql`UPDATE module_skus SET min_value = 3, position = position + 1`);
    expect(await expectCountsTrue()).toMatchObject({ [A]: [1, 1] });

    expect(await queryRows(db, sql`SELECT id, version, updated_at::text, updated_by FROM modules ORDER BY id`)).toEqual(before);
    expect(await queryRows(db, sql`SELECT item_key, version FROM item_versions ORDER BY 1, 2`)).toEqual(historyBefore);
  });

  it('follow statements of more than 50 lines as those of fewer (the triggers plan those past 50 for their size)', async () => {
    const more: string[] = [];
    for (let i = 0; i < 60; i++) more.push((await buildSku(db)).upc);
    const [empty] = await queryRows<{ id: number }>(db, sql`SELECT id::int AS id FROM modules WHERE module_name = 'MOD_EMPTY'`);
    const id = empty!.id;
    // 60 lines in one statement: 6 in the bin, 18 MH and 36 EL.
    const values = sql.join(
      more.map((u, i) => sql`(${id}::bigint, ${u}, ${i % 3 === 0}, ${i % 10 === 9 ? 'REMOVED' : 'ADDED'}, ${i})`),
      sql`, `,
    );
    await db.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status, position) VALUES ${values}`);
    expect((await expectCountsTrue())['MOD_EMPTY/M01_2027']).toEqual([18, 36]);
    await db.execute(sql`UPDATE module_skus SET must_have = NOT must_have WHERE module_id = ${id}`);
    expect((await expectCountsTrue())['MOD_EMPTY/M01_2027']).toEqual([36, 18]);
    await db.execute(sql`UPDATE module_skus SET must_have = NOT must_have WHERE module_id = ${id} AND position < 3`);
    expect((await expectCountsTrue())['MOD_EMPTY/M01_2027']).toEqual([35, 19]);
    await db.execute(sql`UPDATE module_skus SET status = 'REMOVED' WHERE module_id = ${id} AND position < 55`);
    await expectCountsTrue();
    await db.execute(sql`DELETE FROM module_skus WHERE module_id = ${id} AND position >= 57`);
    await expectCountsTrue();
    await db.execute(sql`UPDATE module_skus SET status = 'ADDED' WHERE module_id = ${id}`);
    expect((await expectCountsTrue())['MOD_EMPTY/M01_2027']).toEqual([37, 20]);
    await db.execute(sql`DELETE FROM module_skus WHERE module_id = ${id}`);
    expect((await expectCountsTrue())['MOD_EMPTY/M01_2027']).toEqual([0, 0]);
  });

  it('follow a bulk load with session_replication_role = replica (as the demo seed loads)', async () => {
    const [su] = await queryRows<{ su: string }>(db, sql`SELECT current_setting('is_superuser') AS su`);
    if (su?.su !== 'on') return;
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status, position)
                           SELECT m.id, ${upc[5]}, true, 'ADDED', 0 FROM modules m`);
    });
    expect(await expectCountsTrue()).toEqual({ [A]: [2, 2], 'MOD_B/M01_2027': [1, 1], 'MOD_EMPTY/M01_2027': [1, 0] });
  });

  it('keep a concurrent writer of the same module counted (PostgreSQL: two connections)', async () => {
    if (app.database.kind !== 'postgres') return;
    const [{ id } = { id: 0 }] = await queryRows<{ id: number }>(db, sql`SELECT id::int AS id FROM modules WHERE module_name = 'MOD_EMPTY'`);
    // Two transactions each add a line to the same module; the first holds its lock until the second has counted.
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstWrote!: () => void;
    const firstHasWritten = new Promise<void>((resolve) => (firstWrote = resolve));
    const first = db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status, position) VALUES (${id}, ${upc[0]}, true, 'ADDED', 0)`);
      firstWrote();
      await firstMayCommit;
    });
    await firstHasWritten;
    const second = db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status, position) VALUES (${id}, ${upc[1]}, true, 'ADDED', 1)`);
    });
    await new Promise((r) => setTimeout(r, 200)); // the second now waits for the module's row
    releaseFirst();
    await Promise.all([first, second]);
    expect((await expectCountsTrue())['MOD_EMPTY/M01_2027']).toEqual([2, 0]);
  });
});

// ───────────── the release loader ─────────────

type Row = Record<string, string>;
const SKU = (code: string, n: number): Row => ({
  upc: code, skuId: String(n), model: 'AU4012', color: 'C01', colorDescription: 'Black', size: '52', materialCode: `AU4012C01-${n}`,
  skuCode: `SC${n}`, brandCode: 'AUR', collection: 'SUN', planningChannelId: 'RETAIL', srp: '129.90', whsprice: '60',
  releaseDate: '2026-11-01', insertDate: '2026-10-01', gedConfirmed: 'true', flagDisco: 'false', globalCatalogue: 'YES',
  gender: 'Unisex', frameMaterial: 'Acetate', marketingTheme: 'Summer',
});
const STORE: Row = {
  storeJda: 'S1', codiceStoreSap: 'SAP1', storeName: 'Store S1', countryCode: 'IT', customerSegmentation: 'SILVER', segmentationLabel: 'Silver',
  planningChannelId: 'RETAIL', starsCustomer: 'C100', starsCustomerName: 'Ottica Roma', starsCustomerCountry: 'IT',
  starsCustomerPlanningChannel: 'RETAIL', distributionChannel: 'Optician',
};
const HEAD = (moduleName: string): Row => ({
  moduleName, monthId: 'M01_2027', moduleLabel: `Label ${moduleName}`, moduleDescription: 'loaded', macroFamily: 'PILOT',
  brandCode: 'AUR', collection: 'SUN', starsZones: 'EU', newModule: 'false',
});
const LINE = (moduleName: string, code: string, mustHave: 'MH' | 'EL', status = 'ADDED'): Row => ({
  ...HEAD(moduleName), upc: code, mustHave, status, minValue: '1', position: '1',
  ...(status === 'REMOVED' ? { previousStatus: 'ADDED', previousMustHave: mustHave } : {}),
});
function csv(kind: ReleaseFileKind, rows: Row[]): string {
  const names = FORMATS[kind].columns.map((c) => c.name);
  const line = (cells: string[]) => cells.map((c) => csvField(c, ';')).join(';');
  return [line(names), ...rows.map((r) => line(names.map((n) => r[n] ?? '')))].join('\n') + '\n';
}

describe('line counts after a release load', () => {
  beforeEach(async () => {
    await db.insert(macroFamilies).values({ macroFamily: 'PILOT' }).onConflictDoNothing();
    await db.insert(clientClassifications).values({ classificationLabel: 'VIP' });
  });

  for (const bulk of [false, true]) {
    it(`massive then delta, ${bulk ? 'as a bulk rewrite (keys and indexes rebuilt)' : 'row by row'}`, async () => {
      const codes = ['800000000001', '800000000002', '800000000003', '800000000004'];
      const registry = codes.map((c, i) => SKU(c, i + 1));
      const load = (module: Row[], type: 'massive' | 'delta') =>
        loadRelease(db, {
          releaseId: 'R2027',
          type,
          username: 'loader',
          files: Object.fromEntries(
            RELEASE_FILE_KINDS.map((k) => [k, bufferSource(`${k}.csv`, csv(k, { registry, segment: [STORE], module, cluster: [] }[k]))]),
          ) as Record<ReleaseFileKind, FileSource>,
          ...(bulk ? { bulkMinLines: 1 } : {}),
        });
      const massive = await load(
        [
          LINE('MOD_A', codes[0]!, 'EL'),
          LINE('MOD_A', codes[1]!, 'EL'),
          LINE('MOD_A', codes[2]!, 'MH', 'REMOVED'),
          LINE('MOD_L1', codes[0]!, 'MH'),
          LINE('MOD_L1', codes[1]!, 'MH'),
          LINE('MOD_L1', codes[3]!, 'EL', 'NEW'),
        ],
        'massive',
      );
      expect(massive.ok, JSON.stringify(massive)).toBe(true);
      // MOD_B and MOD_EMPTY (M01_2027, in R2027) are not in the files: a massive load removes them with their lines.
      expect(await expectCountsTrue()).toEqual({ [A]: [0, 2], 'MOD_L1/M01_2027': [2, 1] });
      const delta = await load([LINE('MOD_L1', codes[2]!, 'EL'), LINE('MOD_L2', codes[3]!, 'MH')], 'delta');
      expect(delta.ok, JSON.stringify(delta)).toBe(true);
      expect(await expectCountsTrue()).toEqual({ [A]: [0, 2], 'MOD_L1/M01_2027': [0, 1], 'MOD_L2/M01_2027': [1, 0] });
      expect(await listed()).toEqual({ [A]: [0, 2], 'MOD_L1/M01_2027': [0, 1], 'MOD_L2/M01_2027': [1, 0] });
    });
  }
});

// ───────────── any sequence of statements ─────────────

type Op =
  | { kind: 'insert'; lines: { m: number; u: number; mh: boolean; removed: boolean }[] }
  | { kind: 'update'; m: number | null; set: 'flip' | 'bin' | 'unbin' | 'move'; to: number }
  | { kind: 'delete'; m: number | null; u: number | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    lines: fc.array(fc.record({ m: fc.nat(2), u: fc.nat(5), mh: fc.boolean(), removed: fc.boolean() }), { minLength: 0, maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant('update' as const), m: fc.option(fc.nat(2)), set: fc.constantFrom('flip' as const, 'bin' as const, 'unbin' as const, 'move' as const), to: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete' as const), m: fc.option(fc.nat(2)), u: fc.option(fc.nat(5)) }),
);

describe('line counts, property', () => {
  it('equal a fresh count after any sequence of inserts, updates (class, bin, move) and deletes, one statement each', async () => {
    const ids = (await queryRows<{ id: number }>(db, sql`SELECT id::int AS id FROM modules ORDER BY id`)).map((r) => Number(r.id));
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        await db.execute(sql`DELETE FROM module_skus`);
        for (const o of ops) {
          if (o.kind === 'insert') {
            // One row per (module, upc) in a statement; a line already there is overwritten (ON CONFLICT … DO UPDATE).
            const unique = [...new Map(o.lines.map((l) => [`${l.m}|${l.u}`, l])).values()];
            if (unique.length === 0) continue;
            const values = sql.join(
              unique.map((l) => sql`(${ids[l.m]!}::bigint, ${upc[l.u]!}, ${l.mh}, ${l.removed ? 'REMOVED' : 'ADDED'}, 0)`),
              sql`, `,
            );
            await db.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status, position) VALUES ${values}
                                 ON CONFLICT (module_id, upc) DO UPDATE SET must_have = EXCLUDED.must_have, status = EXCLUDED.status`);
          } else if (o.kind === 'update') {
            const where = o.m === null ? sql`TRUE` : sql`module_id = ${ids[o.m]!}`;
            if (o.set === 'flip') await db.execute(sql`UPDATE module_skus SET must_have = NOT must_have WHERE ${where}`);
            else if (o.set === 'bin') await db.execute(sql`UPDATE module_skus SET status = 'REMOVED' WHERE ${where}`);
            else if (o.set === 'unbin') await db.execute(sql`UPDATE module_skus SET status = 'NEW' WHERE ${where} AND status = 'REMOVED'`);
            else {
              // Moves to module `to` the SKUs it does not hold yet, each from one other module (the first by id).
              const to = ids[o.to]!;
              await db.execute(sql`UPDATE module_skus s SET module_id = ${to} WHERE ${where} AND s.module_id <> ${to}
                                   AND NOT EXISTS (SELECT 1 FROM module_skus t WHERE t.module_id = ${to} AND t.upc = s.upc)
                                   AND s.module_id = (SELECT min(o.module_id) FROM module_skus o WHERE o.upc = s.upc AND o.module_id <> ${to})`);
            }
          } else {
            const byModule = o.m === null ? sql`TRUE` : sql`module_id = ${ids[o.m]!}`;
            const byUpc = o.u === null ? sql`TRUE` : sql`upc = ${upc[o.u]!}`;
            await db.execute(sql`DELETE FROM module_skus WHERE ${byModule} AND ${byUpc}`);
          }
          const all = await countsOfAll();
          expect(all.filter((c) => c.stored[0] !== c.counted[0] || c.stored[1] !== c.counted[1])).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('module save, property', () => {
  // A save writes only the lines that differ from the stored ones (module-lifecycle.service saveInTx): whatever
  // was stored, the module then holds exactly the lines of the body, in its order, with their class, status,
  // min value and previous status, and its counts are true. Each save is the one before with one edit, as a
  // planner makes them: one field of one line, two lines swapped, a line dropped or added.
  type Body = { upc: string; mustHave: boolean; moduleCompositionStatus: 'ADDED' | 'NEW' | 'REMOVED'; minValue: number; previousStatus: string | null };
  const fields = {
    mustHave: fc.boolean(),
    moduleCompositionStatus: fc.constantFrom('ADDED' as const, 'NEW' as const, 'REMOVED' as const),
    minValue: fc.constantFrom(1, 2, 0.5),
    previousStatus: fc.constantFrom(null, 'ADDED', 'NEW'),
  };
  const line = (u: number) => fc.record(fields).map((f) => ({ u, ...f }));
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('field' as const), i: fc.nat(), field: fc.constantFrom(...(Object.keys(fields) as (keyof typeof fields)[])), seed: fc.record(fields) }),
    fc.record({ kind: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }),
    fc.record({ kind: fc.constant('drop' as const), i: fc.nat() }),
    fc.record({ kind: fc.constant('add' as const), u: fc.nat(5), at: fc.nat() }).chain((e) => line(e.u).map((l) => ({ ...e, line: l }))),
  );
  it('stores exactly the lines it sends, in order, after any earlier save', async () => {
    const key = { moduleName: 'MOD_A', monthId: 'M01_2027' };
    expect((await post('/api/module/lock', 'editor', [key])).json()[0].acquired).toBe(true);
    const start = fc.uniqueArray(fc.nat(5), { maxLength: 6 }).chain((us) => fc.tuple(...us.map(line)).map((lines) => [...lines]));
    await fc.assert(
      fc.asyncProperty(start, fc.array(edit, { minLength: 1, maxLength: 6 }), async (first, edits) => {
        let body: Body[] = first.map(({ u, ...f }) => ({ upc: upc[u]!, ...f }));
        for (const e of [null, ...edits]) {
          body = [...body];
          if (e?.kind === 'field' && body.length) {
            const i = e.i % body.length;
            body[i] = { ...body[i]!, [e.field]: e.seed[e.field] };
          } else if (e?.kind === 'swap' && body.length) {
            const [i, j] = [e.i % body.length, e.j % body.length];
            [body[i], body[j]] = [body[j]!, body[i]!];
          } else if (e?.kind === 'drop' && body.length) body.splice(e.i % body.length, 1);
          else if (e?.kind === 'add' && !body.some((b) => b.upc === upc[e.u])) {
            const { u, ...f } = e.line;
            body.splice(e.at % (body.length + 1), 0, { upc: upc[u]!, ...f });
          }
          const res = await post('/api/module/save', 'editor', { ...key, productDtoList: body });
          expect(res.statusCode, res.body).toBe(200);
          const stored = await queryRows<{ upc: string; must_have: boolean; status: string; min_value: string; previous_status: string | null; previous_must_have: boolean | null }>(
            db,
            sql`SELECT s.upc, s.must_have, s.status, s.min_value::text, s.previous_status, s.previous_must_have
                  FROM module_skus s JOIN modules m ON m.id = s.module_id WHERE m.module_name = 'MOD_A' ORDER BY s.position`,
          );
          expect(stored.map((s) => [s.upc, s.must_have, s.status, Number(s.min_value), s.previous_status, s.previous_must_have])).toEqual(
            body.map((b) => [b.upc, b.mustHave, b.moduleCompositionStatus, b.minValue, b.previousStatus, b.moduleCompositionStatus === 'REMOVED' ? b.mustHave : null]),
          );
          // The answer is the module as stored.
          expect((res.json() as { productDtoList: { upc: string }[] }).productDtoList.map((p) => p.upc)).toEqual(body.map((b) => b.upc));
          const all = await countsOfAll();
          expect(all.filter((c) => c.stored[0] !== c.counted[0] || c.stored[1] !== c.counted[1])).toEqual([]);
        }
      }),
      { numRuns: 30 },
    );
  });
});
