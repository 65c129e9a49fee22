/**
 * The release loader on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL): each format's
 * happy path, refusals with their exact lines and nothing written, massive vs delta, and the round
 * trip of a seeded release through its four exported files into an emptied database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/test-app.js';
import { releaseFingerprint } from '../../../../test/release-fingerprint.js';
import { resetDatabase, testDatabase } from '../../../../test/test-database.js';
import { queryRows, type Db } from '../../../db/client.js';
import { mayUseReplicaMode } from '../../../db/replica-mode.js';
import { clientClassifications, macroFamilies } from '../../../db/schema.js';
import { sqlStateOf } from '../../../lib/error-chain.js';
import { seedDemo } from '../../../seed/seed-demo.js';
import { stageWorker } from './fast-stage.repository.js';
import { FORMATS, LOADER_FILE_KINDS, RELEASE_FILE_KINDS, type LoadType, type ReleaseFileKind } from './formats.js';
import { bufferSource, fileSource, type FileSource } from './read-records.js';
import { csvField, exportFileName, exportReleaseFile, templateCsv, templateXlsx } from './release-export.js';
import { loadRelease, type LoadResult } from './release-loader.service.js';

type Row = Record<string, string>;

const SKU = (upc: string, skuId: number, brand = 'AUR'): Row => ({
  upc,
  skuId: String(skuId),
  model: 'AU4012',
  color: 'C01',
  colorDescription: 'Black; matte, "soft"',
  size: '52',
  materialCode: `AU4012C01-${skuId}`,
  skuCode: `SC${skuId}`,
  brandCode: brand,
  collection: 'SUN',
  planningChannelId: 'RETAIL',
  srp: '129.90',
  whsprice: '60',
  releaseDate: '2026-11-01',
  insertDate: '2026-10-01',
  gedConfirmed: 'true',
  flagDisco: 'false',
  globalCatalogue: 'YES',
  gender: 'Unisex',
  frameMaterial: 'Acetate',
  marketingTheme: 'Summer',
});

const STORE = (storeJda: string, sap: string): Row => ({
  storeJda,
  codiceStoreSap: sap,
  storeName: `Store ${storeJda}`,
  countryCode: 'IT',
  customerSegmentation: 'SILVER',
  segmentationLabel: 'Silver',
  planningChannelId: 'RETAIL',
  starsCustomer: 'C100',
  starsCustomerName: 'Ottica Roma',
  starsCustomerCountry: 'IT',
  starsCustomerPlanningChannel: 'RETAIL',
  distributionChannel: 'Optician',
});

const MODULE_HEAD = (moduleName: string, monthId = 'M01_2027'): Row => ({
  moduleName,
  monthId,
  moduleLabel: `Label ${moduleName}`,
  moduleDescription: 'Best, of "sun"',
  macroFamily: 'PILOT',
  brandCode: 'AUR',
  collection: 'SUN',
  starsZones: 'EU|NA',
  newModule: 'true',
});

const LINE = (head: Row, upc: string, extra: Row = {}): Row => ({ ...head, upc, mustHave: 'MH', status: 'ADDED', minValue: '2.5', position: '1', ...extra });

const CLUSTER_HEAD = (clusterId: string, monthId = 'M01_2027'): Row => ({
  clusterId,
  monthId,
  clusterLabel: `Cluster ${clusterId}`,
  clusterDescription: 'Rome, centre',
  brandCode: 'AUR',
  collection: 'SUN',
});

interface Files {
  registry: Row[];
  segment: Row[];
  module: Row[];
  cluster: Row[];
}

function happyFiles(): Files {
  const m1 = MODULE_HEAD('MOD1');
  const m2 = MODULE_HEAD('MOD2');
  const c1 = CLUSTER_HEAD('CL1');
  return {
    registry: [SKU('800000000001', 1), SKU('800000000002', 2), SKU('800000000003', 3)],
    segment: [STORE('S1', 'SAP1'), STORE('S2', 'SAP2')],
    module: [
      LINE(m1, '800000000001'),
      LINE(m1, '800000000002', { mustHave: 'EL', minValue: '1', position: '2' }),
      LINE(m2, '800000000003', { status: 'REMOVED', previousStatus: 'ADDED', previousMustHave: 'MH' }),
    ],
    cluster: [
      { ...c1, kind: 'CLUSTER' },
      { ...c1, kind: 'COUNTRY', value: 'IT' },
      { ...c1, kind: 'ZONE', value: 'EU' },
      { ...c1, kind: 'LIA', value: 'LIA01' },
      { ...c1, kind: 'CLASSIFICATION', value: 'VIP' },
      { ...c1, kind: 'STORE', value: 'S1' },
      { ...c1, kind: 'MODULE', value: 'MOD1' },
      { ...c1, kind: 'MODULE', value: 'MOD2', moduleStatus: 'REMOVED' },
    ],
  };
}

/** A CSV of the rows with every column of the format, in the format's order. */
function csv(kind: ReleaseFileKind, rows: Row[], delimiter: ',' | ';'): string {
  const names = FORMATS[kind].columns.map((c) => c.name);
  const line = (cells: string[]) => cells.map((c) => csvField(c, delimiter)).join(delimiter);
  return [line(names), ...rows.map((r) => line(names.map((n) => r[n] ?? '')))].join('\n') + '\n';
}

async function xlsx(kind: ReleaseFileKind, rows: Row[]): Promise<Buffer> {
  const names = FORMATS[kind].columns.map((c) => c.name);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('data');
  sheet.addRow(names);
  for (const r of rows) sheet.addRow(names.map((n) => (n === 'srp' && r[n] ? Number(r[n]) : (r[n] ?? null))));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const sources = (files: Files, delimiter: ',' | ';' = ';'): Record<ReleaseFileKind, FileSource> =>
  Object.fromEntries(RELEASE_FILE_KINDS.map((k) => [k, bufferSource(`${k}.csv`, csv(k, files[k], delimiter))])) as Record<ReleaseFileKind, FileSource>;

let db: Db;
let close: () => Promise<void>;
let onPostgres = false;

const count = async (table: string, where = 'TRUE') => Number((await queryRows<{ n: string }>(db, sql.raw(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)))[0]!.n);
const COUNTED = ['skus', 'stores', 'stars_customers', 'customer_segmentations', 'modules', 'module_skus', 'module_stars_zones', 'clusters', 'cluster_countries', 'cluster_stars_zones', 'cluster_lias', 'cluster_classifications', 'cluster_stores', 'cluster_modules'];
const counts = async () => Object.fromEntries(await Promise.all(COUNTED.map(async (t) => [t, await count(t)] as const)));

const load = (files: Record<ReleaseFileKind, FileSource>, type: LoadType = 'massive', releaseId = 'R2027', rowKeyChecks = false) =>
  loadRelease(db, { releaseId, type, files, username: 'loader', rowKeyChecks });

function expectLoaded(result: LoadResult) {
  if (!result.ok) throw new Error(`refused: ${result.errors.join('\n')}`);
  return result;
}

/**
 * Runs the load `start` held at its last step, its versions (written into item_versions), by a lock taken here: its
 * lines are written, its transaction still open. `whileHeld` runs then (`isDone`: whether the load has ended, which it
 * must not have), and the load is let go after it. Answers the load's result (PostgreSQL: the load needs its own
 * connection).
 */
async function whileLoadHeld(start: () => Promise<LoadResult>, whileHeld: (isDone: () => boolean) => Promise<void>): Promise<LoadResult> {
  let letGo!: () => void;
  const hold = new Promise<void>((resolve) => (letGo = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const holder = db.transaction(async (tx) => {
    await tx.execute(sql`LOCK TABLE item_versions IN SHARE MODE`);
    held();
    await hold;
  });
  await holding;
  let done = false;
  const loading = start().finally(() => (done = true));
  try {
    for (let tries = 0; ; tries++) {
      const [waiting] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'item_versions'::regclass`);
      if (waiting!.n > 0) break;
      if (tries > 400 || done) throw new Error('the load never reached its versions');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await whileHeld(() => done);
  } finally {
    letGo();
    await holder;
  }
  return loading;
}

describe('release loader', () => {
  beforeEach(async () => {
    const t = await buildTestApp({ reference: true });
    db = t.db;
    onPostgres = t.app.database.kind === 'postgres';
    close = () => t.app.close();
    await db.insert(macroFamilies).values([{ macroFamily: 'PILOT' }, { macroFamily: 'ROUND' }]);
    await db.insert(clientClassifications).values({ classificationLabel: 'VIP' });
  });
  afterEach(async () => {
    await close();
  });

  async function expectHappyWorld() {
    expect(await counts()).toMatchObject({
      skus: 3, stores: 2, stars_customers: 1, customer_segmentations: 2, modules: 2, module_skus: 3, module_stars_zones: 4,
      clusters: 1, cluster_countries: 1, cluster_stars_zones: 1, cluster_lias: 1, cluster_classifications: 1, cluster_stores: 1, cluster_modules: 2,
    });
    const lines = await queryRows(db, sql`SELECT m.module_name, m.new_module, m.module_description, m.status, s.upc, s.must_have, s.status AS line, s.previous_status, s.previous_must_have, s.min_value, s.position
      FROM modules m JOIN module_skus s ON s.module_id = m.id ORDER BY s.upc`);
    expect(lines).toEqual([
      { module_name: 'MOD1', new_module: true, module_description: 'Best, of "sun"', status: 'WIP', upc: '800000000001', must_have: true, line: 'ADDED', previous_status: null, previous_must_have: null, min_value: expect.anything(), position: 1 },
      { module_name: 'MOD1', new_module: true, module_description: 'Best, of "sun"', status: 'WIP', upc: '800000000002', must_have: false, line: 'ADDED', previous_status: null, previous_must_have: null, min_value: expect.anything(), position: 2 },
      { module_name: 'MOD2', new_module: true, module_description: 'Best, of "sun"', status: 'WIP', upc: '800000000003', must_have: true, line: 'REMOVED', previous_status: 'ADDED', previous_must_have: true, min_value: expect.anything(), position: 1 },
    ]);
    expect((lines as { min_value: unknown }[]).map((l) => Number(l.min_value))).toEqual([2.5, 1, 2.5]);
    const [sku] = await queryRows<Record<string, unknown>>(db, sql`SELECT color_description, srp, whsprice, ged_confirmed, release_date::text AS release_date FROM skus WHERE upc = '800000000001'`);
    expect({ ...sku, srp: Number(sku!.srp), whsprice: Number(sku!.whsprice) }).toEqual({ color_description: 'Black; matte, "soft"', srp: 129.9, whsprice: 60, ged_confirmed: true, release_date: '2026-11-01' });
    const [cluster] = await queryRows(db, sql`SELECT cluster_label, cluster_description, release_id, status FROM clusters`);
    expect(cluster).toEqual({ cluster_label: 'Cluster CL1', cluster_description: 'Rome, centre', release_id: 'R2027', status: 'WIP' });
    expect(await queryRows(db, sql`SELECT module_name, status FROM cluster_modules ORDER BY module_name`)).toEqual([
      { module_name: 'MOD1', status: 'ADDED' },
      { module_name: 'MOD2', status: 'REMOVED' },
    ]);
  }

  it('loads CSV files separated by ;', async () => {
    const progress: number[] = [];
    const result = expectLoaded(await loadRelease(db, { releaseId: 'R2027', type: 'massive', files: sources(happyFiles(), ';'), username: 'loader', onProgress: (p) => progress.push(p) }));
    expect(result.rows).toEqual({ registry: 3, segment: 2, module: 3, cluster: 8 });
    expect(result.merged).toMatchObject({ skus: 3, stores: 2, modules: 2, moduleLines: 3, clusters: 1, clusterLines: 7 });
    await expectHappyWorld();
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('loads CSV files separated by , with quoted fields', async () => {
    const files = sources(happyFiles(), ',');
    expect((await new Response(files.registry.open() as unknown as ReadableStream).text()).split('\n')[1]).toContain('"Black; matte, ""soft"""');
    expectLoaded(await load(files));
    await expectHappyWorld();
  });

  it('loads .xlsx files (first worksheet, numbers as numbers)', async () => {
    const happy = happyFiles();
    const files = Object.fromEntries(await Promise.all(RELEASE_FILE_KINDS.map(async (k) => [k, bufferSource(`${k}.xlsx`, await xlsx(k, happy[k]))] as const))) as Record<ReleaseFileKind, FileSource>;
    expectLoaded(await load(files));
    await expectHappyWorld();
  });

  it('refuses bad files with `file, row, column: reason` and writes nothing', async () => {
    const before = await counts();
    const files = happyFiles();
    files.registry[1] = { ...files.registry[1]!, srp: '12.345', releaseDate: '2026-02-30', brandCode: 'NOPE' };
    files.registry.push({ ...SKU('800000000001', 9) });
    files.segment[1] = { ...files.segment[1]!, starsCustomerName: 'Another name', countryCode: 'XX' };
    files.module.push(LINE(MODULE_HEAD('MOD1'), '999999999999', { mustHave: 'XX', minValue: '0.5' }));
    files.module.push(LINE({ ...MODULE_HEAD('MOD1'), moduleLabel: 'Other' }, '800000000003'));
    files.module.push(LINE(MODULE_HEAD('MOD3', 'M5_2030'), '800000000001'));
    files.module.push(LINE(MODULE_HEAD('MOD1'), '800000000002', { position: '3' }));
    files.cluster.push({ ...CLUSTER_HEAD('CL1'), kind: 'STORE', value: 'S9' });
    files.cluster.push({ ...CLUSTER_HEAD('CL1'), kind: 'MODULE', value: 'MOD9' });
    files.cluster.push({ ...CLUSTER_HEAD('CL1'), kind: 'COUNTRY' });
    const result = await load(sources(files));
    expect(result).toEqual({
      ok: false,
      errorCount: 15,
      errors: [
        'registry.csv, row 3, brandCode: \'NOPE\' is not a known brand',
        'registry.csv, row 3, srp: 12.345 has more than 2 decimals',
        'registry.csv, row 3, releaseDate: 2026-02-30 is not a date',
        'registry.csv, row 5, upc: this UPC repeats row 2',
        'segment.csv, row 3, countryCode: \'XX\' is not a known country',
        "segment.csv, row 3, starsCustomerName: 'Another name' differs from 'Ottica Roma' on row 2, the first row of stars customer C100",
        'module.csv, row 5, upc: \'999999999999\' is neither in the Sku Registry nor in the database',
        "module.csv, row 5, mustHave: 'XX' is not MH or EL",
        'module.csv, row 5, minValue: 0.5 is not between 1 and 99999999.9',
        "module.csv, row 6, moduleLabel: 'Other' differs from 'Label MOD1' on row 2, the first row of module MOD1 (M01_2027)",
        "module.csv, row 7, monthId: 'M5_2030' is not a month (M01_2027 … M12_2027)",
        'module.csv, row 8, upc: this UPC of the module repeats row 3',
        "cluster.csv, row 10, value: store 'S9' is neither in the Customer Segmentation nor in the database",
        "cluster.csv, row 11, value: module 'MOD9' of M01_2027 is not in the Module Composition",
        'cluster.csv, row 12, value: required for kind COUNTRY',
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses a module\'s SKU on two rows, found by the lines\' primary key, row by row or in bulk, and writes nothing', async () => {
    for (const bulkMinLines of [1_000_000, 1]) {
      const before = await counts();
      const files = happyFiles();
      files.module.push(LINE(MODULE_HEAD('MOD2'), '800000000001', { position: '2' }));
      files.module.push(LINE(MODULE_HEAD('MOD1'), '800000000001', { position: '3' }));
      files.module.push(LINE(MODULE_HEAD('MOD1'), '800000000001', { position: '4' }));
      const result = await loadRelease(db, { releaseId: 'R2027', type: 'massive', files: sources(files), username: 'loader', bulkMinLines });
      expect(result).toEqual({
        ok: false,
        errorCount: 2,
        errors: ['module.csv, row 6, upc: this UPC of the module repeats row 2', 'module.csv, row 7, upc: this UPC of the module repeats row 2'],
      });
      expect(await counts()).toEqual(before);
    }
    // Then the same files without the repeat load (the failed attempt left nothing behind, keys included).
    expectLoaded(await load(sources(happyFiles())));
    await expectHappyWorld();
  });

  it('refuses a repeated line that is already stored as the files say (which no key sees), and writes nothing', async () => {
    expectLoaded(await load(sources(happyFiles())));
    const before = await queryRows(db, sql`SELECT module_id, upc, xmin::text AS written FROM module_skus ORDER BY module_id, upc`);
    const counted = await counts();
    const files = happyFiles();
    files.module.push(LINE(MODULE_HEAD('MOD1'), '800000000001'));
    for (const type of ['massive', 'delta'] as const) {
      expect(await load(sources(files), type)).toEqual({ ok: false, errorCount: 1, errors: ['module.csv, row 5, upc: this UPC of the module repeats row 2'] });
      expect(await counts()).toEqual(counted);
      expect(await queryRows(db, sql`SELECT module_id, upc, xmin::text AS written FROM module_skus ORDER BY module_id, upc`)).toEqual(before);
    }
  });

  it('a load writes only the lines that differ from the stored ones, and ends as rewriting them all would (property)', async () => {
    const UPCS = ['800000000001', '800000000002', '800000000003'];
    const line = fc.record({
      upc: fc.constantFrom(...UPCS),
      mustHave: fc.constantFrom('MH', 'EL'),
      status: fc.constantFrom('ADDED', 'NEW', 'REMOVED'),
      previousStatus: fc.constantFrom('ADDED', 'NEW'),
      previousMustHave: fc.constantFrom('MH', 'EL'),
      minValue: fc.constantFrom('1', '2.5', '3'),
      position: fc.constantFrom('0', '1', '2'),
    });
    const linesOf = fc.uniqueArray(line, { minLength: 1, maxLength: 3, selector: (l) => l.upc });
    // Both modules in every load (the cluster file names them), each with 1–3 lines.
    // Each load keeps some of the previous load's lines as they were (`keep`, by UPC) and takes the others from its own.
    // Each load's lines keyed once, set-wise, or by PostgreSQL line by line (`rowKeyChecks`): the two end alike.
    const composition = fc.record({ MOD1: linesOf, MOD2: linesOf, keep: fc.subarray(UPCS), type: fc.constantFrom<LoadType>('massive', 'delta'), rowKeyChecks: fc.boolean() });
    const keyedOnce = await mayUseReplicaMode(db);
    type Stored = { module_name: string; upc: string; must_have: boolean; status: string; previous_status: string | null; previous_must_have: boolean | null; min_value: number; position: number; written: string };
    const stored = async () =>
      (await queryRows<Stored>(db, sql`SELECT m.module_name, s.upc, s.must_have, s.status, s.previous_status, s.previous_must_have, s.min_value, s.position, s.xmin::text AS written
        FROM module_skus s JOIN modules m ON m.id = s.module_id ORDER BY m.module_name, s.upc`)).map((r) => ({ ...r, min_value: Number(r.min_value) }));
    const facts = ({ written: _, ...rest }: Stored) => JSON.stringify(rest);
    await fc.assert(
      fc.asyncProperty(fc.array(composition, { minLength: 2, maxLength: 3 }), async (loads) => {
        let before = await stored();
        let previous: (typeof loads)[number] | null = null;
        for (const drawn of loads) {
          const next = { ...drawn };
          for (const name of ['MOD1', 'MOD2'] as const) {
            const kept = (previous?.[name] ?? []).filter((l) => drawn.keep.includes(l.upc));
            next[name] = [...kept, ...drawn[name].filter((l) => !kept.some((k) => k.upc === l.upc))];
          }
          previous = next;
          const files = happyFiles();
          files.module = (['MOD1', 'MOD2'] as const).flatMap((name) =>
            next[name].map(({ upc, status, previousStatus, previousMustHave, ...rest }) =>
              LINE(MODULE_HEAD(name), upc, { ...rest, status, ...(status === 'REMOVED' ? { previousStatus, previousMustHave } : {}) }),
            ),
          );
          const result = expectLoaded(await load(sources(files), next.type, 'R2027', next.rowKeyChecks));
          expect(result.merged.moduleLines).toBe(files.module.length);
          expect(result.merged.lineKeys).toBe(keyedOnce && !next.rowKeyChecks ? 'once' : 'per row');
          // The modules' MH and EL counts (the line triggers of 0010, which run in replica mode too) are their lines'.
          expect(await queryRows(db, sql`SELECT m.module_name, m.mh_count, m.el_count FROM modules m ORDER BY m.module_name`)).toEqual(
            (['MOD1', 'MOD2'] as const).map((name) => ({
              module_name: name,
              mh_count: next[name].filter((l) => l.status !== 'REMOVED' && l.mustHave === 'MH').length,
              el_count: next[name].filter((l) => l.status !== 'REMOVED' && l.mustHave === 'EL').length,
            })),
          );
          const after = await stored();
          // The lines are the files' …
          expect(after.map(({ written: _, ...rest }) => rest)).toEqual(
            (['MOD1', 'MOD2'] as const).flatMap((name) =>
              [...next[name]].sort((a, b) => a.upc.localeCompare(b.upc)).map((l) => ({
                module_name: name,
                upc: l.upc,
                must_have: l.mustHave === 'MH',
                status: l.status,
                previous_status: l.status === 'REMOVED' ? l.previousStatus : null,
                previous_must_have: l.status === 'REMOVED' ? l.previousMustHave === 'MH' : null,
                min_value: Number(l.minValue),
                position: Number(l.position),
              })),
            ),
          );
          // … a line stored as the files say is left as it was (the same row version), any other one is written by this load.
          const kept = new Map(before.map((r) => [facts(r), r.written]));
          for (const r of after) expect(r.written === kept.get(facts(r))).toBe(kept.has(facts(r)));
          before = after;
        }
      }),
      { numRuns: 12 },
    );
  });

  it('lists the first 1,000 errors and counts them all', async () => {
    const files = happyFiles();
    for (let i = 0; i < 1500; i++) files.registry.push({ ...SKU(`7${String(i).padStart(11, '0')}`, 1000 + i), srp: 'x' });
    const result = await load(sources(files));
    if (result.ok) throw new Error('loaded');
    expect(result.errorCount).toBe(1500);
    expect(result.errors).toHaveLength(1000);
    expect(result.errors[0]).toBe("registry.csv, row 5, srp: 'x' is not a number");
    expect(await count('skus')).toBe(0);
  });

  it('refuses a missing or unknown column, and an unreadable CSV, naming the file', async () => {
    const files = sources(happyFiles());
    files.segment = bufferSource('segment.csv', 'storeJda;codiceStoreSap;wrong\nS1;SAP1;x\n');
    files.module = bufferSource('module.csv', `${csv('module', [], ';').trim()}\nMOD1;"M01_2027\n`);
    const result = await load(files);
    if (result.ok) throw new Error('loaded');
    expect(result.errors).toEqual(expect.arrayContaining([
      'segment.csv, row 1, wrong: unknown column',
      'segment.csv, row 1, storeName: missing column',
    ]));
    expect(result.errors.some((e) => e.startsWith('module.csv, row 2, -: the file cannot be read as CSV'))).toBe(true);
    expect(await count('skus')).toBe(0);
  });

  it('massive replaces the release\'s modules and clusters; delta inserts or updates the items of the files', async () => {
    expectLoaded(await load(sources(happyFiles())));
    // A module and a cluster in another month of the release, and one outside the release's months untouched by both.
    const extra = happyFiles();
    extra.module = [LINE(MODULE_HEAD('MOD5', 'M02_2027'), '800000000001')];
    extra.cluster = [{ ...CLUSTER_HEAD('CL5', 'M02_2027'), kind: 'MODULE', value: 'MOD5' }];
    expectLoaded(await load(sources(extra), 'delta'));
    expect(await count('modules')).toBe(3);
    expect(await count('clusters')).toBe(2);

    // Delta: MOD1 rewritten (one line, new label), MOD6 added; MOD2, MOD5 and the clusters stay.
    const delta = happyFiles();
    delta.module = [LINE({ ...MODULE_HEAD('MOD1'), moduleLabel: 'Renamed' }, '800000000003'), LINE(MODULE_HEAD('MOD6'), '800000000002')];
    delta.cluster = [{ ...CLUSTER_HEAD('CL1'), kind: 'MODULE', value: 'MOD2' }];
    const d = expectLoaded(await load(sources(delta), 'delta'));
    expect(d.merged).toMatchObject({ modules: 2, moduleLines: 2, clusters: 1, removedModules: 0, removedClusters: 0 });
    expect(await queryRows(db, sql`SELECT m.module_name, m.month_id, m.module_label, m.version, string_agg(s.upc, ',' ORDER BY s.upc) AS upcs
      FROM modules m LEFT JOIN module_skus s ON s.module_id = m.id GROUP BY m.id ORDER BY m.module_name`)).toEqual([
      { module_name: 'MOD1', month_id: 'M01_2027', module_label: 'Renamed', version: 2, upcs: '800000000003' },
      { module_name: 'MOD2', month_id: 'M01_2027', module_label: 'Label MOD2', version: 1, upcs: '800000000003' },
      { module_name: 'MOD5', month_id: 'M02_2027', module_label: 'Label MOD5', version: 1, upcs: '800000000001' },
      { module_name: 'MOD6', month_id: 'M01_2027', module_label: 'Label MOD6', version: 1, upcs: '800000000002' },
    ]);
    expect(await queryRows(db, sql`SELECT c.cluster_id, string_agg(x.module_name, ',' ORDER BY x.module_name) AS modules
      FROM clusters c LEFT JOIN cluster_modules x ON x.cluster_pk = c.id GROUP BY c.id ORDER BY c.cluster_id`)).toEqual([
      { cluster_id: 'CL1', modules: 'MOD2' },
      { cluster_id: 'CL5', modules: 'MOD5' },
    ]);
    // Delta may refer to a module that is live in the database; massive may not (the release is replaced).
    const massive = happyFiles();
    massive.module = [LINE(MODULE_HEAD('MOD1'), '800000000001')];
    massive.cluster = [{ ...CLUSTER_HEAD('CL1'), kind: 'MODULE', value: 'MOD6' }];
    const refused = await load(sources(massive), 'massive');
    expect(refused).toEqual({ ok: false, errorCount: 1, errors: ["cluster.csv, row 2, value: module 'MOD6' of M01_2027 is not in the Module Composition"] });
    expectLoaded(await load(sources(massive), 'delta'));

    // Massive: exactly the files' items remain in the release's months; master data is never deleted.
    massive.cluster = [{ ...CLUSTER_HEAD('CL1'), kind: 'MODULE', value: 'MOD1' }];
    const m = expectLoaded(await load(sources(massive), 'massive'));
    expect(m.merged).toMatchObject({ modules: 1, clusters: 1, removedModules: 3, removedClusters: 1 });
    expect(await queryRows(db, sql`SELECT module_name FROM modules`)).toEqual([{ module_name: 'MOD1' }]);
    expect(await queryRows(db, sql`SELECT cluster_id FROM clusters`)).toEqual([{ cluster_id: 'CL1' }]);
    expect(await count('module_skus')).toBe(1);
    expect(await count('skus')).toBe(3);
    expect(await count('stores')).toBe(2);
  });

  it('stages plain CSV files the fast way on PostgreSQL (COPY), anything unusual the careful way, with the same result', async () => {
    const content = () =>
      queryRows(
        db,
        sql`SELECT m.module_name, m.month_id, m.module_label, m.module_description, m.macro_family, m.new_module, m.initial_size,
              s.upc, s.must_have, s.status, s.previous_status, s.previous_must_have, s.min_value::text, s.position,
              k.sku_id, k.srp::text, k.release_date::text, k.ged_confirmed, k.global_catalogue
            FROM modules m JOIN module_skus s ON s.module_id = m.id JOIN skus k ON k.upc = s.upc ORDER BY m.module_name, s.upc`,
      );
    const typedBefore = stageWorker.finished;
    const fast = expectLoaded(await load(sources(happyFiles(), ',')));
    const way = onPostgres ? 'fast' : 'careful';
    expect(fast.staged).toEqual({ registry: way, segment: 'careful', module: way, cluster: way });
    // The fast way's three files were typed in the stage worker, a thread of their own (stage-worker.ts).
    expect(stageWorker.finished - typedBefore).toBe(onPostgres ? 3 : 0);
    const fastContent = await content();
    const careful = expectLoaded(await loadRelease(db, { releaseId: 'R2027', type: 'massive', files: sources(happyFiles(), ','), username: 'loader', careful: true }));
    expect(careful.staged).toEqual({ registry: 'careful', segment: 'careful', module: 'careful', cluster: 'careful' });
    expect(careful.rows).toEqual(fast.rows);
    expect(await content()).toEqual(fastContent);
    await expectHappyWorld();

    // Lower-case MH, a padded label, a decimal comma: valid, read by the same parseCell — still the fast way, same result.
    const unusual = happyFiles();
    unusual.module = unusual.module.map((line, i) => (i === 0 ? { ...line, mustHave: 'mh', minValue: '2,5', moduleLabel: ` ${line.moduleLabel!} ` } : i === 1 ? { ...line, moduleLabel: ` ${line.moduleLabel!} ` } : line));
    const padded = expectLoaded(await load(sources(unusual, ';')));
    expect(padded.staged).toEqual({ registry: way, segment: 'careful', module: way, cluster: way });
    expect(await content()).toEqual(fastContent);
    // The item fields written two ways on two rows of one module (same values once trimmed), and a quoted line break
    // in a cluster's description: the careful way for those two files, the same result.
    const mixedFiles = happyFiles();
    mixedFiles.module = mixedFiles.module.map((line, i) => (i === 1 ? { ...line, moduleLabel: ` ${line.moduleLabel!}` } : line));
    mixedFiles.cluster = mixedFiles.cluster.map((line) => ({ ...line, clusterDescription: 'Rome,\ncentre' }));
    const mixed = expectLoaded(await load(sources(mixedFiles, ',')));
    expect(mixed.staged).toEqual({ registry: way, segment: 'careful', module: 'careful', cluster: 'careful' });
    expect(await content()).toEqual(fastContent);
    expect(await queryRows(db, sql`SELECT cluster_description FROM clusters`)).toEqual([{ cluster_description: 'Rome,\ncentre' }]);
    // Item fields with COPY's special characters (a backslash, a tab, a \N) are stored as written, the fast way too.
    const special = happyFiles();
    const label = 'Back\\slash\tand \\N';
    special.module = special.module.map((line) => (line.moduleName === 'MOD1' ? { ...line, moduleLabel: label } : line));
    const specialLoad = expectLoaded(await load(sources(special, ',')));
    expect(specialLoad.staged).toEqual({ registry: way, segment: 'careful', module: way, cluster: way });
    expect(await queryRows(db, sql`SELECT DISTINCT module_label FROM modules WHERE module_name = 'MOD1'`)).toEqual([{ module_label: label }]);
    // A module row whose item fields differ from its first row: refused with its row, whichever way was tried first.
    const differing = happyFiles();
    differing.module[1] = { ...differing.module[1]!, moduleLabel: 'Other' };
    expect(await load(sources(differing, ','))).toEqual({
      ok: false,
      errorCount: 1,
      errors: ["module.csv, row 3, moduleLabel: 'Other' differs from 'Label MOD1' on row 2, the first row of module MOD1 (M01_2027)"],
    });
  });

  it('writes a large share of module_skus as a bulk rewrite: same rows, same keys and indexes after, all back on failure', async () => {
    const definitions = () =>
      queryRows(
        db,
        sql`SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'module_skus'::regclass
            UNION ALL SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'module_skus'::regclass
            ORDER BY 1`,
      );
    const before = await definitions();
    expect(before.map((d) => (d as { name: string }).name)).toEqual(
      expect.arrayContaining(['module_skus_module_id_modules_id_fk', 'module_skus_upc_skus_upc_fk', 'module_skus_module_id_upc_pk', 'module_skus_upc_idx']),
    );
    const bulk = (files: Files) => loadRelease(db, { releaseId: 'R2027', type: 'massive', files: sources(files), username: 'loader', bulkMinLines: 1 });
    expectLoaded(await bulk(happyFiles()));
    await expectHappyWorld();
    expect(await definitions()).toEqual(before);
    // The keys are enforced again: a line of an unknown SKU, or a repeated line, is refused.
    await expect(db.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status) SELECT id, 'NOPE', true, 'ADDED' FROM modules LIMIT 1`)).rejects.toThrow();
    await expect(db.execute(sql`INSERT INTO module_skus (module_id, upc, must_have, status) SELECT module_id, upc, true, 'ADDED' FROM module_skus LIMIT 1`)).rejects.toThrow();

    // A failure after the keys were dropped puts everything back: rows and definitions.
    await db.execute(sql`CREATE OR REPLACE FUNCTION rl_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$ LANGUAGE plpgsql`);
    await db.execute(sql`CREATE TRIGGER rl_test_fail BEFORE INSERT ON cluster_modules FOR EACH ROW EXECUTE FUNCTION rl_test_fail()`);
    try {
      const other = happyFiles();
      other.module = other.module.map((line) => ({ ...line, position: '7' }));
      await expect(bulk(other)).rejects.toThrow(/INSERT INTO cluster_modules/);
    } finally {
      await db.execute(sql`DROP TRIGGER rl_test_fail ON cluster_modules`);
      await db.execute(sql`DROP FUNCTION rl_test_fail()`);
    }
    await expectHappyWorld();
    expect(await definitions()).toEqual(before);
  });

  it('while other modules exist, writes the lines under no lock the planners wait on: their reads and saves go on during the load (PostgreSQL)', async () => {
    if (!onPostgres) return;
    expectLoaded(await load(sources(happyFiles())));
    // A delta of MOD1 alone, with every threshold of the bulk rewrite met (bulkMinLines 1): MOD2 is another module, which
    // a planner may be searching, opening or saving meanwhile.
    const files = happyFiles();
    files.module = files.module.filter((line) => line.moduleName === 'MOD1');
    files.cluster = files.cluster.filter((row) => row.kind !== 'MODULE' || row.value === 'MOD1');
    class RolledBack extends Error {}
    // The load held with its lines written, its transaction open (whileLoadHeld).
    const loaded = await whileLoadHeld(
      () => loadRelease(db, { releaseId: 'R2027', type: 'delta', files: sources(files), username: 'loader', bulkMinLines: 1 }),
      async (isDone) => {
        // What a planner's calls read and write, each allowed to wait 2 s for a lock.
        await expect(
          db.transaction(async (tx) => {
            await tx.execute(sql`SET LOCAL lock_timeout = '2s'`);
            // A search's list (modules of a month and brand, their counts and zones).
            const list = await queryRows<{ module_name: string; mh_count: number }>(
              tx,
              sql`SELECT m.module_name, m.mh_count FROM modules m JOIN months mo ON mo.month_id = m.month_id
                  WHERE m.month_id = 'M01_2027' AND m.brand_code = 'AUR' AND m.deletion_status IS NULL
                    AND (SELECT 1 FROM module_stars_zones z WHERE z.module_id = m.id LIMIT 1) IS NOT NULL ORDER BY m.module_name`,
            );
            expect(list.map((m) => m.module_name)).toEqual(['MOD1', 'MOD2']);
            // A module page: its lines with their SKUs.
            const lines = await queryRows(tx, sql`SELECT s.upc, k.color FROM module_skus s JOIN modules m ON m.id = s.module_id JOIN skus k ON k.upc = s.upc WHERE m.module_name = 'MOD2'`);
            expect(lines).toHaveLength(1);
            // A save of MOD2 (its line and its row), undone below.
            await tx.execute(sql`UPDATE module_skus s SET must_have = NOT s.must_have FROM modules m WHERE m.id = s.module_id AND m.module_name = 'MOD2'`);
            await tx.execute(sql`UPDATE modules SET version = version + 1, updated_at = now() WHERE module_name = 'MOD2'`);
            throw new RolledBack();
          }),
        ).rejects.toBeInstanceOf(RolledBack);
        // Answered while the load was still open.
        expect(isDone()).toBe(false);
      },
    );
    const result = expectLoaded(loaded);
    expect(result.merged).toMatchObject({ modules: 1, moduleLines: 2 });
    expect(await count('module_skus')).toBe(3);
  });

  it.each([false, true])(
    'holds every SKU its lines name until it commits, whether their keys are checked once or line by line (rowKeyChecks %s): nobody deletes one meanwhile (PostgreSQL)',
    async (rowKeyChecks) => {
      if (!onPostgres) return;
      // A first load with a SKU no line names yet; then a delta giving MOD1 a line of it, its registry without it.
      const first = happyFiles();
      first.registry.push(SKU('800000000004', 4));
      expectLoaded(await load(sources(first)));
      const files = happyFiles();
      files.module.push(LINE(MODULE_HEAD('MOD1'), '800000000004', { position: '3' }));
      // The load held with its lines written, its transaction open (whileLoadHeld): a delete of that SKU waits on it.
      const loaded = await whileLoadHeld(
        () => load(sources(files), 'delta', 'R2027', rowKeyChecks),
        async (isDone) => {
          const deleting = db.transaction(async (tx) => {
            await tx.execute(sql`SET LOCAL lock_timeout = '1s'`);
            await tx.execute(sql`DELETE FROM skus WHERE upc = '800000000004'`);
          });
          const error: unknown = await deleting.then(
            () => null,
            (e: unknown) => e,
          );
          expect(sqlStateOf(error)).toBe('55P03'); // lock_not_available: the load holds the SKU
          expect(isDone()).toBe(false);
        },
      );
      const result = expectLoaded(loaded);
      expect(result.merged.lineKeys).toBe(rowKeyChecks ? 'per row' : 'once');
      expect(await queryRows(db, sql`SELECT s.upc FROM module_skus s JOIN modules m ON m.id = s.module_id WHERE m.module_name = 'MOD1' ORDER BY s.upc`)).toEqual([
        { upc: '800000000001' },
        { upc: '800000000002' },
        { upc: '800000000004' },
      ]);
    },
  );

  it('rolls everything back when a merge fails', async () => {
    const files = happyFiles();
    // The last statement of the load (the clusters' modules) fails: everything before it goes too.
    await db.execute(sql`CREATE OR REPLACE FUNCTION rl_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$ LANGUAGE plpgsql`);
    await db.execute(sql`CREATE TRIGGER rl_test_fail BEFORE INSERT ON cluster_modules FOR EACH ROW EXECUTE FUNCTION rl_test_fail()`);
    try {
      await expect(load(sources(files))).rejects.toThrow(/INSERT INTO cluster_modules/);
      expect(await counts()).toMatchObject({ skus: 0, stores: 0, modules: 0, clusters: 0, customer_segmentations: 1 });
    } finally {
      await db.execute(sql`DROP TRIGGER rl_test_fail ON cluster_modules`);
      await db.execute(sql`DROP FUNCTION rl_test_fail()`);
    }
  });

  it('refuses an unknown or closed release', async () => {
    await expect(load(sources(happyFiles()), 'massive', 'R1999')).rejects.toThrow('The release R1999 does not exist');
    await db.execute(sql`UPDATE releases SET status = 'CLOSED'`);
    await expect(load(sources(happyFiles()))).rejects.toThrow('The release R2027 is closed');
  });

  it('offers header-only templates (CSV and xlsx) that load as empty files', async () => {
    expect(templateCsv('module').trim().split(',')).toEqual(FORMATS.module.columns.map((c) => c.name));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await templateXlsx('cluster')) as unknown as ArrayBuffer);
    expect((workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(FORMATS.cluster.columns.map((c) => c.name));
    const empty = Object.fromEntries(RELEASE_FILE_KINDS.map((k) => [k, bufferSource(`${k}.csv`, templateCsv(k))])) as Record<ReleaseFileKind, FileSource>;
    expect(expectLoaded(await load(empty, 'delta')).rows).toEqual({ registry: 0, segment: 0, module: 0, cluster: 0 });
  });

  it('documents every column in docs/RELEASE-FILES.md', () => {
    const doc = fs.readFileSync(new URL('../../../../../../docs/RELEASE-FILES.md', import.meta.url), 'utf8');
    const missing = LOADER_FILE_KINDS.flatMap((k) => FORMATS[k].columns.filter((c) => !doc.includes(`| \`${c.name}\``)).map((c) => `${k}.${c.name}`));
    expect(missing).toEqual([]);
  });
});

describe('release round trip (seeded world)', () => {
  afterAll(async () => {
    await resetDatabase(await testDatabase());
  });

  /** Counts and a checksum of the compositions of the release's live items. */
  const fingerprint = (dbx: Db) => releaseFingerprint((text) => queryRows<Record<string, unknown>>(dbx, sql.raw(text)), 'R2027');

  it('exports a release as its four files and loads them back into an emptied database: same counts and checksums', async () => {
    const database = await testDatabase();
    await resetDatabase(database);
    await seedDemo(database, { scale: 0.05 });
    const dbx = database.db;
    const before = await fingerprint(dbx);
    expect(Number(before.modules)).toBeGreaterThan(10);
    expect(Number(before.clusters)).toBeGreaterThan(3);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-files-'));
    try {
      const files = {} as Record<ReleaseFileKind, FileSource>;
      for (const kind of RELEASE_FILE_KINDS) {
        const file = path.join(dir, exportFileName('R2027', kind));
        const out = fs.createWriteStream(file);
        const pass = new PassThrough();
        pass.pipe(out);
        await exportReleaseFile(dbx, 'R2027', kind, pass);
        pass.end();
        await new Promise<void>((resolve) => out.on('close', () => resolve()));
        files[kind] = fileSource(file);
      }
      // Emptied: the reference data stays; master data, items and what hangs on them go.
      await database.execScript('TRUNCATE modules, clusters, skus, stores, stars_customers, customer_segmentations RESTART IDENTITY CASCADE');
      expect(await queryRows(dbx, sql`SELECT count(*)::int AS n FROM modules`)).toEqual([{ n: 0 }]);

      const result = await loadRelease(dbx, { releaseId: 'R2027', type: 'massive', files, username: 'loader' });
      if (!result.ok) throw new Error(`refused (${result.errorCount}): ${result.errors.slice(0, 20).join('\n')}`);
      expect(await fingerprint(dbx)).toEqual(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Seeding and loading a world: a minute on a busy machine.
  }, 120_000);
});
