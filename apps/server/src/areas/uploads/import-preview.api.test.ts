/**
 * The preview of Import Module and Import Cluster (docs/IMPORT-PREVIEW.md): an upload sent with
 * ?preview=true writes nothing to modules or clusters, lists per item-month what the import would do,
 * holds the WIP rule while it waits, and Apply then does exactly what it listed; only the owner (or an
 * admin) applies or cancels, once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { UPLOAD_PREVIEW_TTL_MINUTES, UPLOAD_TEXTS, type ImportResult, type UploadItem, type UploadPreview } from '@bo/shared/uploads';
import { AUR_EU, buildCluster, buildFamily, buildModule, buildSku, buildUser } from '../../../test/builders.js';
import { multipartBody } from '../../../test/multipart.js';
import { buildTestApp, loginAs, type TestUsers } from '../../../test/test-app.js';
import { queryRows, type Db } from '../../db/client.js';
import { auditLog, clusterModules, clusters, jobs, moduleSkus, modules, rules, uploads } from '../../db/schema.js';

const IMPORT_AUR = { ...AUR_EU, rules: ['import', 'create'] } as const;
const USERS = {
  admin: { role: 'ADMIN' },
  importer: { grants: { view: AUR_EU, edit: IMPORT_AUR } },
  other: { grants: { view: AUR_EU, edit: IMPORT_AUR } },
} as const satisfies TestUsers;
type User = keyof typeof USERS;
type Kind = 'module' | 'cluster';
type Row = (string | number | null)[];

let app: FastifyInstance;
let db: Db;
let h: Record<User, { authorization: string }>;
let upc: string[];

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: {}, manualJobs: true, tempDataDir: true });
  app = test.app;
  db = test.db;
  await db.insert(rules).values({ ruleCode: 'import', description: 'Import', permissionType: 'edit' });
  h = {} as typeof h;
  for (const [username, spec] of Object.entries(USERS)) {
    await buildUser(db, { ...spec, username });
    h[username as User] = await loginAs(app, username);
  }
  upc = [];
  for (let i = 0; i < 5; i++) upc.push((await buildSku(db)).upc);
  await buildFamily(db, 'PILOT');
  await buildModule(db, { moduleName: 'MOD_A', skus: [{ upc: upc[0]!, mustHave: true, minValue: 2 }, { upc: upc[1]! }] });
  await buildModule(db, { moduleName: 'MOD_B', skus: [{ upc: upc[0]! }] });
  await buildModule(db, { moduleName: 'MOD_C', skus: [{ upc: upc[2]! }] });
  await buildCluster(db, { clusterId: 'CL_A', modules: [{ moduleName: 'MOD_A' }, { moduleName: 'MOD_B' }], clusterDescription: 'Old' });
  await buildCluster(db, { clusterId: 'CL_B', modules: [{ moduleName: 'MOD_A' }] });
});
afterEach(async () => {
  await app.close();
});

const HEADERS: Record<Kind, string[]> = {
  module: ['Module name', 'Month', 'UPC', 'MH/EL', 'Min value', 'Module label', 'Macro family', 'Brand', 'Collection'],
  cluster: ['Cluster id', 'Month', 'Module name', 'Status', 'Description'],
};

async function workbook(kind: Kind, rows: Row[], extra: string[] = []): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet');
  ws.addRow([...HEADERS[kind], ...extra]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const send = (user: User, kind: Kind, content: Buffer, query = '?preview=true') => {
  const { payload, headers } = multipartBody([{ field: 'excelFile', fileName: `${kind}s.xlsx`, content }]);
  return app.inject({ method: 'POST', url: `/api/upload/${kind}${query}`, headers: { ...h[user], ...headers }, payload });
};
const call = (user: User, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({ method, url, headers: h[user], ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

/** Sends the workbook for a preview and computes it: the upload id and the preview. */
async function previewed(user: User, kind: Kind, rows: Row[], extra: string[] = []) {
  const res = await send(user, kind, await workbook(kind, rows, extra));
  expect(res.statusCode, res.body).toBe(200);
  const { upload } = res.json() as { upload: UploadItem };
  expect(upload.status).toBe('WIP');
  await app.jobs.drain();
  const got = await call(user, 'GET', `/api/upload/${upload.id}/preview`);
  expect(got.statusCode, got.body).toBe(200);
  const answer = got.json() as UploadPreview;
  expect(answer.upload.status).toBe('PREVIEW');
  return { id: upload.id, preview: answer.preview! };
}

/** Everything Import can change: modules with their lines, clusters with their modules and description (versions included). */
async function snapshot() {
  const mods = await queryRows(db, sql`SELECT m.module_name, m.month_id, m.version, m.status, (SELECT json_agg(json_build_object('upc', s.upc, 'mh', s.must_have, 'status', s.status, 'min', s.min_value) ORDER BY s.position) FROM module_skus s WHERE s.module_id = m.id) AS lines FROM modules m ORDER BY m.module_name, m.month_id`);
  const cls = await queryRows(db, sql`SELECT c.cluster_id, c.month_id, c.version, c.status, c.cluster_description, (SELECT json_agg(json_build_object('m', cm.module_name, 's', cm.status) ORDER BY cm.module_name) FROM cluster_modules cm WHERE cm.cluster_pk = c.id) AS modules FROM clusters c ORDER BY c.cluster_id, c.month_id`);
  const audits = Number((await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_log WHERE item_type <> 'upload'`))[0]!.n);
  return { mods, cls, audits };
}

const outcomes = (r: ImportResult) => r.lines.map((l) => [l.itemKey, l.monthId, l.outcome, l.changes, l.reason]);

describe.each<Kind>(['module', 'cluster'])('Import %s preview', (kind) => {
  const rowsOf = (): Row[] =>
    kind === 'module'
      ? [
          // MOD_A changes (min 2 → 3, upc1 to the bin, upc3 added); MOD_B as it is; MOD_NEW is created; MOD_X cannot be (no creation fields).
          ['MOD_A', 'M01_2027', upc[0]!, 'MH', 3],
          ['MOD_A', 'M01_2027', upc[3]!, 'EL', null],
          ['MOD_B', 'M01_2027', upc[0]!, 'MH', null],
          ['MOD_NEW', 'M02_2027', upc[4]!, 'EL', 2, 'New module', 'PILOT', 'AUR', 'SUN'],
          ['MOD_X', 'M01_2027', upc[4]!, 'EL', null],
        ]
      : [
          // CL_A: MOD_B leaves, MOD_C comes in, new description; CL_B as it is; CL_NONE does not exist.
          ['CL_A', 'M01_2027', 'MOD_A', null, 'New'],
          ['CL_A', 'M01_2027', 'MOD_C', null, null],
          ['CL_B', 'M01_2027', 'MOD_A', null, null],
          ['CL_NONE', 'M01_2027', 'MOD_A', null, null],
        ];
  const changed = kind === 'module' ? 'MOD_A' : 'CL_A';
  let rows: Row[];
  beforeEach(() => {
    rows = rowsOf();
  });

  it('writes nothing, lists per item-month what the import would do, and Apply then does exactly that', async () => {
    const before = await snapshot();
    const { id, preview } = await previewed('importer', kind, rows);
    expect(await snapshot()).toEqual(before);
    expect(preview.preview).toBe(true);
    const expected = kind === 'module' ? { created: 1, saved: 1, unchanged: 1, failed: 1 } : { created: 0, saved: 1, unchanged: 1, failed: 1 };
    expect(preview.counts).toEqual(expected);
    const line = preview.lines.find((l) => l.itemKey === changed)!;
    expect(line.outcome).toBe('saved');
    expect(line.message).toMatch(new RegExp(`^${changed} \\(01/2027\\): will change \\(`));
    const [current] = kind === 'module' ? await db.select().from(modules).where(eq(modules.moduleName, changed)) : await db.select().from(clusters).where(eq(clusters.clusterId, changed));
    expect(line.version).toBe(current!.version);
    if (kind === 'module') expect(preview.lines.find((l) => l.itemKey === 'MOD_NEW')!.message).toBe('MOD_NEW (02/2027): will be created with 1 SKU(s)');

    // The upload is PREVIEW in the list, and holds the WIP rule: no second upload.
    const state = (await call('importer', 'GET', '/api/uploadStatus/getUploadStatus')).json() as { wip: boolean; upload: UploadItem };
    expect(state).toMatchObject({ wip: true, upload: { id, status: 'PREVIEW', progress: 100 } });
    const second = await send('importer', kind, await workbook(kind, rows));
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(UPLOAD_TEXTS.wipExists);

    const applied = await call('importer', 'POST', `/api/upload/${id}/apply`, {});
    expect(applied.statusCode, applied.body).toBe(200);
    const { jobId, upload } = applied.json() as { jobId: number; upload: UploadItem };
    expect(upload).toMatchObject({ id, status: 'WIP' });
    await app.jobs.drain();
    const job = (await call('importer', 'GET', `/api/jobs/${jobId}`)).json() as { status: string; result: ImportResult };
    expect(job.status).toBe('DONE');
    expect(outcomes(job.result)).toEqual(outcomes(preview));
    expect(job.result.counts).toEqual(preview.counts);
    const list = (await call('importer', 'GET', '/api/uploadStatus/')).json() as UploadItem[];
    expect(list.find((u) => u.id === id)).toMatchObject({ status: 'DONE', progress: 100 });
    expect(list.find((u) => u.id === id)!.response).toMatch(new RegExp(`${changed} \\(01/2027\\): saved \\(`));
    const after = await snapshot();
    expect(after).not.toEqual(before);
    if (kind === 'module') {
      const [m] = await db.select().from(modules).where(and(eq(modules.moduleName, 'MOD_NEW'), eq(modules.monthId, 'M02_2027')));
      expect(m).toBeDefined();
      const [a] = await db.select().from(modules).where(and(eq(modules.moduleName, 'MOD_A'), eq(modules.monthId, 'M01_2027')));
      const lines = await db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, a!.id));
      expect(lines.filter((l) => l.status !== 'REMOVED').map((l) => l.upc).sort()).toEqual([upc[0]!, upc[3]!].sort());
    } else {
      const [c] = await db.select().from(clusters).where(and(eq(clusters.clusterId, 'CL_A'), eq(clusters.monthId, 'M01_2027')));
      expect(c!.clusterDescription).toBe('New');
      const mods = await db.select().from(clusterModules).where(eq(clusterModules.clusterPk, c!.id));
      expect(Object.fromEntries(mods.map((m) => [m.moduleName, m.status]))).toEqual({ MOD_A: 'ADDED', MOD_B: 'REMOVED', MOD_C: 'ADDED' });
    }

    // Applied once: a second Apply, or a Cancel, is refused and changes nothing.
    const twice = await call('importer', 'POST', `/api/upload/${id}/apply`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(UPLOAD_TEXTS.alreadyApplied);
    expect((await call('importer', 'POST', `/api/upload/${id}/cancel`)).json().message).toBe(UPLOAD_TEXTS.alreadyApplied);
    expect(await snapshot()).toEqual(after);
  });

  it('only its owner or an admin applies or cancels it', async () => {
    const { id } = await previewed('importer', kind, rows);
    const before = await snapshot();
    for (const url of [`/api/upload/${id}/apply`, `/api/upload/${id}/cancel`]) {
      const res = await call('other', 'POST', url, {});
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(UPLOAD_TEXTS.notYourUpload);
    }
    expect((await call('other', 'GET', `/api/upload/${id}/preview`)).statusCode).toBe(403);
    expect((await call('other', 'POST', '/api/upload/999999/apply', {})).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
    const byAdmin = await call('admin', 'POST', `/api/upload/${id}/apply`, {});
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    await app.jobs.drain();
    expect(await snapshot()).not.toEqual(before);
  });

  it('Cancel drops it: nothing written, the WIP rule released, Apply refused', async () => {
    const before = await snapshot();
    const { id } = await previewed('importer', kind, rows);
    const cancelled = await call('importer', 'POST', `/api/upload/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ id, status: 'CANCELLED' });
    expect((await call('importer', 'GET', '/api/uploadStatus/getUploadStatus')).json()).toEqual({ wip: false, upload: null });
    const apply = await call('importer', 'POST', `/api/upload/${id}/apply`, {});
    expect(apply.statusCode).toBe(409);
    expect(apply.json().message).toBe(UPLOAD_TEXTS.alreadyCancelled);
    await app.jobs.drain();
    expect(await snapshot()).toEqual(before);
    const actions = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.itemType, 'upload'));
    expect(actions.map((a) => a.action).sort()).toEqual(['upload', 'uploadCancel']);
    // The next upload is accepted.
    expect((await send('importer', kind, await workbook(kind, rows))).statusCode).toBe(200);
  });

  it('refuses Apply when an item it listed changed since, and an overwrite key it does not list', async () => {
    const { id } = await previewed('importer', kind, rows);
    const bad = await call('importer', 'POST', `/api/upload/${id}/apply`, { overwrite: ['NOPE|M01_2027'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(UPLOAD_TEXTS.notInPreview('NOPE|M01_2027'));
    // Someone changes the item after the preview.
    if (kind === 'module') await db.update(modules).set({ version: sql`${modules.version} + 1` }).where(eq(modules.moduleName, changed));
    else await db.update(clusters).set({ version: sql`${clusters.version} + 1` }).where(eq(clusters.clusterId, changed));
    const before = await snapshot();
    const stale = await call('importer', 'POST', `/api/upload/${id}/apply`, {});
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(UPLOAD_TEXTS.previewStale([`${changed}|M01_2027`]));
    await app.jobs.drain();
    expect(await snapshot()).toEqual(before);
    // Still waiting: its owner cancels it.
    expect((await call('importer', 'POST', `/api/upload/${id}/cancel`)).statusCode).toBe(200);
  });

  it('offers to overwrite an item-month changed since the file was exported, and Apply overwrites only the ones asked', async () => {
    // The file was exported at version 1; someone saved the item since (version 2).
    if (kind === 'module') await db.update(modules).set({ version: 2, updatedBy: 'other' }).where(eq(modules.moduleName, changed));
    else await db.update(clusters).set({ version: 2, updatedBy: 'other' }).where(eq(clusters.clusterId, changed));
    const pad = HEADERS[kind].length - rows[0]!.length;
    const versioned = rows.map((r) => (r[0] === changed || r[0] === (kind === 'module' ? 'MOD_B' : 'CL_B') ? [...r, ...Array<null>(pad).fill(null), 1] : r));
    const before = await snapshot();
    const { id, preview } = await previewed('importer', kind, versioned, ['Version']);
    expect(await snapshot()).toEqual(before);
    const stale = preview.lines.find((l) => l.itemKey === changed)!;
    expect(stale).toMatchObject({ outcome: 'failed', overwritable: true, version: 2 });
    expect(stale.reason).toMatch(/^changed by other on .* since this file was exported$/);
    // A refusal of another kind is not overwritable.
    expect(preview.lines.filter((l) => l.overwritable).map((l) => l.itemKey)).toEqual([changed]);
    const applied = await call('importer', 'POST', `/api/upload/${id}/apply`, { overwrite: [`${changed}|M01_2027`] });
    expect(applied.statusCode, applied.body).toBe(200);
    await app.jobs.drain();
    const job = (await call('importer', 'GET', `/api/jobs/${(applied.json() as { jobId: number }).jobId}`)).json() as { result: ImportResult };
    expect(job.result.lines.find((l) => l.itemKey === changed)).toMatchObject({ outcome: 'saved' });
    const audit = await db.select({ summary: auditLog.summary }).from(auditLog).where(eq(auditLog.action, 'uploadApply'));
    expect(audit.map((a) => (a.summary as { overwrite: string[] }).overwrite)).toEqual([[`${changed}|M01_2027`]]);
  });

  it('an upload without ?preview imports at once, as before', async () => {
    const before = await snapshot();
    const res = await send('importer', kind, await workbook(kind, rows), '');
    expect(res.statusCode, res.body).toBe(200);
    await app.jobs.drain();
    expect(await snapshot()).not.toEqual(before);
    const { upload } = res.json() as { upload: UploadItem };
    expect((await call('importer', 'POST', `/api/upload/${upload.id}/apply`, {})).json().message).toBe(UPLOAD_TEXTS.noPreview);
  });
});

describe('a preview nobody decides on', () => {
  it(`expires after ${UPLOAD_PREVIEW_TTL_MINUTES} minutes: it no longer holds the WIP rule and cannot be applied, only cancelled`, async () => {
    const { id } = await previewed('importer', 'module', [['MOD_A', 'M01_2027', upc[0]!, 'EL', null]]);
    await db.update(jobs).set({ finishedAt: sql`now() - interval '${sql.raw(String(UPLOAD_PREVIEW_TTL_MINUTES + 1))} minutes'` }).where(eq(jobs.createdBy, 'importer'));
    expect((await call('importer', 'GET', '/api/uploadStatus/getUploadStatus')).json()).toEqual({ wip: false, upload: null });
    const list = (await call('importer', 'GET', '/api/uploadStatus/')).json() as UploadItem[];
    expect(list.find((u) => u.id === id)!.status).toBe('EXPIRED');
    // Sent without a body at all, as a plain button click would.
    const apply = await app.inject({ method: 'POST', url: `/api/upload/${id}/apply`, headers: h.importer });
    expect(apply.statusCode, apply.body).toBe(409);
    expect(apply.json().message).toBe(UPLOAD_TEXTS.previewExpired(UPLOAD_PREVIEW_TTL_MINUTES));
    expect((await call('importer', 'POST', `/api/upload/${id}/cancel`)).json()).toMatchObject({ status: 'CANCELLED' });
  });
});

describe('an Upload Files preview', () => {
  it('is not applied or shown by the import calls (it has its own Apply), but Cancel drops it', async () => {
    const [job] = await db.insert(jobs).values({ kind: 'file-loader', status: 'DONE', progress: 100, payload: { dryRun: true }, result: { counts: {} }, response: '', createdBy: 'admin', finishedAt: new Date() }).returning();
    const [saved] = await db.insert(uploads).values({ type: 'FILE_LOADER', userId: 'admin', fileName: 'release', size: 1, content: Buffer.from('x'), jobId: job!.id, previewJobId: job!.id }).returning();
    for (const [method, url] of [
      ['POST', `/api/upload/${saved!.id}/apply`],
      ['GET', `/api/upload/${saved!.id}/preview`],
    ] as const) {
      const res = await call('admin', method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(UPLOAD_TEXTS.noPreview);
    }
    expect((await call('admin', 'POST', `/api/upload/${saved!.id}/cancel`)).json()).toMatchObject({ status: 'CANCELLED' });
  });
});
