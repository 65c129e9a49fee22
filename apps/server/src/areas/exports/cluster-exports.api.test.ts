import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { eq } from 'drizzle-orm';
import { EXPORT_CONTENT_TYPES } from '@bo/shared/exports';
import { AUR_EU, buildCluster, buildModule, buildSku, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { HAS_PDFTOTEXT, NO_PDFTOTEXT, pdfText } from '../../../test/pdf-text.js';
import { auditLog, clientClassifications, clusterClassifications, clusters, exportFiles, modules, skus, templates } from '../../db/schema.js';
import { removeExpiredExports } from './export-retention.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  editorNa: { grants: { edit: { brands: ['AUR'], zones: ['NA'] } } },
  editor2: { grants: { edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU', 'NA'] } } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

const M = 'M01_2027';
/** M01_2027 is a LEGO month for AUR/SUN (buildReference); M02_2027 is not. */
const NOT_LEGO = 'M02_2027';
const COLUMNS = ['clusterId', 'clusterLabel', 'monthId', 'brandCode', 'country', 'starZones', 'lias', 'classifications', 'rangeFacing', 'moduleName', 'storeJda', 'mystery'];

let app: FastifyInstance;
let as: TestApp<User>['as'];
let templateId: number;
let moduleTemplateId: number;
let upcs: string[];
let storeIt: string;
let storeFr: string;
let storeUs: string;
let customerFr: string;

const call = async (kind: 'module' | 'cluster', format: string, user: User, body: unknown, query: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/data/export/${format}/${kind}`, query, headers: await as(user), payload: body as object });
const clusterCall = (format: string, user: User, body: unknown, query: Record<string, string> = {}) => call('cluster', format, user, body, query);
const xls = (extra: Record<string, string> = {}) => ({ templateId: String(templateId), ...extra });
const item = (clusterName: string, more: Record<string, unknown> = {}, monthId = M) => ({ clusterName, monthId, ...more });

async function readBook(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const rowsOf = (name: string) => {
    const rows: unknown[][] = [];
    workbook.getWorksheet(name)!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  };
  return { workbook, rowsOf };
}

/** Pages of a pdfkit file: its page objects are written uncompressed. */
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;

/** A test that reads a PDF's text, skipped (with its reason) where pdftotext is missing. */
const itReadsPdf = (name: string, fn: () => Promise<void>) => (HAS_PDFTOTEXT ? it(name, fn) : it.skip(`${name} (${NO_PDFTOTEXT})`, fn));

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
  const db = app.database.db;
  const [template] = await db.insert(templates).values({ templateLabel: 'Cluster test', templatesType: 'cluster', columns: COLUMNS }).returning();
  templateId = template!.templateId;
  const [moduleTemplate] = await db.insert(templates).values({ templateLabel: 'Module test', templatesType: 'modulo', columns: ['moduleName', 'moduleLabel', 'upc', 'model', 'color', 'size'] }).returning();
  moduleTemplateId = moduleTemplate!.templateId;

  upcs = [];
  for (let i = 0; i < 5; i++) upcs.push((await buildSku(db, { model: `CL10${i}`, srp: 100 + i })).upc);
  const [s0, s1, s2, s3, s4] = upcs as [string, string, string, string, string];
  await buildModule(db, { moduleName: 'MOD_EU', status: 'SUBMITTED', zones: ['EU'], skus: [{ upc: s1, mustHave: false }, { upc: s0, mustHave: true }, { upc: s2, status: 'REMOVED' }] });
  await buildModule(db, { moduleName: 'MOD_NA', status: 'SUBMITTED', zones: ['NA'], skus: [{ upc: s3, mustHave: true }] });
  await buildModule(db, { moduleName: 'MOD_OUT', status: 'SUBMITTED', zones: ['EU'], skus: [{ upc: s4 }] });
  await buildModule(db, { moduleName: 'MOD_M2', monthId: NOT_LEGO, status: 'SUBMITTED', zones: ['EU'], skus: [{ upc: s4 }] });

  const it_ = await buildStore(db, 'IT');
  const fr = await buildStore(db, 'FR');
  const us = await buildStore(db, 'US');
  [storeIt, storeFr, storeUs, customerFr] = [it_.storeJda, fr.storeJda, us.storeJda, fr.starsCustomer];

  const a = await buildCluster(db, {
    clusterId: 'CL_A',
    status: 'SUBMITTED',
    countries: ['IT', 'FR', 'US'],
    zones: ['EU', 'NA'],
    storeJdas: [storeIt, storeFr, storeUs],
    modules: [{ moduleName: 'MOD_EU' }, { moduleName: 'MOD_NA' }, { moduleName: 'MOD_OUT', status: 'REMOVED' }],
    clusterDescription: 'Summer windows',
  });
  await db.update(clusters).set({ rangeFacing: '12-20' }).where(eq(clusters.id, a.id));
  const [vip] = await db.insert(clientClassifications).values({ classificationLabel: 'VIP' }).returning();
  await db.insert(clusterClassifications).values({ clusterPk: a.id, classificationId: vip!.classificationId });
  await buildCluster(db, { clusterId: 'CL_W', status: 'WIP', storeJdas: [storeIt], modules: [{ moduleName: 'MOD_EU' }] });
  await buildCluster(db, { clusterId: 'CL_V', brandCode: 'VLT', status: 'SUBMITTED', storeJdas: [storeIt] });
  await buildCluster(db, { clusterId: 'CL_M2', monthId: NOT_LEGO, status: 'SUBMITTED', storeJdas: [storeIt], modules: [{ moduleName: 'MOD_M2' }] });
  // A cluster of NA only, for the zone of the grant.
  await buildCluster(db, { clusterId: 'CL_US', status: 'SUBMITTED', countries: ['US'], zones: ['NA'], storeJdas: [storeUs] });
});
afterEach(async () => {
  await app.close();
});

describe('POST /data/export/xls/cluster', () => {
  it('answers a workbook: the template’s columns per cluster, its stores, and its modules’ SKU lines (MH then EL)', async () => {
    const res = await clusterCall('xls', 'editor', [item('CL_A')], xls());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(EXPORT_CONTENT_TYPES.xlsx);
    expect(res.headers['content-disposition']).toContain('filename="CL_A label.xlsx"');
    const { workbook, rowsOf } = await readBook(res.rawPayload);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Clusters', 'Stores', 'Modules']);

    const header = rowsOf('Clusters');
    expect(header[0]).toEqual(['Cluster id', 'Cluster label', 'Month', 'Brand', 'Countries', 'Stars zones', 'LIAs', 'Client classifications', 'Range facing', 'Module names', 'Store JDA', 'mystery']);
    expect(header.slice(1)).toEqual([
      ['CL_A', 'CL_A label', '01/2027', 'AUR', 'FR, IT, US', 'EU, NA', 'LIA01', 'VIP', '12-20', 'MOD_EU, MOD_NA', [storeIt, storeFr, storeUs].sort().join(', ')],
    ]);

    const stores = rowsOf('Stores');
    expect(stores[0]).toEqual(['Cluster id', 'Cluster label', 'Store JDA', 'SAP code', 'Store name', 'Stars customer', 'Segmentation', 'Country', 'Stars zone']);
    expect(stores.slice(1).map((r) => [r[0], r[2], r[7], r[8]])).toEqual(
      [
        ['CL_A', storeIt, 'IT', 'EU'],
        ['CL_A', storeFr, 'FR', 'EU'],
        ['CL_A', storeUs, 'US', 'NA'],
      ].sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
    );

    const lines = rowsOf('Modules');
    expect(lines[0]).toEqual(['Cluster id', 'Cluster label', 'Module name', 'Module label', 'Macro family', 'MH/EL', 'UPC', 'Model', 'Color', 'Size', 'SRP']);
    const [s0, s1, , s3] = upcs;
    // The REMOVED SKU line and the module in the cluster's bin are left out; Must Have first.
    expect(lines.slice(1).map((r) => [r[0], r[2], r[5], r[6]])).toEqual([
      ['CL_A', 'MOD_EU', 'MH', s0],
      ['CL_A', 'MOD_EU', 'EL', s1],
      ['CL_A', 'MOD_NA', 'MH', s3],
    ]);
    expect(lines[1]![10]).toBe(100);

    const [stored] = await app.database.db.select().from(exportFiles);
    expect(stored).toMatchObject({ user: 'editor', exportType: 'xls', status: 'DONE', fileName: 'CL_A label.xlsx' });
    const [audit] = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'export'));
    expect(audit).toMatchObject({ username: 'editor', itemType: 'cluster', itemKey: 'CL_A', monthId: M });
  });

  it('exports several clusters into one file named after what it holds, and pictures in the photo variant', async () => {
    const res = await clusterCall('xls_massive', 'editor', [item('CL_A'), item('CL_M2', {}, NOT_LEGO)], xls());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="clusters-AUR-01-2027-to-02-2027-2-items.xlsx"');
    const { rowsOf } = await readBook(res.rawPayload);
    expect(rowsOf('Clusters').slice(1).map((r) => r[0])).toEqual(['CL_A', 'CL_M2']);
    expect(rowsOf('Modules').slice(1).map((r) => r[2])).toEqual(['MOD_EU', 'MOD_EU', 'MOD_NA', 'MOD_M2']);

    const photo = await clusterCall('xls/photo_massive', 'editor', [item('CL_A'), item('CL_M2', {}, NOT_LEGO)], xls());
    expect(photo.statusCode).toBe(200);
    const book = await readBook(photo.rawPayload);
    expect(book.rowsOf('Modules')[0]![0]).toBe('Photo');
    expect(book.workbook.getWorksheet('Modules')!.getImages()).toHaveLength(4);
    expect(book.workbook.getWorksheet('Stores')!.getImages()).toHaveLength(0);
    expect(book.workbook.model.media).toHaveLength(4);
  });

  it('exports only SUBMITTED clusters for Published, and the saved content for Saved', async () => {
    const published = await clusterCall('xls', 'editor', [item('CL_W')], xls());
    expect(published.statusCode).toBe(422);
    expect(published.json()).toEqual({ error: 'nothingToExport', message: "There aren't search results." });
    const saved = await clusterCall('xls', 'editor', [item('CL_W')], xls({ status: 'Saved' }));
    expect(saved.statusCode).toBe(200);
    expect((await readBook(saved.rawPayload)).rowsOf('Clusters')[1]![0]).toBe('CL_W');
    const mixed = await clusterCall('xls_massive', 'editor', [item('CL_W'), item('CL_A')], xls());
    expect((await readBook(mixed.rawPayload)).rowsOf('Clusters').slice(1).map((r) => r[0])).toEqual(['CL_A']);
  });

  it('refuses callers without an edit grant on the cluster’s brand and a zone of its countries (403)', async () => {
    expect((await clusterCall('xls', 'viewer', [item('CL_A')], xls())).statusCode).toBe(403);
    const vlt = await clusterCall('xls_massive', 'editor', [item('CL_A'), item('CL_V')], xls());
    expect(vlt.statusCode).toBe(403);
    expect(vlt.json().message).toBe("You don't have the right to export the cluster CL_V");
    expect((await clusterCall('pdf', 'editor', [item('CL_US')])).statusCode).toBe(403);
    expect((await clusterCall('pdf', 'editorNa', [item('CL_US')])).statusCode).toBe(200);
    expect((await clusterCall('xls', 'admin', [item('CL_V')], xls())).statusCode).toBe(200);
    expect(await app.database.db.select().from(exportFiles)).toHaveLength(2);
  });

  it('answers 404 for an unknown or deleted cluster and for a template that is not a cluster template', async () => {
    const res = await clusterCall('xls_massive', 'editor', [item('CL_A'), item('NOPE')], xls());
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'clusterNotFound', message: 'The cluster NOPE does not exist in M01_2027' });
    expect((await clusterCall('pdf', 'editor', [item('CL_A', {}, NOT_LEGO)])).json().error).toBe('clusterNotFound');
    const wrong = await clusterCall('xls', 'editor', [item('CL_A')], { templateId: String(moduleTemplateId) });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error).toBe('templateNotFound');
    await app.database.db.update(clusters).set({ deletionStatus: 'DELETION_PENDING' }).where(eq(clusters.clusterId, 'CL_A'));
    expect((await clusterCall('pdf', 'editor', [item('CL_A')])).json().error).toBe('clusterNotFound');
    expect(await app.database.db.select().from(exportFiles)).toHaveLength(0);
  });

  it('validates query and body (400)', async () => {
    expect((await clusterCall('xls', 'editor', [item('CL_A')])).statusCode).toBe(400);
    expect((await clusterCall('xls', 'editor', [item('CL_A'), item('CL_W')], xls())).statusCode).toBe(400);
    expect((await clusterCall('pdf_massive', 'editor', [])).statusCode).toBe(400);
    expect((await clusterCall('pdf', 'editor', [{ clusterId: 'CL_A', monthId: M }])).statusCode).toBe(400);
    expect((await clusterCall('pdf', 'editor', [item('CL_A', { zones: 'EU' })])).statusCode).toBe(400);
    expect((await clusterCall('pdf', 'editor', [item('X'.repeat(21))])).statusCode).toBe(400);
    expect(await app.database.db.select().from(exportFiles)).toHaveLength(0);
  });
});

describe('POST /data/export/pdf/cluster', () => {
  itReadsPdf('answers an A4 PDF: the cluster’s facts, its stores and its modules’ SKUs, with page numbers', async () => {
    const res = await clusterCall('pdf', 'editor', [item('CL_A')], { templateId: '999' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(EXPORT_CONTENT_TYPES.pdf);
    expect(res.headers['content-disposition']).toContain('filename="CL_A label.pdf"');
    // The facts, 3 stores and 2 modules: the second module goes on a second page.
    expect(pageCount(res.rawPayload)).toBe(2);
    // A4 portrait.
    expect(res.rawPayload.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    const text = pdfText(res.rawPayload);
    for (const shown of ['CL_A label', 'Countries', 'FR, IT, US', 'EU, NA', 'LIA01', 'VIP', '12-20', 'Summer windows', 'Stores (3)', storeUs, 'Modules (2)', 'MOD_EU label', 'MOD_NA label', upcs[0]!, upcs[3]!, 'Page 1 of 2', 'Page 2 of 2']) {
      expect(text).toContain(shown);
    }
    expect(text).not.toContain(upcs[2]!);
    expect(text).not.toContain('MOD_OUT');
    // Pictures: one image per SKU shown.
    expect((res.rawPayload.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length).toBe(3);
  });

  itReadsPdf('continues on new pages, repeating the cluster heading, when a module does not fit', async () => {
    const db = app.database.db;
    const many = [];
    for (let i = 0; i < 60; i++) many.push({ upc: (await buildSku(db, { model: `BIG${i}` })).upc, mustHave: i < 40 });
    await buildModule(db, { moduleName: 'MOD_BIG', status: 'SUBMITTED', skus: many });
    await buildCluster(db, { clusterId: 'CL_BIG', status: 'SUBMITTED', storeJdas: [storeIt], modules: [{ moduleName: 'MOD_BIG' }] });
    const res = await clusterCall('pdf_massive', 'editor', [item('CL_BIG'), item('CL_A')]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="clusters-AUR-01-2027-2-items.pdf"');
    const pages = pageCount(res.rawPayload);
    expect(pages).toBeGreaterThanOrEqual(3);
    const text = pdfText(res.rawPayload);
    expect(text).toContain('CL_BIG label (continued)');
    expect(text).toContain(`Page ${pages} of ${pages}`);
  });

  itReadsPdf('prints Polish, Greek, Russian, Japanese and Chinese names (embedded Unicode fonts)', async () => {
    const names = 'Łódź, Ελλάδα, Москва, 東京, 北京';
    const db = app.database.db;
    await db.update(clusters).set({ clusterDescription: `Stores of ${names}` }).where(eq(clusters.clusterId, 'CL_A'));
    await db.update(modules).set({ moduleLabel: `MOD_EU ${names}` }).where(eq(modules.moduleName, 'MOD_EU'));
    const res = await clusterCall('pdf', 'editor', [item('CL_A')]);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    expect(text).toContain(`Stores of ${names}`);
    expect(text).toContain(`MOD_EU ${names}`);
    // The fonts are embedded (subsets), not the standard Helvetica.
    const raw = res.rawPayload.toString('latin1');
    expect(raw).toMatch(/\/FontFile2/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansSC-Regular/);
    expect(raw).not.toMatch(/\/BaseFont \/Helvetica/);

    const mod = await call('module', 'pdf', 'editor', [{ moduleName: 'MOD_EU', monthId: M }]);
    expect(mod.statusCode).toBe(200);
    expect(pdfText(mod.rawPayload)).toContain(`MOD_EU ${names}`);
  });
});

describe('narrowing by the body’s zones, customers and legoMonth', () => {
  it('zones keep a cluster’s stores and modules in those zones', async () => {
    const res = await clusterCall('xls', 'editor', [item('CL_A', { zones: ['NA'] })], xls());
    const { rowsOf } = await readBook(res.rawPayload);
    expect(rowsOf('Stores').slice(1).map((r) => r[2])).toEqual([storeUs]);
    expect(rowsOf('Modules').slice(1).map((r) => r[2])).toEqual(['MOD_NA']);
    // The header still says what the cluster is: its zones, and all its modules (Import Cluster reads
    // 'Module names' back as the whole composition: a narrowed list would bin MOD_EU).
    expect(rowsOf('Clusters')[1]![5]).toBe('EU, NA');
    expect(rowsOf('Clusters')[1]![9]).toBe('MOD_EU, MOD_NA');
    const all = await clusterCall('xls', 'editor', [item('CL_A', { zones: [] })], xls());
    expect((await readBook(all.rawPayload)).rowsOf('Stores')).toHaveLength(4);
  });

  itReadsPdf('customers keep a cluster’s stores of those customers', async () => {
    const res = await clusterCall('pdf', 'editor', [item('CL_A', { customers: [customerFr] })]);
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Stores (1)');
    expect(text).toContain(storeFr);
    expect(text).not.toContain(storeIt);
  });

  it('legoMonth keeps the items whose month is (or is not) a LEGO month for their brand and collection', async () => {
    expect((await clusterCall('pdf', 'editor', [item('CL_A', { legoMonth: false })])).statusCode).toBe(422);
    expect((await clusterCall('pdf', 'editor', [item('CL_A', { legoMonth: true })])).statusCode).toBe(200);
    const res = await clusterCall('xls_massive', 'editor', [item('CL_A', { legoMonth: false }), item('CL_M2', { legoMonth: false }, NOT_LEGO)], xls());
    expect((await readBook(res.rawPayload)).rowsOf('Clusters').slice(1).map((r) => r[0])).toEqual(['CL_M2']);
    if (HAS_PDFTOTEXT) expect(pdfText((await clusterCall('pdf', 'editor', [item('CL_A')])).rawPayload)).toContain('LEGO');
  });

  it('narrows module exports the same way: zones, customers of the clusters holding them, legoMonth', async () => {
    const mod = (moduleName: string, more: Record<string, unknown> = {}, monthId = M) => ({ moduleName, monthId, ...more });
    const names = async (body: unknown) => {
      const res = await call('module', 'xls_massive', 'admin', body, { templateId: String(moduleTemplateId) });
      if (res.statusCode !== 200) return res.statusCode;
      return [...new Set((await readBook(res.rawPayload)).rowsOf('Modules').slice(1).map((r) => r[0]))];
    };
    const three = (more: Record<string, unknown>) => [mod('MOD_EU', more), mod('MOD_OUT', more), mod('MOD_M2', more, NOT_LEGO)];
    expect(await names(three({}))).toEqual(['MOD_EU', 'MOD_OUT', 'MOD_M2']);
    expect(await names([mod('MOD_EU', { zones: ['NA'] }), mod('MOD_NA', { zones: ['NA'] })])).toEqual(['MOD_NA']);
    // MOD_EU is ADDED in CL_A (stores of FR's customer among them) and CL_W; MOD_OUT only in CL_A's bin; MOD_M2 in CL_M2 (IT store).
    expect(await names(three({ customers: [customerFr] }))).toEqual(['MOD_EU']);
    expect(await names(three({ legoMonth: false }))).toEqual(['MOD_M2']);
    expect(await names([mod('MOD_NA', { legoMonth: false })])).toBe(422);
  });
});

describe('formula-safe cells', () => {
  it('writes texts that begin with =, +, - or @ as text, never as formulas', async () => {
    const db = app.database.db;
    const texts = ['=SUM(1,2)', '+1+2', '-3', '@cmd'];
    await db.update(modules).set({ moduleLabel: texts[0]! }).where(eq(modules.moduleName, 'MOD_EU'));
    await db.update(skus).set({ model: texts[1]!, color: texts[2]!, size: texts[3]! }).where(eq(skus.upc, upcs[0]!));
    await db.update(clusters).set({ clusterLabel: '=HYPERLINK("http://x","y")', rangeFacing: '=1+1' }).where(eq(clusters.clusterId, 'CL_A'));

    for (const [kind, format, body, query] of [
      ['module', 'xls', [{ moduleName: 'MOD_EU', monthId: M }], { templateId: String(moduleTemplateId) }],
      ['cluster', 'xls', [item('CL_A')], xls()],
      ['cluster', 'xls/photo', [item('CL_A')], xls()],
    ] as const) {
      const res = await call(kind, format, 'editor', body, query);
      expect(res.statusCode).toBe(200);
      // No formula anywhere in the file.
      const zip = await JSZip.loadAsync(res.rawPayload);
      for (const name of Object.keys(zip.files).filter((n) => n.startsWith('xl/worksheets/sheet'))) {
        expect(await zip.file(name)!.async('string')).not.toMatch(/<f[ >]/);
      }
      const { workbook } = await readBook(res.rawPayload);
      const cells: ExcelJS.Cell[] = [];
      workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(cell))));
      const risky = cells.filter((c) => typeof c.value === 'string' && /^[=+\-@]/.test(c.value));
      expect(risky.length).toBeGreaterThan(0);
      for (const cell of risky) expect(cell.type).toBe(ExcelJS.ValueType.String);
      const values = cells.map((c) => c.value);
      expect(values).toContain(kind === 'module' ? '=SUM(1,2)' : '=HYPERLINK("http://x","y")');
      expect(values).toEqual(expect.arrayContaining(['+1+2', '-3', '@cmd']));
      expect(cells.some((c) => c.type === ExcelJS.ValueType.Formula)).toBe(false);
    }
  });
});

describe('ownership and retention of export files', () => {
  it('downloads a cluster export for its owner and an admin; another user gets 404', async () => {
    const res = await clusterCall('pdf', 'editor', [item('CL_A')]);
    const url = `/data/export/files/${res.headers['x-export-id']}`;
    expect((await app.inject({ method: 'GET', url, headers: await as('editor') })).rawPayload.equals(res.rawPayload)).toBe(true);
    expect((await app.inject({ method: 'GET', url, headers: await as('admin') })).statusCode).toBe(200);
    const other = await app.inject({ method: 'GET', url, headers: await as('editor2') });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('exportNotFound');
    const list = (await app.inject({ method: 'GET', url: '/api/pdfFilesArea/pdfExportStatus', headers: await as('editor2') })).json();
    expect(list).toEqual([]);
  });

  it('removes exports older than EXPORT_RETENTION_DAYS: their download answers 404', async () => {
    const db = app.database.db;
    const old = Number((await clusterCall('pdf', 'editor', [item('CL_A')])).headers['x-export-id']);
    const recent = Number((await clusterCall('pdf', 'editor', [item('CL_M2', {}, NOT_LEGO)])).headers['x-export-id']);
    const day = 24 * 60 * 60_000;
    await db.update(exportFiles).set({ date: new Date(Date.now() - 31 * day) }).where(eq(exportFiles.id, old));
    await db.update(exportFiles).set({ date: new Date(Date.now() - 29 * day) }).where(eq(exportFiles.id, recent));
    expect(app.config.EXPORT_RETENTION_DAYS).toBe(30);

    // The step registered on the job runner runs when the runner starts.
    app.jobs.start();
    try {
      for (let i = 0; i < 100 && (await db.select().from(exportFiles).where(eq(exportFiles.id, old))).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await app.jobs.stop();
    }
    expect((await db.select({ id: exportFiles.id }).from(exportFiles)).map((r) => r.id)).toEqual([recent]);
    const gone = await app.inject({ method: 'GET', url: `/data/export/files/${old}`, headers: await as('editor') });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('exportNotFound');
    expect((await app.inject({ method: 'GET', url: `/data/export/files/${recent}`, headers: await as('editor') })).statusCode).toBe(200);

    // Running it again removes nothing more; a shorter retention removes the rest.
    expect(await removeExpiredExports(db, 30)).toBe(0);
    expect(await removeExpiredExports(db, 28)).toBe(1);
  });
});
