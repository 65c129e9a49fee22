/**
 * Export benchmark (issue 16): `npm run bench:export -w apps/server -- [--modules 1000] [--skus 100] [--reuse]`
 *
 * Makes its own database `bench_export` next to BENCH_DATABASE_URL's (default
 * postgres://postgres@127.0.0.1:5432/postgres): the reference world of the tests, 10,000 SKUs with
 * their month figures, and `--modules` SUBMITTED modules of `--skus` SKU lines each (100,000 module-SKU
 * rows by default); `--reuse` keeps a database seeded by an earlier run.
 *
 * 1. The product: `xls_massive` of every module with a template of every module column, through the
 *    export service (the call's checks, the export row, the job that reads the modules and writes the
 *    workbook with ExcelJS's streaming writer, the stored bytes, and the download streamed back), as an
 *    admin, in a process of its own that holds only the server's code (export-product-process.ts), so
 *    its memory is the product's and not the benchmark's. The call is the service's, not HTTP's: a
 *    request body holds at most 500 modules.
 * 2. The bare writer: the same rows (the same cell values, already in memory) written with a bare
 *    ExcelJS streaming WorkbookWriter into a buffer list, the plain documented way, with the same column
 *    number formats (so the same file); and, for information, with ExcelJS's defaults (no styles).
 *
 * Prints rows/s of both, their ratio, and the product process's peak RSS while it exported (sampled
 * every 10 ms) and its kernel high-water mark (VmHWM, from its start; the target is checked on this). Targets: the product at least 50 % of the bare writer's rows/s; peak RSS under 300 MB.
 * Not part of the test suite.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { moduleSkus, moduleStarsZones, modules, skuMonthStats, skus, templates } from '../src/db/schema.js';
import { exportedLines } from '../src/areas/exports/module-export.js';
import { MODULE_COLUMNS } from '../src/areas/exports/module-xlsx.js';
import { findModules } from '../src/items/module/modules.repository.js';
import { toModuleDtos } from '../src/items/module/module.presenter.js';
import { buildFamily, buildReference } from '../test/builders.js';
import { startV8Flags } from '../test/start-flags.js';
import { scratchDatabase } from './scratch-database.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_RATIO = 0.5;

const TARGET_RSS_MB = 300;
const SKU_COUNT = 10_000;
const MONTH = 'M01_2027';

const { values } = parseArgs({
  options: {
    modules: { type: 'string', default: '1000' },
    skus: { type: 'string', default: '100' },
    reuse: { type: 'boolean', default: false },
  },
  strict: true,
});
const moduleCount = Number(values.modules);
const linesPerModule = Number(values.skus);
if (!(moduleCount > 0) || !(linesPerModule > 0 && linesPerModule <= SKU_COUNT)) throw new Error('--modules and --skus must be numbers above 0');

const mb = (bytes: number) => bytes / 1024 / 1024;
const name = (i: number) => `BENCH_${String(i).padStart(5, '0')}`;

async function seed(db: Parameters<typeof buildReference>[0]) {
  await buildReference(db);
  await buildFamily(db, 'PILOT');
  const upcs = Array.from({ length: SKU_COUNT }, (_, i) => String(700000000000 + i));
  for (let i = 0; i < SKU_COUNT; i += 1000) {
    const chunk = upcs.slice(i, i + 1000);
    await db.insert(skus).values(
      chunk.map((upc, j) => ({
        upc,
        skuId: 500000 + i + j,
        model: `AU${1000 + ((i + j) % 800)}`,
        color: String((i + j) % 40).padStart(3, '0'),
        colorDescription: 'Black',
        size: String(48 + ((i + j) % 8)),
        materialCode: `AU${1000 + ((i + j) % 800)}`,
        skuCode: `SKU-${i + j}`,
        brandCode: 'AUR',
        collection: 'SUN',
        srp: 100 + ((i + j) % 300),
        whsprice: 50 + ((i + j) % 150),
        releaseDate: '2024-03-01',
        insertDate: '2024-01-15',
        gender: 'UNISEX',
        frameMaterial: 'ACETATE',
        marketingTheme: 'CORE',
      })),
    );
    await db.insert(skuMonthStats).values(
      chunk.map((upc, j) => ({ upc, monthId: MONTH, sellIn: j, sellOut: j, outOfStars: 0, rankSellIn: j, rankSellOut: j, rankOutOfStars: j, skuTurn: 1.5, doorIndex: 60, pty: 3 })),
    );
  }
  for (let i = 0; i < moduleCount; i += 100) {
    const rows = await db
      .insert(modules)
      .values(
        Array.from({ length: Math.min(100, moduleCount - i) }, (_, k) => ({
          moduleName: name(i + k),
          monthId: MONTH,
          moduleLabel: `Bench module ${i + k}`,
          macroFamily: 'PILOT',
          brandCode: 'AUR',
          collection: 'SUN',
          status: 'SUBMITTED',
        })),
      )
      .returning({ id: modules.id });
    await db.insert(moduleStarsZones).values(rows.map((r) => ({ moduleId: r.id, starsZone: 'EU' })));
    for (const [k, r] of rows.entries()) {
      const m = i + k;
      await db.insert(moduleSkus).values(
        Array.from({ length: linesPerModule }, (_, j) => ({
          moduleId: r.id,
          upc: upcs[(m * 37 + j) % SKU_COUNT]!,
          mustHave: j < linesPerModule * 0.6,
          status: 'ADDED',
          position: j,
        })),
      );
    }
  }
}

/** The product's rows (cell values), read as the job reads them, for the bare writer. */
async function productRows(db: Parameters<typeof buildReference>[0], columns: readonly string[]): Promise<unknown[][]> {
  const defs = columns.map((c) => MODULE_COLUMNS[c]!);
  const out: unknown[][] = [];
  for (let i = 0; i < moduleCount; i += 50) {
    const refs = Array.from({ length: Math.min(50, moduleCount - i) }, (_, k) => ({ moduleName: name(i + k), monthId: MONTH }));
    const rows = await findModules(db, refs);
    const dtos = new Map((await toModuleDtos(db, rows, { lockTtlMinutes: 120 })).map((d) => [d.moduleName, d]));
    for (const ref of refs) {
      const module = dtos.get(ref.moduleName)!;
      for (const sku of exportedLines(module)) out.push(defs.map((d) => d.value(module, sku)));
    }
  }
  return out;
}

/**
 * The same rows with a bare ExcelJS streaming writer, used the plain documented way: `formatted` writes
 * the same file (styles on, the columns' number formats, so prices and dates read as such); otherwise
 * ExcelJS's defaults (no styles at all: dates show as numbers), for information.
 */
async function bareWrite(columns: readonly string[], rows: readonly unknown[][], formatted: boolean): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter(formatted ? { stream: out, useStyles: true } : { stream: out });
  const sheet = workbook.addWorksheet('Modules');
  const defs = columns.map((c) => MODULE_COLUMNS[c]!);
  if (formatted) sheet.columns = defs.map((d, i) => ({ key: `c${i}`, width: d.width, ...(d.numFmt ? { style: { numFmt: d.numFmt } } : {}) }));
  sheet.addRow(defs.map((d) => d.title)).commit();
  for (const r of rows) sheet.addRow(r).commit();
  sheet.commit();
  await workbook.commit();
  await ended;
  return Buffer.concat(chunks);
}

async function sheetRowCount(xlsx: Buffer): Promise<number> {
  const zip = await JSZip.loadAsync(xlsx);
  const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  return (xml.match(/<row /g) ?? []).length;
}

async function main() {
  const { url, fresh } = await scratchDatabase('bench_export', values.reuse);
  const database = await openDatabase({ url, poolSize: 10 });
  try {
    await migrate(database);
    const db = database.db;
    if (fresh) {
      const started = performance.now();
      await seed(db);
      await database.execScript('VACUUM ANALYZE');
      console.log(`Seeded ${moduleCount} modules × ${linesPerModule} SKU lines in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    } else {
      console.log('Reusing bench_export');
    }
    const [{ n: lines } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM module_skus`);
    console.log(`${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}; ${lines.toLocaleString('en-US')} module-SKU rows`);

    const columns = Object.keys(MODULE_COLUMNS);
    const [template] = await db.insert(templates).values({ templateLabel: 'Bench: every column', templatesType: 'modulo', columns }).returning();
    // ─── 1. The product, in a process of its own (export-product-process.ts) ───
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'bench-export-'));
    const outPath = path.join(outDir, 'product.xlsx');
    const jobSpec = { url, templateId: template!.templateId, month: MONTH, names: Array.from({ length: moduleCount }, (_, i) => name(i)) };
    const child = spawnSync(process.execPath, ['--expose-gc', ...startV8Flags(), '--import', 'tsx', 'bench/export-product-process.ts'], {
      cwd: SERVER_DIR,
      env: { ...process.env, BENCH_EXPORT_JOB: JSON.stringify(jobSpec), BENCH_EXPORT_OUT: outPath },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (child.status !== 0) throw new Error(`the product process failed (${child.status}):\n${child.stdout}\n${child.stderr}`);
    const measured = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { seconds: number; rssBefore: number; peak: number; highWaterBefore: number; highWater: number };
    const file = await readFile(outPath);
    await rm(outDir, { recursive: true, force: true });
    const productS = measured.seconds;
    const productRowsWritten = (await sheetRowCount(file)) - 1;

    // ─── 2. The bare writer, the same rows ───
    const tr = performance.now();
    const rows = await productRows(db, columns);
    const readS = (performance.now() - tr) / 1000;
    globalThis.gc?.();
    const rssBeforeBare = process.memoryUsage().rss;
    let peakBare = rssBeforeBare;
    const bareSampler = setInterval(() => (peakBare = Math.max(peakBare, process.memoryUsage().rss)), 10);
    const t1 = performance.now();
    const bare = await bareWrite(columns, rows, true);
    const bareS = (performance.now() - t1) / 1000;
    clearInterval(bareSampler);
    peakBare = Math.max(peakBare, process.memoryUsage().rss);

    const t2 = performance.now();
    await bareWrite(columns, rows, false);
    const plainS = (performance.now() - t2) / 1000;

    const productRate = productRowsWritten / productS;
    const bareRate = rows.length / bareS;
    const ratio = productRate / bareRate;
    console.log(`\nproduct  ${productRowsWritten.toLocaleString('en-US')} rows in ${productS.toFixed(2)} s = ${productRate.toFixed(0)} rows/s (${mb(file.length).toFixed(1)} MB xlsx)`);
    console.log(`bare     ${rows.length.toLocaleString('en-US')} rows in ${bareS.toFixed(2)} s = ${bareRate.toFixed(0)} rows/s (${mb(bare.length).toFixed(1)} MB xlsx)`);
    console.log(`(the bare writer with ExcelJS's defaults, no styles, not the same file: ${plainS.toFixed(2)} s = ${(rows.length / plainS).toFixed(0)} rows/s)`);
    console.log(`(reading the modules as the job does and making the rows alone: ${readS.toFixed(2)} s)`);
    console.log(`ratio    ${(ratio * 100).toFixed(0)} % of the bare writer (target ≥ ${TARGET_RATIO * 100} %)`);
    console.log(`product process started as npm start does: ${startV8Flags().join(' ') || '(no V8 memory settings)'}`);
    console.log(`peak RSS ${mb(measured.peak).toFixed(0)} MB in the product's process while it exported (${mb(measured.rssBefore).toFixed(0)} MB before it: +${mb(measured.peak - measured.rssBefore).toFixed(0)} MB; target < ${TARGET_RSS_MB} MB)`);
    console.log(`         kernel high-water mark of that process: ${mb(measured.highWater).toFixed(0)} MB (${mb(measured.highWaterBefore).toFixed(0)} MB before the export, from its start)`);
    console.log(`         ${mb(peakBare).toFixed(0)} MB while the bare writer ran (${mb(rssBeforeBare).toFixed(0)} MB before it, with the rows in memory: +${mb(peakBare - rssBeforeBare).toFixed(0)} MB)`);

    const failures: string[] = [];
    if (productRowsWritten !== rows.length) failures.push(`the product wrote ${productRowsWritten} rows, the bare writer ${rows.length}`);
    if (ratio < TARGET_RATIO) failures.push(`rows/s ratio ${(ratio * 100).toFixed(0)} % < ${TARGET_RATIO * 100} %`);
    if (mb(measured.highWater) >= TARGET_RSS_MB) failures.push(`peak RSS ${mb(measured.highWater).toFixed(0)} MB ≥ ${TARGET_RSS_MB} MB`);
    if (failures.length) {
      console.error(`\nFAIL — ${failures.join('; ')}`);
      process.exitCode = 1;
    } else {
      console.log('\nPASS');
    }
  } finally {
    await database.close();
  }
}

await main();
