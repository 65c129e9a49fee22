import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { countsSummary, MASSIVE_EDIT_TEXTS, type MassiveEditResult } from '@bo/shared/massive-edit';
import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { AUR_EU, buildCluster, buildModule, buildSku, buildStore } from '../../../test/builders.js';
import { buildTestApp, type TestUsers } from '../../../test/test-app.js';
import { queryRows, type Db } from '../../db/client.js';
import { auditLog, clientClassifications, clusterClassifications, clusterLias, clusterModules, clusters, jobs, lias, locks, moduleSkus, modules } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { grants: { view: AUR_EU, edit: AUR_EU } },
  other: { grants: { view: AUR_EU, edit: AUR_EU } },
  submitter: { role: 'SUBMITTER', grants: { view: AUR_EU, edit: AUR_EU, submit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: AUR_EU } },
  // Edits AUR everywhere but may not reopen a submitted module.
  aurOnly: { grants: { view: AUR_EU, edit: AUR_EU } },
} as const satisfies TestUsers;

let app: FastifyInstance;
let db: Db;
let h: Record<keyof typeof USERS, { authorization: string }>;
let upc: string[];
let vltUpc: string;

beforeEach(async () => {
  const test = await buildTestApp({ reference: true, users: USERS, manualJobs: true, tempDataDir: true, config: { PLANNING_SYSTEM_DELAY_MS: 0 } });
  app = test.app;
  db = test.db;
  upc = [];
  for (let i = 0; i < 6; i++) upc.push((await buildSku(db)).upc);
  vltUpc = (await buildSku(db, { brandCode: 'VLT' })).upc;
  await buildModule(db, {
    moduleName: 'MOD_A',
    skus: [
      { upc: upc[0]!, mustHave: true },
      { upc: upc[1]!, mustHave: false },
      { upc: upc[2]!, mustHave: true, status: 'REMOVED' },
    ],
  });
  await buildModule(db, { moduleName: 'MOD_A', monthId: 'M02_2027', skus: [{ upc: upc[0]! }] });
  await buildModule(db, { moduleName: 'MOD_A', monthId: 'M12_2026', skus: [{ upc: upc[0]! }] });
  await buildModule(db, { moduleName: 'MOD_B', skus: [{ upc: upc[0]! }] });
  await buildModule(db, { moduleName: 'MOD_VLT', brandCode: 'VLT', skus: [{ upc: vltUpc }] });
  h = {} as typeof h;
  for (const u of Object.keys(USERS) as (keyof typeof USERS)[]) h[u] = await test.as(u);
});
afterEach(async () => {
  await app.close();
});

const post = (url: string, user: keyof typeof USERS, payload: unknown) => app.inject({ method: 'POST', url, headers: h[user], payload: payload as object });
const moduleEdit = (user: keyof typeof USERS, rows: object[], extra: object = {}) => post('/api/module/massiveEdit/', user, { massiveEditList: rows, toPublish: false, ...extra });

/** Runs the queued jobs and answers the job's state as the page polls it. */
async function finish(jobId: number) {
  await app.jobs.drain();
  const res = await app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: h.admin });
  return res.json() as { status: string; progress: number; response: string; result: MassiveEditResult };
}

async function applied(user: keyof typeof USERS, rows: object[], extra: object = {}) {
  const res = await moduleEdit(user, rows, extra);
  expect(res.statusCode, res.body).toBe(200);
  return finish(res.json().jobId);
}

const linesOf = async (name: string, monthId = 'M01_2027') => {
  const [m] = await db.select().from(modules).where(and(eq(modules.moduleName, name), eq(modules.monthId, monthId)));
  const lines = await db.select().from(moduleSkus).where(eq(moduleSkus.moduleId, m!.id)).orderBy(moduleSkus.position);
  return { module: m!, lines: lines.map((l) => ({ upc: l.upc, mustHave: l.mustHave, status: l.status, minValue: l.minValue })) };
};

/** Everything a massive edit may write, to compare before and after a preview. */
async function snapshot() {
  const q = (table: string) => queryRows(db, sql.raw(`SELECT * FROM ${table} ORDER BY 1, 2`));
  return {
    modules: await q('modules'),
    moduleSkus: await q('module_skus'),
    clusters: await q('clusters'),
    clusterModules: await q('cluster_modules'),
    clusterLias: await q('cluster_lias'),
    clusterClassifications: await q('cluster_classifications'),
    audit: await q('audit_log'),
    jobs: await q('jobs'),
  };
}

describe('row rules (part 2 §5): 400 with the row and its texts, nothing queued', () => {
  const cases: [string, object, string[]][] = [
    ['no module', { upcToAddList: ['1'], monthIdList: ['M01_2027'] }, [MASSIVE_EDIT_TEXTS.moduleRequired]],
    ['add without month', { moduleLabels: ['MOD_A'], upcToAddList: ['1'] }, [MASSIVE_EDIT_TEXTS.monthRequiredModule]],
    ['remove without month', { moduleLabels: ['MOD_A'], upcToRemoveList: ['1'] }, [MASSIVE_EDIT_TEXTS.monthRequiredModule]],
    ['min-value list without month', { moduleLabels: ['MOD_A'], upcMinValueSkuList: ['1'] }, [MASSIVE_EDIT_TEXTS.monthRequiredModule]],
    ['status EL without month', { moduleLabels: ['MOD_A'], upcStatus: 'EL', moduleDescription: 'x' }, [MASSIVE_EDIT_TEXTS.monthRequiredModule]],
    ['min value not 1 without month', { moduleLabels: ['MOD_A'], upcMinValueSkuValue: 2, moduleDescription: 'x' }, [MASSIVE_EDIT_TEXTS.monthRequiredModule]],
    ['nothing to change', { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'] }, [MASSIVE_EDIT_TEXTS.nothingToChange]],
    ['added and removed', { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: ['1'], upcToRemoveList: ['1'] }, [MASSIVE_EDIT_TEXTS.bothAddedAndRemoved('SKU', ['1'])]],
  ];
  for (const [name, row, messages] of cases) {
    it(`module row: ${name}`, async () => {
      const res = await moduleEdit('admin', [{ moduleLabels: ['MOD_B'], moduleDescription: 'fine' }, row]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().fields).toEqual(messages.map((message) => ({ path: 'body.massiveEditList.1', message })));
      expect(res.json().message).toBe(`Row 2: ${messages.join(', ')}`);
      expect(await db.select().from(jobs)).toEqual([]);
    });
  }

  it('module row: only a description needs no month; a description past 100 characters and a min value below 1 are refused', async () => {
    expect((await moduleEdit('admin', [{ moduleLabels: ['MOD_A'], moduleDescription: 'New text' }])).statusCode).toBe(200);
    const long = await moduleEdit('admin', [{ moduleLabels: ['MOD_A'], moduleDescription: 'x'.repeat(101) }]);
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain(MASSIVE_EDIT_TEXTS.descriptionTooLong);
    expect((await moduleEdit('admin', [{ moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcMinValueSkuList: [upc[0]], upcMinValueSkuValue: 0.5 }])).statusCode).toBe(400);
    expect((await moduleEdit('admin', [{ moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcMinValueSkuList: [upc[0]], upcMinValueSkuValue: 1.5 }])).statusCode).toBe(200);
  });

  it('cluster rows: cluster required; a month when modules or LIAs change; a description alone needs none', async () => {
    const send = (row: object) => post('/api/cluster/massiveEdit/', 'admin', { rowsClusterMassiveEdit: [row], toPublish: false });
    expect((await send({ liasToAdd: ['LIA01'], months: ['M01_2027'] })).json().fields).toEqual([{ path: 'body.rowsClusterMassiveEdit.0', message: MASSIVE_EDIT_TEXTS.clusterRequired }]);
    for (const field of ['moduleLabelsToAdd', 'moduleLabelsToRemove', 'liasToAdd', 'liasToRemove']) {
      const res = await send({ clusterLabels: ['C1'], [field]: ['X'] });
      expect(res.json().fields, field).toEqual([{ path: 'body.rowsClusterMassiveEdit.0', message: MASSIVE_EDIT_TEXTS.monthRequiredCluster }]);
    }
    expect((await send({ clusterLabels: ['C1'], clusterDescription: 'Only text' })).statusCode).toBe(200);
  });

  it('classification rows: cluster required, and a classification to add or remove', async () => {
    const send = (row: object) => post('/api/cluster/massiveEdit/classification', 'admin', { rowsClusterClassificationMassiveEdit: [row] });
    expect((await send({ classificationsToAdd: ['GOLD'] })).json().fields[0].message).toBe(MASSIVE_EDIT_TEXTS.clusterRequired);
    expect((await send({ clusterLabels: ['C1'] })).json().fields[0].message).toBe(MASSIVE_EDIT_TEXTS.classificationRequired);
    expect((await send({ clusterLabels: ['C1'], classificationsToRemove: ['GOLD'] })).statusCode).toBe(200);
  });

  it('refuses a viewer (403) and the selected-modules route to anyone but an admin', async () => {
    const row = { moduleLabels: ['MOD_A'], moduleDescription: 'x' };
    expect((await moduleEdit('viewer', [row])).statusCode).toBe(403);
    expect((await moduleEdit('editor', [row], { toPublish: true })).statusCode).toBe(403);
    const selected = await post('/api/module/massiveEdit/selected', 'editor', { massiveEditList: [row], toPublish: false });
    expect(selected.statusCode).toBe(403);
    expect(selected.json().message).toBe('Massive edit of selected modules is for administrators only.');
    expect((await post('/api/module/massiveEdit/selected', 'admin', { massiveEditList: [row], toPublish: false })).statusCode).toBe(200);
    expect((await db.select().from(jobs)).length).toBe(1);
  });
});

describe('module rows', () => {
  it('adds (new, from the bin, moved to the row status), removes, sets min values and the description, in one transaction per module-month', async () => {
    const before = await linesOf('MOD_A');
    const job = await applied('editor', [
      {
        moduleLabels: ['MOD_A'],
        monthIdList: ['M01_2027'],
        upcToAddList: [upc[3], upc[2], upc[0]],
        upcStatus: 'EL',
        upcToRemoveList: [upc[1]],
        upcMinValueSkuList: [upc[3]],
        upcMinValueSkuValue: 2.5,
        moduleDescription: 'Spring refresh',
      },
    ]);
    expect(job.status).toBe('DONE');
    expect(job.progress).toBe(100);
    const after = await linesOf('MOD_A');
    expect(after.lines).toEqual([
      { upc: upc[0], mustHave: false, status: 'ADDED', minValue: 1 },
      { upc: upc[1], mustHave: false, status: 'REMOVED', minValue: 1 },
      { upc: upc[2], mustHave: false, status: 'ADDED', minValue: 1 },
      { upc: upc[3], mustHave: false, status: 'ADDED', minValue: 2.5 },
    ]);
    expect(after.module.moduleDescription).toBe('Spring refresh');
    expect(after.module.version).toBe(before.module.version + 1);
    expect(after.module.updatedBy).toBe('editor');
    const row = job.result.rows[0]!;
    expect(row.outcome).toBe('applied');
    expect(row.items).toEqual([
      {
        itemKey: 'MOD_A',
        label: 'MOD_A label',
        monthId: 'M01_2027',
        outcome: 'applied',
        changes: [
          `Added SKU ${upc[3]} as EL`,
          `SKU ${upc[2]} back from the bin as EL`,
          `SKU ${upc[0]} moved from MH to EL`,
          `Removed SKU ${upc[1]}`,
          `Min value of SKU ${upc[3]}: 1 → 2.5`,
          'Description: "" → "Spring refresh"',
        ],
        reason: null,
        published: null,
        publishError: null,
      },
    ]);
    expect(row.message).toBe('Row 1: saved MOD_A (01/2027)');
    expect(job.response).toBe('Row 1: saved MOD_A (01/2027)');
    const [entry] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'save'), eq(auditLog.itemKey, 'MOD_A')));
    expect(entry!.summary).toMatchObject({ massiveEdit: { row: 1 }, version: before.module.version + 1 });
    // The other months of the module are untouched.
    expect((await linesOf('MOD_A', 'M02_2027')).module.version).toBe(1);
  });

  it('finds modules by label (case-insensitive); a description-only row changes every open month of the module', async () => {
    const job = await applied('admin', [{ moduleLabels: ['mod_a LABEL'], moduleDescription: 'Everywhere' }]);
    expect(job.result.rows[0]!.items.map((i) => [i.itemKey, i.monthId, i.outcome])).toEqual([
      ['MOD_A', 'M01_2027', 'applied'],
      ['MOD_A', 'M02_2027', 'applied'],
    ]);
    expect((await linesOf('MOD_A', 'M02_2027')).module.moduleDescription).toBe('Everywhere');
    // The closed month is not touched.
    expect((await linesOf('MOD_A', 'M12_2026')).module.moduleDescription).toBe('');
  });

  it('explains every item it could not change: unknown module, closed month, missing month, unknown SKU, other brand, SKU not in the module', async () => {
    const job = await applied('admin', [
      { moduleLabels: ['NOPE'], moduleDescription: 'x' },
      { moduleLabels: ['MOD_A'], monthIdList: ['M12_2026', 'M10_2027'], upcToAddList: [upc[4]] },
      { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: ['999999999999'] },
      { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: [vltUpc] },
      { moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcMinValueSkuList: [upc[5]], upcMinValueSkuValue: 3 },
      { moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[4]] },
    ]);
    const reasons = job.result.rows.map((r) => r.items.map((i) => i.reason));
    expect(reasons).toEqual([
      ['Unknown module NOPE'],
      ['The month 12/2026 is closed', 'The module MOD_A does not exist in 10/2027'],
      ['Unknown SKU 999999999999'],
      [`SKU ${vltUpc} is not of the module's brand and collection`],
      [`SKU ${upc[5]} is not in the module: it cannot get a min value`],
      [null],
    ]);
    expect(job.result.rows.map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'applied']);
    expect(job.result.status).toBe('PARTIAL');
    // Rows, each once: one saved, five failed (row 2's two months count as one row).
    expect(job.result.counts).toEqual({ saved: 1, partial: 0, unchanged: 0, failed: 5, published: 0, notPublished: 0, notPublishedReasons: [] });
    expect(job.response.split(';')[1]).toBe('Row 2: not saved for MOD_A (12/2026): The month 12/2026 is closed, MOD_A (10/2027): The module MOD_A does not exist in 10/2027');
    // A row never half-applies: the refused rows changed nothing.
    expect((await linesOf('MOD_A')).module.version).toBe(1);
  });

  it('reports an item locked by someone else with their name and leaves it alone; the caller’s own lock does not stop it', async () => {
    await db.insert(locks).values({ itemType: 'module', itemKey: 'MOD_A', monthId: 'M01_2027', owner: 'other' });
    await db.insert(locks).values({ itemType: 'module', itemKey: 'MOD_B', monthId: 'M01_2027', owner: 'editor' });
    const job = await applied('editor', [{ moduleLabels: ['MOD_A', 'MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[4]] }]);
    expect(job.result.rows[0]!.items.map((i) => [i.itemKey, i.outcome, i.reason])).toEqual([
      ['MOD_A', 'failed', 'other is editing the module'],
      ['MOD_B', 'applied', null],
    ]);
    expect(job.result.rows[0]!.outcome).toBe('partial');
    expect((await linesOf('MOD_A')).lines.map((l) => l.upc)).not.toContain(upc[4]);
    expect((await linesOf('MOD_B')).lines.map((l) => l.upc)).toContain(upc[4]);
  });

  it('notAuthorizedItems: an editor outside the brand gets the Edit error, at the call and in the result; Save & Publish gives the Submit error', async () => {
    const res = await moduleEdit('editor', [{ moduleLabels: ['MOD_VLT', 'MOD_B'], monthIdList: ['M01_2027'], moduleDescription: 'x' }]);
    expect(res.json()).toMatchObject({ status: 'QUEUED', notAuthorizedItems: { edit: ['MOD_VLT'], submit: [] }, response: 'Edit error: cannot edit module(s) MOD_VLT' });
    const job = await finish(res.json().jobId);
    expect(job.result.notAuthorizedItems).toEqual({ edit: ['MOD_VLT'], submit: [] });
    expect(job.response.split(';')[0]).toBe('Edit error: cannot edit module(s) MOD_VLT');
    expect(job.result.rows[0]!.items.find((i) => i.itemKey === 'MOD_VLT')!.reason).toBe('Edit error: cannot edit module(s) MOD_VLT');
    expect((await linesOf('MOD_VLT')).module.moduleDescription).toBe('');

    const pub = await moduleEdit('submitter', [{ moduleLabels: ['MOD_VLT'], monthIdList: ['M01_2027'], moduleDescription: 'x' }], { toPublish: true });
    // Its only item refused: answered at once (see 'every item refused' below).
    expect(pub.json()).toMatchObject({ status: 'REFUSED', notAuthorizedItems: { edit: [], submit: ['MOD_VLT'] } });
    expect(pub.json().response.split(';')[0]).toBe('Submit error: cannot submit module(s) MOD_VLT');
  });

  it('a SUBMITTED module is reopened as WIP by a caller with the reopen right, refused without it', async () => {
    await db.update(modules).set({ status: 'SUBMITTED', rpasErrors: 'old warning' }).where(eq(modules.moduleName, 'MOD_B'));
    const refused = await applied('aurOnly', [{ moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], moduleDescription: 'x' }]);
    expect(refused.result.rows[0]!.items[0]!.reason).toBe('The module is submitted: changing it needs the reopen right.');
    const job = await applied('admin', [{ moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], moduleDescription: 'x' }]);
    expect(job.result.rows[0]!.outcome).toBe('applied');
    expect((await linesOf('MOD_B')).module).toMatchObject({ status: 'WIP', rpasErrors: null, moduleDescription: 'x' });
  });

  it('nothing to change for an item already as asked: unchanged, no version bump', async () => {
    const job = await applied('admin', [{ moduleLabels: ['MOD_A'], monthIdList: ['M01_2027'], upcToAddList: [upc[0]], upcToRemoveList: [upc[2]] }]);
    expect(job.result.rows[0]).toMatchObject({ outcome: 'unchanged', message: 'Row 1: nothing to change for MOD_A (01/2027)' });
    expect((await linesOf('MOD_A')).module.version).toBe(1);
  });

  it('rows run in order: a later row on the same module sees the earlier one', async () => {
    const job = await applied('admin', [
      { moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[4]] },
      { moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], upcMinValueSkuList: [upc[4]], upcMinValueSkuValue: 4 },
    ]);
    expect(job.result.rows.map((r) => r.outcome)).toEqual(['applied', 'applied']);
    expect((await linesOf('MOD_B')).lines.find((l) => l.upc === upc[4])!.minValue).toBe(4);
    expect((await linesOf('MOD_B')).module.version).toBe(3);
  });
});

describe('every item refused: answered at once, no job', () => {
  const jobCount = async () => Number((await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM jobs`))[0]!.n);

  it('module rows: the refusal and the per-row result in the answer, no job row, nothing written; a partial refusal still queues a job', async () => {
    const before = await snapshot();
    const res = await moduleEdit('editor', [
      { moduleLabels: ['MOD_VLT'], monthIdList: ['M01_2027'], moduleDescription: 'not mine' },
      { moduleLabels: ['MOD_VLT label', 'NOPE'], moduleDescription: 'still not mine' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ jobId: null, status: 'REFUSED', progress: 100, notAuthorizedItems: { edit: ['MOD_VLT'], submit: [] } });
    expect(answer.response.split(';')).toEqual([
      'Edit error: cannot edit module(s) MOD_VLT',
      'Row 1: not saved for MOD_VLT (01/2027): Edit error: cannot edit module(s) MOD_VLT',
      'Row 2: not saved for NOPE: Unknown module NOPE, MOD_VLT (01/2027): Edit error: cannot edit module(s) MOD_VLT',
    ]);
    const result = answer.result as MassiveEditResult;
    expect(result).toMatchObject({ type: 'module', dryRun: false, toPublish: false, status: 'FAILED', notAuthorizedItems: { edit: ['MOD_VLT'], submit: [] }, counts: { saved: 0, partial: 0, unchanged: 0, failed: 2, published: 0, notPublished: 0, notPublishedReasons: [] }, publishJobId: null });
    expect(result.rows.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(await jobCount()).toBe(0);
    expect(await snapshot()).toEqual(before);

    // Save & Publish without the submit right on any item: the Submit error, at once.
    const pub = await moduleEdit('submitter', [{ moduleLabels: ['MOD_VLT'], monthIdList: ['M01_2027'], moduleDescription: 'x' }], { toPublish: true });
    expect(pub.json()).toMatchObject({ jobId: null, status: 'REFUSED', notAuthorizedItems: { edit: [], submit: ['MOD_VLT'] }, result: { toPublish: true, status: 'FAILED' } });
    expect(pub.json().response.split(';')[0]).toBe('Submit error: cannot submit module(s) MOD_VLT');
    expect(await jobCount()).toBe(0);
    expect(await snapshot()).toEqual(before);

    // One item the caller may change: the job is queued as before, and changes only that one.
    const partial = await moduleEdit('editor', [{ moduleLabels: ['MOD_VLT', 'MOD_B'], monthIdList: ['M01_2027'], moduleDescription: 'x' }]);
    expect(partial.json()).toMatchObject({ status: 'QUEUED', notAuthorizedItems: { edit: ['MOD_VLT'], submit: [] } });
    expect(partial.json().jobId).toEqual(expect.any(Number));
    expect(await jobCount()).toBe(1);
    await finish(partial.json().jobId);
    expect((await linesOf('MOD_B')).module.moduleDescription).toBe('x');
    expect((await linesOf('MOD_VLT')).module.moduleDescription).toBe('');
  });

  it('cluster and classification rows: the same', async () => {
    await buildCluster(db, { clusterId: 'C_VLT', brandCode: 'VLT' });
    const before = await snapshot();
    const cluster = await post('/api/cluster/massiveEdit/', 'editor', { rowsClusterMassiveEdit: [{ clusterLabels: ['C_VLT'], clusterDescription: 'not mine' }], toPublish: false });
    expect(cluster.statusCode, cluster.body).toBe(200);
    expect(cluster.json()).toMatchObject({ jobId: null, status: 'REFUSED', progress: 100, notAuthorizedItems: { edit: ['C_VLT'], submit: [] }, result: { type: 'cluster', status: 'FAILED' } });
    expect(cluster.json().response.split(';')[0]).toBe('Edit error: cannot edit cluster(s) C_VLT');
    const classification = await post('/api/cluster/massiveEdit/classification', 'editor', { rowsClusterClassificationMassiveEdit: [{ clusterLabels: ['C_VLT'], classificationsToAdd: ['GOLD'] }] });
    expect(classification.statusCode, classification.body).toBe(200);
    expect(classification.json()).toMatchObject({ jobId: null, status: 'REFUSED', notAuthorizedItems: { edit: ['C_VLT'], submit: [] }, result: { type: 'classification', status: 'FAILED' } });
    expect(await jobCount()).toBe(0);
    expect(await snapshot()).toEqual(before);
  });
});

describe('a step that breaks unexpectedly', () => {
  it('is reported alone: its batch runs again one step per transaction and the other steps are applied', async () => {
    await db.execute(
      sql.raw(`CREATE FUNCTION refuse_mod_b() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                 IF NEW.module_name = 'MOD_B' THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END $$`),
    );
    await db.execute(sql.raw('CREATE TRIGGER refuse_mod_b BEFORE UPDATE ON modules FOR EACH ROW EXECUTE FUNCTION refuse_mod_b()'));
    try {
      const job = await applied('admin', [{ moduleLabels: ['MOD_A', 'MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[4]] }, { moduleLabels: ['MOD_A'], moduleDescription: 'After' }]);
      expect(job.result.rows[0]!.items.map((i) => [i.itemKey, i.outcome])).toEqual([
        ['MOD_A', 'applied'],
        ['MOD_B', 'failed'],
      ]);
      expect(job.result.rows[0]!.items[1]!.reason).toContain('Unexpected error');
      expect(job.result.rows[1]!.outcome).toBe('applied');
      expect((await linesOf('MOD_A')).lines.map((l) => l.upc)).toContain(upc[4]);
      expect((await linesOf('MOD_A')).module.moduleDescription).toBe('After');
      expect((await linesOf('MOD_B')).lines.map((l) => l.upc)).not.toContain(upc[4]);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER refuse_mod_b ON modules'));
      await db.execute(sql.raw('DROP FUNCTION refuse_mod_b'));
    }
  });
});

describe('preview (dryRun)', () => {
  const rows = () => [
    { moduleLabels: ['MOD_A', 'MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[3], upc[4]], upcToRemoveList: [upc[0]] },
    { moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], upcMinValueSkuList: [upc[3]], upcMinValueSkuValue: 2 },
    { moduleLabels: ['MOD_A'], monthIdList: ['M12_2026'], upcToAddList: [upc[3]] },
    { moduleLabels: ['MOD_VLT'], monthIdList: ['M01_2027'], moduleDescription: 'not mine' },
  ];

  it('writes nothing, then the same request applies exactly what the preview listed', async () => {
    await db.insert(locks).values({ itemType: 'module', itemKey: 'MOD_A', monthId: 'M02_2027', owner: 'other' });
    const before = await snapshot();
    const preview = await moduleEdit('editor', rows(), { dryRun: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const previewed = preview.json() as MassiveEditResult;
    expect(previewed.dryRun).toBe(true);
    expect(await snapshot()).toEqual(before);
    // The query form does the same.
    expect((await post('/api/module/massiveEdit/?dryRun=true', 'editor', { massiveEditList: rows(), toPublish: false })).json()).toEqual(previewed);
    expect(await snapshot()).toEqual(before);

    expect(previewed.rows[0]!.items.map((i) => i.changes)).toEqual([
      [`Added SKU ${upc[3]} as MH`, `Added SKU ${upc[4]} as MH`, `Removed SKU ${upc[0]}`],
      [`Added SKU ${upc[3]} as MH`, `Added SKU ${upc[4]} as MH`, `Removed SKU ${upc[0]}`],
    ]);
    // Row 2 sees row 1's SKU: the preview carries each change to the rows after it.
    expect(previewed.rows[1]!.items[0]).toMatchObject({ outcome: 'applied', changes: [`Min value of SKU ${upc[3]}: 1 → 2`] });
    expect(previewed.rows[1]!.message).toBe('Row 2: would change MOD_B (01/2027)');
    expect(previewed.notAuthorizedItems).toEqual({ edit: ['MOD_VLT'], submit: [] });

    const job = await applied('editor', rows());
    expect(job.result.rows.map((r) => r.items)).toEqual(previewed.rows.map((r) => r.items));
    expect(job.result.counts).toEqual(previewed.counts);
    expect((await linesOf('MOD_B')).lines.find((l) => l.upc === upc[3])!.minValue).toBe(2);
  });
});

describe('Save & Publish', () => {
  it('publishes the changed modules through the planning gateway: they reach SUBMITTED', async () => {
    const res = await moduleEdit('submitter', [{ moduleLabels: ['MOD_A', 'MOD_B'], monthIdList: ['M01_2027'], upcToAddList: [upc[4]] }], { toPublish: true });
    const job = await finish(res.json().jobId);
    expect(job.result.publishJobId).toEqual(expect.any(Number));
    expect(job.result.rows[0]!.items.map((i) => [i.itemKey, i.published])).toEqual([
      ['MOD_A', true],
      ['MOD_B', true],
    ]);
    expect(job.result.rows[0]!.message).toBe('Row 1: saved MOD_A (01/2027), MOD_B (01/2027). sent to the planning system: 2 module(s)');
    expect(job.result.counts).toMatchObject({ saved: 1, published: 1, notPublished: 0, notPublishedReasons: [] });
    await app.jobs.drain();
    await app.jobs.drain();
    expect((await linesOf('MOD_A')).module.status).toBe('SUBMITTED');
    expect((await linesOf('MOD_B')).module.status).toBe('SUBMITTED');
  });

  it('reports a changed module the planning system would refuse (no active SKU) as not published', async () => {
    const job = await (async () => {
      const res = await moduleEdit('submitter', [{ moduleLabels: ['MOD_B'], monthIdList: ['M01_2027'], upcToRemoveList: [upc[0]] }], { toPublish: true });
      return finish(res.json().jobId);
    })();
    expect(job.result.rows[0]!.items[0]).toMatchObject({ outcome: 'applied', published: false, publishError: 'The module has no active SKU' });
    expect(job.result.counts).toMatchObject({ saved: 1, published: 0, notPublished: 1, notPublishedReasons: [{ reason: 'The module has no active SKU', rows: 1 }] });
    expect((await linesOf('MOD_B')).module.status).toBe('WIP');
  });
});

describe('cluster rows', () => {
  beforeEach(async () => {
    const store = await buildStore(db);
    await db.insert(lias).values({ liaCode: 'LIA02', planningChannelId: 'RETAIL' });
    await buildCluster(db, { clusterId: 'C1', storeJdas: [store.storeJda], modules: [{ moduleName: 'MOD_A' }, { moduleName: 'MOD_B', status: 'REMOVED' }] });
    await buildCluster(db, { clusterId: 'C2', lias: ['LIA01', 'LIA02'] });
  });
  const clusterEdit = (rows: object[], extra: object = {}, user: keyof typeof USERS = 'admin') => post('/api/cluster/massiveEdit/', user, { rowsClusterMassiveEdit: rows, toPublish: false, ...extra });
  const content = async (clusterId: string) => {
    const [c] = await db.select().from(clusters).where(and(eq(clusters.clusterId, clusterId), eq(clusters.monthId, 'M01_2027')));
    const mods = await db.select().from(clusterModules).where(eq(clusterModules.clusterPk, c!.id)).orderBy(clusterModules.moduleName);
    const ls = await db.select().from(clusterLias).where(eq(clusterLias.clusterPk, c!.id)).orderBy(clusterLias.liaCode);
    return { cluster: c!, modules: mods.map((m) => [m.moduleName, m.status]), lias: ls.map((l) => l.liaCode) };
  };

  it('adds modules (by label, back from the bin), removes modules and LIAs, adds LIAs and sets the description', async () => {
    const res = await clusterEdit([
      { clusterLabels: ['c1 label'], months: ['M01_2027'], moduleLabelsToAdd: ['MOD_B label'], moduleLabelsToRemove: ['MOD_A'], liasToAdd: ['LIA02'], clusterDescription: 'Core doors' },
    ]);
    const job = await finish(res.json().jobId);
    expect(job.result.rows[0]!.items[0]!.changes).toEqual(['Module MOD_B back from the bin', 'Removed module MOD_A', 'Added LIA LIA02', 'Description: "" → "Core doors"']);
    const c1 = await content('C1');
    expect(c1.modules).toEqual([
      ['MOD_A', 'REMOVED'],
      ['MOD_B', 'ADDED'],
    ]);
    expect(c1.lias).toEqual(['LIA01', 'LIA02']);
    expect(c1.cluster).toMatchObject({ clusterDescription: 'Core doors', version: 2 });
  });

  it('refuses a module of another brand, an unknown LIA and removing the last LIA, changing nothing', async () => {
    const res = await clusterEdit([
      { clusterLabels: ['C1'], months: ['M01_2027'], moduleLabelsToAdd: ['MOD_VLT'] },
      { clusterLabels: ['C1'], months: ['M01_2027'], liasToAdd: ['NOPE'] },
      { clusterLabels: ['C1'], months: ['M01_2027'], liasToRemove: ['LIA01'] },
      { clusterLabels: ['C2'], months: ['M01_2027'], liasToRemove: ['LIA01'] },
    ]);
    const job = await finish(res.json().jobId);
    expect(job.result.rows.map((r) => r.items[0]!.reason)).toEqual([
      'Error in cluster C1: cannot add selected module (MOD_VLT)',
      'Unknown LIA NOPE',
      'At least one lia must be selected',
      null,
    ]);
    expect((await content('C1')).cluster.version).toBe(1);
    expect((await content('C2')).lias).toEqual(['LIA02']);
  });

  it('Save & Publish: a cluster whose modules are in WIP is reported, not published; the preview said so first', async () => {
    // Issue 34 item 2: the preview with toPublish (the confirmation) knows which rows would not publish, and why.
    const preview = (await clusterEdit([{ clusterLabels: ['C1'], clusterDescription: 'Go' }, { clusterLabels: ['C2'], clusterDescription: 'Go too' }], { toPublish: true, dryRun: true })).json() as MassiveEditResult;
    expect(preview.rows[0]!.items[0]).toMatchObject({ outcome: 'applied', published: false, publishError: CLUSTER_TEXTS.modulesInWip });
    expect(preview.rows[1]!.items[0]).toMatchObject({ outcome: 'applied', published: false, publishError: 'The cluster has no store, The cluster has no module' });
    expect(preview.counts).toEqual({
      saved: 2,
      partial: 0,
      unchanged: 0,
      failed: 0,
      published: 0,
      notPublished: 2,
      notPublishedReasons: [
        { reason: 'modules in WIP', rows: 1 },
        { reason: 'The cluster has no store, The cluster has no module', rows: 1 },
      ],
    });
    expect(countsSummary(preview.counts, preview)).toBe('Would save 2 · Would publish 0 · Would not publish 2 (modules in WIP, The cluster has no store, The cluster has no module) · Would fail 0');
    expect(preview.rows[0]!.message).toContain('would not be published: C1 (01/2027)');
    expect((await content('C1')).cluster.version).toBe(1);

    const res = await clusterEdit([{ clusterLabels: ['C1'], clusterDescription: 'Go' }], { toPublish: true });
    const job = await finish(res.json().jobId);
    expect(job.result.rows[0]!.items[0]).toMatchObject({ outcome: 'applied', published: false });
    expect(job.result.rows[0]!.items[0]!.publishError).toContain('modules in work in progress');
    // Saved, not published: the counts say so (nothing counted as published).
    expect(job.result.counts).toEqual({ saved: 1, partial: 0, unchanged: 0, failed: 0, published: 0, notPublished: 1, notPublishedReasons: [{ reason: 'modules in WIP', rows: 1 }] });
    expect(countsSummary(job.result.counts, job.result)).toBe('Saved 1 · Published 0 · Not published 1 (modules in WIP) · Failed 0');
    await db.update(modules).set({ status: 'SUBMITTED' });
    // With its modules published, the preview says the row would publish.
    const ready = (await clusterEdit([{ clusterLabels: ['C1'], clusterDescription: 'Go again' }], { toPublish: true, dryRun: true })).json() as MassiveEditResult;
    expect(ready.counts).toMatchObject({ saved: 1, published: 1, notPublished: 0 });
    const again = await finish((await clusterEdit([{ clusterLabels: ['C1'], clusterDescription: 'Go again' }], { toPublish: true })).json().jobId);
    expect(again.result.rows[0]!.items[0]).toMatchObject({ published: true });
    await app.jobs.drain();
    await app.jobs.drain();
    expect((await content('C1')).cluster.status).toBe('SUBMITTED');
  });
});

describe('classification rows', () => {
  it('adds and removes client classifications of the cluster in every open month; a SUBMITTED cluster stays SUBMITTED', async () => {
    await buildCluster(db, { clusterId: 'C1', status: 'SUBMITTED' });
    await buildCluster(db, { clusterId: 'C1', monthId: 'M02_2027' });
    const [gold, silver] = await db.insert(clientClassifications).values([{ classificationLabel: 'GOLD' }, { classificationLabel: 'SILVER' }]).returning();
    const [c1] = await db.select().from(clusters).where(and(eq(clusters.clusterId, 'C1'), eq(clusters.monthId, 'M01_2027')));
    await db.insert(clusterClassifications).values({ clusterPk: c1!.id, classificationId: silver!.classificationId });
    const res = await post('/api/cluster/massiveEdit/classification', 'editor', {
      rowsClusterClassificationMassiveEdit: [{ clusterLabels: ['C1'], classificationsToAdd: ['gold'], classificationsToRemove: ['SILVER'] }, { clusterLabels: ['C1'], classificationsToAdd: ['BRONZE'] }],
    });
    const job = await finish(res.json().jobId);
    expect(job.result.rows[0]!.items.map((i) => [i.monthId, i.changes])).toEqual([
      ['M01_2027', ['Added client classification GOLD', 'Removed client classification SILVER']],
      ['M02_2027', ['Added client classification GOLD']],
    ]);
    expect(job.result.rows[1]!.items[0]!.reason).toBe('Unknown client classification BRONZE');
    const held = await db.select().from(clusterClassifications).where(eq(clusterClassifications.clusterPk, c1!.id));
    expect(held.map((x) => x.classificationId)).toEqual([gold!.classificationId]);
    const [after] = await db.select().from(clusters).where(eq(clusters.id, c1!.id));
    expect(after!.status).toBe('SUBMITTED');
  });
});
