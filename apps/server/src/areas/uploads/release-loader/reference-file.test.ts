/**
 * The Reference Data file and the months of a release (issue 33): an installation without reference rows
 * filled by the fifth file, refusals in the `file, row, column: reason` form with nothing written, rows
 * updated never deleted, months created in the release or refused when another release holds them, the
 * reference download in file order, and a dry run that writes nothing yet says what the load would do.
 */
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/test-app.js';
import { queryRows, type Db } from '../../../db/client.js';
import { months, releases } from '../../../db/schema.js';
import { FORMATS, RELEASE_FILE_KINDS, type LoaderFileKind, type ReleaseFileKind } from './formats.js';
import { bufferSource, type FileSource } from './read-records.js';
import { csvField, exportReleaseFile } from './release-export.js';
import { loadRelease, type LoadResult } from './release-loader.service.js';

type Row = Record<string, string>;

function csv(kind: LoaderFileKind, rows: Row[]): string {
  const names = FORMATS[kind].columns.map((c) => c.name);
  const line = (cells: string[]) => cells.map((c) => csvField(c)).join(',');
  return [line(names), ...rows.map((r) => line(names.map((n) => r[n] ?? '')))].join('\r\n') + '\r\n';
}

const REFERENCE: Row[] = [
  { kind: 'BRAND', code: 'AUR', label: 'Aurora Optics' },
  { kind: 'COLLECTION', code: 'SUN', label: 'Sunglasses' },
  { kind: 'PLANNING_CHANNEL', code: 'RETAIL', label: 'Retail' },
  { kind: 'STARS_ZONE', code: 'EU', label: 'Europe' },
  { kind: 'STARS_ZONE', code: 'NA', label: 'North America' },
  { kind: 'COUNTRY', code: 'IT', label: 'Italy', parent: 'EU' },
  { kind: 'LIA', code: 'LIA01', parent: 'RETAIL' },
  { kind: 'MACRO_FAMILY', code: 'BEST SELLERS', parent: 'BEST_SELLER' },
  { kind: 'MACRO_FAMILY', code: 'PILOT' },
  { kind: 'CLIENT_CLASSIFICATION', code: 'VIP' },
];

const SKU: Row = {
  upc: '800000000001', skuId: '1', model: 'AU4012', color: '003', colorDescription: 'Black', size: '52', materialCode: 'AU4012003', skuCode: 'SC1',
  brandCode: 'AUR', collection: 'SUN', planningChannelId: 'RETAIL', srp: '129.90', whsprice: '60', releaseDate: '2026-11-01', insertDate: '2026-10-01',
  gender: 'Unisex', frameMaterial: 'Acetate', marketingTheme: 'Summer',
};
const STORE: Row = {
  storeJda: 'S1', codiceStoreSap: 'SAP1', storeName: 'Store 1', countryCode: 'IT', customerSegmentation: 'SILVER', segmentationLabel: 'Silver',
  planningChannelId: 'RETAIL', starsCustomer: 'C100', starsCustomerName: 'Ottica Roma', starsCustomerCountry: 'IT', starsCustomerPlanningChannel: 'RETAIL', distributionChannel: 'Optician',
};
const MODULE = (monthId: string, moduleName = 'MOD1'): Row => ({
  moduleName, monthId, moduleLabel: 'Label', macroFamily: 'PILOT', brandCode: 'AUR', collection: 'SUN', starsZones: 'EU|NA', upc: '800000000001',
});
const CLUSTER = (monthId: string): Row[] => {
  const head = { clusterId: 'CL1', monthId, clusterLabel: 'Cluster', brandCode: 'AUR', collection: 'SUN' };
  return [
    { ...head, kind: 'CLUSTER' },
    { ...head, kind: 'COUNTRY', value: 'IT' },
    { ...head, kind: 'LIA', value: 'LIA01' },
    { ...head, kind: 'CLASSIFICATION', value: 'VIP' },
    { ...head, kind: 'STORE', value: 'S1' },
    { ...head, kind: 'MODULE', value: 'MOD1' },
  ];
};

type Files = Record<ReleaseFileKind, Row[]> & { reference?: Row[] };
const world = (monthId = 'M01_2028'): Files => ({ reference: REFERENCE, registry: [SKU], segment: [STORE], module: [MODULE(monthId)], cluster: CLUSTER(monthId) });

function sources(files: Files): Record<ReleaseFileKind, FileSource> & { reference?: FileSource } {
  const out = Object.fromEntries(RELEASE_FILE_KINDS.map((k) => [k, bufferSource(`${k}.csv`, csv(k, files[k]))])) as Record<ReleaseFileKind, FileSource> & { reference?: FileSource };
  if (files.reference) out.reference = bufferSource('reference.csv', csv('reference', files.reference));
  return out;
}

let db: Db;
let close: () => Promise<void>;

const count = async (table: string) => Number((await queryRows<{ n: string }>(db, sql.raw(`SELECT count(*) AS n FROM ${table}`)))[0]!.n);
const REFERENCE_TABLES = ['brands', 'collections', 'planning_channels', 'stars_zones', 'countries', 'lias', 'macro_families', 'client_classifications'];
const TABLES = [...REFERENCE_TABLES, 'months', 'skus', 'stores', 'modules', 'module_skus', 'clusters', 'cluster_modules'];
const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await count(t)] as const)));

const load = (files: Files, extra: { dryRun?: boolean; type?: 'massive' | 'delta' } = {}) =>
  loadRelease(db, { releaseId: 'R2028', type: extra.type ?? 'massive', files: sources(files), username: 'loader', dryRun: extra.dryRun, careful: true });

function loaded(result: LoadResult) {
  if (!result.ok) throw new Error(`refused: ${result.errors.join('\n')}`);
  return result;
}

async function download(kind: LoaderFileKind): Promise<string> {
  const pass = new PassThrough();
  const chunks: Buffer[] = [];
  pass.on('data', (c: Buffer) => chunks.push(c));
  await exportReleaseFile(db, 'R2028', kind, pass);
  pass.end();
  return Buffer.concat(chunks).toString('utf8');
}

describe('Reference Data file and the months of a release', () => {
  beforeEach(async () => {
    // An installation as a retailer gets it: no reference rows, one open release without months.
    const t = await buildTestApp();
    db = t.db;
    close = () => t.app.close();
    await db.insert(releases).values([{ releaseId: 'R2028', status: 'OPEN' }, { releaseId: 'R2027', status: 'OPEN' }]);
  });
  afterEach(async () => {
    await close();
  });

  it('fills an empty installation: reference rows first, then the four files; the months the files name are created in the release', async () => {
    const result = loaded(await load(world()));
    expect(result.rows).toEqual({ reference: 10, registry: 1, segment: 1, module: 1, cluster: 6 });
    expect(result.reference).toEqual({
      BRAND: { created: 1, updated: 0 }, COLLECTION: { created: 1, updated: 0 }, PLANNING_CHANNEL: { created: 1, updated: 0 }, STARS_ZONE: { created: 2, updated: 0 },
      COUNTRY: { created: 1, updated: 0 }, LIA: { created: 1, updated: 0 }, MACRO_FAMILY: { created: 2, updated: 0 }, CLIENT_CLASSIFICATION: { created: 1, updated: 0 },
    });
    expect(result.monthsCreated).toEqual(['M01_2028']);
    expect(result.merged.created).toEqual({ skus: 1, stores: 1, starsCustomers: 1, segmentations: 1 });
    expect(await queryRows(db, sql`SELECT month_id, year, month, open, release_id FROM months`)).toEqual([{ month_id: 'M01_2028', year: 2028, month: 1, open: true, release_id: 'R2028' }]);
    expect(await queryRows(db, sql`SELECT macro_family, special_kind FROM macro_families ORDER BY macro_family`)).toEqual([
      { macro_family: 'BEST SELLERS', special_kind: 'BEST_SELLER' },
      { macro_family: 'PILOT', special_kind: null },
    ]);
    expect(await counts()).toMatchObject({ modules: 1, module_skus: 1, clusters: 1, cluster_modules: 1 });

    // The download writes every reference row, in the file's order: the same bytes as the file loaded.
    expect(await download('reference')).toBe(csv('reference', REFERENCE));

    // Loaded again with a changed label and a new country: updated and created, nothing deleted (the file leaves NA out).
    const again = REFERENCE.filter((r) => r.code !== 'NA').map((r) => (r.code === 'AUR' ? { ...r, label: 'Aurora' } : r));
    again.push({ kind: 'COUNTRY', code: 'FR', label: 'France', parent: 'EU' });
    const second = loaded(await load({ ...world(), reference: again }));
    expect(second.reference).toMatchObject({ BRAND: { created: 0, updated: 1 }, COUNTRY: { created: 1, updated: 0 }, STARS_ZONE: { created: 0, updated: 0 } });
    expect(second.monthsCreated).toEqual([]);
    expect(await queryRows(db, sql`SELECT description FROM brands`)).toEqual([{ description: 'Aurora' }]);
    expect(await count('stars_zones')).toBe(2);
  });

  it('without the Reference Data file, unknown codes are refused as before', async () => {
    const result = await load({ ...world(), reference: undefined });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContain("registry.csv, row 2, brandCode: 'AUR' is not a known brand");
    expect(await counts()).toMatchObject({ brands: 0, months: 0, skus: 0, modules: 0 });
  });

  it('refuses a bad Reference Data file with `file, row, column: reason` and writes nothing', async () => {
    const bad: Row[] = [
      ...REFERENCE,
      { kind: 'BRAND', code: 'AUR', label: 'Again' },
      { kind: 'BRAND', code: 'VLT' },
      { kind: 'COUNTRY', code: 'US', label: 'United States', parent: 'MARS' },
      { kind: 'COUNTRY', code: 'CA', label: 'Canada' },
      { kind: 'LIA', code: 'LIA02', label: 'A label', parent: 'RETAIL' },
      { kind: 'MACRO_FAMILY', code: 'ROUND', parent: 'TOP' },
      { kind: 'CLIENT_CLASSIFICATION', code: 'vip gold' },
      { kind: 'PLANET', code: 'X' },
      { kind: 'STARS_ZONE', code: 'LATAM', label: 'Latin America', parent: 'EU' },
    ];
    const result = await load({ ...world(), reference: bad });
    expect(result).toEqual({
      ok: false,
      errorCount: 9,
      errors: [
        'reference.csv, row 12, code: this BRAND code repeats row 2',
        'reference.csv, row 13, label: required for kind BRAND',
        "reference.csv, row 14, parent: 'MARS' is not a known stars zone",
        'reference.csv, row 15, parent: required for kind COUNTRY',
        'reference.csv, row 16, label: LIA rows have no label: leave it empty',
        "reference.csv, row 17, parent: 'TOP' is not a special kind of macro family (BEST_SELLER, NEWNESS, or empty)",
        'reference.csv, row 18, code: Admitted characters: A-Z, 0-9, _, -',
        "reference.csv, row 19, kind: 'PLANET' is not one of BRAND, COLLECTION, PLANNING_CHANNEL, STARS_ZONE, COUNTRY, LIA, MACRO_FAMILY, CLIENT_CLASSIFICATION",
        'reference.csv, row 20, parent: STARS_ZONE rows have no parent: leave it empty',
      ],
    });
    expect(await counts()).toMatchObject({ brands: 0, stars_zones: 0, months: 0, skus: 0, modules: 0 });
  });

  it('refuses a month that belongs to another release, and a month id that is not one', async () => {
    await db.insert(months).values({ monthId: 'M03_2027', year: 2027, month: 3, open: true, releaseId: 'R2027' });
    const files = world('M03_2027');
    files.module.push(MODULE('M13_2027', 'MOD2'));
    const result = await load(files);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      "module.csv, row 2, monthId: 'M03_2027' is a month of release R2027, not of R2028",
      "module.csv, row 3, monthId: 'M13_2027' is not a month (M01_2027 … M12_2027)",
      "cluster.csv, row 2, monthId: 'M03_2027' is a month of release R2027, not of R2028",
    ]);
    expect(await count('brands')).toBe(0);
  });

  it('a dry run writes nothing and says what the load would do; the real load then does it', async () => {
    loaded(await load(world()));
    const before = await counts();
    const files = world();
    files.module = [{ ...MODULE('M01_2028'), moduleLabel: 'Changed' }, MODULE('M02_2028', 'MOD9')];
    files.cluster = CLUSTER('M01_2028');
    const dry = loaded(await load(files, { dryRun: true }));
    expect(dry.dryRun).toBe(true);
    expect(dry.monthsCreated).toEqual(['M02_2028']);
    expect(dry.preview).toEqual({
      modules: { created: 1, changed: 1, unchanged: 0 },
      clusters: { created: 0, changed: 0, unchanged: 1 },
      removedModules: { count: 0, names: [] },
      removedClusters: { count: 0, names: [] },
    });
    expect(await counts()).toEqual(before);

    // massive without the cluster: the preview names what it removes.
    const removing = loaded(await load({ ...files, cluster: [] }, { dryRun: true }));
    expect(removing.preview?.removedClusters).toEqual({ count: 1, names: ['CL1 (M01_2028)'] });
    expect(await counts()).toEqual(before);

    const real = loaded(await load(files));
    expect(real.dryRun).toBe(false);
    expect(real.monthsCreated).toEqual(['M02_2028']);
    expect(await queryRows(db, sql`SELECT module_name, month_id, module_label FROM modules ORDER BY month_id`)).toEqual([
      { module_name: 'MOD1', month_id: 'M01_2028', module_label: 'Changed' },
      { module_name: 'MOD9', month_id: 'M02_2028', module_label: 'Label' },
    ]);
  });
});
