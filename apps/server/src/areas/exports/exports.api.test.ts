import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { EXPORT_CONTENT_TYPES } from '@bo/shared/exports';
import { AUR_EU, buildModule, buildSku, buildSkuStats } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { auditLog, exportFiles, jobs, modules, templates } from '../../db/schema.js';
import { type ExportJobPayload } from './export.job.js';
import { contentDisposition } from '../../lib/content-disposition.js';
import { EXPORT_JOB } from '../../jobs/job-kinds.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  editor2: { grants: { edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let app: FastifyInstance;
let as: TestApp<User>['as'];
let upcs: string[];
let templateId: number;

const M = 'M01_2027';
const COLUMNS = ['moduleName', 'upc', 'mustHave', 'srp', 'sellIn', 'releaseDate', 'mystery'];
const TITLES = ['Module name', 'UPC', 'MH/EL', 'SRP', 'Sell in', 'Release date', 'mystery'];

const exportCall = async (format: string, user: User, body: unknown, query: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/data/export/${format}/module`, query, headers: await as(user), payload: body as object });
const key = (moduleName: string, monthId = M) => ({ moduleName, monthId });

async function readSheet(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet('Modules')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { workbook, sheet, rows };
}

/** Pages of a pdfkit file: its page objects are written uncompressed. */
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
  const db = app.database.db;
  const [template] = await db.insert(templates).values({ templateLabel: 'Test', templatesType: 'modulo', columns: COLUMNS }).returning();
  templateId = template!.templateId;
  upcs = [];
  for (let i = 0; i < 5; i++) upcs.push((await buildSku(db, { model: `AU10${i}`, srp: 1234.5 + i })).upc);
  await buildSkuStats(db, upcs[0]!, M, { sellIn: 42 });
  const [s0, s1, s2, s3, s4] = upcs as [string, string, string, string, string];
  await buildModule(db, {
    moduleName: 'MOD_A',
    status: 'SUBMITTED',
    skus: [
      { upc: s0, mustHave: true },
      { upc: s1, mustHave: false },
      { upc: s2, mustHave: true, status: 'REMOVED' },
      { upc: s3, mustHave: true },
    ],
  });
  await buildModule(db, { moduleName: 'MOD_B', status: 'SUBMITTED', skus: [{ upc: s1, mustHave: true }, { upc: s4, mustHave: false }] });
  await buildModule(db, { moduleName: 'MOD_W', status: 'WIP', skus: [{ upc: s0, mustHave: true }] });
  await buildModule(db, { moduleName: 'MOD_V', brandCode: 'VLT', status: 'SUBMITTED', skus: [{ upc: s0 }] });
});
afterEach(async () => {
  await app.close();
});

describe('POST /data/export/xls/module', () => {
  it('answers the spreadsheet of one module: template columns in order, one row per SKU not removed', async () => {
    const res = await exportCall('xls', 'editor', [key('MOD_A')], { templateId: String(templateId) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(EXPORT_CONTENT_TYPES.xlsx);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="MOD_A label.xlsx"; filename*=UTF-8''MOD_A%20label.xlsx`);
    const exportId = Number(res.headers['x-export-id']);
    expect(exportId).toBeGreaterThan(0);

    const { sheet, rows } = await readSheet(res.rawPayload);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(rows[0]).toEqual(TITLES);
    const [s0, s1, , s3] = upcs;
    // Must Have first, then Eligible; the REMOVED line is left out; the unknown column stays empty.
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2], r[6]])).toEqual([
      ['MOD_A', s0, 'MH', undefined],
      ['MOD_A', s3, 'MH', undefined],
      ['MOD_A', s1, 'EL', undefined],
    ]);
    expect(rows[1]![3]).toBe(1234.5);
    expect(sheet.getCell('D2').numFmt).toContain('€');
    expect(sheet.getColumn(2).width).toBe(15);
    expect(rows[1]![4]).toBe(42);
    expect((rows[1]![5] as Date).toISOString().slice(0, 10)).toBe('2024-03-01');

    const [stored] = await app.database.db.select().from(exportFiles).where(eq(exportFiles.id, exportId));
    expect(stored).toMatchObject({ user: 'editor', exportType: 'xls', status: 'DONE', progress: 100, fileName: 'MOD_A label.xlsx' });
    const audits = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'export'));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ username: 'editor', itemType: 'module', itemKey: 'MOD_A', monthId: M });
  });

  it('exports several modules into one file named after what it holds', async () => {
    const res = await exportCall('xls_massive', 'editor', [key('MOD_A'), key('MOD_B')], { templateId: String(templateId), userId: 'someone-else' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="modules-AUR-01-2027-2-items.xlsx"');
    const { rows } = await readSheet(res.rawPayload);
    expect(rows.slice(1).map((r) => [r[0], r[2]])).toEqual([
      ['MOD_A', 'MH'],
      ['MOD_A', 'MH'],
      ['MOD_A', 'EL'],
      ['MOD_B', 'MH'],
      ['MOD_B', 'EL'],
    ]);
    // userId is informative: the export belongs to the caller.
    const [stored] = await app.database.db.select().from(exportFiles);
    expect(stored).toMatchObject({ user: 'editor', exportType: 'xls_massive' });
  });

  it('names a file of several modules by kind, brands, months and count; one module written keeps its label (issue 34)', async () => {
    const db = app.database.db;
    await buildModule(db, { moduleName: 'MOD_F', monthId: 'M02_2027', status: 'SUBMITTED', skus: [{ upc: upcs[0]! }] });
    const xls = { templateId: String(templateId) };
    const name = (res: { headers: Record<string, unknown> }) => /filename="([^"]+)"/.exec(String(res.headers['content-disposition']))?.[1];
    // Two brands, two months (the first and the last named), four modules.
    expect(name(await exportCall('xls_massive', 'admin', [key('MOD_B'), key('MOD_V'), key('MOD_F', 'M02_2027'), key('MOD_A')], xls))).toBe(
      'modules-AUR-VLT-01-2027-to-02-2027-4-items.xlsx',
    );
    expect(name(await exportCall('pdf_massive', 'admin', [key('MOD_A'), key('MOD_V')]))).toBe('modules-AUR-VLT-01-2027-2-items.pdf');
    // A massive export left with one module (the WIP one is not Published) is that module's file.
    expect(name(await exportCall('xls_massive', 'admin', [key('MOD_A'), key('MOD_W')], xls))).toBe('MOD_A label.xlsx');
  });

  it('writes the Month column as people read it (01/2027), which Import Module reads back', async () => {
    const [template] = await app.database.db.insert(templates).values({ templateLabel: 'Months', templatesType: 'modulo', columns: ['moduleName', 'monthId'] }).returning();
    const res = await exportCall('xls', 'editor', [key('MOD_B')], { templateId: String(template!.templateId) });
    expect(res.statusCode).toBe(200);
    const { rows } = await readSheet(res.rawPayload);
    expect(rows).toEqual([
      ['Module name', 'Month'],
      ['MOD_B', '01/2027'],
      ['MOD_B', '01/2027'],
    ]);
  });

  it('records what an export holds (kind, count, first names, months) for the export history and the PDF area (issue 34)', async () => {
    const db = app.database.db;
    for (const n of ['MOD_C', 'MOD_D']) await buildModule(db, { moduleName: n, status: 'SUBMITTED', skus: [{ upc: upcs[0]! }] });
    await buildModule(db, { moduleName: 'MOD_F', monthId: 'M02_2027', status: 'SUBMITTED', skus: [{ upc: upcs[0]! }] });
    const five = [key('MOD_F', 'M02_2027'), key('MOD_B'), key('MOD_A'), key('MOD_C'), key('MOD_D')];
    expect((await exportCall('pdf_massive', 'editor', five)).statusCode).toBe(200);
    expect((await exportCall('xls', 'editor', [key('MOD_A')], { templateId: String(templateId) })).statusCode).toBe(200);

    const history = await app.inject({ method: 'GET', url: '/api/exportStatus/', headers: await as('editor') });
    expect(history.json().map((e: Record<string, unknown>) => [e.exportType, e.itemKind, e.itemCount, e.itemNames, e.monthIds, e.fileName])).toEqual([
      ['xls', 'module', 1, ['MOD_A'], [M], 'MOD_A label.xlsx'],
      ['pdf_massive', 'module', 5, ['MOD_F', 'MOD_B', 'MOD_A'], [M, 'M02_2027'], 'modules-AUR-01-2027-to-02-2027-5-items.pdf'],
    ]);
    const pdfs = await app.inject({ method: 'GET', url: '/api/pdfFilesArea/pdfExportStatus', headers: await as('editor') });
    expect(pdfs.json()).toEqual([expect.objectContaining({ exportType: 'pdf_massive', itemKind: 'module', itemCount: 5, itemNames: ['MOD_F', 'MOD_B', 'MOD_A'], monthIds: [M, 'M02_2027'] })]);
    // An export recorded before these columns: nothing known, shown as '—'.
    await db.insert(exportFiles).values({ user: 'editor', exportType: 'pdf', date: new Date(Date.now() - 60_000) });
    const old = (await app.inject({ method: 'GET', url: '/api/pdfFilesArea/pdfExportStatus', headers: await as('editor') })).json();
    expect(old.at(-1)).toMatchObject({ itemKind: null, itemCount: null, itemNames: [], monthIds: [] });
  });

  it('embeds one picture per row in the photo variant, in a first Photo column', async () => {
    const res = await exportCall('xls/photo_massive', 'editor', [key('MOD_A'), key('MOD_B')], { templateId: String(templateId) });
    expect(res.statusCode).toBe(200);
    const { workbook, sheet, rows } = await readSheet(res.rawPayload);
    expect(rows[0]).toEqual(['Photo', ...TITLES]);
    expect(sheet.getImages()).toHaveLength(5);
    // One picture per UPC, shared by the rows that show it (upcs[1] is in both modules).
    expect(workbook.model.media).toHaveLength(4);
    expect((await app.database.db.select().from(exportFiles))[0]!.exportType).toBe('xls/photo_massive');
  });

  it('adds photos to the plain format with withPhoto=true', async () => {
    const res = await exportCall('xls', 'editor', [key('MOD_B')], { templateId: String(templateId), withPhoto: 'true' });
    expect((await readSheet(res.rawPayload)).sheet.getImages()).toHaveLength(2);
  });

  it('exports only SUBMITTED modules for Published, and the saved composition for Saved', async () => {
    const published = await exportCall('xls_massive', 'editor', [key('MOD_A'), key('MOD_W')], { templateId: String(templateId) });
    expect(new Set((await readSheet(published.rawPayload)).rows.slice(1).map((r) => r[0]))).toEqual(new Set(['MOD_A']));

    const nothing = await exportCall('xls', 'editor', [key('MOD_W')], { templateId: String(templateId), status: 'Published' });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json()).toEqual({ error: 'nothingToExport', message: "There aren't search results." });

    const saved = await exportCall('xls', 'editor', [key('MOD_W')], { templateId: String(templateId), status: 'Saved' });
    expect(saved.statusCode).toBe(200);
    expect((await readSheet(saved.rawPayload)).rows.slice(1).map((r) => r[0])).toEqual(['MOD_W']);
  });

  it('refuses callers without an edit grant on the module (403)', async () => {
    expect((await exportCall('xls', 'viewer', [key('MOD_A')], { templateId: String(templateId) })).statusCode).toBe(403);
    const res = await exportCall('xls_massive', 'editor', [key('MOD_A'), key('MOD_V')], { templateId: String(templateId) });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('MOD_V');
    expect((await exportCall('xls', 'admin', [key('MOD_V')], { templateId: String(templateId) })).statusCode).toBe(200);
    expect(await app.database.db.select().from(exportFiles)).toHaveLength(1);
  });

  it('answers 404 for an unknown or deleted module and for a template that is not a module template', async () => {
    const res = await exportCall('xls_massive', 'editor', [key('MOD_A'), key('NOPE')], { templateId: String(templateId) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'moduleNotFound', message: 'The module NOPE does not exist in M01_2027' });
    const clusterTemplate = await app.database.db.select().from(templates).where(eq(templates.templatesType, 'cluster'));
    const wrong = await exportCall('xls', 'editor', [key('MOD_A')], { templateId: String(clusterTemplate[0]!.templateId) });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error).toBe('templateNotFound');
    await app.database.db.update(modules).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(modules.moduleName, 'MOD_B'));
    const deleted = await exportCall('pdf', 'editor', [key('MOD_B')]);
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json().error).toBe('moduleNotFound');
  });

  it('validates query and body (400)', async () => {
    const noTemplate = await exportCall('xls', 'editor', [key('MOD_A')]);
    expect(noTemplate.statusCode).toBe(400);
    expect(noTemplate.json().fields).toEqual([{ path: 'querystring.templateId', message: 'Required' }]);
    expect((await exportCall('xls/photo', 'editor', [key('MOD_A')])).statusCode).toBe(400);
    expect((await exportCall('xls', 'editor', [key('MOD_A'), key('MOD_B')], { templateId: String(templateId) })).statusCode).toBe(400);
    expect((await exportCall('xls_massive', 'editor', [], { templateId: String(templateId) })).statusCode).toBe(400);
    expect((await exportCall('xls', 'editor', [key('MOD_A', '2027-01')], { templateId: String(templateId) })).statusCode).toBe(400);
    expect((await exportCall('xls', 'editor', [key('MOD_A')], { templateId: String(templateId), status: 'WIP' })).statusCode).toBe(400);
    expect((await exportCall('xls', 'editor', [key('MOD_A')], { templateId: 'abc' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: `/data/export/xls/module?templateId=${templateId}`, payload: [key('MOD_A')] })).statusCode).toBe(401);
    expect(await app.database.db.select().from(exportFiles)).toHaveLength(0);
  });
});

describe('POST /data/export/pdf/module', () => {
  it('answers a PDF with a page (or more) per module, without needing a template', async () => {
    const res = await exportCall('pdf_massive', 'editor', [key('MOD_A'), key('MOD_B')]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(EXPORT_CONTENT_TYPES.pdf);
    expect(res.headers['content-disposition']).toContain('filename="modules-AUR-01-2027-2-items.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pageCount(res.rawPayload)).toBe(2);

    const one = await exportCall('pdf', 'editor', [key('MOD_A')], { templateId: '999' });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-disposition']).toContain('filename="MOD_A label.pdf"');
    expect(pageCount(one.rawPayload)).toBe(1);
  });

  it('starts a new page when the cards do not fit', async () => {
    const db = app.database.db;
    const many = [];
    for (let i = 0; i < 40; i++) many.push({ upc: (await buildSku(db, { model: `BIG${i}` })).upc, mustHave: i < 30 });
    await buildModule(db, { moduleName: 'MOD_BIG', status: 'SUBMITTED', skus: many });
    const res = await exportCall('pdf', 'editor', [key('MOD_BIG')]);
    expect(res.statusCode).toBe(200);
    expect(pageCount(res.rawPayload)).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /data/export/files/:id', () => {
  it('downloads the caller’s own export (header or cookie), any export for an admin, and 404 for others', async () => {
    const res = await exportCall('xls', 'editor', [key('MOD_A')], { templateId: String(templateId) });
    const url = `/data/export/files/${res.headers['x-export-id']}`;
    const own = await app.inject({ method: 'GET', url, headers: await as('editor') });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(own.headers['content-disposition']).toBe(res.headers['content-disposition']);
    const token = (await as('editor')).authorization.slice('Bearer '.length);
    expect((await app.inject({ method: 'GET', url, headers: { cookie: `bo_token=${token}` } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url, headers: await as('admin') })).statusCode).toBe(200);
    const other = await app.inject({ method: 'GET', url, headers: await as('editor2') });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('exportNotFound');
    expect((await app.inject({ method: 'GET', url: '/data/export/files/999', headers: await as('editor') })).statusCode).toBe(404);
  });

  it('answers 409 while the export is being built and 422 with the reason when it failed', async () => {
    const db = app.database.db;
    const [wip] = await db.insert(exportFiles).values({ user: 'editor', exportType: 'pdf' }).returning();
    const pending = await app.inject({ method: 'GET', url: `/data/export/files/${wip!.id}`, headers: await as('editor') });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error).toBe('exportNotReady');

    // A job whose modules have gone since the call fails, and says why.
    const [failing] = await db.insert(exportFiles).values({ user: 'editor', exportType: 'pdf' }).returning();
    const payload: ExportJobPayload = { exportId: failing!.id, format: 'pdf', kind: 'module', items: [{ name: 'GONE', monthId: M }], status: 'Saved', columns: [], withPhoto: false };
    const job = await app.jobs.enqueue(db, EXPORT_JOB, payload, 'editor');
    await app.jobs.drain();
    expect((await db.select().from(jobs).where(eq(jobs.id, job.id)))[0]!.status).toBe('FAILED');
    const failed = await app.inject({ method: 'GET', url: `/data/export/files/${failing!.id}`, headers: await as('editor') });
    expect(failed.statusCode).toBe(422);
    expect(failed.json()).toEqual({ error: 'exportFailed', message: "There aren't search results." });
  });

  it('rebuilds the file when the job runs again (a resumed job)', async () => {
    const res = await exportCall('pdf', 'editor', [key('MOD_B')]);
    const exportId = Number(res.headers['x-export-id']);
    const db = app.database.db;
    const [first] = await db.select().from(exportFiles).where(eq(exportFiles.id, exportId));
    const [job] = await db.select().from(jobs).where(eq(jobs.id, first!.jobId!));
    // As if the process had died before storing the file: the row is WIP, the job is run again.
    await db.update(exportFiles).set({ status: 'WIP', progress: 40, content: null }).where(eq(exportFiles.id, exportId));
    await db.update(jobs).set({ status: 'QUEUED' }).where(eq(jobs.id, job!.id));
    await app.jobs.drain();
    const download = await app.inject({ method: 'GET', url: `/data/export/files/${exportId}`, headers: await as('editor') });
    expect(download.statusCode).toBe(200);
    expect(pageCount(download.rawPayload)).toBe(1);
    expect((await db.select().from(exportFiles).where(eq(exportFiles.id, exportId)))[0]).toMatchObject({ status: 'DONE', progress: 100 });
  });
});

describe('waiting for the export', () => {
  it('answers 202 with the export id when the file is not ready in EXPORT_WAIT_MS', async () => {
    await app.close();
    // A world of its own: only an editor, with edit and no view.
    ({ app, as } = await buildTestApp({ config: { EXPORT_WAIT_MS: 0 }, reference: true, users: { editor: { grants: { edit: AUR_EU } } } }));
    const db = app.database.db;
    const sku = await buildSku(db);
    await buildModule(db, { moduleName: 'MOD_A', status: 'SUBMITTED', skus: [{ upc: sku.upc }] });
    app.jobs.start();
    try {
      const res = await exportCall('pdf', 'editor', [key('MOD_A')]);
      expect(res.statusCode).toBe(202);
      const started = res.json();
      expect(started).toMatchObject({ exportId: expect.any(Number), jobId: expect.any(Number), message: 'The export is in progress' });
      let download = await app.inject({ method: 'GET', url: `/data/export/files/${started.exportId}`, headers: await as('editor') });
      for (let i = 0; i < 300 && download.statusCode === 409; i++) {
        await new Promise((r) => setTimeout(r, 100));
        download = await app.inject({ method: 'GET', url: `/data/export/files/${started.exportId}`, headers: await as('editor') });
      }
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toContain('filename="MOD_A label.pdf"');
    } finally {
      await app.jobs.stop();
    }
  });
});

describe('GET /api/pdfFilesArea/pdfExportStatus', () => {
  it('lists the caller’s PDF exports newest first with their download link; an admin sees everybody’s', async () => {
    await exportCall('xls', 'editor', [key('MOD_A')], { templateId: String(templateId) });
    const older = await exportCall('pdf', 'editor', [key('MOD_A')]);
    const newer = await exportCall('pdf_massive', 'editor', [key('MOD_A'), key('MOD_B')]);
    await exportCall('pdf', 'editor2', [key('MOD_B')]);

    const res = await app.inject({ method: 'GET', url: '/api/pdfFilesArea/pdfExportStatus', headers: await as('editor') });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((e: { id: number }) => e.id)).toEqual([Number(newer.headers['x-export-id']), Number(older.headers['x-export-id'])]);
    expect(list[1]).toEqual({
      id: Number(older.headers['x-export-id']),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      progress: 100,
      pdfUrl: `/data/export/files/${older.headers['x-export-id']}`,
      status: 'DONE',
      exportType: 'pdf',
      user: 'editor',
      message: null,
      itemKind: 'module',
      itemCount: 1,
      itemNames: ['MOD_A'],
      monthIds: [M],
    });
    expect((await app.inject({ method: 'GET', url: list[0].pdfUrl, headers: await as('editor') })).headers['content-type']).toBe(EXPORT_CONTENT_TYPES.pdf);

    const all = (await app.inject({ method: 'GET', url: '/api/pdfFilesArea/pdfExportStatus', headers: await as('admin') })).json();
    expect(all.map((e: { user: string }) => e.user).sort()).toEqual(['editor', 'editor', 'editor2']);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII name and the exact UTF-8 name', () => {
    expect(contentDisposition('Città "Sole"/1.pdf')).toBe(`attachment; filename="Citt_ _Sole__1.pdf"; filename*=UTF-8''Citt%C3%A0%20%22Sole%22%2F1.pdf`);
  });
});
