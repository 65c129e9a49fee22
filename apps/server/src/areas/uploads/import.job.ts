/**
 * The job of every import (docs/IMPORTS.md "How it runs"). It re-reads the stored workbook (streaming),
 * groups its rows by item-month and plans once what to do with each group — change an existing item-month
 * (the massive edit engine), create one (the kind's creation, Import Module only) or refuse it — saving
 * the plan in its checkpoint, so a resumed job runs the same plan. Then:
 * 1. each item-month to create, in its own transaction (created and filled, or neither), its outcome and
 *    the checkpoint committing with it;
 * 2. the existing ones through `massiveEditJob` with the kind's EditType (batches, job_steps, resume),
 *    whose checkpoint nests in the import's.
 * The response is one line per item-month, ';'-separated; an import never publishes.
 *
 * A preview (payload `preview: true`, docs/IMPORT-PREVIEW.md) plans the same way and decides every
 * item-month with the same functions, writing nothing: the edits through the massive edit preview
 * (`previewSteps`), each creation inside a transaction that is rolled back. Its result lists what the
 * import would do, with the version each item-month had and whether its refusal is the stale-version
 * guard's (stale-version.ts), which Apply may override with `overwrite`.
 */
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import { formatMonthId } from '@bo/shared/months';
import type { MassiveEditResult } from '@bo/shared/massive-edit';
import { UPLOAD_TEXTS, type ImportOutcome, type ImportResult } from '@bo/shared/uploads';
import type { Db, Queryable, Tx } from '../../db/client.js';
import { yieldBetweenSteps, type JobContext, type JobHandler, type JobRunner } from '../../jobs/job-runner.js';
import { stepErrorText } from '../../jobs/job-text.js';
import { AppError } from '../../lib/errors.js';
import type { VersionedRow } from '../../items/lifecycle/item-change.js';
import { currentCaller, type JobCaller } from '../../items/lifecycle/job-caller.js';
import { massiveEditJob, type MassiveEditPayload } from '../../items/lifecycle/change-job.js';
import { previewSteps, type EditType, type Step } from '../../items/lifecycle/change-plan.js';
import { listReasons, readImportFile, type ImportFormat, type ImportGroup } from './import-file.js';
import { recordVersionsAs } from '../../items/lifecycle/item-versions.repository.js';
import { overwriteOf, staleRefusal, type OverwriteKeys } from './stale-version.js';
import { uploadOfJob } from './uploads.repository.js';

export const IMPORT_JOB_TEXTS = {
  created: (n: number) => `created with ${n} SKU(s)`,
  saved: (changes: readonly string[]) => `saved (${listReasons(changes)})`,
  unchanged: 'nothing to change',
  refused: (reason: string) => `refused: ${reason}`,
  notProcessed: 'not processed',
  uploadGone: 'The upload of this job is gone.',
} as const;

/** Why an item-month is not imported (a creation that breaks a rule): its response line says so. */
export class ImportRefused extends Error {}

/** An AppError of a rule the import reuses (creation rules) as the refusal of one item-month. */
export const refusedBy = (err: unknown): never => {
  if (err instanceof AppError) throw new ImportRefused(err.message.replaceAll(';', ','));
  throw err;
};

/** What the job does with one group; decided once and kept in the checkpoint. */
export type GroupPlan = { do: 'edit'; itemKey: string } | { do: 'create' } | { do: 'refuse'; reason: string };

/**
 * The EditType of an import: the massive edit's of the same items (type, names, texts) with the import's
 * change and env, one step per item-month, never published.
 */
export function importEditType<Row extends VersionedRow, Content, Edit extends { monthId: string }, Env>(
  massive: Pick<EditType<Row, unknown, never, unknown>, 'type' | 'named' | 'texts'>,
  own: Pick<EditType<Row, Content, Edit, Env>, 'jobKind' | 'change' | 'env'>,
  itemKey: (edit: Edit) => string,
): EditType<Row, Content, Edit, Env> {
  return { type: massive.type, named: massive.named, texts: massive.texts, ...own, publish: null, tokens: (edit) => [itemKey(edit)], months: (edit) => [edit.monthId] };
}

/** How a kind creates an item-month the file names and that does not exist (Import Module). */
interface ImportCreation<G, Prepared> {
  /** The checks that need no transaction: the item-month to write, or why it cannot be created. */
  prepare(db: Db, group: G, caller: JobCaller): Promise<{ prepared: Prepared } | { reason: string }>;
  /** Creates and fills it in `tx` (throws ImportRefused when it cannot be); answers the response's text. */
  write(tx: Tx, group: G, prepared: Prepared, caller: JobCaller, run: { lockTtlMinutes: number; jobId: number }): Promise<string>;
}

/** One kind of import: how its file reads, what its groups mean, and how an item-month changes. */
export interface ImportKind<G extends ImportGroup<unknown>, Row extends VersionedRow, Content, Edit, Env, Prepared = never> {
  format: ImportFormat<string, G>;
  /** What to do with each group whose cells are fine (same order as `groups`). */
  plan(db: Db, groups: readonly G[]): Promise<GroupPlan[]>;
  /** Changes the existing item-months (never published). */
  editType: EditType<Row, Content, Edit, Env>;
  toEdit(group: G, itemKey: string): Edit;
  creation?: ImportCreation<G, Prepared>;
}

/** What an import job reads from its payload (the kinds' jobs also read `overwrite`: stale-version.ts `overwriteOf`). */
interface ImportPayload {
  requestId?: string;
  /** Compute the preview only: nothing is written (docs/IMPORT-PREVIEW.md). */
  preview?: boolean;
}

interface LineOutcome {
  group: number;
  outcome: ImportOutcome;
  changes: string[];
  reason: string | null;
}

interface ImportCheckpoint {
  plan: GroupPlan[];
  /** Creations done so far (of the groups planned 'create', in order). */
  created: number;
  creations: LineOutcome[];
  /** The massive edit engine's own checkpoint. */
  edit?: unknown;
}

const isCheckpoint = (v: unknown): v is ImportCheckpoint =>
  !!v && typeof v === 'object' && Array.isArray((v as ImportCheckpoint).plan) && (v as ImportCheckpoint).plan.every((p) => typeof p === 'object');

/** The response line of one item-month, or of a row that names none. */
function lineMessage(who: string, o: Omit<LineOutcome, 'group'>, preview = false): string {
  const created = o.changes[0] ?? IMPORT_JOB_TEXTS.created(0);
  const what =
    o.outcome === 'created'
      ? preview
        ? UPLOAD_TEXTS.previewLineCreated(created)
        : created
      : o.outcome === 'saved'
        ? preview
          ? UPLOAD_TEXTS.previewLineSaved(listReasons(o.changes))
          : IMPORT_JOB_TEXTS.saved(o.changes)
        : o.outcome === 'unchanged'
          ? IMPORT_JOB_TEXTS.unchanged
          : IMPORT_JOB_TEXTS.refused(o.reason ?? '');
  return `${who}: ${what}`.replaceAll(';', ',');
}

const unexpected = (err: unknown) => (err instanceof ImportRefused ? err.message : `Unexpected error: ${stepErrorText(err)}`);

/** The current version of each of these item-months that is live, by item key string. */
export async function liveVersions<Row extends VersionedRow>(
  db: Queryable,
  type: Pick<EditType<Row, unknown, never, unknown>, 'change'>,
  keys: readonly ItemKeyParts[],
): Promise<Map<string, number>> {
  const { kind } = type.change;
  const rows = await kind.findLive(db, [...keys]);
  return new Map(rows.map((r) => [itemKeyString(kind.keyOf(r)), r.version]));
}

/** Runs `write` in a transaction that is always rolled back, and answers what it answered. */
async function rolledBack<T>(db: Db, write: (tx: Tx) => Promise<T>): Promise<T> {
  const undo = { value: undefined as T };
  const marker = new Error('preview: rolled back');
  try {
    await db.transaction(async (tx) => {
      undo.value = await write(tx);
      throw marker;
    });
  } catch (err) {
    if (err !== marker) throw err;
  }
  return undo.value;
}

/** The groups' plan: the kind's for the groups whose cells are fine, a refusal (their cell errors) for the others. */
async function planGroups<G extends ImportGroup<unknown>>(db: Db, kind: Pick<ImportKind<G, VersionedRow, unknown, unknown, unknown>, 'plan'>, groups: readonly G[]): Promise<GroupPlan[]> {
  const valid = groups.filter((g) => g.errors.length === 0);
  const planned = await kind.plan(db, valid);
  const byGroup = new Map(valid.map((g, k) => [g, planned[k]!]));
  return groups.map((g): GroupPlan => byGroup.get(g) ?? { do: 'refuse', reason: listReasons(g.errors) });
}

/** The result and response of an import (or its preview): file row errors first, then one line per group. */
function assemble<G extends ImportGroup<unknown>>(
  file: { groups: readonly G[]; rowErrors: readonly { fileRow: number; message: string }[] },
  plan: readonly GroupPlan[],
  byGroup: ReadonlyMap<number, Omit<LineOutcome, 'group'>>,
  preview: { versions: ReadonlyMap<string, number>; overwritable: ReadonlySet<number> } | null,
): { result: ImportResult; response: string } {
  const lines: ImportResult['lines'] = [];
  for (const e of file.rowErrors) {
    const o = { outcome: 'failed' as const, changes: [], reason: e.message };
    lines.push({ itemKey: '', monthId: '', ...o, message: lineMessage(`File row ${e.fileRow}`, o, !!preview) });
  }
  file.groups.forEach((g, i) => {
    const o = byGroup.get(i) ?? { outcome: 'failed' as const, changes: [], reason: IMPORT_JOB_TEXTS.notProcessed };
    const p = plan[i]!;
    const itemKey = p.do === 'edit' ? p.itemKey : g.itemKey;
    const line: ImportResult['lines'][number] = { itemKey, monthId: g.monthId, ...o, message: lineMessage(`${itemKey} (${formatMonthId(g.monthId)})`, o, !!preview) };
    if (preview) {
      line.version = p.do === 'edit' ? (preview.versions.get(itemKeyString({ itemKey, monthId: g.monthId })) ?? null) : null;
      line.overwritable = preview.overwritable.has(i);
    }
    lines.push(line);
  });
  const counts = { created: 0, saved: 0, unchanged: 0, failed: 0 };
  for (const l of lines) counts[l.outcome]++;
  const result: ImportResult = preview ? { counts, lines, preview: true } : { counts, lines };
  return { result, response: lines.map((l) => l.message).join(';') };
}

/** The refusals of the plan, as outcomes by group. */
function refusals(plan: readonly GroupPlan[], byGroup: Map<number, Omit<LineOutcome, 'group'>>): void {
  plan.forEach((p, i) => {
    if (p.do === 'refuse') byGroup.set(i, { outcome: 'failed', changes: [], reason: p.reason });
  });
}

/**
 * The preview of an import: every group decided as the import would, nothing written. Creations are
 * prepared and written in a transaction that is rolled back (so a creation the write refuses says why);
 * edits go through the massive edit preview, in the job's order.
 */
async function previewImport<G extends ImportGroup<unknown>, Row extends VersionedRow, Content, Edit, Env, Prepared>(
  ctx: JobContext,
  kind: ImportKind<G, Row, Content, Edit, Env, Prepared>,
  file: { groups: readonly G[]; rowErrors: readonly { fileRow: number; message: string }[] },
  plan: readonly GroupPlan[],
  caller: JobCaller,
  lockTtlMinutes: number,
): Promise<{ result: ImportResult; response: string }> {
  const { db, job } = ctx;
  const { groups } = file;
  const byGroup = new Map<number, Omit<LineOutcome, 'group'>>();
  for (const [i, g] of groups.entries()) {
    if (plan[i]!.do !== 'create') continue;
    try {
      if (!kind.creation) throw new ImportRefused(IMPORT_JOB_TEXTS.notProcessed);
      const { creation } = kind;
      const prepared = await creation.prepare(db, g, caller);
      if ('reason' in prepared) throw new ImportRefused(prepared.reason);
      const text = await rolledBack(db, async (tx) => {
        await recordVersionsAs(tx, 'import', caller.username);
        return creation.write(tx, g, prepared.prepared, caller, { lockTtlMinutes, jobId: job.id });
      });
      byGroup.set(i, { outcome: 'created', changes: [text], reason: null });
    } catch (err) {
      if (!(err instanceof ImportRefused)) ctx.log('import preview step failed', { group: i, err });
      byGroup.set(i, { outcome: 'failed', changes: [], reason: unexpected(err) });
    }
    await yieldBetweenSteps();
  }
  const toChange = groups.flatMap((g, i) => {
    const p = plan[i]!;
    return p.do === 'edit' ? [{ g, i, itemKey: p.itemKey }] : [];
  });
  const steps: Step[] = toChange.map(({ g, itemKey }, row) => ({ row, itemKey, label: itemKey, monthId: g.monthId }));
  const edits = toChange.map(({ g, itemKey }) => kind.toEdit(g, itemKey));
  const { outcomes } = await previewSteps(db, kind.editType, edits, steps, caller, false, lockTtlMinutes);
  const { kind: items } = kind.editType.change;
  const live = new Map(
    (
      await items.findLive(
        db,
        steps.map((s) => ({ itemKey: s.itemKey, monthId: s.monthId })),
      )
    ).map((r) => [itemKeyString(items.keyOf(r)), r]),
  );
  const versions = new Map([...live].map(([key, r]) => [key, r.version]));
  // Refused by the stale-version guard itself (not by a lock or a right): Apply may override it.
  const overwritable = new Set<number>();
  outcomes.forEach((o, k) => {
    const { i } = toChange[k]!;
    byGroup.set(i, { outcome: o.outcome === 'applied' ? 'saved' : o.outcome, changes: o.changes, reason: o.reason });
    const row = live.get(itemKeyString(o)) as (Row & { updatedBy: string | null; updatedAt: Date | string }) | undefined;
    const fileVersion = (edits[k] as { fileVersion?: number | null }).fileVersion ?? null;
    if (o.outcome === 'failed' && row && o.reason === staleRefusal(row, fileVersion)) overwritable.add(i);
  });
  refusals(plan, byGroup);
  return assemble(file, plan, byGroup, { versions, overwritable });
}

function importJob<G extends ImportGroup<unknown>, Row extends VersionedRow, Content, Edit, Env, Prepared>(
  runner: Pick<JobRunner, 'enqueue'>,
  kind: ImportKind<G, Row, Content, Edit, Env, Prepared>,
  lockTtlMinutes: number,
): JobHandler {
  return async (ctx: JobContext) => {
    const { db, job } = ctx;
    const payload = job.payload as ImportPayload;
    const upload = await uploadOfJob(db, job.id);
    if (!upload) throw new Error(IMPORT_JOB_TEXTS.uploadGone);
    const file = await readImportFile(upload.content, kind.format);
    const { groups } = file;
    const caller = await currentCaller(db, job.createdBy, payload.requestId);

    if (payload.preview) return previewImport(ctx, kind, file, await planGroups(db, kind, groups), caller, lockTtlMinutes);

    let state: ImportCheckpoint;
    if (isCheckpoint(ctx.resumeFrom)) state = ctx.resumeFrom;
    else {
      state = { plan: await planGroups(db, kind, groups), created: 0, creations: [] };
      await ctx.progress(1, state);
    }
    const toCreate = groups.map((g, i) => ({ g, i })).filter(({ i }) => state.plan[i]!.do === 'create');
    const toChange = groups.flatMap((g, i) => {
      const p = state.plan[i]!;
      return p.do === 'edit' ? [{ g, i, itemKey: p.itemKey }] : [];
    });
    const total = Math.max(1, toCreate.length + toChange.length);
    const percent = (done: number) => Math.min(99, 1 + (98 * done) / total);

    for (let k = state.created; k < toCreate.length; k++) {
      const { g, i } = toCreate[k]!;
      let outcome: LineOutcome;
      try {
        if (!kind.creation) throw new ImportRefused(IMPORT_JOB_TEXTS.notProcessed);
        const { creation } = kind;
        const prepared = await creation.prepare(db, g, caller);
        if ('reason' in prepared) throw new ImportRefused(prepared.reason);
        outcome = await db.transaction(async (tx) => {
          await recordVersionsAs(tx, 'import', caller.username);
          const text = await creation.write(tx, g, prepared.prepared, caller, { lockTtlMinutes, jobId: job.id });
          const done: LineOutcome = { group: i, outcome: 'created', changes: [text], reason: null };
          await ctx.checkpoint(tx, { ...state, created: k + 1, creations: [...state.creations, done] }, percent(k + 1));
          return done;
        });
      } catch (err) {
        if (!(err instanceof ImportRefused)) ctx.log('import step failed', { group: i, err });
        outcome = { group: i, outcome: 'failed', changes: [], reason: unexpected(err) };
        const failed = outcome;
        await db.transaction((tx) => ctx.checkpoint(tx, { ...state, created: k + 1, creations: [...state.creations, failed] }, percent(k + 1)));
      }
      state = { ...state, created: k + 1, creations: [...state.creations, outcome] };
      await yieldBetweenSteps();
    }

    // The existing item-months: the massive edit engine, one step each.
    const steps: Step[] = toChange.map(({ g, itemKey }, row) => ({ row, itemKey, label: itemKey, monthId: g.monthId }));
    const editPayload: MassiveEditPayload<Edit> = {
      type: kind.editType.type,
      toPublish: false,
      requestId: caller.requestId,
      edits: toChange.map(({ g, itemKey }) => kind.toEdit(g, itemKey)),
      steps,
      failures: [],
    };
    const created = toCreate.length;
    const engine = massiveEditJob(runner, kind.editType, lockTtlMinutes);
    const out = await engine({
      ...ctx,
      job: { ...job, payload: editPayload },
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
      byGroup.set(i, { outcome: item.outcome === 'applied' ? 'saved' : item.outcome === 'unchanged' ? 'unchanged' : 'failed', changes: item.changes, reason: item.reason });
    });
    refusals(state.plan, byGroup);
    return assemble(file, state.plan, byGroup, null);
  };
}

/** An import's job: its kind built with the job payload's overwrite list (the items the caller chose to overwrite). */
export function importJobOf<G extends ImportGroup<unknown>, Row extends VersionedRow, Content, Edit, Env, Prepared>(
  kindOf: (overwrite: OverwriteKeys) => ImportKind<G, Row, Content, Edit, Env, Prepared>,
): (runner: Pick<JobRunner, 'enqueue'>, lockTtlMinutes: number) => JobHandler {
  return (runner, lockTtlMinutes) => (ctx) => importJob(runner, kindOf(overwriteOf(ctx.job.payload)), lockTtlMinutes)(ctx);
}
