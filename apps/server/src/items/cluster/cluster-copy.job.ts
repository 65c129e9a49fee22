import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { formatMonthId } from '@bo/shared/months';
import type { JobRunner } from '../../jobs/job-runner.js';
import { clusterKind } from './cluster-kind.js';
import { copyJob, type CopyKind } from '../lifecycle/copy-job.js';
import { clusterPublishBlockers, hasModulesInWip } from '../lifecycle/publish-blockers.js';
import { writeClusterCopyRow } from './cluster-copy.repository.js';
import {
  clusterChildren,
  clusterContents,
  findClusterAnyState,
  liveModulesInMonth,
  replaceClusterClassifications,
  replaceClusterCountries,
  replaceClusterLias,
  replaceClusterModules,
  replaceClusterStores,
  replaceClusterZones,
  type ClusterRow,
} from './clusters.repository.js';

export const COPY_CLUSTER_JOB = 'copy-cluster';

/**
 * What is specific to copying a cluster; the job itself is the lifecycle core's copyJob. The copy takes
 * label, description, brand, collection, countries, zones, stores, LIAs, classifications and the modules
 * that exist in the destination month with the cluster's brand (the others are named in a warning).
 */
export const clusterCopy: CopyKind<ClusterRow> & { keyField: 'clusterId' } = {
  kind: clusterKind,
  keyField: 'clusterId',
  jobKind: COPY_CLUSTER_JOB,
  texts: {
    sourceGone: () => CLUSTER_TEXTS.copySourceGone,
    notAllowed: () => CLUSTER_TEXTS.copyNotAllowed,
    monthUnknown: () => CLUSTER_TEXTS.copyMonthUnknown,
    monthClosed: () => CLUSTER_TEXTS.copyMonthClosed,
    releaseClosed: () => CLUSTER_TEXTS.copyReleaseClosed,
    beingDeleted: () => CLUSTER_TEXTS.copyBeingDeleted,
    locked: (owner) => CLUSTER_TEXTS.copyLocked(owner),
    submitInProgress: () => CLUSTER_TEXTS.copySubmitInProgress,
    publishNotAllowed: () => CLUSTER_TEXTS.copyPublishNotAllowed,
    notWip: () => CLUSTER_TEXTS.notWip,
    copiedLine: (id, months) => `Copied cluster ${id} for the months: ${months.map(formatMonthId).join(', ')}`,
    failedLine: (id, months, message) => `${id} (${months.map(formatMonthId).join(', ')}): ${message}`,
  },
  findAnyState: (tx, key) => findClusterAnyState(tx, { clusterId: key.itemKey, monthId: key.monthId }, true),
  async write(tx, { source, existing, destination, month, username, createdAfterDelete }) {
    const children = await clusterChildren(tx, source.id);
    const content = (await clusterContents(tx, [source])).get(source.id)!;
    const available = await liveModulesInMonth(tx, destination, [...content.modules.keys()]);
    const kept = [...content.modules].filter(([name]) => available.get(name)?.brandCode === source.brandCode);
    const dropped = [...content.modules.keys()].filter((name) => available.get(name)?.brandCode !== source.brandCode).sort();

    const pk = await writeClusterCopyRow(tx, source, existing, destination, month.releaseId, username, createdAfterDelete);
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
    return {
      warnings: dropped.length ? [CLUSTER_TEXTS.copyModulesMissing(dropped)] : [],
      summary: { reopened: existing?.status === 'SUBMITTED', modules: kept.length, droppedModules: dropped, stores: children.stores.length },
    };
  },
  async publishBlockers(tx, rows) {
    const blocked = await clusterPublishBlockers(tx, rows);
    return new Map(
      [...blocked].map(([id, reasons]) => [
        id,
        hasModulesInWip(reasons) ? CLUSTER_TEXTS.modulesInWip : `Copied, but not published: ${reasons.map((r) => r.message).join('; ')}`,
      ]),
    );
  },
};

/** Registers the cluster job kinds on the runner. */
export function registerClusterJobs(jobs: JobRunner, lockTtlMinutes: number): void {
  jobs.register(COPY_CLUSTER_JOB, copyJob(jobs, clusterCopy, lockTtlMinutes));
}
