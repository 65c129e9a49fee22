/**
 * The massive edit calls (part 2 §2–§8, docs/MASSIVE-EDIT.md): check every row with the rules of part 2
 * §5 (400, nothing queued), the caller's right to edit at all (403), resolve the rows' names into steps,
 * then either answer the preview (dryRun: the same decisions, nothing written; with toPublish also what
 * publishing each changed item would change) or queue the job and
 * answer its id with the items the caller may not change (notAuthorizedItems) — unless the caller may
 * change none of the items: then the refusal is the answer (status REFUSED, the job's would-be result),
 * with no job queued and nothing written.
 */
import { isAdmin, hasType, type ItemScope } from '@bo/shared/permissions';
import { itemKeyString } from '@bo/shared/item-keys';
import { notAuthorizedText, type MassiveEditAnswer, type MassiveEditResult } from '@bo/shared/massive-edit';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { mayChange, type VersionedRow } from '../../items/lifecycle/item-change.js';
import { monthStates } from '../../items/lifecycle/months.repository.js';
import { assembleResult, plannedPublish, plannedPublishDiff, previewSteps, resolveRows, type EditType, type StepOutcome } from '../../items/lifecycle/change-plan.js';
import { inRowOrder, type MassiveEditPayload } from '../../items/lifecycle/change-job.js';

/** The most item-months one request may change (rows × items × months). */
const MAX_STEPS = 20_000;

const MASSIVE_EDIT_SERVICE_TEXTS = {
  adminOnly: 'Massive edit of selected modules is for administrators only.',
  noEditRight: "You don't have the right to edit.",
  noSubmitRight: "You don't have the right to publish.",
  tooManySteps: (n: number) => `The rows change ${n} item-months: at most ${MAX_STEPS} at once. Split them into several edits.`,
} as const;

interface MassiveEditRequest<Edit> {
  edits: readonly Edit[];
  toPublish: boolean;
  dryRun: boolean;
  /** The request body's name of the rows (error paths: body.massiveEditList.3). */
  rowsField: string;
  rowErrors(edit: Edit): string[];
  adminOnly?: boolean;
}

export async function massiveEdit<Row extends VersionedRow, Content, Edit, Env>(
  ctx: ServiceContext,
  type: EditType<Row, Content, Edit, Env>,
  request: MassiveEditRequest<Edit>,
): Promise<MassiveEditResult | MassiveEditAnswer> {
  const { grants } = ctx.user;
  if (request.adminOnly && !isAdmin(grants)) throw forbidden(MASSIVE_EDIT_SERVICE_TEXTS.adminOnly);
  const toPublish = request.toPublish && type.publish !== null;
  if (!isAdmin(grants) && !hasType(grants, toPublish ? 'submit' : 'edit')) throw forbidden(toPublish ? MASSIVE_EDIT_SERVICE_TEXTS.noSubmitRight : MASSIVE_EDIT_SERVICE_TEXTS.noEditRight);

  const fields = request.edits.flatMap((edit, i) => request.rowErrors(edit).map((message) => ({ path: `body.${request.rowsField}.${i}`, message })));
  if (fields.length) {
    const byRow = new Map<string, string[]>();
    for (const f of fields) byRow.set(f.path, [...(byRow.get(f.path) ?? []), f.message]);
    throw badRequest([...byRow].map(([path, messages]) => `Row ${Number(path.split('.').pop()) + 1}: ${messages.join(', ')}`).join(';'), fields);
  }

  const named = await type.named(ctx.db, request.edits.flatMap(type.tokens));
  const months = await monthStates(ctx.db, [...named.map((n) => n.monthId), ...request.edits.flatMap(type.months)]);
  const { steps, failures } = resolveRows(type, request.edits, named, months);
  if (steps.length > MAX_STEPS) throw badRequest(MASSIVE_EDIT_SERVICE_TEXTS.tooManySteps(steps.length), [{ path: `body.${request.rowsField}`, message: MASSIVE_EDIT_SERVICE_TEXTS.tooManySteps(steps.length) }]);

  if (request.dryRun) {
    const { outcomes, planned } = await previewSteps(ctx.db, type, request.edits, steps, ctx.user, toPublish, ctx.config.LOCK_TTL_MINUTES);
    const { result } = assembleResult({
      type: type.type,
      itemType: type.change.kind.type,
      dryRun: true,
      toPublish,
      rowCount: request.edits.length,
      outcomes: inRowOrder(failures, outcomes),
      // Save & Publish's confirmation says which rows would be saved but not published, and why.
      publish: toPublish ? await plannedPublish(ctx.db, type, planned, grants) : null,
      publishJobId: null,
    });
    // Save & Publish's confirmation shows what publishing each changed item would change.
    const publishDiff = toPublish ? await plannedPublishDiff(ctx.db, type, planned) : undefined;
    return publishDiff ? { ...result, publishDiff } : result;
  }

  // Who may not change what, as far as the request can tell (the job checks again with the grants of its time).
  const rows = await type.change.kind.findLive(
    ctx.db,
    steps.map((s) => ({ itemKey: s.itemKey, monthId: s.monthId })),
  );
  const scopes = await type.change.kind.scopes(ctx.db, rows);
  const refused = new Set<string>();
  /** The refused item-months, with their rows' labels. */
  const refusedMonths = new Map<string, string>();
  for (const row of rows) {
    if (mayChange(grants, scopes.get(row.id) as ItemScope, toPublish)) continue;
    const key = type.change.kind.keyOf(row);
    refused.add(key.itemKey);
    refusedMonths.set(itemKeyString(key), type.change.label(row));
  }
  const names = [...refused].sort();
  const notAuthorizedItems = { edit: toPublish ? [] : names, submit: toPublish ? names : [] };

  // Every item refused: a job could only report the refusals, so they are the answer, and nothing is queued.
  if (steps.length > 0 && steps.every((s) => refusedMonths.has(itemKeyString(s)))) {
    const outcomes = steps.map(
      (s): StepOutcome => ({
        ...s,
        label: refusedMonths.get(itemKeyString(s))!,
        outcome: 'failed',
        changes: [],
        reason: type.change.texts.notAuthorized(s.itemKey, toPublish),
        notAuthorized: true,
      }),
    );
    const { result, response } = assembleResult({
      type: type.type,
      itemType: type.change.kind.type,
      dryRun: false,
      toPublish,
      rowCount: request.edits.length,
      outcomes: inRowOrder(failures, outcomes),
      publish: null,
      publishJobId: null,
    });
    return { jobId: null, status: 'REFUSED', progress: 100, notAuthorizedItems, response, result };
  }

  const payload: MassiveEditPayload<Edit> = { type: type.type, toPublish, requestId: ctx.requestId, edits: [...request.edits], steps, failures };
  const job = await ctx.jobs.enqueue(ctx.db, type.jobKind, payload, ctx.user.username);
  return { jobId: job.id, status: 'QUEUED', notAuthorizedItems, response: notAuthorizedText(type.change.kind.type, notAuthorizedItems) };
}

