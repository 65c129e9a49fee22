/**
 * Publishing what a job of the lifecycle core just changed (copy with `toPublish`, Save & Publish of a
 * massive edit), written once: in the caller's transaction, each item is checked with the caller's
 * current grants (submit right), its status (WIP) and the kind's publish blockers (the planning
 * system's checks; for clusters, modules still in WIP); one publication starts for the items that pass,
 * each audited; the others come back with the reason.
 */
import type { ItemKeyParts } from '@bo/shared/item-keys';
import { canPublish } from '@bo/shared/permissions';
import type { Tx } from '../../db/client.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import { audit } from '../../lib/audit.repository.js';
import { startPublication, type PublishItem } from '../publishing/publish.job.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';
import type { JobCaller } from './job-caller.js';

export interface PublishChangedKind<Row extends LifecycleRow> {
  kind: ItemKind<Row>;
  /** Why a row may not be published now, by row id. */
  publishBlockers(tx: Tx, rows: readonly Row[]): Promise<Map<number, string>>;
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
  const { kind, texts } = what;
  const errors: PublishChangedOutcome['errors'] = [];
  const rows = await kind.findLive(tx, keys, true);
  const scopes = await kind.scopes(tx, rows);
  const blockers = await what.publishBlockers(tx, rows);
  const items: PublishItem[] = [];
  for (const row of rows) {
    const key = kind.keyOf(row);
    const error = (message: string) => errors.push({ ...key, message });
    if (!canPublish(caller.grants, scopes.get(row.id)!)) error(texts.publishNotAllowed(row.monthId));
    else if (row.status !== 'WIP') error(texts.notWip(row.monthId));
    else if (blockers.has(row.id)) error(blockers.get(row.id)!);
    else items.push({ itemType: kind.type, ...key });
  }
  if (items.length === 0) return { published: [], errors, jobId: null };
  const jobId = await startPublication(tx, (db, jobKind, payload, by) => runner.enqueue(db, jobKind, payload, by), items, caller.username);
  for (const item of items) {
    await audit(tx, {
      username: caller.username,
      action: 'publish',
      itemType: kind.type,
      itemKey: item.itemKey,
      monthId: item.monthId,
      summary: { jobId, ...auditSummary },
      ...(caller.requestId ? { requestId: caller.requestId } : {}),
    });
  }
  return { published: items.map((i) => ({ itemKey: i.itemKey, monthId: i.monthId })), errors, jobId };
}
