/**
 * Publishing what a job of the lifecycle core just changed (copy with `toPublish`, Save & Publish of a
 * massive edit), written once: in the caller's transaction, each item is checked with the caller's
 * current grants (submit right), its status (WIP) and the kind's publish blockers (the planning
 * system's checks; for clusters, modules still in WIP); one publication starts for the items that pass,
 * each audited; the others come back with the reason.
 */
import type { ItemKeyParts } from '@bo/shared/item-keys';
import { canPublish } from '@bo/shared/permissions';
import type { Queryable, Tx } from '../../db/client.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import { audit } from '../../lib/audit.repository.js';
import { startPublication, type PublishItem } from './publish.job.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';
import type { JobCaller } from './job-caller.js';

export interface PublishChangedKind<Row extends LifecycleRow> {
  kind: ItemKind<Row>;
  /** Why a row may not be published now, by row id. */
  publishBlockers(db: Queryable, rows: readonly Row[]): Promise<Map<number, string>>;
  texts: { publishNotAllowed(month: string): string; notWip(month: string): string };
}

export interface PublishChangedOutcome {
  published: ItemKeyParts[];
  errors: (ItemKeyParts & { message: string })[];
  jobId: number | null;
}

export async function publishChanged<Row extends LifecycleRow>(
  tx: Tx,
  runner: Pick<JobRunner, 'enqueue'>,
  what: PublishChangedKind<Row>,
  keys: readonly ItemKeyParts[],
  caller: JobCaller,
  auditSummary: Record<string, unknown>,
): Promise<PublishChangedOutcome> {
  const { kind } = what;
  const errors: PublishChangedOutcome['errors'] = [];
  const rows = await kind.findLive(tx, keys, true);
  const refusals = await publishRefusals(tx, what, rows, caller.grants, { checkStatus: true });
  const items: PublishItem[] = [];
  for (const row of rows) {
    const key = kind.keyOf(row);
    const refusal = refusals.get(row.id);
    if (refusal) errors.push({ ...key, message: refusal });
    else items.push({ itemType: kind.type, ...key });
  }
  if (items.length === 0) return { published: [], errors, jobId: null };
  const jobId = await startAuditedPublication(tx, runner, items, caller, (jobId) => ({ jobId, ...auditSummary }));
  return { published: items.map((i) => ({ itemKey: i.itemKey, monthId: i.monthId })), errors, jobId };
}

/**
 * Starts one publication of the items (they go SUBMIT_IN_PROGRESS) and audits each as `publish`, with
 * `summaryOf`'s summary of the item at that index when given: the one start of a publication of every publish call and job.
 */
export async function startAuditedPublication(
  tx: Tx,
  runner: Pick<JobRunner, 'enqueue'>,
  items: readonly PublishItem[],
  caller: Pick<JobCaller, 'username' | 'requestId'>,
  summaryOf?: (jobId: number, index: number) => Record<string, unknown>,
): Promise<number> {
  const jobId = await startPublication(tx, (db, jobKind, payload, by) => runner.enqueue(db, jobKind, payload, by), [...items], caller.username);
  for (const [index, item] of items.entries()) {
    await audit(tx, {
      username: caller.username,
      action: 'publish',
      itemType: item.itemType,
      itemKey: item.itemKey,
      monthId: item.monthId,
      ...(summaryOf ? { summary: summaryOf(jobId, index) } : {}),
      ...(caller.requestId ? { requestId: caller.requestId } : {}),
    });
  }
  return jobId;
}

/**
 * Why each of these rows may not be published now, by row id (absent: it may): the caller's submit right,
 * its status (WIP; `checkStatus` false when the rows are as stored before a change that reopens them, as in
 * a massive edit's preview) and the kind's publish blockers. publishChanged and the preview share it.
 */
export async function publishRefusals<Row extends LifecycleRow>(
  db: Queryable,
  what: PublishChangedKind<Row>,
  rows: readonly Row[],
  grants: JobCaller['grants'],
  { checkStatus }: { checkStatus: boolean },
): Promise<Map<number, string>> {
  const { kind, texts } = what;
  const scopes = await kind.scopes(db, rows);
  const blockers = await what.publishBlockers(db, rows);
  const refusals = new Map<number, string>();
  for (const row of rows) {
    if (!canPublish(grants, scopes.get(row.id)!)) refusals.set(row.id, texts.publishNotAllowed(row.monthId));
    else if (checkStatus && row.status !== 'WIP') refusals.set(row.id, texts.notWip(row.monthId));
    else if (blockers.has(row.id)) refusals.set(row.id, blockers.get(row.id)!);
  }
  return refusals;
}
