/**
 * The massive edit job (docs/MASSIVE-EDIT.md): the steps (row × item × month) in row order, in batches of
 * STEPS_PER_BATCH per transaction. A batch reads its items `FOR UPDATE`, decides each step with the
 * lifecycle core (item-change.ts) and the caller's current grants, writes the applied changes, and records
 * their audit entries, their outcomes (job_steps) and the job's checkpoint in the same transaction: a job
 * resumed after a crash neither repeats nor skips a step, and an item-month is never half-changed. A batch
 * that breaks is run again one step per transaction, so only the broken step is reported. With Save &
 * Publish, one last transaction publishes the changed items.
 */
import { itemKeyString, uniqueKeys, type ItemKeyParts } from '@bo/shared/item-keys';
import type { MassiveEditType } from '@bo/shared/massive-edit';
import { yieldBetweenSteps, type JobHandler, type JobRunner } from '../../jobs/job-runner.js';
import { jobStepOutcomes, recordJobSteps } from '../../jobs/jobs.repository.js';
import { stepErrorText } from '../../jobs/job-text.js';
import { auditMany, type AuditEntry } from '../../lib/audit.repository.js';
import type { Tx } from '../../db/client.js';
import { decideChange, factsAfter, loadChangeFacts, writeChange, type ChangeKind, type VersionedRow } from './item-change.js';
import { currentCaller } from './job-caller.js';
import { publishChanged } from './publish-changed.js';
import { recordVersionsAs } from './item-versions.repository.js';
import { assembleResult, stepOutcome, type EditType, type PublishOutcomes, type Step, type StepOutcome } from './change-plan.js';
import { MASSIVE_EDIT_JOBS } from '../../jobs/job-kinds.js';

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

/** Steps per transaction: few round trips per step, short row locks (docs/MASSIVE-EDIT.md "How it runs"). */
export const STEPS_PER_BATCH = 50;

export function massiveEditJob<Row extends VersionedRow, Content, Edit, Env>(
  runner: Pick<JobRunner, 'enqueue'>,
  type: EditType<Row, Content, Edit, Env>,
  lockTtlMinutes: number,
): JobHandler {
  const change = type.change as ChangeKind<Row, Content, unknown, unknown>;
  return async ({ job, db, checkpoint, resumeFrom, log }) => {
    const payload = job.payload as MassiveEditPayload<Edit>;
    const { steps, toPublish } = payload;
    const publishing = toPublish && type.publish !== null;
    let state: Checkpoint = isCheckpoint(resumeFrom) ? resumeFrom : { step: 0, published: false, publishJobId: null };
    const caller = await currentCaller(db, job.createdBy, payload.requestId);
    const total = steps.length + (publishing ? 1 : 0);
    // 100 % is the runner's, when the result is written: the page shows the Result after it.
    const percent = (done: number) => Math.min(99, (100 * done) / Math.max(1, total));

    /**
     * Decides and writes steps [from, to) in `tx`, in order, each on the facts as the steps before it
     * left them; records their outcomes, their audit entries and the checkpoint with them.
     */
    const runSteps = async (tx: Tx, from: number, to: number) => {
      // An import runs this engine under its own job kind: its versions are 'import' (docs/versions.md).
      await recordVersionsAs(tx, (Object.values(MASSIVE_EDIT_JOBS) as string[]).includes(job.kind) ? 'massiveEdit' : 'import', caller.username);
      const batch = steps.slice(from, to);
      const env = await type.env(
        tx,
        batch.map((s) => payload.edits[s.row]!),
      );
      const keys = batch.map((s) => ({ itemKey: s.itemKey, monthId: s.monthId }));
      const facts = await loadChangeFacts(tx, change, keys, lockTtlMinutes, true);
      const audits: AuditEntry[] = [];
      const outcomes: { step: number; outcome: StepOutcome }[] = [];
      for (const [k, step] of batch.entries()) {
        const key = keys[k]!;
        const current = facts.get(itemKeyString(key));
        const decision = decideChange(type.change, current, key, payload.edits[step.row]!, env, caller, toPublish);
        if (decision.outcome === 'applied') {
          audits.push(await writeChange(tx, change, current!, decision, caller, { massiveEdit: { jobId: job.id, row: step.row + 1 } }));
          facts.set(itemKeyString(key), factsAfter(change, current!, decision.next));
        }
        outcomes.push({ step: from + k, outcome: stepOutcome(step, decision, current ? change.label(current.row) : step.label) });
      }
      await auditMany(tx, audits);
      await recordJobSteps(tx, job.id, outcomes);
      await checkpoint(tx, { ...state, step: to }, percent(to));
    };

    while (state.step < steps.length) {
      const from = state.step;
      const to = Math.min(steps.length, from + STEPS_PER_BATCH);
      try {
        await db.transaction((tx) => runSteps(tx, from, to));
      } catch {
        // Something broke in the batch (it rolled back as a whole): each step again in its own
        // transaction, so only the step that breaks is reported and the others go on.
        for (let i = from; i < to; i++) {
          try {
            await db.transaction((tx) => runSteps(tx, i, i + 1));
          } catch (err) {
            log('massive edit step failed', { step: i, err });
            const reason = `Unexpected error: ${stepErrorText(err)}`;
            await db.transaction(async (tx) => {
              await recordJobSteps(tx, job.id, [{ step: i, outcome: stepOutcome(steps[i]!, { outcome: 'failed', reason }, steps[i]!.label) }]);
              await checkpoint(tx, { ...state, step: i + 1 }, percent(i + 1));
            });
          }
        }
      }
      state = { ...state, step: to };
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
        await recordJobSteps(tx, job.id, [{ step: steps.length, outcome: record }]);
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
