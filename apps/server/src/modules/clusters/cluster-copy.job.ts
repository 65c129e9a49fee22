import { eq, sql } from 'drizzle-orm';
import { CLUSTER_TEXTS, type ClusterCopyError } from '@bo/shared/clusters';
import type { Grant } from '@bo/shared/grants';
import { canCopy, canPublish, sameUser } from '@bo/shared/permissions';
import type { Tx } from '../../db/client.js';
import { clusters } from '../../db/schema.js';
import type { JobHandler, JobRunner } from '../../jobs/job-runner.js';
import { audit } from '../../lib/audit.repository.js';
import { findUserByUsername, loadGrants } from '../auth/users.repository.js';
import { liveLocks } from '../locks/locks.repository.js';
import { startPublication, type PublishItem } from '../publishing/publish.job.js';
import {
  clusterChildren,
  clusterContents,
  clusterModuleRows,
  clusterScopes,
  findClusterAnyState,
  findClusters,
  liveModulesInMonth,
  replaceClusterClassifications,
  replaceClusterCountries,
  replaceClusterLias,
  replaceClusterModules,
  replaceClusterStores,
  replaceClusterZones,
} from './clusters.repository.js';
import { monthStates } from '../months/months.repository.js';

export const COPY_CLUSTER_JOB = 'copy-cluster';

export interface CopyClusterPayload {
  clusters: { clusterId: string; monthId: string; destinationMonthList: string[] }[];
  toPublish: boolean;
  lockTtlMinutes: number;
  requestId?: string;
}

export interface CopyClusterResult {
  errors: ClusterCopyError[];
  copied: { clusterId: string; months: string[] }[];
  publishJobId: number | null;
}

/** One error of one destination month, before errors are grouped by cluster and message. */
interface MonthError {
  clusterId: string;
  monthId: string;
  message: string;
}

interface Checkpoint {
  /** Steps (cluster × destination month) done so far. */
  step: number;
  errors: MonthError[];
  copied: { clusterId: string; monthId: string }[];
  published: boolean;
  publishJobId: number | null;
}

interface Step {
  clusterId: string;
  monthId: string;
  destination: string;
}

/**
 * The copy job: every (cluster, destination month) is one transaction that also records the checkpoint,
 * so a resumed job neither repeats nor skips a month. With `toPublish` a last transaction starts the
 * publication of the copies that succeeded (one publish job for all of them).
 */
export function copyClusterJob(runner: Pick<JobRunner, 'enqueue'>): JobHandler {
  return async ({ job, db, checkpoint, resumeFrom }) => {
    const payload = job.payload as CopyClusterPayload;
    const steps: Step[] = payload.clusters.flatMap((c) => c.destinationMonthList.map((destination) => ({ clusterId: c.clusterId, monthId: c.monthId, destination })));
    const total = steps.length + (payload.toPublish ? 1 : 0);
    let state: Checkpoint = isCheckpoint(resumeFrom) ? resumeFrom : { step: 0, errors: [], copied: [], published: false, publishJobId: null };
    const user = await findUserByUsername(db, job.createdBy);
    const grants = user && user.status === 'Enabled' ? await loadGrants(db, user) : [];
    const username = user?.username ?? job.createdBy;

    const save = (tx: Tx, next: Checkpoint) => checkpoint(tx, next, (100 * (next.step + (next.published ? 1 : 0))) / Math.max(1, total));

    for (let i = state.step; i < steps.length; i++) {
      const step = steps[i]!;
      try {
        state = await db.transaction(async (tx) => {
          const outcome = await copyOne(tx, step, { username, grants, lockTtlMinutes: payload.lockTtlMinutes, requestId: payload.requestId });
          const next: Checkpoint = {
            ...state,
            step: i + 1,
            errors: [...state.errors, ...outcome.errors.map((message) => ({ clusterId: step.clusterId, monthId: step.destination, message }))],
            copied: outcome.copied ? [...state.copied, { clusterId: step.clusterId, monthId: step.destination }] : state.copied,
          };
          await save(tx, next);
          return next;
        });
      } catch (err) {
        // Only this month failed (its transaction rolled back): report it and go on with the others.
        const message = `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
        const next: Checkpoint = { ...state, step: i + 1, errors: [...state.errors, { clusterId: step.clusterId, monthId: step.destination, message }] };
        state = await db.transaction(async (tx) => {
          await save(tx, next);
          return next;
        });
      }
    }

    if (payload.toPublish && !state.published) {
      state = await db.transaction(async (tx) => {
        const { errors, jobId } = await publishCopies(tx, runner, state.copied, username, grants);
        const next: Checkpoint = { ...state, published: true, publishJobId: jobId, errors: [...state.errors, ...errors] };
        await save(tx, next);
        return next;
      });
    }

    const result: CopyClusterResult = {
      errors: groupErrors(state.errors),
      copied: groupMonths(state.copied),
      publishJobId: state.publishJobId,
    };
    const lines = [
      ...result.copied.map((c) => `Copied cluster ${c.clusterId} for the months: ${c.months.join(', ')}`),
      ...result.errors.map((e) => `${e.clusterId} (${e.months.join(', ')}): ${e.message}`),
    ];
    return { result, response: lines.join(';') };
  };
}

/** Registers the cluster job kinds on the runner. */
export function registerClusterJobs(jobs: JobRunner): void {
  jobs.register(COPY_CLUSTER_JOB, copyClusterJob(jobs));
}

function isCheckpoint(value: unknown): value is Checkpoint {
  return !!value && typeof value === 'object' && typeof (value as Checkpoint).step === 'number' && Array.isArray((value as Checkpoint).errors);
}

interface Caller {
  username: string;
  grants: Grant[];
  lockTtlMinutes: number;
  requestId?: string | undefined;
}

/**
 * Copies one cluster into one destination month: creates it there or overwrites it (label, description,
 * brand, collection, countries, zones, stores, LIAs, classifications and the modules that exist in that
 * month). Answers the errors of that month and whether the copy was made.
 */
async function copyOne(tx: Tx, step: Step, caller: Caller): Promise<{ copied: boolean; errors: string[] }> {
  const fail = (message: string) => ({ copied: false, errors: [message] });
  const [source] = await findClusters(tx, [{ clusterId: step.clusterId, monthId: step.monthId }]);
  if (!source) return fail(CLUSTER_TEXTS.copySourceGone);
  const sourceScope = (await clusterScopes(tx, [source])).get(source.id)!;
  if (!canCopy(caller.grants, sourceScope)) return fail(CLUSTER_TEXTS.copyNotAllowed);

  const month = (await monthStates(tx, [step.destination])).get(step.destination)!;
  if (!month.exists) return fail(CLUSTER_TEXTS.copyMonthUnknown);
  if (!month.open) return fail(CLUSTER_TEXTS.copyMonthClosed);
  if (month.releaseClosed) return fail(CLUSTER_TEXTS.copyReleaseClosed);

  const existing = await findClusterAnyState(tx, { clusterId: step.clusterId, monthId: step.destination }, true);
  // A fully deleted cluster may be created again in that month; one whose deletion is under way may not.
  if (existing?.deletionStatus && existing.deletionStatus !== 'DELETED') return fail(CLUSTER_TEXTS.copyBeingDeleted);
  const live = existing && !existing.deletionStatus ? existing : null;
  if (live) {
    const owner = (await liveLocks(tx, 'cluster', [{ itemKey: live.clusterId, monthId: live.monthId }], caller.lockTtlMinutes)).get(
      `${live.clusterId}|${live.monthId}`,
    );
    if (owner && !sameUser(owner, caller.username)) return fail(CLUSTER_TEXTS.copyLocked(owner));
    if (live.status === 'SUBMIT_IN_PROGRESS') return fail(CLUSTER_TEXTS.copySubmitInProgress);
    const destScope = (await clusterScopes(tx, [live])).get(live.id)!;
    if (!canCopy(caller.grants, destScope)) return fail(CLUSTER_TEXTS.copyNotAllowed);
  }

  const children = await clusterChildren(tx, source.id);
  const contents = await clusterContents(tx, [source]);
  const content = contents.get(source.id)!;
  const available = await liveModulesInMonth(tx, step.destination, [...content.modules.keys()]);
  const kept = [...content.modules].filter(([name]) => available.get(name)?.brandCode === source.brandCode);
  const dropped = [...content.modules.keys()].filter((name) => available.get(name)?.brandCode !== source.brandCode).sort();

  const now = new Date();
  const values = {
    clusterLabel: source.clusterLabel,
    clusterDescription: source.clusterDescription,
    brandCode: source.brandCode,
    collection: source.collection,
    planningChannelId: source.planningChannelId,
    releaseId: month.releaseId ?? source.releaseId,
    rangeFacing: source.rangeFacing,
    status: 'WIP',
    rpasErrors: null,
    updatedAt: now,
    updatedBy: caller.username,
  };
  let pk: number;
  if (existing) {
    await tx
      .update(clusters)
      .set({
        ...values,
        deletionStatus: null,
        createdAfterDelete: existing.deletionStatus === 'DELETED' ? true : existing.createdAfterDelete,
        version: sql`${clusters.version} + 1`,
      })
      .where(eq(clusters.id, existing.id));
    pk = existing.id;
  } else {
    const [row] = await tx
      .insert(clusters)
      .values({ ...values, clusterId: source.clusterId, monthId: step.destination, createdAt: now, createdBy: caller.username })
      .returning({ id: clusters.id });
    pk = row!.id;
  }
  await replaceClusterCountries(tx, pk, children.countries);
  await replaceClusterZones(tx, pk, children.zones);
  await replaceClusterStores(tx, pk, children.stores);
  await replaceClusterLias(tx, pk, [...content.lias]);
  await replaceClusterClassifications(tx, pk, [...content.classifications]);
  await replaceClusterModules(
    tx,
    pk,
    kept.map(([moduleName, status]) => ({ moduleName, status })),
  );
  await audit(tx, {
    username: caller.username,
    action: 'copy',
    itemType: 'cluster',
    itemKey: source.clusterId,
    monthId: step.destination,
    summary: {
      fromMonthId: source.monthId,
      created: !live,
      reopened: live?.status === 'SUBMITTED',
      modules: kept.length,
      droppedModules: dropped,
      stores: children.stores.length,
    },
    ...(caller.requestId ? { requestId: caller.requestId } : {}),
  });
  return { copied: true, errors: dropped.length ? [CLUSTER_TEXTS.copyModulesMissing(dropped)] : [] };
}

/** Starts one publication for the copies that may be published now; the others become error entries. */
async function publishCopies(
  tx: Tx,
  runner: Pick<JobRunner, 'enqueue'>,
  copied: readonly { clusterId: string; monthId: string }[],
  username: string,
  grants: Grant[],
): Promise<{ errors: MonthError[]; jobId: number | null }> {
  const errors: MonthError[] = [];
  const rows = await findClusters(tx, copied, true);
  const scopes = await clusterScopes(tx, rows);
  const moduleRows = await clusterModuleRows(
    tx,
    rows.map((r) => r.id),
  );
  const items: PublishItem[] = [];
  for (const row of rows) {
    const error = (message: string) => errors.push({ clusterId: row.clusterId, monthId: row.monthId, message });
    if (!canPublish(grants, scopes.get(row.id)!)) error(CLUSTER_TEXTS.copyPublishNotAllowed);
    else if (row.status !== 'WIP') error(CLUSTER_TEXTS.notWip);
    else if (moduleRows.some((m) => m.clusterPk === row.id && m.status === 'ADDED' && m.moduleStatus === 'WIP')) error(CLUSTER_TEXTS.modulesInWip);
    else items.push({ itemType: 'cluster', itemKey: row.clusterId, monthId: row.monthId });
  }
  if (items.length === 0) return { errors, jobId: null };
  const jobId = await startPublication(tx, (db, kind, payload, by) => runner.enqueue(db, kind, payload, by), items, username);
  for (const item of items) {
    await audit(tx, { username, action: 'publish', itemType: 'cluster', itemKey: item.itemKey, monthId: item.monthId, summary: { jobId, fromCopy: true } });
  }
  return { errors, jobId };
}

function groupErrors(list: readonly MonthError[]): ClusterCopyError[] {
  const groups = new Map<string, ClusterCopyError>();
  for (const e of list) {
    const key = `${e.clusterId}\u0000${e.message}`;
    const g = groups.get(key) ?? { clusterId: e.clusterId, months: [], message: e.message };
    if (!g.months.includes(e.monthId)) g.months.push(e.monthId);
    groups.set(key, g);
  }
  return [...groups.values()];
}

function groupMonths(list: readonly { clusterId: string; monthId: string }[]) {
  const groups = new Map<string, string[]>();
  for (const c of list) groups.set(c.clusterId, [...(groups.get(c.clusterId) ?? []), c.monthId]);
  return [...groups].map(([clusterId, months]) => ({ clusterId, months }));
}
