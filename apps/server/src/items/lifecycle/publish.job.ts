import type { Db, Queryable } from '../../db/client.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import { audit } from '../../lib/audit.repository.js';
import type { PlanningGateway, Submission } from './planning-gateway.js';
import { publishedItemStatus, setPublicationState } from './publishing.repository.js';

export const PUBLISH_JOB = 'publish';
export const SUBMISSION_STARTED = 'The submission process has been started';

export interface PublishItem {
  itemType: 'module' | 'cluster';
  /** moduleName or clusterId */
  itemKey: string;
  monthId: string;
}

export interface PublishPayload {
  items: PublishItem[];
}

/** What each kind of item sends to the planning system. */
export type SnapshotLoader = (db: Queryable, item: PublishItem) => Promise<Record<string, unknown> | null>;

/**
 * Marks items SUBMIT_IN_PROGRESS (editing blocked) and queues one publish job for them, in the
 * caller's transaction: either the items are in progress and the job exists, or neither.
 */
export async function startPublication(
  tx: Queryable,
  enqueue: (db: Queryable, kind: string, payload: unknown, by: string) => Promise<{ id: number }>,
  items: PublishItem[],
  username: string,
): Promise<number> {
  for (const item of items) {
    await setPublicationState(tx, item, { status: 'SUBMIT_IN_PROGRESS', rpasErrors: null, updatedAt: new Date(), updatedBy: username });
  }
  const job = await enqueue(tx, PUBLISH_JOB, { items } satisfies PublishPayload, username);
  return job.id;
}

/**
 * The publish job: each item goes to the planning system, then moves SUBMIT_IN_PROGRESS → SUBMITTED,
 * or back to WIP with the rejection texts in rpasErrors (semicolon-separated). Resumable: items are
 * done one by one with a checkpoint; an item no longer SUBMIT_IN_PROGRESS is skipped.
 */
export function publishJob(gateway: PlanningGateway, snapshots: Record<PublishItem['itemType'], SnapshotLoader>): JobHandler {
  return async ({ job, db, progress, resumeFrom }) => {
    const { items } = job.payload as PublishPayload;
    const start = typeof resumeFrom === 'number' ? resumeFrom : 0;
    const outcome: { itemKey: string; monthId: string; status: string; rpasErrors: string | null }[] = [];
    for (let i = start; i < items.length; i++) {
      const item = items[i]!;
      const result = await publishOne(db, gateway, snapshots[item.itemType], item, job.id, job.createdBy);
      if (result) outcome.push(result);
      await progress(((i + 1) / items.length) * 100, i + 1);
    }
    const rejected = outcome.filter((o) => o.status === 'WIP');
    return {
      result: { items: outcome },
      response: rejected.length
        ? rejected.map((r) => `${r.itemKey} (${r.monthId}): ${r.rpasErrors}`).join(';')
        : `Published ${outcome.length} item(s)`,
    };
  };
}

async function publishOne(db: Db, gateway: PlanningGateway, snapshot: SnapshotLoader, item: PublishItem, jobId: number, username: string) {
  if ((await publishedItemStatus(db, item)) !== 'SUBMIT_IN_PROGRESS') return null;
  const payload = await snapshot(db, item);
  const submission: Submission = { ...item, jobId, payload: payload ?? {} };
  const answer = await gateway.submit(submission);
  return db.transaction(async (tx) => {
    if ((await publishedItemStatus(tx, item, true)) !== 'SUBMIT_IN_PROGRESS') return null;
    const now = new Date();
    const set = answer.accepted
      ? { status: 'SUBMITTED', rpasErrors: null, publicationDate: now }
      : { status: 'WIP', rpasErrors: answer.errors.join(';') };
    await setPublicationState(tx, item, { ...set, updatedAt: now });
    await audit(tx, {
      username,
      action: answer.accepted ? 'publish-accepted' : 'publish-rejected',
      itemType: item.itemType,
      itemKey: item.itemKey,
      monthId: item.monthId,
      summary: { jobId, ...(answer.accepted ? {} : { errors: answer.errors }) },
    });
    return { itemKey: item.itemKey, monthId: item.monthId, status: set.status, rpasErrors: answer.accepted ? null : answer.errors.join(';') };
  });
}
