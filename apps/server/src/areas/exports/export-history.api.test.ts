import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { EXPORT_TEXTS, EXPORT_CONTENT_TYPES } from '@bo/shared/exports';
import type { ExportHistoryItem } from '@bo/shared/export-history';
import { AUR_EU, buildModule, buildSku } from '../../../test/builders.js';
import { buildTestApp, type TestApp, type TestUsers } from '../../../test/test-app.js';
import { exportFiles, jobs, templates } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  editor2: { grants: { edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: AUR_EU } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

const M = 'M01_2027';
const URL = '/api/exportStatus/';

let app: FastifyInstance;
let as: TestApp<User>['as'];

const history = async (user: User) => {
  const res = await app.inject({ method: 'GET', url: URL, headers: await as(user) });
  expect(res.statusCode).toBe(200);
  return res.json() as ExportHistoryItem[];
};

/** An export row as the export call leaves it, dated `minutesAgo` before now. */
async function insertExport(user: string, exportType: string, minutesAgo: number, over: Partial<typeof exportFiles.$inferInsert> = {}) {
  const [row] = await app.database.db
    .insert(exportFiles)
    .values({ user, exportType, status: 'WIP', progress: 40, date: new Date(Date.now() - minutesAgo * 60_000), ...over })
    .returning({ id: exportFiles.id });
  return row!.id;
}

beforeEach(async () => {
  ({ app, as } = await buildTestApp({ reference: true, users: USERS }));
});
afterEach(async () => {
  await app.close();
});

describe('GET /api/exportStatus/', () => {
  it('lists the caller’s exports of every format, newest first, with a download link once built; not another user’s', async () => {
    const db = app.database.db;
    const [template] = await db.insert(templates).values({ templateLabel: 'Test', templatesType: 'modulo', columns: ['moduleName', 'upc'] }).returning();
    const sku = await buildSku(db);
    await buildModule(db, { moduleName: 'MOD_A', monthId: M, status: 'SUBMITTED', skus: [{ upc: sku.upc, mustHave: true }] });
    const exportCall = async (format: string, user: User, query: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: `/data/export/${format}/module`, query, headers: await as(user), payload: [{ moduleName: 'MOD_A', monthId: M }] });

    const xls = await exportCall('xls', 'editor', { templateId: String(template!.templateId) });
    const pdf = await exportCall('pdf', 'editor');
    const others = await exportCall('pdf', 'editor2');
    expect([xls.statusCode, pdf.statusCode, others.statusCode], xls.body).toEqual([200, 200, 200]);
    // Older than the calls' exports: a minute and half a minute ago.
    const failed = await insertExport('editor', 'xls_massive', 1, { status: 'ERROR', message: 'The disk is full' });
    const wip = await insertExport('EDITOR', 'pdf_massive', 0.5);

    const list = await history('editor');
    const xlsId = Number(xls.headers['x-export-id']);
    const pdfId = Number(pdf.headers['x-export-id']);
    // Newest first; two exports of the same instant, the later made first.
    expect(list.map((e) => e.id)).toEqual([pdfId, xlsId, wip, failed]);
    expect(list.map((e) => e.id)).not.toContain(Number(others.headers['x-export-id']));
    const byId = new Map(list.map((e) => [e.id, e]));
    expect(byId.get(xlsId)).toEqual({
      id: xlsId,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      progress: 100,
      pdfUrl: `/data/export/files/${xlsId}`,
      status: 'DONE',
      exportType: 'xls',
      user: 'editor',
      fileName: 'MOD_A label.xlsx',
      message: null,
      itemKind: 'module',
      itemCount: 1,
      itemNames: ['MOD_A'],
      monthIds: [M],
    });
    expect(byId.get(failed)).toMatchObject({ status: 'ERROR', message: 'The disk is full', pdfUrl: null, fileName: null, exportType: 'xls_massive' });
    // The user name is compared as the export calls compare it: case-insensitively.
    expect(byId.get(wip)).toMatchObject({ status: 'WIP', progress: 40, pdfUrl: null, message: null, user: 'EDITOR' });

    // The link is the download of the file, in its own format.
    const download = await app.inject({ method: 'GET', url: byId.get(xlsId)!.pdfUrl!, headers: await as('editor') });
    expect(download.headers['content-type']).toBe(EXPORT_CONTENT_TYPES.xlsx);
    const pdfDownload = await app.inject({ method: 'GET', url: byId.get(pdfId)!.pdfUrl!, headers: await as('editor') });
    expect(pdfDownload.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('lists everybody’s exports for an admin, newest first, and nobody else’s for a user without any', async () => {
    const a = await insertExport('editor', 'pdf', 30, { status: 'DONE', progress: 100, fileName: 'A.pdf' });
    const b = await insertExport('editor2', 'xls', 20);
    const c = await insertExport('admin', 'xls/photo', 10);
    expect((await history('admin')).map((e) => [e.id, e.user])).toEqual([
      [c, 'admin'],
      [b, 'editor2'],
      [a, 'editor'],
    ]);
    expect((await history('editor2')).map((e) => e.id)).toEqual([b]);
    expect(await history('viewer')).toEqual([]);
  });

  it('shows a WIP export whose job failed as an error with the job’s text, or the spec’s text without one', async () => {
    const db = app.database.db;
    const [withText, without] = await db
      .insert(jobs)
      .values([
        { kind: 'export', status: 'FAILED', payload: {}, createdBy: 'editor', response: 'Interrupted too many times' },
        { kind: 'export', status: 'FAILED', payload: {}, createdBy: 'editor' },
      ])
      .returning({ id: jobs.id });
    const first = await insertExport('editor', 'pdf', 2, { jobId: withText!.id });
    const second = await insertExport('editor', 'pdf', 1, { jobId: without!.id });
    expect((await history('editor')).map((e) => [e.id, e.status, e.message])).toEqual([
      [second, 'ERROR', EXPORT_TEXTS.failed],
      [first, 'ERROR', 'Interrupted too many times'],
    ]);
  });

  it('lists at most 200, the newest', async () => {
    const rows = Array.from({ length: 205 }, (_, i) => ({ user: 'editor', exportType: 'pdf', date: new Date(Date.now() - (205 - i) * 1000) }));
    const ids = (await app.database.db.insert(exportFiles).values(rows).returning({ id: exportFiles.id })).map((r) => r.id);
    const list = await history('editor');
    expect(list).toHaveLength(200);
    expect(list[0]!.id).toBe(ids.at(-1));
    expect(list.at(-1)!.id).toBe(ids[5]);
  });

  it('answers 401 without a session', async () => {
    const res = await app.inject({ method: 'GET', url: URL });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });
});
