/**
 * Release loader benchmark: `npm run bench:release-loader -w apps/server -- [--rows 1000000] [--keep]`
 *
 * Generates a release whose Module Composition has `--rows` lines (50 SKUs per module-month), with a
 * matching Sku Registry, Customer Segmentation and Cluster Composition, as CSV files in a temp dir. Loads
 * them (massive) into a fresh PostgreSQL database (`bench_release_loader`, next to BENCH_DATABASE_URL's)
 * holding the test reference data, sampling the process RSS. Then `\copy`s the same module CSV with psql
 * into a bare table of the same columns. PASS when the loader's module rows/s (its whole load time, all
 * four files, checks and merges included) reach 25% of the bare COPY's, with peak RSS under 500 MB.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { clientClassifications, macroFamilies } from '../src/db/schema.js';
import { FORMATS, type ReleaseFileKind } from '../src/modules/release-loader/formats.js';
import { fileSource, type FileSource } from '../src/modules/release-loader/read-records.js';
import { loadRelease } from '../src/modules/release-loader/release-loader.service.js';
import { buildReference } from '../test/builders.js';
import { scratchDatabase } from './scratch-database.js';

const TARGET_SHARE = 0.25;
const MAX_RSS_MB = 500;

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, keep: { type: 'boolean', default: false } },
  strict: true,
});
const moduleRows = Number(values.rows);
const LINES = 50;
const MONTHS = ['M01_2027', 'M02_2027', 'M10_2027'];
const SKUS = 50_000;
const STORES = 2_000;

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

const moduleCount = Math.ceil(moduleRows / LINES);
const moduleName = (m: number) => `MOD${m}`;
const monthOf = (m: number) => MONTHS[m % MONTHS.length]!;

function* modules() {
  let written = 0;
  for (let m = 0; written < moduleRows; m++) {
    const head = {
      moduleName: moduleName(m), monthId: monthOf(m), moduleLabel: `Module ${m}`, moduleDescription: 'Bench module', macroFamily: m % 2 ? 'PILOT' : 'ROUND',
      brandCode: 'AUR', collection: 'SUN', planningChannelId: 'RETAIL', newModule: m % 2 ? 'true' : 'false', starsZones: 'EU|NA',
    };
    for (let l = 0; l < LINES && written < moduleRows; l++, written++) {
      yield { ...head, upc: upc((m * 7 + l * 13) % SKUS), mustHave: l % 3 ? 'MH' : 'EL', status: 'ADDED', minValue: String(1 + (l % 4)), position: String(l) };
    }
  }
}

function* clusters() {
  const perMonth = Math.floor(moduleCount / MONTHS.length);
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

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-release-'));
  const files = {} as Record<ReleaseFileKind, FileSource>;
  console.log(`Generating files in ${dir} …`);
  const counts: Record<string, number> = {};
  for (const [kind, gen] of [['registry', registry], ['segment', segment], ['module', modules], ['cluster', clusters]] as const) {
    const file = path.join(dir, `${kind}.csv`);
    counts[kind] = await writeFile(file, kind, gen);
    files[kind] = fileSource(file);
    console.log(`  ${kind}: ${counts[kind]!.toLocaleString('en-US')} rows, ${(files[kind].size / 1e6).toFixed(1)} MB`);
  }

  const { url } = await scratchDatabase('bench_release_loader', false);
  const database = await openDatabase({ url, poolSize: 4 });
  try {
    await migrate(database);
    await buildReference(database.db);
    await database.db.insert(macroFamilies).values([{ macroFamily: 'PILOT' }, { macroFamily: 'ROUND' }]);
    await database.db.insert(clientClassifications).values({ classificationLabel: 'VIP' });

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    let lastProgress = -1;
    const started = performance.now();
    const result = await loadRelease(database.db, {
      releaseId: 'R2027',
      type: 'massive',
      files,
      username: 'bench',
      onProgress: (p) => {
        if (p >= lastProgress + 10 || p === 100) {
          lastProgress = p;
          console.log(`  ${String(p).padStart(3)}%  ${((performance.now() - started) / 1000).toFixed(1)} s  rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
        }
      },
    });
    const loadSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (!result.ok) throw new Error(`refused (${result.errorCount}): ${result.errors.slice(0, 10).join('\n')}`);
    const allRows = Object.values(result.rows).reduce((s, n) => s + n, 0);
    const loaderRate = counts.module! / loadSeconds;
    console.log(`Loader: ${allRows.toLocaleString('en-US')} rows of four files in ${loadSeconds.toFixed(1)} s = ${(allRows / loadSeconds).toFixed(0)} rows/s;`);
    console.log(`        module rows / load time = ${loaderRate.toFixed(0)} rows/s; peak RSS ${(peakRss / 1e6).toFixed(0)} MB`);
    console.log(`        staged: ${JSON.stringify(result.staged)}; merged: ${JSON.stringify(result.merged)}`);

    const defs = FORMATS.module.columns.map((c) => `"${c.name}" text`).join(", ");
    await database.db.execute(sql.raw('DROP TABLE IF EXISTS bare_module_copy'));
    await database.db.execute(sql.raw(`CREATE TABLE bare_module_copy (${defs})`));
    const copyStarted = performance.now();
    execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `\\copy bare_module_copy FROM '${path.join(dir, 'module.csv')}' WITH (FORMAT csv, HEADER true, DELIMITER ',')`], { stdio: 'inherit' });
    const copySeconds = (performance.now() - copyStarted) / 1000;
    const copyRate = counts.module! / copySeconds;
    console.log(`Bare COPY (psql \\copy): ${counts.module!.toLocaleString('en-US')} rows in ${copySeconds.toFixed(1)} s = ${copyRate.toFixed(0)} rows/s`);

    const share = loaderRate / copyRate;
    const pass = share >= TARGET_SHARE && peakRss / 1e6 < MAX_RSS_MB;
    console.log(`Loader at ${(share * 100).toFixed(0)}% of bare COPY (target ≥ ${TARGET_SHARE * 100}%), peak RSS ${(peakRss / 1e6).toFixed(0)} MB (target < ${MAX_RSS_MB} MB): ${pass ? 'PASS' : 'FAIL'}`);
    if (!pass) process.exitCode = 1;
  } finally {
    await database.close();
    if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
