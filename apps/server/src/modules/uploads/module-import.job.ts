/**
 * The Import Module job (docs/IMPORTS.md "How it runs"). It re-reads the stored workbook (streaming),
 * groups its rows by module-month and plans once — which module-months exist (changed by the massive
 * edit engine) and which do not (created) — saving the plan in its checkpoint, so a resumed job runs
 * the same plan. Then:
 * 1. each module-month to create, in its own transaction: the creation rules of creation.service
 *    (checkNewModule, insertNewModule), then its composition through the lifecycle core (decideChange,
 *    writeChange) — created and filled, or neither; its outcome and the checkpoint commit with it;
 * 2. the existing ones through `massiveEditJob` with the import's EditType (batches, job_steps, resume).
 * The response is one line per module-month, ';'-separated.
 */
import { formatMonthId } from '@bo/shared/months';
import { moduleCreateSchema } from '@bo/shared/creation';
import { canImportItem, isAdmin } from '@bo/shared/permissions';
import type { ImportOutcome, ImportResult } from '@bo/shared/uploads';
import type { Grant } from '@bo/shared/grants';
import { itemKeyString } from '@bo/shared/item-keys';
import type { Db, Tx } from '../../db/client.js';
import { yieldBetweenSteps, type JobContext, type JobHandler, type JobRunner } from '../../jobs/job-runner.js';
import { audit } from '../../lib/audit.repository.js';
import { AppError } from '../../lib/errors.js';
import { checkNewModule, insertNewModule } from '../creation/creation.service.js';
import { decideChange, loadChangeFacts, writeChange, type ChangeKind } from '../lifecycle/item-change.js';
import { currentCaller, type JobCaller } from '../lifecycle/job-caller.js';
import { moduleKind } from '../lifecycle/module-kind.js';
import type { MassiveEditResult } from '@bo/shared/massive-edit';
import { massiveEditJob, type MassiveEditPayload } from '../massive-edit/massive-edit.job.js';
import type { Step } from '../massive-edit/massive-edit-plan.js';
import type { ModuleContent } from '../massive-edit/module-change.js';
import type { ModuleRow } from '../modules/modules.repository.js';
import { listReasons, moduleImportChange, moduleImportEditType, MODULE_IMPORT_TEXTS, type ModuleImportEdit } from './module-import-change.js';
import { readModuleImport, type ModuleGroup } from './module-import-file.js';
import { allStarsZones, uploadOfJob } from './uploads.repository.js';

export const MODULE_IMPORT_JOB = 'upload-module';

export const MODULE_IMPORT_JOB_TEXTS = {
  noCreationFields: 'the module does not exist: give Module label, Macro family, Brand and Collection to create it',
  noZones: (brand: string) => `no stars zone of ${brand} where you may import: give the Stars zones column`,
  created: (n: number) => `created with ${n} SKU(s)`,
  saved: (changes: readonly string[]) => `saved (${listReasons(changes)})`,
  unchanged: 'nothing to change',
  refused: (reason: string) => `refused: ${reason}`,
  uploadGone: 'The upload of this job is gone.',
} as const;

type Plan = 'invalid' | 'create' | 'edit';

interface LineOutcome {
  group: number;
  outcome: ImportOutcome;
  changes: string[];
  reason: string | null;
}

interface ImportCheckpoint {
  plan: Plan[];
  /** Creations done so far (of the groups planned 'create', in order). */
  created: number;
  creations: LineOutcome[];
  /** The massive edit engine's own checkpoint. */
  edit?: unknown;
}

const isCheckpoint = (v: unknown): v is ImportCheckpoint => !!v && typeof v === 'object' && Array.isArray((v as ImportCheckpoint).plan);

const toEdit = (g: ModuleGroup): ModuleImportEdit => ({ moduleName: g.moduleName, monthId: g.monthId, lines: g.lines });

/** The zones a module created by the import gets when the file does not say: those the caller may import the brand in. */
async function defaultZones(db: Db, grants: readonly Grant[], brand: string): Promise<string[]> {
  if (isAdmin(grants)) return allStarsZones(db);
  const zones = grants.filter((g) => g.types.includes('edit') && g.rules.includes('import') && g.brands.includes(brand)).flatMap((g) => g.starsZones);
  return [...new Set(zones)].sort();
}

class Refused extends Error {}

type NewModule = Parameters<typeof checkNewModule>[2];

/** Checks one module-month to create (nothing written): answers the module to write, or why it cannot be created. */
async function prepareCreation(db: Db, group: ModuleGroup, caller: JobCaller): Promise<NewModule | { reason: string }> {
  const fields = group.create;
  if (!fields) return { reason: MODULE_IMPORT_JOB_TEXTS.noCreationFields };
  const starZones = fields.starZones ?? (await defaultZones(db, caller.grants, fields.brand));
  if (starZones.length === 0) return { reason: MODULE_IMPORT_JOB_TEXTS.noZones(fields.brand) };
  const parsed = moduleCreateSchema.safeParse({
    moduleName: group.moduleName,
    moduleLabel: fields.moduleLabel,
    moduleDescription: '',
    monthId: group.monthId,
    macroFamily: fields.macroFamily,
    brand: fields.brand,
    collection: fields.collection,
    starZones,
  });
  if (!parsed.success) return { reason: listReasons([...new Set(parsed.error.issues.map((i) => i.message))]) };
  const body = parsed.data;
  if (!canImportItem(caller.grants, { brand: body.brand, zones: body.starZones })) return { reason: MODULE_IMPORT_TEXTS.notAuthorized(group.moduleName) };
  try {
    await checkNewModule(db, caller.grants, body);
  } catch (err) {
    if (err instanceof AppError) return { reason: err.message.replaceAll(';', ',') };
    throw err;
  }
  return body;
}

const change = moduleImportChange as unknown as ChangeKind<ModuleRow, ModuleContent, unknown, unknown>;

/** Creates the module-month and fills it in `tx`, through the lifecycle core; throws Refused when it cannot be. Answers its SKU count. */
async function writeCreation(tx: Tx, group: ModuleGroup, body: NewModule, caller: JobCaller, lockTtlMinutes: number, jobId: number): Promise<number> {
  try {
    const saved = await insertNewModule(tx, caller, body, { upload: { jobId } });
    const key = { itemKey: saved.moduleName, monthId: saved.monthId };
    const edit = toEdit(group);
    const env = await moduleImportEditType.env(tx, [edit]);
    const facts = (await loadChangeFacts(tx, change, [key], lockTtlMinutes, true)).get(itemKeyString(key));
    const decision = decideChange(moduleImportChange, facts, key, edit, env, caller, false);
    if (decision.outcome === 'failed') throw new Refused(decision.reason);
    if (decision.outcome === 'applied') await audit(tx, await writeChange(tx, change, facts!, decision, caller, { upload: { jobId } }));
    return group.lines.length;
  } catch (err) {
    if (err instanceof AppError) throw new Refused(err.message.replaceAll(';', ','));
    throw err;
  }
}

/** The response line of one module-month. */
function lineMessage(group: { moduleName: string; monthId: string } | null, o: Omit<LineOutcome, 'group'>, fileRow?: number): string {
  const what =
    o.outcome === 'created'
      ? (o.changes[0] ?? MODULE_IMPORT_JOB_TEXTS.created(0))
      : o.outcome === 'saved'
        ? MODULE_IMPORT_JOB_TEXTS.saved(o.changes)
        : o.outcome === 'unchanged'
          ? MODULE_IMPORT_JOB_TEXTS.unchanged
          : MODULE_IMPORT_JOB_TEXTS.refused(o.reason ?? '');
  const who = group ? `${group.moduleName} (${formatMonthId(group.monthId)})` : `File row ${fileRow}`;
  return `${who}: ${what}`.replaceAll(';', ',');
}

export function moduleImportJob(runner: Pick<JobRunner, 'enqueue'>, lockTtlMinutes: number): JobHandler {
  const engine = massiveEditJob(runner, moduleImportEditType, lockTtlMinutes);
  return async (ctx: JobContext) => {
    const { db, job } = ctx;
    const upload = await uploadOfJob(db, job.id);
    if (!upload) throw new Error(MODULE_IMPORT_JOB_TEXTS.uploadGone);
    const file = await readModuleImport(upload.content);
    const { groups } = file;
    const caller = await currentCaller(db, job.createdBy, (job.payload as { requestId?: string }).requestId);

    let state: ImportCheckpoint;
    if (isCheckpoint(ctx.resumeFrom)) state = ctx.resumeFrom;
    else {
      const existing = await moduleKind.findLive(
        db,
        groups.map((g) => ({ itemKey: g.moduleName, monthId: g.monthId })),
      );
      const live = new Set(existing.map((r) => `${r.moduleName}|${r.monthId}`));
      state = { plan: groups.map((g) => (g.errors.length ? 'invalid' : live.has(`${g.moduleName}|${g.monthId}`) ? 'edit' : 'create')), created: 0, creations: [] };
      await ctx.progress(1, state);
    }
    const toCreate = groups.map((g, i) => ({ g, i })).filter(({ i }) => state.plan[i] === 'create');
    const toChange = groups.map((g, i) => ({ g, i })).filter(({ i }) => state.plan[i] === 'edit');
    const total = Math.max(1, toCreate.length + toChange.length);
    const percent = (done: number) => Math.min(99, 1 + (98 * done) / total);

    for (let k = state.created; k < toCreate.length; k++) {
      const { g, i } = toCreate[k]!;
      let outcome: LineOutcome;
      const prepared = await prepareCreation(db, g, caller);
      try {
        if ('reason' in prepared) throw new Refused(prepared.reason);
        outcome = await db.transaction(async (tx) => {
          const skus = await writeCreation(tx, g, prepared, caller, lockTtlMinutes, job.id);
          const done: LineOutcome = { group: i, outcome: 'created', changes: [MODULE_IMPORT_JOB_TEXTS.created(skus)], reason: null };
          const next = { ...state, created: k + 1, creations: [...state.creations, done] };
          await ctx.checkpoint(tx, next, percent(k + 1));
          return done;
        });
        state = { ...state, created: k + 1, creations: [...state.creations, outcome] };
      } catch (err) {
        const reason = err instanceof Refused ? err.message : `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
        outcome = { group: i, outcome: 'failed', changes: [], reason };
        const next = { ...state, created: k + 1, creations: [...state.creations, outcome] };
        await db.transaction((tx) => ctx.checkpoint(tx, next, percent(k + 1)));
        state = next;
      }
      await yieldBetweenSteps();
    }

    // The existing module-months: the massive edit engine, one step each.
    const steps: Step[] = toChange.map(({ g }, row) => ({ row, itemKey: g.moduleName, label: g.moduleName, monthId: g.monthId }));
    const payload: MassiveEditPayload<ModuleImportEdit> = { type: 'module', toPublish: false, requestId: caller.requestId, edits: toChange.map(({ g }) => toEdit(g)), steps, failures: [] };
    const created = toCreate.length;
    const out = await engine({
      ...ctx,
      job: { ...job, payload },
      resumeFrom: state.edit,
      checkpoint: (tx, inner, p) => ctx.checkpoint(tx, { ...state, edit: inner }, percent(created + (p / 100) * toChange.length)),
      progress: (p, inner) => ctx.progress(percent(created + (p / 100) * toChange.length), inner === undefined ? undefined : { ...state, edit: inner }),
    });
    const edited = (out as { result: MassiveEditResult }).result;

    const byGroup = new Map<number, Omit<LineOutcome, 'group'>>();
    for (const c of state.creations) byGroup.set(c.group, c);
    toChange.forEach(({ i }, row) => {
      const item = edited.rows[row]?.items[0];
      if (!item) return;
      byGroup.set(i, {
        outcome: item.outcome === 'applied' ? 'saved' : item.outcome === 'unchanged' ? 'unchanged' : 'failed',
        changes: item.changes,
        reason: item.reason,
      });
    });
    groups.forEach((g, i) => {
      if (state.plan[i] === 'invalid') byGroup.set(i, { outcome: 'failed', changes: [], reason: listReasons(g.errors) });
    });

    const lines: ImportResult['lines'] = [];
    for (const e of file.rowErrors) {
      const o = { outcome: 'failed' as const, changes: [], reason: e.message };
      lines.push({ itemKey: '', monthId: '', ...o, message: lineMessage(null, o, e.fileRow) });
    }
    groups.forEach((g, i) => {
      const o = byGroup.get(i) ?? { outcome: 'failed' as const, changes: [], reason: 'not processed' };
      lines.push({ itemKey: g.moduleName, monthId: g.monthId, outcome: o.outcome, changes: o.changes, reason: o.reason, message: lineMessage(g, o) });
    });
    const counts = { created: 0, saved: 0, unchanged: 0, failed: 0 };
    for (const l of lines) counts[l.outcome]++;
    const result: ImportResult = { counts, lines };
    return { result, response: lines.map((l) => l.message).join(';') };
  };
}
