/**
 * Generated release files (the four CSV files of docs/RELEASE-FILES.md) for the release loader's
 * benchmark and its process test: `moduleRows` module lines (50 SKUs per module-month over three months
 * of R2027), SKUS SKUs, STORES stores, 2,000 clusters with stores and modules of their month. They load
 * into a database holding the test reference data plus macro families PILOT and ROUND and the client
 * classification VIP (`prepareReleaseWorld`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database, Db } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { clientClassifications, macroFamilies } from '../src/db/schema.js';
import { FORMATS, type ReleaseFileKind } from '../src/areas/uploads/release-loader/formats.js';
import { buildReference, buildUser } from './builders.js';

const LINES = 50;
const MONTHS = ['M01_2027', 'M02_2027', 'M10_2027'];
const SKUS = 50_000;
const STORES = 2_000;
export const RELEASE_FILES_RELEASE = 'R2027';

/** The reference data the generated files refer to. */
export async function prepareReleaseWorld(db: Db): Promise<void> {
  await buildReference(db);
  await db.insert(macroFamilies).values([{ macroFamily: 'PILOT' }, { macroFamily: 'ROUND' }]);
  await db.insert(clientClassifications).values({ classificationLabel: 'VIP' });
}

/** Writes lines to a file through a stream, waiting when it asks to. */
async function writeFile(file: string, kind: ReleaseFileKind, rows: () => Generator<Record<string, string>>): Promise<number> {
  const names = FORMATS[kind].columns.map((c) => c.name);
  const out = fs.createWriteStream(file);
  let chunk = `${names.join(',')}\n`;
  let n = 0;
  for (const row of rows()) {
    chunk += `${names.map((name) => row[name] ?? '').join(',')}\n`;
    n++;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.write(chunk);
  await new Promise((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve(undefined))));
  return n;
}

const upc = (i: number) => `8${String(i).padStart(11, '0')}`;

function* registry() {
  for (let i = 0; i < SKUS; i++) {
    yield {
      upc: upc(i), skuId: String(i + 1), model: `AU${4000 + (i % 500)}`, color: `C${i % 20}`, colorDescription: 'Black matte', size: '52',
      materialCode: `M${i}`, skuCode: `S${i}`, brandCode: i % 2 ? 'AUR' : 'VLT', collection: i % 3 ? 'SUN' : 'OPTICAL', planningChannelId: 'RETAIL',
      srp: '129.90', whsprice: '60.00', releaseDate: '2026-11-01', insertDate: '2026-10-01', gender: 'Unisex', frameMaterial: 'Acetate', marketingTheme: 'Summer',
    };
  }
}

function* segment() {
  for (let i = 0; i < STORES; i++) {
    const customer = `C${Math.floor(i / 10)}`;
    yield {
      storeJda: `S${i}`, codiceStoreSap: `SAP${i}`, storeName: `Store ${i}`, countryCode: i % 2 ? 'IT' : 'FR', customerSegmentation: 'GOLD', segmentationLabel: 'Gold',
      planningChannelId: 'RETAIL', starsCustomer: customer, starsCustomerName: `Customer ${customer}`, starsCustomerCountry: 'IT', starsCustomerPlanningChannel: 'RETAIL', distributionChannel: 'Optician',
    };
  }
}

const moduleName = (m: number) => `MOD${m}`;
const monthOf = (m: number) => MONTHS[m % MONTHS.length]!;

/** `changeEvery`: every so many lines of the file get another minimum value than a file written without it (a reload's changes). */
function* modules(moduleRows: number, changeEvery = 0) {
  let written = 0;
  for (let m = 0; written < moduleRows; m++) {
    const head = {
      moduleName: moduleName(m), monthId: monthOf(m), moduleLabel: `Module ${m}`, moduleDescription: 'Bench module', macroFamily: m % 2 ? 'PILOT' : 'ROUND',
      brandCode: 'AUR', collection: 'SUN', planningChannelId: 'RETAIL', newModule: m % 2 ? 'true' : 'false', starsZones: 'EU|NA',
    };
    for (let l = 0; l < LINES && written < moduleRows; l++, written++) {
      yield { ...head, upc: upc((m * 7 + l * 13) % SKUS), mustHave: l % 3 ? 'MH' : 'EL', status: 'ADDED', minValue: String(1 + ((l + (changeEvery > 0 && written % changeEvery === 0 ? 1 : 0)) % 4)), position: String(l) };
    }
  }
}

function* clusters(moduleRows: number) {
  const perMonth = Math.floor(Math.ceil(moduleRows / LINES) / MONTHS.length);
  for (let c = 0; c < 2_000; c++) {
    const head = { clusterId: `CL${c}`, monthId: MONTHS[c % MONTHS.length]!, clusterLabel: `Cluster ${c}`, clusterDescription: 'Bench', brandCode: 'AUR', collection: 'SUN' };
    yield { ...head, kind: 'CLUSTER' };
    yield { ...head, kind: 'COUNTRY', value: 'IT' };
    yield { ...head, kind: 'LIA', value: 'LIA01' };
    yield { ...head, kind: 'CLASSIFICATION', value: 'VIP' };
    for (let s = 0; s < 20; s++) yield { ...head, kind: 'STORE', value: `S${(c * 20 + s) % STORES}` };
    // Modules of the cluster's month: m with m % 3 = the month's index.
    for (let k = 0; k < 10; k++) yield { ...head, kind: 'MODULE', value: moduleName(((c * 10 + k) % perMonth) * MONTHS.length + (c % MONTHS.length)) };
  }
}

export interface GeneratedFile {
  path: string;
  rows: number;
  size: number;
}

/**
 * Writes the four files into `dir` (registry.csv, segment.csv, module.csv, cluster.csv); with `changeEvery`, the
 * same files but for one module line in that many (its minimum value).
 */
export async function writeReleaseFiles(dir: string, moduleRows: number, changeEvery = 0): Promise<Record<ReleaseFileKind, GeneratedFile>> {
  const files = {} as Record<ReleaseFileKind, GeneratedFile>;
  const generators: [ReleaseFileKind, () => Generator<Record<string, string>>][] = [
    ['registry', registry],
    ['segment', segment],
    ['module', () => modules(moduleRows, changeEvery)],
    ['cluster', () => clusters(moduleRows)],
  ];
  for (const [kind, gen] of generators) {
    const file = path.join(dir, `${kind}.csv`);
    const rows = await writeFile(file, kind, gen);
    files[kind] = { path: file, rows, size: fs.statSync(file).size };
  }
  return files;
}

/**
 * A database for a server process's release-file test: migrated, the release world, and the admin `boss`
 * (password `pw`); closed again, so that the server process opens it.
 */
export async function prepareReleaseDatabase(open: () => Promise<Database>): Promise<void> {
  const database = await open();
  try {
    await migrate(database);
    await prepareReleaseWorld(database.db);
    await buildUser(database.db, { username: 'boss', password: 'pw', role: 'ADMIN' });
  } finally {
    await database.close();
  }
}
