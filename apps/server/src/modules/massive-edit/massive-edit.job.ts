/**
 * The massive edit job (docs/MASSIVE-EDIT.md): one transaction per step (row × item × month), in row
 * order. Each step reads the item `FOR UPDATE`, decides with the lifecycle core (item-change.ts) and the
 * caller's current grants, writes an applied change with its audit entry, and records its outcome
 * (job_steps) and the job's checkpoint in the same transaction: a job resumed after a crash neither
 * repeats nor skips a step. With Save & Publish, one last transaction publishes the changed items.
 */
import { itemKeyString, uniqueKeys, type ItemKeyParts } from '@bo/shared/item-keys';
import type { MassiveEditType } from '@bo/shared/massive-edit';
import { yieldBetweenSteps, type JobHandler, type JobRunner } from '../../jobs/job-runner.js';
import { jobStepOutcomes, recordJobStep } from '../../jobs/jobs.repository.js';
import { decideChange, loadChangeFacts, writeChange, type ChangeKind, type VersionedRow } from '../lifecycle/item-change.js';
import { currentCaller } from '../lifecycle/job-caller.js';
import { publishChanged } from '../lifecycle/publish-changed.js';
import { assembleResult, stepOutcome, type EditType, type PublishOutcomes, type Step, type StepOutcome } from './massive-edit-plan.js';

export interface MassiveEditPayload<Edit = unknown> {
  type: MassiveEditType;
  toPublish: boolean;
  requestId?: string | undefined;
  edits: Edit[];
  steps: Step[];
  /** Failures known when the request came in (names that mean no item). */
  failures: StepOutcome[];
}

interface Checkpoint {
  /** Steps done so far. */
  step: number;
  published: boolean;
  publishJobId: number | null;
}

/** What the publish record (the step after the last) holds. */
interface PublishRecord {
  publish: { published: ItemKeyParts[]; errors: (ItemKeyParts & { message: string })[] };
}

const isCheckpoint = (value: unknown): value is Checkpoint => !!value && typeof value === 'object' && typeof (value as Checkpoint).step === 'number';

export function massiveEditJob<Row extends VersionedRow, Content, Edit, Env>(
  runner: Pick<JobRunner, 'enqueue'>,
  type: EditType<Row, Content, Edit, Env>,
  lockTtlMinutes: number,
): JobHandler {
  const change = type.change as ChangeKind<Row, Content, unknown, unknown>;
  return async ({ job, db, checkpoint, resumeFrom }) => {
    const payload = job.payload as MassiveEditPayload<Edit>;
    const { steps, toPublish } = payload;
    const publishing = toPublish && type.publish !== null;
    let state: Checkpoint = isCheckpoint(resumeFrom) ? resumeFrom : { step: 0, published: false, publishJobId: null };
    const caller = await currentCaller(db, job.createdBy, payload.requestId);
    const total = steps.length + (publishing ? 1 : 0);
    // 100 % is the runner's, when the result is written: the page shows the Result after it.
    const percent = (done: number) => Math.min(99, (100 * done) / Math.max(1, total));

    for (let i = state.step; i < steps.length; i++) {
      const step = steps[i]!;
      const key = { itemKey: step.itemKey, monthId: step.monthId };
      const edit = payload.edits[step.row]!;
      const next: Checkpoint = { ...state, step: i + 1 };
      try {
        await db.transaction(async (tx) => {
          const env = await type.env(tx, [edit]);
          const facts = (await loadChangeFacts(tx, change, [key], lockTtlMinutes, true)).get(itemKeyString(key));
          const decision = decideChange(type.change, facts, key, edit, env, caller, toPublish);
          if (decision.outcome === 'applied') await writeChange(tx, change, facts!, decision, caller, { massiveEdit: { jobId: job.id, row: step.row + 1 } });
          await recordJobStep(tx, job.id, i, stepOutcome(step, decision, facts ? change.label(facts.row) : step.label));
          await checkpoint(tx, next, percent(i + 1));
        });
      } catch (err) {
        // Only this step failed (its transaction rolled back): report it and go on with the others.
        const reason = `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
        await db.transaction(async (tx) => {
          await recordJobStep(tx, job.id, i, stepOutcome(step, { outcome: 'failed', reason }, step.label));
          await checkpoint(tx, next, percent(i + 1));
        });
      }
      state = next;
      await yieldBetweenSteps();
    }

    if (publishing && !state.published) {
      state = await db.transaction(async (tx) => {
        const done = (await jobStepOutcomes(tx, job.id)).map((r) => r.outcome as StepOutcome).filter((o) => o.outcome === 'applied');
        const keys = uniqueKeys(
          done.map((o) => ({ itemKey: o.itemKey, monthId: o.monthId })),
          itemKeyString,
        );
        const outcome = await publishChanged(tx, runner, type.publish!, keys, caller, { massiveEdit: job.id });
        const record: PublishRecord = { publish: { published: outcome.published, errors: outcome.errors } };
        await recordJobStep(tx, job.id, steps.length, record);
        const next: Checkpoint = { ...state, published: true, publishJobId: outcome.jobId };
        await checkpoint(tx, next, percent(total));
        return next;
      });
    }

    const recorded = await jobStepOutcomes(db, job.id);
    const outcomes = recorded.filter((r) => r.step < steps.length).map((r) => r.outcome as StepOutcome);
    const publishRecord = recorded.find((r) => r.step === steps.length)?.outcome as PublishRecord | undefined;
    let publish: PublishOutcomes | null = null;
    if (publishRecord) {
      publish = new Map();
      for (const k of publishRecord.publish.published) publish.set(itemKeyString(k), { published: true, error: null });
      for (const e of publishRecord.publish.errors) publish.set(itemKeyString(e), { published: false, error: e.message });
    }
    const { result, response } = assembleResult({
      type: type.type,
      itemType: change.kind.type,
      dryRun: false,
      toPublish,
      rowCount: payload.edits.length,
      outcomes: inRowOrder(payload.failures, outcomes),
      publish,
      publishJobId: state.publishJobId,
    });
    return { result, response };
  };
}

/** Failures known up front and step outcomes, in row order (each row: its failures, then its steps). */
export function inRowOrder(failures: readonly StepOutcome[], outcomes: readonly StepOutcome[]): StepOutcome[] {
  return [...failures, ...outcomes].sort((a, b) => a.row - b.row);
}
