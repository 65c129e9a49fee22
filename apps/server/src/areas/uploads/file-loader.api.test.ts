/**
 * Upload Files over HTTP (POST /data/fileLoader/import, the FILE_LOADER job, the templates and a
 * release's files), on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FILE_LOADER_TEXTS, UPLOAD_TEXTS, type UploadItem } from '@bo/shared/uploads';
import { AUR_EU } from '../../../test/builders.js';
import { multipartBody } from '../../../test/multipart.js';
import { libreOfficeXlsx, SOFFICE, SOFFICE_SKIP, sofficeConvert, type TypedCell } from '../../../test/soffice.js';
import { buildTestApp, loginAs, type TestUsers } from '../../../test/test-app.js';
import { queryRows, type Db } from '../../db/client.js';
import { clientClassifications, macroFamilies, releases } from '../../db/schema.js';
import { CELL_TEXT_REASONS, FORMATS, RELEASE_FILE_KINDS, type ReleaseFileKind } from './release-loader/formats.js';
import { csvField, templateCsv } from './release-loader/release-export.js';
import { NotUtf8 } from './release-loader/read-records.js';
import { JOB_TEXTS } from '../../jobs/job-text.js';
import { progressWriter } from './file-loader.job.js';

type Row = Record<string, string>;

const SKU = (upc: string, skuId: number): Row => ({
  upc, skuId: String(skuId), model: 'AU4012', color: 'C01', colorDescription: 'Black', size: '52', materialCode: `AU4012C01-${skuId}`,
  skuCode: `SC${skuId}`, brandCode: 'AUR', collection: 'SUN', srp: '129.90', whsprice: '60', releaseDate: '2026-11-01', insertDate: '2026-10-01',
  gender: 'Unisex', frameMaterial: 'Acetate', marketingTheme: 'Summer',
});
const STORE = (storeJda: string, sap: string): Row => ({
  storeJda, codiceStoreSap: sap, storeName: `Store ${storeJda}`, countryCode: 'IT', customerSegmentation: 'SILVER', segmentationLabel: 'Silver',
  planningChannelId: 'RETAIL', starsCustomer: 'C100', starsCustomerName: 'Ottica Roma', starsCustomerCountry: 'IT', starsCustomerPlanningChannel: 'RETAIL',
  distributionChannel: 'Optician',
});
const MOD = (moduleName: string): Row => ({ moduleName, monthId: 'M01_2027', moduleLabel: `Label ${moduleName}`, macroFamily: 'PILOT', brandCode: 'AUR', collection: 'SUN', starsZones: 'EU' });
const CL = (clusterId: string): Row => ({ clusterId, monthId: 'M01_2027', clusterLabel: `Cluster ${clusterId}`, brandCode: 'AUR', collection: 'SUN' });

type Files = Record<ReleaseFileKind, Row[]>;
const happyFiles = (): Files => ({
  registry: [SKU('800000000001', 1), SKU('800000000002', 2)],
  segment: [STORE('S1', 'SAP1')],
  module: [{ ...MOD('MOD1'), upc: '800000000001' }, { ...MOD('MOD1'), upc: '800000000002', mustHave: 'EL' }],
  cluster: [{ ...CL('CL1'), kind: 'CLUSTER' }, { ...CL('CL1'), kind: 'STORE', value: 'S1' }, { ...CL('CL1'), kind: 'MODULE', value: 'MOD1' }],
});

function csv(kind: ReleaseFileKind, rows: Row[]): string {
  const names = FORMATS[kind].columns.map((c) => c.name);
  const line = (cells: string[]) => cells.map((c) => csvField(c)).join(',');
  return [line(names), ...rows.map((r) => line(names.map((n) => r[n] ?? '')))].join('\n') + '\n';
}

// An importer (edit with the import rule) is not an admin: the loader is for admins only.
const USERS = { admin: { role: 'ADMIN' }, creator: { role: 'CREATOR', grants: { view: AUR_EU, edit: { ...AUR_EU, rules: ['import', 'create'] } } } } as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let db: Db;
let h: Record<User, { authorization: string }>;

/** A fresh app on an emptied database, with the reference data and the users. */
async function startApp() {
  const test = await buildTestApp({ reference: true, users: {}, manualJobs: true, tempDataDir: true, config: { RELEASE_FILE_MAX_MB: 1 } });
  app = test.app;
  db = test.db;
  await db.insert(macroFamilies).values([{ macroFamily: 'PILOT' }]);
  await db.insert(clientClassifications).values({ classificationLabel: 'VIP' });
  const { buildUser } = await import('../../../test/builders.js');
  h = {} as typeof h;
  for (const [username, spec] of Object.entries(USERS)) {
    await buildUser(db, { ...spec, username });
    h[username as User] = await loginAs(app, username);
  }
}
beforeEach(startApp);
afterEach(async () => {
  await app.close();
});

type Part = { field: string; fileName: string; content: Buffer; type?: string } | { field: string; value: string };
const fileParts = (files: Files): Part[] =>
  RELEASE_FILE_KINDS.map((k) => ({ field: k, fileName: `${k}.csv`, content: Buffer.from(csv(k, files[k])), type: 'text/csv' }));
const parts = (files: Files = happyFiles(), fields: Record<string, string> = { releaseId: 'R2027', type: 'massive' }): Part[] => [
  ...fileParts(files),
  ...Object.entries(fields).map(([field, value]) => ({ field, value })),
];

const send = (user: User, body: Part[]) => {
  const { payload, headers } = multipartBody(body);
  return app.inject({ method: 'POST', url: '/data/fileLoader/import', headers: { ...h[user], ...headers }, payload });
};

const count = async (table: string) => Number((await queryRows<{ n: number }>(db, sql.raw(`SELECT count(*)::int AS n FROM ${table}`)))[0]!.n);
const nothingStored = async () => {
  expect({ uploads: await count('uploads'), uploadFiles: await count('upload_files'), jobs: await count('jobs'), skus: await count('skus'), modules: await count('modules') }).toEqual({
    uploads: 0, uploadFiles: 0, jobs: 0, skus: 0, modules: 0,
  });
};

async function uploadOf(id: number): Promise<UploadItem> {
  const list = (await app.inject({ method: 'GET', url: '/api/uploadStatus/', headers: h.admin })).json() as UploadItem[];
  return list.find((u) => u.id === id)!;
}

describe('Upload Files (POST /data/fileLoader/import)', () => {
  it('stores the four files as one FILE_LOADER upload and its job loads them', async () => {
    const body = parts();
    const res = await send('admin', body);
    expect(res.statusCode, res.body).toBe(200);
    const { upload, jobId } = res.json() as { upload: UploadItem; jobId: number };
    const size = body.reduce((sum, p) => sum + ('content' in p ? p.content.length : 0), 0);
    expect(upload).toMatchObject({ type: 'FILE_LOADER', status: 'WIP', userId: 'admin', fileName: 'module.csv, cluster.csv, registry.csv, segment.csv', size, response: null });
    expect(await queryRows(db, sql`SELECT field, file_name, size FROM upload_files ORDER BY field`)).toEqual([
      { field: 'cluster', file_name: 'cluster.csv', size: expect.any(Number) },
      { field: 'module', file_name: 'module.csv', size: expect.any(Number) },
      { field: 'registry', file_name: 'registry.csv', size: expect.any(Number) },
      { field: 'segment', file_name: 'segment.csv', size: expect.any(Number) },
    ]);
    // The bytes, in chunks, exactly as sent.
    const chunks = await queryRows<{ field: string; data: Buffer }>(db, sql`SELECT field, data FROM upload_file_chunks ORDER BY field, seq`);
    for (const part of body) {
      if (!('content' in part)) continue;
      expect(Buffer.concat(chunks.filter((c) => c.field === part.field).map((c) => Buffer.from(c.data))).equals(part.content), part.field).toBe(true);
    }
    const [audit] = await queryRows<{ summary: Record<string, unknown> }>(db, sql`SELECT summary FROM audit_log WHERE action = 'upload'`);
    expect(audit!.summary).toMatchObject({ type: 'FILE_LOADER', size, jobId });
    // The WIP rule: a second upload (of any type) waits for this one.
    const busy = await send('admin', parts());
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ error: 'conflict', message: UPLOAD_TEXTS.wipExists, status: 409 });

    await app.jobs.drain();
    const done = await uploadOf(upload.id);
    expect(done).toMatchObject({ status: 'DONE', progress: 100 });
    const lines = done.response!.split(';');
    expect(lines[0]).toBe(FILE_LOADER_TEXTS.uploaded);
    expect(lines).toContain('Module Composition: 2 row(s)');
    expect(lines).toContain('Modules: 1 (2 SKU line(s)), clusters: 1 (2 line(s))');
    expect({ skus: await count('skus'), stores: await count('stores'), modules: await count('modules'), module_skus: await count('module_skus'), clusters: await count('clusters') }).toEqual({
      skus: 2, stores: 1, modules: 1, module_skus: 2, clusters: 1,
    });
    const [written] = await queryRows(db, sql`SELECT updated_by, status FROM modules`);
    expect(written).toEqual({ updated_by: 'admin', status: 'WIP' });
  });

  it('reports refused files in the response (ERROR) and writes nothing', async () => {
    const files = happyFiles();
    files.module[1] = { ...files.module[1]!, upc: '999999999999' };
    const res = await send('admin', parts(files, { releaseId: 'R2027', type: 'delta' }));
    expect(res.statusCode, res.body).toBe(200);
    const { upload } = res.json() as { upload: UploadItem };
    await app.jobs.drain();
    const failed = await uploadOf(upload.id);
    expect(failed).toMatchObject({ status: 'ERROR', progress: 100 });
    expect(failed.response!.split(';')).toEqual([
      FILE_LOADER_TEXTS.refused(1),
      "module.csv, row 3, upc: '999999999999' is neither in the Sku Registry nor in the database",
    ]);
    expect({ skus: await count('skus'), stores: await count('stores'), modules: await count('modules'), clusters: await count('clusters') }).toEqual({ skus: 0, stores: 0, modules: 0, clusters: 0 });
    // The upload has ended: the next one is accepted.
    expect((await send('admin', parts())).statusCode).toBe(200);
  });

  it('refuses a NUL byte or bytes that are not UTF-8 in a cell as cell errors, and the upload ends (the next one is accepted)', async () => {
    const files = happyFiles();
    files.registry[0] = { ...files.registry[0]!, colorDescription: 'Bl\u0000ack' };
    files.segment[0] = { ...files.segment[0]!, storeName: '\u0000' };
    files.module[0] = { ...files.module[0]!, moduleDescription: 'a\u0000b' };
    const body = fileParts(files).map((p) => {
      // A byte that no UTF-8 text holds (0xFF), in the first cluster row's label.
      if (!('content' in p) || p.field !== 'cluster') return p;
      const text = p.content.toString('utf8');
      const at = Buffer.byteLength(text.slice(0, text.indexOf('Cluster CL1') + 'Cluster'.length));
      return { ...p, content: Buffer.concat([p.content.subarray(0, at), Buffer.from([0xff]), p.content.subarray(at)]) };
    });
    const res = await send('admin', [...body, { field: 'releaseId', value: 'R2027' }, { field: 'type', value: 'massive' }]);
    expect(res.statusCode, res.body).toBe(200);
    const { upload, jobId } = res.json() as { upload: UploadItem; jobId: number };
    await app.jobs.drain();
    const failed = await uploadOf(upload.id);
    expect(failed).toMatchObject({ status: 'ERROR', progress: 100 });
    expect(failed.response!.split(';')).toEqual([
      FILE_LOADER_TEXTS.refused(4),
      `registry.csv, row 2, colorDescription: ${CELL_TEXT_REASONS.nul}`,
      `segment.csv, row 2, storeName: ${CELL_TEXT_REASONS.nul}`,
      `module.csv, row 2, moduleDescription: ${CELL_TEXT_REASONS.nul}`,
      // A file with no valid multi-byte UTF-8 sequence is refused once, by name (docs/SPREADSHEET-FILES.md).
      `cluster.csv, row 2, clusterLabel: ${new NotUtf8(2).message}`,
    ]);
    const job = await app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: h.admin });
    expect(job.json()).toMatchObject({ status: 'FAILED', response: failed.response });
    expect({ skus: await count('skus'), stores: await count('stores'), modules: await count('modules'), clusters: await count('clusters') }).toEqual({ skus: 0, stores: 0, modules: 0, clusters: 0 });
    // The upload has ended: the next one is accepted, and loads.
    const next = await send('admin', parts());
    expect(next.statusCode, next.body).toBe(200);
    await app.jobs.drain();
    expect(await uploadOf((next.json() as { upload: UploadItem }).upload.id)).toMatchObject({ status: 'DONE' });
  });

  it('answers a database error inside the load without its SQL or parameters (the job and the upload list)', async () => {
    await db.execute(
      sql.raw(`CREATE FUNCTION refuse_skus() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`),
    );
    await db.execute(sql.raw('CREATE TRIGGER refuse_skus BEFORE INSERT ON skus FOR EACH ROW EXECUTE FUNCTION refuse_skus()'));
    try {
      const res = await send('admin', parts());
      expect(res.statusCode, res.body).toBe(200);
      const { upload, jobId } = res.json() as { upload: UploadItem; jobId: number };
      await app.jobs.drain();
      const failed = await uploadOf(upload.id);
      expect(failed).toMatchObject({ status: 'ERROR', response: JOB_TEXTS.databaseError('P0001') });
      const job = await app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: h.admin });
      expect(job.json()).toMatchObject({ status: 'FAILED', response: JOB_TEXTS.databaseError('P0001') });
      for (const answer of [JSON.stringify(failed), job.body]) expect(answer).not.toMatch(/insert into|\$1|params|disk on fire|800000000001|AU4012/i);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER refuse_skus ON skus'));
      await db.execute(sql.raw('DROP FUNCTION refuse_skus'));
    }
  });

  it('refuses (nothing stored) with { error, message, status }', async () => {
    const refusal = async (user: User, body: Part[], status: number, message: string) => {
      const res = await send(user, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ message, status });
    };
    await refusal('creator', parts(), 403, FILE_LOADER_TEXTS.adminOnly);
    await refusal('admin', parts().filter((p) => p.field !== 'segment'), 400, FILE_LOADER_TEXTS.missingFile('segment'));
    await refusal('admin', parts(happyFiles(), { type: 'massive' }), 400, FILE_LOADER_TEXTS.missingField('releaseId'));
    await refusal('admin', parts(happyFiles(), { releaseId: 'R2027' }), 400, FILE_LOADER_TEXTS.missingField('type'));
    await refusal('admin', parts(happyFiles(), { releaseId: 'R2027', type: 'full' }), 400, FILE_LOADER_TEXTS.badType);
    await refusal('admin', [...parts(), { field: 'extra', value: 'x' }], 400, FILE_LOADER_TEXTS.unexpectedField('extra'));
    const empty = parts().map((p) => (p.field === 'cluster' && 'content' in p ? { ...p, content: Buffer.alloc(0) } : p));
    await refusal('admin', empty, 400, FILE_LOADER_TEXTS.emptyFile('cluster.csv'));
    const big = parts().map((p) => (p.field === 'registry' && 'content' in p ? { ...p, content: Buffer.alloc(1024 * 1024 + 1, 'a') } : p));
    await refusal('admin', big, 400, FILE_LOADER_TEXTS.tooLarge(1));
    await refusal('admin', parts(happyFiles(), { releaseId: 'R1999', type: 'massive' }), 404, FILE_LOADER_TEXTS.releaseNotFound('R1999'));
    const notMultipart = await app.inject({ method: 'POST', url: '/data/fileLoader/import', headers: h.admin, payload: { releaseId: 'R2027' } });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json()).toMatchObject({ status: 400 });
    await db.update(releases).set({ status: 'CLOSED' });
    await refusal('admin', parts(), 400, FILE_LOADER_TEXTS.releaseClosed('R2027'));
    await nothingStored();
  });
});

describe('release files (GET /data/fileLoader/…)', () => {
  it('serves the templates as CSV and xlsx, admin only', async () => {
    const csvRes = await app.inject({ method: 'GET', url: '/data/fileLoader/template/registry', headers: h.admin });
    expect(csvRes.statusCode).toBe(200);
    expect(csvRes.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csvRes.headers['content-disposition']).toContain('filename="registry-template.csv"');
    expect(csvRes.body).toBe(templateCsv('registry'));
    const xlsxRes = await app.inject({ method: 'GET', url: '/data/fileLoader/template/segment?format=xlsx', headers: h.admin });
    expect(xlsxRes.statusCode).toBe(200);
    expect(xlsxRes.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsxRes.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const unknown = await app.inject({ method: 'GET', url: '/data/fileLoader/template/stores', headers: h.admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'notFound', status: 404, message: FILE_LOADER_TEXTS.unknownFile('stores') });
    const forbidden = await app.inject({ method: 'GET', url: '/data/fileLoader/template/registry', headers: h.creator });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ error: 'forbidden', status: 403 });
  });

  it('downloads a release’s files as CSV after a load, admin only', async () => {
    expect((await send('admin', parts())).statusCode).toBe(200);
    await app.jobs.drain();
    const res = await app.inject({ method: 'GET', url: '/data/fileLoader/release/R2027/module', headers: h.admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="R2027-module.csv"');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(templateCsv('module').trim());
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['MOD1', 'MOD1']);
    const registry = await app.inject({ method: 'GET', url: '/data/fileLoader/release/R2027/registry', headers: h.admin });
    expect(registry.body.trim().split('\r\n')).toHaveLength(3);
    expect((await app.inject({ method: 'GET', url: '/data/fileLoader/release/R1999/module', headers: h.admin })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/data/fileLoader/release/R2027/stores', headers: h.admin })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/data/fileLoader/release/R2027/module', headers: h.creator })).statusCode).toBe(403);
  });
});

describe('formulas in the release files (CSV injection)', () => {
  const FORMULA = '=HYPERLINK("http://x","y")';
  const MODULE_KEY = { moduleName: 'MOD1', monthId: 'M01_2027' };

  async function download(): Promise<Record<ReleaseFileKind, Buffer>> {
    const files = {} as Record<ReleaseFileKind, Buffer>;
    for (const kind of RELEASE_FILE_KINDS) {
      const res = await app.inject({ method: 'GET', url: `/data/fileLoader/release/R2027/${kind}`, headers: h.admin });
      expect(res.statusCode, res.body).toBe(200);
      files[kind] = res.rawPayload;
    }
    return files;
  }

  /** Loads the files (`massive`) and answers the upload once its job ran. */
  async function load(files: Record<ReleaseFileKind, Buffer>, names: Partial<Record<ReleaseFileKind, string>> = {}) {
    const body: Part[] = [
      ...RELEASE_FILE_KINDS.map((k) => ({ field: k, fileName: names[k] ?? `${k}.csv`, content: files[k], type: 'text/csv' })),
      { field: 'releaseId', value: 'R2027' },
      { field: 'type', value: 'massive' },
    ];
    const res = await send('admin', body);
    expect(res.statusCode, res.body).toBe(200);
    await app.jobs.drain();
    return uploadOf((res.json() as { upload: UploadItem }).upload.id);
  }

  const description = async () =>
    (await queryRows<{ module_description: string }>(db, sql`SELECT module_description FROM modules WHERE module_name = 'MOD1'`))[0]!.module_description;

  it('writes a description an editor saved as a formula escaped, and loading the download gives back the same values and the same bytes', async () => {
    const files = happyFiles();
    // Loaded values that begin with a trigger, and one that was already quoted.
    files.registry[0] = { ...files.registry[0]!, colorDescription: '+1+1', model: '-2', marketingTheme: '@SUM(A1)' };
    files.segment[0] = { ...files.segment[0]!, storeName: "'=already quoted" };
    expect((await send('admin', parts(files))).statusCode).toBe(200);
    await app.jobs.drain();
    const { buildUser } = await import('../../../test/builders.js');
    await buildUser(db, { username: 'editor', grants: { view: AUR_EU, edit: AUR_EU } });
    const editor = await loginAs(app, 'editor');
    expect((await app.inject({ method: 'POST', url: '/api/module/lock', headers: editor, payload: [MODULE_KEY] })).json()[0].acquired).toBe(true);
    const saved = await app.inject({ method: 'POST', url: '/api/module/save', headers: editor, payload: { ...MODULE_KEY, moduleDescription: FORMULA } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await description()).toBe(FORMULA);

    const first = await download();
    expect(first.module.toString()).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(first.registry.toString()).toContain(",'-2,");
    expect(first.registry.toString()).toContain(",'+1+1,");
    expect(first.registry.toString()).toContain(",'@SUM(A1),");
    expect(first.segment.toString()).toContain(",''=already quoted,");
    // No field of any file begins with what a spreadsheet runs.
    for (const kind of RELEASE_FILE_KINDS) {
      for (const record of parseCsv(first[kind]) as string[][]) for (const field of record) expect(field, `${kind}: ${field}`).not.toMatch(/^[=+\-@\t\r]/);
    }

    // Into a fresh database: the same values, and the same files again, byte for byte.
    await app.close();
    await startApp();
    expect(await load(first)).toMatchObject({ status: 'DONE' });
    expect(await description()).toBe(FORMULA);
    expect(await queryRows(db, sql`SELECT model, color_description, marketing_theme FROM skus WHERE upc = '800000000001'`)).toEqual([
      { model: '-2', color_description: '+1+1', marketing_theme: '@SUM(A1)' },
    ]);
    expect(await queryRows(db, sql`SELECT name FROM stores WHERE store_jda = 'S1'`)).toEqual([{ name: "'=already quoted" }]);
    const second = await download();
    for (const kind of RELEASE_FILE_KINDS) expect(second[kind].equals(first[kind]), kind).toBe(true);
  });

  it(
    SOFFICE
      ? 'LibreOffice opens the downloaded CSV with the description as text, not a formula, and its xlsx loads back the same description'
      : `LibreOffice check — ${SOFFICE_SKIP}`,
    { skip: !SOFFICE, timeout: 180_000 },
    async () => {
      const files = happyFiles();
      files.module = files.module.map((r) => ({ ...r, moduleDescription: FORMULA }));
      expect((await send('admin', parts(files))).statusCode).toBe(200);
      await app.jobs.drain();
      const first = await download();
      const dir = await mkdtemp(join(tmpdir(), 'bo-soffice-'));
      try {
        await writeFile(join(dir, 'module.csv'), first.module);
        // The same file without the escape: LibreOffice runs it, so the check below means something.
        await writeFile(join(dir, 'raw.csv'), first.module.toString().replaceAll(`"'=HYPERLINK`, '"=HYPERLINK'));
        for (const name of ['module.csv', 'raw.csv']) sofficeConvert(dir, [join(dir, name)], 'xlsx', 'Text - txt - csv (StarCalc):44,34,76');
        const cellOf = async (file: string) => {
          const workbook = new ExcelJS.Workbook();
          await workbook.xlsx.readFile(join(dir, file));
          const sheet = workbook.worksheets[0]!;
          const column = (sheet.getRow(1).values as unknown[]).indexOf('moduleDescription');
          return sheet.getRow(2).getCell(column);
        };
        const raw = await cellOf('raw.xlsx');
        expect(raw.type).toBe(ExcelJS.ValueType.Formula);
        const escaped = await cellOf('module.xlsx');
        expect(escaped.type).toBe(ExcelJS.ValueType.String);
        expect(escaped.value).toBe(`'${FORMULA}`);

        // The spreadsheet's file, loaded: the quote comes off, the description is the same.
        await app.close();
        await startApp();
        const xlsx = await readFile(join(dir, 'module.xlsx'));
        expect(await load({ ...first, module: xlsx }, { module: 'module.xlsx' })).toMatchObject({ status: 'DONE' });
        expect(await description()).toBe(FORMULA);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('release files saved by LibreOffice as .xlsx', () => {
  const DATE_COLUMNS = new Set(['releaseDate', 'insertDate', 'gedExpireDate']);
  /** The Sku Registry as a tab: its dates typed as dates (date cells), the rest as text. */
  const registryTab = (rows: Row[]): TypedCell[][] => {
    const names = FORMATS.registry.columns.map((c) => c.name);
    return [names, ...rows.map((r) => names.map((n) => (!r[n] ? null : DATE_COLUMNS.has(n) ? { date: r[n] } : r[n])))];
  };

  it(
    SOFFICE
      ? 'loads the first visible tab (a hidden first tab and a stale copy after it are not read), its date cells as dates, in the 1900 and 1904 date systems'
      : `LibreOffice .xlsx release files — ${SOFFICE_SKIP}`,
    { skip: !SOFFICE, timeout: 180_000 },
    async () => {
      const files = happyFiles();
      const registry = files.registry.map((r, i) => ({ ...r, releaseDate: '2027-03-15', gedExpireDate: i === 0 ? '2028-02-29' : '' }));
      const stale = files.registry.map((r) => ({ ...r, releaseDate: '2020-01-01', insertDate: '2020-01-01', srp: '1' }));
      const tabs = [
        { name: 'Old', hidden: true, rows: registryTab(stale) },
        { name: 'Sku Registry', rows: registryTab(registry) },
        { name: 'Sku Registry (2)', rows: registryTab(stale) },
      ];
      const books = await libreOfficeXlsx([{ tabs }, { tabs, date1904: true }]);
      const [date1900, date1904] = books as [Buffer, Buffer];
      for (const [system, xlsx] of [['1900', date1900], ['1904', date1904]] as const) {
        const body: Part[] = [
          ...RELEASE_FILE_KINDS.map((k) =>
            k === 'registry' ? { field: k, fileName: 'registry.xlsx', content: xlsx } : { field: k, fileName: `${k}.csv`, content: Buffer.from(csv(k, files[k])), type: 'text/csv' },
          ),
          { field: 'releaseId', value: 'R2027' },
          { field: 'type', value: 'massive' },
        ];
        const res = await send('admin', body);
        expect(res.statusCode, res.body).toBe(200);
        await app.jobs.drain();
        const upload = await uploadOf((res.json() as { upload: UploadItem }).upload.id);
        expect(upload, system).toMatchObject({ status: 'DONE' });
        expect(await queryRows(db, sql`SELECT upc, release_date::text AS r, insert_date::text AS i, ged_expire_date::text AS g, srp::float8 AS srp FROM skus ORDER BY upc`), system).toEqual([
          { upc: '800000000001', r: '2027-03-15', i: '2026-10-01', g: '2028-02-29', srp: 129.9 },
          { upc: '800000000002', r: '2027-03-15', i: '2026-10-01', g: null, srp: 129.9 },
        ]);
      }
    },
  );
});

describe('progressWriter (the job’s progress, written outside the load)', () => {
  it('writes the latest percent from a timer, one write at a time, never from the caller', async () => {
    vi.useFakeTimers();
    try {
      const writes: number[] = [];
      let release: () => void = () => {};
      const writer = progressWriter({ progress: (p) => new Promise<void>((resolve) => { writes.push(p); release = resolve; }) }, 100);
      writer.set(10);
      writer.set(20);
      expect(writes).toEqual([]); // set never writes
      await vi.advanceTimersByTimeAsync(100);
      expect(writes).toEqual([20]);
      writer.set(30);
      await vi.advanceTimersByTimeAsync(300);
      expect(writes).toEqual([20]); // the first write is still in flight
      release();
      await vi.advanceTimersByTimeAsync(100);
      expect(writes).toEqual([20, 30]);
      release();
      await writer.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Upload Files preview (preview=true, POST /data/fileLoader/{uploadId}/apply)', () => {
  const preview = async (files: Files = happyFiles(), extra: Part[] = []) => {
    const res = await send('admin', [...parts(files, { releaseId: 'R2027', type: 'massive', preview: 'true' }), ...extra]);
    expect(res.statusCode, res.body).toBe(200);
    const { upload } = res.json() as { upload: UploadItem };
    await app.jobs.drain();
    return uploadOf(upload.id);
  };
  const applyCall = (user: User, id: number) => app.inject({ method: 'POST', url: `/data/fileLoader/${id}/apply`, headers: h[user] });

  it('writes nothing, lists what the load would do, and Apply loads the stored files as listed', async () => {
    const reference = { field: 'reference', fileName: 'reference.csv', content: Buffer.from('kind,code,label,parent\r\nBRAND,NEWB,New brand,\r\nBRAND,AUR,Aurora,\r\n'), type: 'text/csv' };
    const waiting = await preview(happyFiles(), [reference]);
    expect(waiting).toMatchObject({ status: 'PREVIEW', fileName: 'module.csv, cluster.csv, registry.csv, segment.csv, reference.csv' });
    expect(waiting.response!.split(';')).toEqual([
      FILE_LOADER_TEXTS.previewed,
      'Reference Data: 2 row(s)',
      'Sku Registry: 2 row(s)',
      'Customer Segmentation: 1 row(s)',
      'Module Composition: 2 row(s)',
      'Cluster Composition: 3 row(s)',
      'Reference data: BRAND 1 new, 1 updated, COLLECTION 0 new, 0 updated, PLANNING_CHANNEL 0 new, 0 updated, STARS_ZONE 0 new, 0 updated, COUNTRY 0 new, 0 updated, LIA 0 new, 0 updated, MACRO_FAMILY 0 new, 0 updated, CLIENT_CLASSIFICATION 0 new, 0 updated',
      'Months created: 0',
      'SKUs: 2 (2 new, 0 updated), stores: 1 (1 new, 0 updated), stars customers: 1 (1 new, 0 updated), segmentations: 1 (1 new, 0 updated)',
      'Modules: 1 new, 0 changed, 0 unchanged (2 SKU line(s)), clusters: 1 new, 0 changed, 0 unchanged (2 line(s))',
      'Removed (massive): 0 module(s), 0 cluster(s)',
    ]);
    expect({ skus: await count('skus'), modules: await count('modules'), brands: await count('brands') }).toEqual({ skus: 0, modules: 0, brands: 2 });
    // The preview holds the WIP rule until it is decided.
    expect((await send('admin', parts())).statusCode).toBe(409);
    // Only an admin applies it.
    expect((await applyCall('creator', waiting.id)).statusCode).toBe(403);

    const applied = await applyCall('admin', waiting.id);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((applied.json() as { upload: UploadItem }).upload).toMatchObject({ id: waiting.id, status: 'WIP' });
    await app.jobs.drain();
    const done = await uploadOf(waiting.id);
    expect(done.status, done.response ?? '').toBe('DONE');
    expect(done.response!.split(';')[0]).toBe(FILE_LOADER_TEXTS.uploaded);
    expect({ skus: await count('skus'), modules: await count('modules'), brands: await count('brands'), uploads: await count('uploads') }).toEqual({ skus: 2, modules: 1, brands: 3, uploads: 1 });
    expect(await queryRows(db, sql`SELECT description FROM brands WHERE brand_code = 'AUR'`)).toEqual([{ description: 'Aurora' }]);

    // Applied once: a second Apply is refused.
    const again = await applyCall('admin', waiting.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: FILE_LOADER_TEXTS.applyDone, status: 409 });
  });

  it('names what a massive load removes, and a cancelled preview cannot be applied', async () => {
    await send('admin', parts());
    await app.jobs.drain();
    const files = happyFiles();
    files.module = [{ ...MOD('MOD2'), upc: '800000000001' }];
    files.cluster = [];
    const waiting = await preview(files);
    expect(waiting.response!.split(';')).toContain('Removed (massive): 1 module(s): MOD1 (M01_2027), 1 cluster(s): CL1 (M01_2027)');
    expect(await count('modules')).toBe(1);
    const cancel = await app.inject({ method: 'POST', url: `/api/upload/${waiting.id}/cancel`, headers: h.admin });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await applyCall('admin', waiting.id)).statusCode).toBe(409);
    expect(await queryRows(db, sql`SELECT module_name FROM modules`)).toEqual([{ module_name: 'MOD1' }]);
  });

  it('refused files: the preview is ERROR with the refusals, and there is nothing to apply', async () => {
    const files = happyFiles();
    files.registry[0]!.brandCode = 'NOPE';
    const refused = await preview(files);
    expect(refused.status).toBe('ERROR');
    expect(refused.response).toContain("registry.csv, row 2, brandCode: 'NOPE' is not a known brand");
    expect((await applyCall('admin', refused.id)).statusCode).toBe(409);
    // Apply of an unknown upload, of an upload that is not a preview, a bad preview field.
    expect((await applyCall('admin', 999_999)).statusCode).toBe(404);
    const plain = await send('admin', parts());
    await app.jobs.drain();
    const notPreview = await applyCall('admin', (plain.json() as { upload: UploadItem }).upload.id);
    expect(notPreview.statusCode).toBe(400);
    expect(notPreview.json()).toMatchObject({ message: FILE_LOADER_TEXTS.applyNotPreview });
    const bad = await send('admin', parts(happyFiles(), { releaseId: 'R2027', type: 'massive', preview: 'maybe' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: FILE_LOADER_TEXTS.badPreview });
  });
});
