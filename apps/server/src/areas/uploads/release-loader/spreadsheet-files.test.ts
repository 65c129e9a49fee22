/**
 * Release files that went through a spreadsheet program (docs/SPREADSHEET-FILES.md), on both staging ways
 * (the fast COPY way on PostgreSQL, the careful way everywhere): CSV dialects (`;` or `,`, CRLF or LF, with or
 * without a BOM), other encodings refused by name, code columns repaired where the row proves the value or
 * refused with the row and the reason — and the same files passed through LibreOffice (CSV → CSV, in an
 * Italian `;`, in Windows-1252, and CSV → xlsx): loaded with the documented repairs and the SKUs' codes equal to
 * the originals, or refused with the documented reasons. Never a silent change.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { libreOfficeResave, SOFFICE, SOFFICE_SKIP } from '../../../../test/soffice.js';
import { buildTestApp } from '../../../../test/test-app.js';
import { queryRows, type Db } from '../../../db/client.js';
import { clientClassifications, macroFamilies } from '../../../db/schema.js';
import { CELL_TEXT_REASONS, FORMATS, RELEASE_FILE_KINDS, type ReleaseFileKind } from './formats.js';
import { NotUtf8 } from './read-records.js';
import { bufferSource, type FileSource } from './read-records.js';
import { csvField } from './release-export.js';
import { loadRelease, type LoadResult } from './release-loader.service.js';
import { loadedResponse } from '../file-loader.job.js';

type Row = Record<string, string>;
type Files = Record<ReleaseFileKind, Row[]>;

const SKU = (upc: string, skuId: number, color: string, size: string, extra: Row = {}): Row => ({
  upc, skuId: String(skuId), model: 'AU4012', color, colorDescription: 'Black', size, materialCode: '0AU4012', skuCode: `0AU4012__${color}${size}`,
  brandCode: 'AUR', collection: 'SUN', planningChannelId: 'RETAIL', srp: '129.90', whsprice: '60.00', releaseDate: '2026-11-01', insertDate: '2026-10-01',
  gedConfirmed: 'false', gender: 'Unisex', frameMaterial: 'Acetate', marketingTheme: 'Summer', ...extra,
});

const HEAD = { moduleName: 'MOD1', monthId: 'M01_2027', moduleLabel: 'Label', macroFamily: 'PILOT', brandCode: 'AUR', collection: 'SUN', starsZones: 'EU', newModule: 'true' };
const CLUSTER = { clusterId: 'CL1', monthId: 'M01_2027', clusterLabel: 'Cluster', brandCode: 'AUR', collection: 'SUN' };

/** A small release like the demo's: optical colours of digits (`003`, which a spreadsheet reads as 3), a sun colour as text. */
function world(upcs = ['800000000017', '800000000024', '800000000031']): Files {
  return {
    registry: [SKU(upcs[0]!, 1, '003', '52'), SKU(upcs[1]!, 2, '010', '54'), SKU(upcs[2]!, 3, '003/2P', '52')],
    segment: [
      { storeJda: '200007', codiceStoreSap: 'S1000013', storeName: 'Ottica Roma', countryCode: 'IT', customerSegmentation: 'SILVER', segmentationLabel: 'Silver', planningChannelId: 'RETAIL', starsCustomer: 'C100', starsCustomerName: 'Ottica', starsCustomerCountry: 'IT', starsCustomerPlanningChannel: 'RETAIL', distributionChannel: 'Optician' },
    ],
    module: upcs.map((upc, i) => ({ ...HEAD, upc, mustHave: 'MH', status: 'ADDED', minValue: '1', position: String(i) })),
    cluster: [{ ...CLUSTER, kind: 'CLUSTER' }, { ...CLUSTER, kind: 'STORE', value: '200007' }, { ...CLUSTER, kind: 'MODULE', value: 'MOD1' }],
  };
}

interface Dialect {
  delimiter?: ',' | ';';
  eol?: '\n' | '\r\n';
  bom?: boolean;
}

/** A file as the download writes it (`,`, CRLF, csvField's quoting), or in another dialect. */
function csv(kind: ReleaseFileKind, rows: Row[], { delimiter = ',', eol = '\r\n', bom = false }: Dialect = {}): string {
  const names = FORMATS[kind].columns.map((c) => c.name);
  const line = (cells: string[]) => cells.map((c) => csvField(c, delimiter)).join(delimiter) + eol;
  return (bom ? '\uFEFF' : '') + line(names) + rows.map((r) => line(names.map((n) => r[n] ?? ''))).join('');
}

const sources = (files: Record<ReleaseFileKind, Buffer | string>, ext = 'csv') =>
  Object.fromEntries(RELEASE_FILE_KINDS.map((k) => [k, bufferSource(`${k}.${ext}`, files[k])])) as Record<ReleaseFileKind, FileSource>;
const csvFiles = (files: Files, dialect?: Dialect) => Object.fromEntries(RELEASE_FILE_KINDS.map((k) => [k, csv(k, files[k], dialect)])) as Record<ReleaseFileKind, string>;

let db: Db;
let close: () => Promise<void>;
let onPostgres = false;

/** The SKUs' codes and the module lines as stored. */
const stored = async () => ({
  skus: await queryRows(db, sql`SELECT upc, model, color, size, material_code, sku_code, color_description FROM skus ORDER BY upc`),
  lines: await queryRows(db, sql`SELECT upc FROM module_skus ORDER BY upc`),
  stores: await queryRows(db, sql`SELECT store_jda, codice_store_sap FROM stores ORDER BY store_jda`),
});
const expected = (files: Files) => ({
  skus: files.registry.map((r) => ({ upc: r.upc, model: r.model, color: r.color, size: r.size, material_code: r.materialCode, sku_code: r.skuCode, color_description: r.colorDescription })).sort((a, b) => a.upc!.localeCompare(b.upc!)),
  lines: files.module.map((r) => ({ upc: r.upc })).sort((a, b) => a.upc!.localeCompare(b.upc!)),
  stores: files.segment.map((r) => ({ store_jda: r.storeJda, codice_store_sap: r.codiceStoreSap })),
});

const load = (files: Record<ReleaseFileKind, FileSource>, careful: boolean) => loadRelease(db, { releaseId: 'R2027', type: 'massive', files, username: 'loader', careful });

function loaded(result: LoadResult) {
  if (!result.ok) throw new Error(`refused: ${result.errors.join('\n')}`);
  return result;
}

/** Loads the files both ways (the fast one first, where there is one): the same answer, the same rows stored. */
async function bothWays(files: () => Record<ReleaseFileKind, FileSource>) {
  const fast = await load(files(), false);
  const fastRows = await stored();
  const careful = await load(files(), true);
  const carefulRows = await stored();
  // The second load finds the first one's rows: what it created differs, not what it read.
  const answer = (r: LoadResult) => (r.ok ? { ok: true, rows: r.rows, repairs: r.repairs } : r);
  expect(answer(careful)).toEqual(answer(fast));
  expect(carefulRows).toEqual(fastRows);
  return { fast, careful, rows: carefulRows };
}

/** Each test on an app of its own with the reference data, a PILOT family and a VIP classification. */
function openWorld(): void {
  beforeEach(async () => {
    const t = await buildTestApp({ reference: true });
    db = t.db;
    onPostgres = t.app.database.kind === 'postgres';
    close = () => t.app.close();
    await db.insert(macroFamilies).values([{ macroFamily: 'PILOT' }]);
    await db.insert(clientClassifications).values({ classificationLabel: 'VIP' });
  });
  afterEach(async () => {
    await close();
  });
}

describe('spreadsheet files: dialects, encodings, code columns (both staging ways)', () => {
  openWorld();

  it('reads `;` or `,`, CRLF or LF, UTF-8 with or without a BOM, the same on both ways (the fast way takes them all)', async () => {
    const files = world();
    files.registry[0]!.colorDescription = 'Nero; opaco, "è"';
    // Every pair of the three choices, in four loads each way.
    const dialects: Dialect[] = [
      { delimiter: ',', eol: '\n', bom: false },
      { delimiter: ',', eol: '\r\n', bom: true },
      { delimiter: ';', eol: '\n', bom: true },
      { delimiter: ';', eol: '\r\n', bom: false },
    ];
    for (const dialect of dialects) {
      const { fast, rows } = await bothWays(() => sources(csvFiles(files, dialect)));
      expect(rows, JSON.stringify(dialect)).toEqual(expected(files));
      const way = onPostgres ? 'fast' : 'careful';
      expect(loaded(fast).staged).toMatchObject({ registry: way, module: way, cluster: way });
      expect(loaded(fast).repairs).toEqual([]);
    }
  });

  it('refuses a UTF-16 file (Excel\'s "Unicode Text") by name, with or without its byte order mark', async () => {
    const text = csv('registry', world().registry);
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const registry of [Buffer.concat([Buffer.from([0xff, 0xfe]), le]), Buffer.concat([Buffer.from([0xfe, 0xff]), be]), le]) {
      const { fast } = await bothWays(() => sources({ ...csvFiles(world()), registry }));
      expect(fast).toEqual({
        ok: false,
        errorCount: 1,
        errors: ["registry.csv, row 1, -: the file is UTF-16 (as Excel's 'Unicode Text' writes it, separated by tabs): save it as 'CSV UTF-8 (Comma delimited)'"],
      });
    }
  });

  it('refuses a Windows-1252 file once, by name, at its first such cell; a UTF-8 file\'s stray byte stays a cell error', async () => {
    const files = world();
    files.registry[1]!.colorDescription = 'Marron glacé';
    files.registry[2]!.colorDescription = 'Bleu été';
    const text = csv('registry', files.registry);
    // Windows-1252 and ISO-8859-1 write é as the one byte 0xE9.
    const { fast } = await bothWays(() => sources({ ...csvFiles(files), registry: Buffer.from(text, 'latin1') }));
    expect(fast).toEqual({ ok: false, errorCount: 1, errors: [`registry.csv, row 3, colorDescription: ${new NotUtf8(3).message}`] });

    // UTF-8 (é as C3 A9) with one stray 0xE9: the file is UTF-8, the byte is that cell's error.
    const utf8 = Buffer.from(text, 'utf8');
    const at = utf8.indexOf('Bleu');
    const mixed = Buffer.concat([utf8.subarray(0, at), Buffer.from([0xe9]), utf8.subarray(at)]);
    const { fast: mixedAnswer } = await bothWays(() => sources({ ...csvFiles(files), registry: mixed }));
    expect(mixedAnswer).toEqual({ ok: false, errorCount: 1, errors: [`registry.csv, row 4, colorDescription: ${CELL_TEXT_REASONS.notUtf8}`] });
  });

  it('repairs colours and sizes that lost their zeros where the row\'s skuCode proves them, and counts the repairs', async () => {
    const files = world();
    const lost = world();
    lost.registry[0]!.color = '3';
    lost.registry[1]!.color = '10';
    lost.registry[1]!.size = '054';
    lost.registry[1]!.skuCode = '0AU4012__010054';
    files.registry[1]!.size = '054';
    files.registry[1]!.skuCode = '0AU4012__010054';
    lost.registry[1]!.size = '54';
    const { fast, rows } = await bothWays(() => sources(csvFiles(lost)));
    expect(loaded(fast).repairs).toEqual(['registry.csv: 2 colour codes repaired from skuCode', 'registry.csv: 1 size codes repaired from skuCode']);
    // The upload's response shows them (Upload Files' result and preview).
    expect(loadedResponse(loaded(fast)).split(';')).toContain('Repaired: registry.csv: 2 colour codes repaired from skuCode, registry.csv: 1 size codes repaired from skuCode');
    if (onPostgres) expect(loaded(fast).staged).toMatchObject({ registry: 'careful', module: 'fast', cluster: 'fast' });
    expect(rows).toEqual(expected(files));
  });

  it('refuses UPCs that lost their zeros (rows and reason) and codes in scientific notation', async () => {
    const files = world(['012345678905', '800000000024', '800000000031']);
    const lost = world(['12345678905', '8.00E+11', '800000000031']);
    lost.segment[0]!.storeJda = '2.00007E+5';
    const { fast } = await bothWays(() => sources(csvFiles(lost)));
    expect(fast).toMatchObject({
      ok: false,
      errors: expect.arrayContaining([
        "registry.csv, row 2, upc: '12345678905' has 11 digits: a spreadsheet program may have dropped its leading zeros (012345678905 is a valid UPC-A); format the column as text",
        "registry.csv, row 3, upc: '8.00E+11' is a number in scientific notation: a spreadsheet program rounded the code; format the column as text",
        "segment.csv, row 2, storeJda: '2.00007E+5' is a number in scientific notation: a spreadsheet program rounded the code; format the column as text",
        "module.csv, row 2, upc: '12345678905' has 11 digits: a spreadsheet program may have dropped its leading zeros (012345678905 is a valid UPC-A); format the column as text",
      ]),
    });
    expect(loaded(await load(sources(csvFiles(files)), false)).repairs).toEqual([]);
  });
});

// Three LibreOffice runs per test: each may take 20 s and more on a busy 2-core machine (CI runs two test files at once).
describe.skipIf(!SOFFICE)(`spreadsheet files through LibreOffice ${SOFFICE ? '' : SOFFICE_SKIP}`, { timeout: 240_000 }, () => {
  openWorld();

  const downloaded = (files: Files) => RELEASE_FILE_KINDS.map((k) => ({ name: `${k}.csv`, content: csv(k, files[k]) }));
  const asSources = (buffers: Buffer[], ext: string) => sources(Object.fromEntries(RELEASE_FILE_KINDS.map((k, i) => [k, buffers[i]!])) as Record<ReleaseFileKind, Buffer>, ext);

  it('CSV → CSV (`,` and an Italian `;`) and CSV → xlsx: loads with the colours repaired from skuCode, every code as it was', async () => {
    const files = world();
    files.registry[0]!.colorDescription = 'Caffè';
    for (const [to, out] of [['csv', {}], ['csv', { separator: ';' }], ['xlsx', {}]] as const) {
      const buffers = await libreOfficeResave(downloaded(files), to, out);
      if (to === 'csv') expect(buffers[0]!.toString('utf8').split('\n')[1], 'LibreOffice dropped the zeros').toContain(`${out.separator ?? ','}3${out.separator ?? ','}`);
      const { fast, rows } = await bothWays(() => asSources(buffers, to));
      expect(loaded(fast).repairs, `${to} ${JSON.stringify(out)}`).toEqual([`registry.${to}: 2 colour codes repaired from skuCode`]);
      expect(rows).toEqual(expected(files));
    }
  });

  it('refuses what LibreOffice changed beyond proof: a UPC that lost its zero (CSV and xlsx), a Windows-1252 CSV', async () => {
    const files = world(['012345678905', '800000000024', '800000000031']);
    const upc = "upc: '12345678905' has 11 digits: a spreadsheet program may have dropped its leading zeros (012345678905 is a valid UPC-A); format the column as text";
    for (const to of ['csv', 'xlsx'] as const) {
      const buffers = await libreOfficeResave(downloaded(files), to);
      const { fast } = await bothWays(() => asSources(buffers, to));
      expect(fast).toMatchObject({ ok: false, errors: expect.arrayContaining([`registry.${to}, row 2, ${upc}`, `module.${to}, row 2, ${upc}`]) });
    }
    const accented = world();
    accented.registry[1]!.colorDescription = 'Marron glacé';
    const buffers = await libreOfficeResave(downloaded(accented), 'csv', { encoding: 'windows-1252' });
    expect(buffers[0]!.includes(Buffer.from([0xe9]))).toBe(true);
    const { fast } = await bothWays(() => asSources(buffers, 'csv'));
    expect(fast).toEqual({ ok: false, errorCount: 1, errors: [`registry.csv, row 3, colorDescription: ${new NotUtf8(3).message}`] });
  });
});
