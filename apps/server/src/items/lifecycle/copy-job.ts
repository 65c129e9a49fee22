/**
 * The copy job of the lifecycle core (docs/LIFECYCLE.md), written once for modules and clusters.
 *
 * Every (item, destination month) is one transaction that also records the job's checkpoint, so a
 * resumed job neither repeats nor skips a month, and a month that breaks unexpectedly is reported
 * while the others go on. The checks are the same for both kinds and run at job time with the
 * caller's current grants: the source is still live and the caller may copy it; the destination
 * month exists, is open and its release is open; an item being deleted there is not overwritten
 * (a fully deleted one is created again, as item creation does it: recreation.repository.ts prepareRecreation); a live one is not locked by someone else, not being
 * submitted, and the caller may copy onto it. Only writing the copy is per kind. With `toPublish`,
 * one last transaction starts one publication for the copies that may be published.
 */
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import { canCopy, sameUser, type ItemScope } from '@bo/shared/permissions';
import type { Tx } from '../../db/client.js';
import { yieldBetweenSteps, type JobHandler, type JobRunner } from '../../jobs/job-runner.js';
import { stepErrorText } from '../../jobs/job-text.js';
import { audit } from '../../lib/audit.repository.js';
import { prepareRecreation } from './recreation.repository.js';
import { liveLocks } from '../../lib/locks.repository.js';
import { monthStateOf, type MonthState } from './months.repository.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';
import { currentCaller, type JobCaller } from './job-caller.js';
import { recordVersionsAs } from './item-versions.repository.js';
import { publishChanged } from './publish-changed.js';
import type { CopyOutcome } from '@bo/shared/copy-results';

/** A row as the copy reads it: a deleted one too, in the destination month. */
export interface CopyRow extends LifecycleRow {
  deletionStatus: string | null;
}

export type CopyCaller = JobCaller;

/** Texts of one copy failure; `month` is the destination month (the module texts name it). */
export interface CopyTexts {
  sourceGone(month: string): string;
  notAllowed(month: string): string;
  monthUnknown(month: string): string;
  monthClosed(month: string): string;
  releaseClosed(month: string): string;
  beingDeleted(month: string): string;
  locked(owner: string, month: string): string;
  submitInProgress(month: string): string;
  publishNotAllowed(month: string): string;
  notWip(month: string): string;
  /** The job's one-line response for each copied item and each failure group. */
  copiedLine(itemKey: string, months: readonly string[]): string;
  failedLine(itemKey: string, months: readonly string[], message: string): string;
}

/** What only one kind knows about copying. */
export interface CopyKind<Row extends CopyRow> {
  kind: ItemKind<Row>;
  jobKind: string;
  /** The field that names the item in the job's result (what the browser reads). */
  keyField: 'moduleName' | 'clusterId';
  texts: CopyTexts;
  /** The row of the key in any deletion state, locked for the transaction. */
  findAnyState(tx: Tx, key: ItemKeyParts): Promise<Row | undefined>;
  /**
   * Writes the copy of `source` into `destination`: overwrites the live row `existing`, or creates the row
   * (with `createdAfterDelete`, as item creation sets it). Answers non-blocking warnings (the copy is made)
   * and the audit summary.
   */
  write(
    tx: Tx,
    copy: { source: Row; existing: Row | undefined; destination: string; month: MonthState; username: string; createdAfterDelete: boolean },
  ): Promise<{ warnings: string[]; summary: Record<string, unknown> }>;
  /**
   * Per-kind reasons a copied row may not be published now, by row id: the planning system's checks
   * (publishing/publish-checks.ts) and, for clusters, modules still in WIP.
   */
  publishBlockers(tx: Tx, rows: readonly Row[]): Promise<Map<number, string>>;
}

export interface CopyJobPayload {
  items: { itemKey: string; monthId: string; destinationMonthList: string[] }[];
  toPublish: boolean;
  requestId?: string | undefined;
}

/** Failures grouped by item and message, copies grouped by item. */
interface Grouped {
  errors: { itemKey: string; months: string[]; message: string }[];
  copied: { itemKey: string; months: string[] }[];
}

/**
 * The job's result, the item named by the kind's key field: for modules
 * `{ errors: [{ moduleName, months, message }], copied: [{ moduleName, months }], publishJobId }`.
 */
export interface CopyJobResult<K extends string = string> {
  /** Every message: months not copied, copies with a warning, and (Save & Publish) copies not published. */
  errors: (Record<K, string> & { months: string[]; message: string })[];
  copied: (Record<K, string> & { months: string[] })[];
  publishJobId: number | null;
  /** What happened, counted and per month (issue 34): copied, published, not published, not copied. */
  outcome: CopyOutcome;
}

/** One failure of one destination month, before failures are grouped by item and message. */
interface KeyedMonthMessage extends ItemKeyParts {
  message: string;
}

interface Checkpoint {
  /** Steps (item × destination month) done so far. */
  step: number;
  errors: KeyedMonthMessage[];
  copied: ItemKeyParts[];
  published: boolean;
  publishJobId: number | null;
  /** Save & Publish: the copies sent to the planning system, and those refused with the reason. */
  publishedKeys?: ItemKeyParts[];
  publishErrors?: KeyedMonthMessage[];
}

interface Step {
  itemKey: string;
  monthId: string;
  destination: string;
}

/** The job handler of one kind; register it under `copy.jobKind`. */
export function copyJob<Row extends CopyRow, K extends CopyKind<Row>['keyField']>(
  runner: Pick<JobRunner, 'enqueue'>,
  copy: CopyKind<Row> & { keyField: K },
  lockTtlMinutes: number,
): JobHandler {
  return async ({ job, db, checkpoint, resumeFrom, log }) => {
    const payload = job.payload as CopyJobPayload;
    const steps: Step[] = payload.items.flatMap((i) => i.destinationMonthList.map((destination) => ({ itemKey: i.itemKey, monthId: i.monthId, destination })));
    const total = steps.length + (payload.toPublish ? 1 : 0);
    let state: Checkpoint = isCheckpoint(resumeFrom) ? resumeFrom : { step: 0, errors: [], copied: [], published: false, publishJobId: null };
    const caller = await currentCaller(db, job.createdBy, payload.requestId);
    const save = (tx: Tx, next: Checkpoint) => checkpoint(tx, next, (100 * (next.step + (next.published ? 1 : 0))) / Math.max(1, total));
    const failure = (step: Step, message: string): KeyedMonthMessage => ({ itemKey: step.itemKey, monthId: step.destination, message });

    for (let i = state.step; i < steps.length; i++) {
      if (i > state.step) await yieldBetweenSteps();
      const step = steps[i]!;
      try {
        state = await db.transaction(async (tx) => {
          await recordVersionsAs(tx, 'copy', caller.username);
          const outcome = await copyOne(tx, copy, step, caller, lockTtlMinutes);
          const next: Checkpoint = {
            ...state,
            step: i + 1,
            errors: [...state.errors, ...outcome.errors.map((message) => failure(step, message))],
            copied: outcome.copied ? [...state.copied, { itemKey: step.itemKey, monthId: step.destination }] : state.copied,
          };
          await save(tx, next);
          return next;
        });
      } catch (err) {
        // Only this month failed (its transaction rolled back): report it and go on with the others.
        log('copy step failed', { step: i, err });
        const next: Checkpoint = { ...state, step: i + 1, errors: [...state.errors, failure(step, `Unexpected error: ${stepErrorText(err)}`)] };
        state = await db.transaction(async (tx) => {
          await save(tx, next);
          return next;
        });
      }
    }

    if (payload.toPublish && !state.published) {
      state = await db.transaction(async (tx) => {
        const { errors, published, jobId } = await publishChanged(tx, runner, copy, state.copied, caller, { fromCopy: true });
        const next: Checkpoint = { ...state, published: true, publishJobId: jobId, errors: [...state.errors, ...errors], publishedKeys: published, publishErrors: errors };
        await save(tx, next);
        return next;
      });
    }

    const errors = groupByKeyAndMessage(state.errors);
    const copied = groupMonthsByKey(state.copied);
    const named = (itemKey: string) => ({ [copy.keyField]: itemKey }) as Record<K, string>;
    const result: CopyJobResult<K> = {
      errors: errors.map((e) => ({ ...named(e.itemKey), months: e.months, message: e.message })),
      copied: copied.map((c) => ({ ...named(c.itemKey), months: c.months })),
      publishJobId: state.publishJobId,
      outcome: copyOutcome(payload.toPublish, state),
    };
    const lines = [...copied.map((c) => copy.texts.copiedLine(c.itemKey, c.months)), ...errors.map((e) => copy.texts.failedLine(e.itemKey, e.months, e.message))];
    return { result, response: lines.join(';') };
  };
}

function isCheckpoint(value: unknown): value is Checkpoint {
  return !!value && typeof value === 'object' && typeof (value as Checkpoint).step === 'number' && Array.isArray((value as Checkpoint).errors);
}

/** Copies one item into one destination month, in the caller's transaction. */
async function copyOne<Row extends CopyRow>(tx: Tx, copy: CopyKind<Row>, step: Step, caller: CopyCaller, lockTtlMinutes: number): Promise<{ copied: boolean; errors: string[] }> {
  const { kind, texts } = copy;
  const to = step.destination;
  const fail = (message: string) => ({ copied: false, errors: [message] });
  const [source] = await kind.findLive(tx, [{ itemKey: step.itemKey, monthId: step.monthId }]);
  if (!source) return fail(texts.sourceGone(to));
  if (!canCopy(caller.grants, await scopeOf(tx, kind, source))) return fail(texts.notAllowed(to));

  const month = await monthStateOf(tx, to);
  if (!month.exists) return fail(texts.monthUnknown(to));
  if (!month.open) return fail(texts.monthClosed(to));
  if (month.releaseClosed) return fail(texts.releaseClosed(to));

  const existing = await copy.findAnyState(tx, { itemKey: step.itemKey, monthId: to });
  // A fully deleted item may be created again in that month; one whose deletion is under way may not.
  if (existing?.deletionStatus && existing.deletionStatus !== 'DELETED') return fail(texts.beingDeleted(to));
  const live = existing && !existing.deletionStatus ? existing : undefined;
  if (live) {
    const key = { itemKey: step.itemKey, monthId: to };
    const owner = (await liveLocks(tx, kind.type, [key], lockTtlMinutes)).get(itemKeyString(key));
    if (owner && !sameUser(owner, caller.username)) return fail(texts.locked(owner, to));
    if (live.status === 'SUBMIT_IN_PROGRESS') return fail(texts.submitInProgress(to));
    if (!canCopy(caller.grants, await scopeOf(tx, kind, live))) return fail(texts.notAllowed(to));
  }

  // Created (not overwritten): the same rule as item creation for a deleted row and a deletion request.
  const createdAfterDelete = live ? false : await prepareRecreation(tx, kind.type, step.itemKey, to);
  const { warnings, summary } = await copy.write(tx, { source, existing: live, destination: to, month, username: caller.username, createdAfterDelete });
  await audit(tx, {
    username: caller.username,
    action: 'copy',
    itemType: kind.type,
    itemKey: step.itemKey,
    monthId: to,
    summary: { fromMonthId: step.monthId, created: !live, ...summary },
    ...(caller.requestId ? { requestId: caller.requestId } : {}),
  });
  return { copied: true, errors: warnings };
}

async function scopeOf<Row extends CopyRow>(tx: Tx, kind: ItemKind<Row>, row: Row): Promise<ItemScope> {
  return (await kind.scopes(tx, [row])).get(row.id)!;
}

function groupByKeyAndMessage(list: readonly KeyedMonthMessage[]): Grouped['errors'] {
  const groups = new Map<string, Grouped['errors'][number]>();
  for (const e of list) {
    const key = `${e.itemKey}\u0000${e.message}`;
    const g = groups.get(key) ?? { itemKey: e.itemKey, months: [], message: e.message };
    if (!g.months.includes(e.monthId)) g.months.push(e.monthId);
    groups.set(key, g);
  }
  return [...groups.values()];
}

function groupMonthsByKey(list: readonly ItemKeyParts[]): Grouped['copied'] {
  const groups = new Map<string, string[]>();
  for (const c of list) groups.set(c.itemKey, [...(groups.get(c.itemKey) ?? []), c.monthId]);
  return [...groups].map(([itemKey, months]) => ({ itemKey, months }));
}

/**
 * The truthful outcome (issue 34 item 2): item-months copied, published (submission started), copied but not
 * published (the reason), and not copied (a copy step's message on a month that was not copied; a message on a
 * copied month is a warning, not a failure).
 */
function copyOutcome(toPublish: boolean, state: Checkpoint): CopyOutcome {
  const copiedKeys = new Set(state.copied.map(itemKeyString));
  const publishErrors = state.publishErrors ?? [];
  const publishErrorKeys = new Set(publishErrors.map((e) => `${itemKeyString(e)}\u0000${e.message}`));
  const failed = state.errors.filter((e) => !copiedKeys.has(itemKeyString(e)) && !publishErrorKeys.has(`${itemKeyString(e)}\u0000${e.message}`));
  const published = state.publishedKeys ?? [];
  const distinct = (list: readonly ItemKeyParts[]) => new Set(list.map(itemKeyString)).size;
  return {
    toPublish,
    counts: { copied: copiedKeys.size, published: distinct(published), notPublished: distinct(publishErrors), failed: distinct(failed) },
    copiedMonths: groupMonthsByKey(state.copied),
    publishedMonths: groupMonthsByKey(published),
    notPublished: groupByKeyAndMessage(publishErrors),
    failed: groupByKeyAndMessage(failed),
  };
}
