/**
 * The scheduled deletion steps (contract §6): DELETION_PENDING → READY_TO_BE_DELETED (after the grace
 * period) → DELETION_IN_PROGRESS → DELETED, or DELETION_ERROR with a message. Every move is its own
 * conditional statement or transaction, so several server processes may run the steps at once.
 */
import { moduleUsedBySubmittingCluster, type DeletionItemType } from '@bo/shared/deletion';
import type { Db, Tx } from '../../db/client.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import { audit } from '../../lib/audit.repository.js';
import * as repo from './deletion.repository.js';

/** How long a deletion stays restorable (DELETION_PENDING) before the steps take it. */
const DELETION_GRACE_MINUTES = 60;
export const DELETION_STEP_INTERVAL_MS = 30_000;
/** The audit log's user name for what the steps do. */
const DELETION_STEP_USER = 'system';

interface DeletionStepReport {
  ready: number;
  inProgress: number;
  deleted: number;
  errors: number;
}

const KINDS: readonly DeletionItemType[] = ['module', 'cluster'];

/** One pass of the steps over both item kinds. `graceMs` 0 (tests) takes every pending deletion at once. */
export async function runDeletionSteps(db: Db, opts: { graceMs?: number } = {}): Promise<DeletionStepReport> {
  const graceMs = opts.graceMs ?? DELETION_GRACE_MINUTES * 60_000;
  const report: DeletionStepReport = { ready: 0, inProgress: 0, deleted: 0, errors: 0 };
  for (const type of KINDS) {
    report.ready += await repo.promotePending(db, type, graceMs);
    report.inProgress += await repo.claimReady(db, type);
    // Rows left in progress by a process that stopped are picked up here too.
    for (const id of await repo.rowsToFinish(db, type)) {
      const outcome = await db.transaction((tx) => finishRow(tx, type, id));
      if (outcome === 'deleted') report.deleted++;
      if (outcome === 'error') report.errors++;
    }
  }
  return report;
}

/**
 * DELETION_IN_PROGRESS → DELETED. A module leaves the clusters of its month first; while one of them is
 * being submitted (SUBMIT_IN_PROGRESS) the module goes to DELETION_ERROR instead, and is tried again on
 * the next pass (it becomes DELETED once the submission is over).
 */
async function finishRow(tx: Tx, type: DeletionItemType, id: number): Promise<'deleted' | 'error' | 'skipped'> {
  const row = await repo.lockRowToFinish(tx, type, id);
  if (!row) return 'skipped';
  if (type === 'module') {
    const using = await repo.clustersUsingModule(tx, row.key, row.monthId);
    const submitting = using.filter((c) => c.status === 'SUBMIT_IN_PROGRESS');
    if (submitting.length) {
      const message = moduleUsedBySubmittingCluster(submitting.map((c) => c.clusterLabel).join(', '));
      await repo.setRequestError(tx, type, row.key, message);
      if (row.deletionStatus === 'DELETION_ERROR') return 'skipped';
      await repo.setRowStatus(tx, type, id, 'DELETION_ERROR');
      await audit(tx, { username: DELETION_STEP_USER, action: 'deletion-error', itemType: type, itemKey: row.key, monthId: row.monthId, summary: { message } });
      return 'error';
    }
    await repo.removeModuleFromClusters(tx, row.key, using.map((c) => c.id));
  }
  await repo.setRowStatus(tx, type, id, 'DELETED');
  if (!(await repo.hasErrorRows(tx, type, row.key))) await repo.setRequestError(tx, type, row.key, null);
  await audit(tx, { username: DELETION_STEP_USER, action: 'deleted', itemType: type, itemKey: row.key, monthId: row.monthId });
  return 'deleted';
}

/**
 * Registers the periodic step on the job runner. The runner does not hand its database to periodic
 * tasks, so the database comes along.
 */
export function registerDeletionJobs(jobs: JobRunner, db: Db, graceMs = DELETION_GRACE_MINUTES * 60_000): void {
  jobs.every('deletion-steps', DELETION_STEP_INTERVAL_MS, async () => {
    await runDeletionSteps(db, { graceMs });
  });
}
