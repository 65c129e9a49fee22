/**
 * Import Cluster as a kind of import (docs/IMPORTS.md "Import Cluster"; the job: import.job.ts). The
 * file's cluster cell (an id, else a label) is resolved once, in the group's month; every cluster-month
 * that exists is changed by the massive edit engine. None is created: a cluster needs stores and
 * countries the file does not carry, so one that does not exist is refused ("create it first").
 */
import { formatMonthId } from '@bo/shared/months';
import type { JobHandler, JobRunner } from '../../jobs/job-runner.js';
import type { ClusterContent, ClusterRow } from '../clusters/clusters.repository.js';
import { clustersNamed, type NamedItem } from '../massive-edit/massive-edit.repository.js';
import { clusterEditType } from '../massive-edit/massive-edit-types.js';
import { clusterImportChange, clusterImportEnv, type ClusterImportEdit, type ClusterImportEnv } from './cluster-import-change.js';
import { CLUSTER_IMPORT_FORMAT, type ClusterGroup } from './cluster-import-file.js';
import { importEditType, importJob, type GroupPlan, type ImportKind } from './import.job.js';

export const CLUSTER_IMPORT_JOB = 'upload-cluster';

export const CLUSTER_IMPORT_JOB_TEXTS = {
  ambiguousLabel: (label: string, monthId: string, ids: readonly string[]) => `the label ${label} names several clusters in ${formatMonthId(monthId)} (${ids.join(', ')}): give the Cluster id`,
  twice: (id: string, row: number) => `the cluster ${id} is already given on file row ${row}`,
} as const;

/** Import Cluster as a kind of massive edit: one step per cluster-month, never published. */
export const clusterImportEditType = importEditType(clusterEditType, { jobKind: CLUSTER_IMPORT_JOB, change: clusterImportChange, env: clusterImportEnv }, (edit) => edit.clusterId);

/**
 * The cluster each group means: the cluster of that id in the month, else the one of that label
 * (case-insensitive; several is refused). One the file names nowhere keeps the file's text, and the
 * lifecycle core refuses it ("create it first"). A cluster-month given twice (its id and its label) is
 * refused the second time.
 */
export function planClusters(groups: readonly ClusterGroup[], named: readonly NamedItem[]): GroupPlan[] {
  const byMonth = new Map<string, NamedItem[]>();
  for (const n of named) byMonth.set(n.monthId, [...(byMonth.get(n.monthId) ?? []), n]);
  const taken = new Map<string, number>();
  return groups.map((g): GroupPlan => {
    const here = byMonth.get(g.monthId) ?? [];
    const labelled = here.filter((n) => n.label.toLowerCase() === g.itemKey.toLowerCase());
    const id = here.find((n) => n.itemKey === g.itemKey)?.itemKey;
    if (!id && labelled.length > 1)
      return {
        do: 'refuse',
        reason: CLUSTER_IMPORT_JOB_TEXTS.ambiguousLabel(
          g.itemKey,
          g.monthId,
          labelled.map((n) => n.itemKey),
        ),
      };
    const itemKey = id ?? labelled[0]?.itemKey ?? g.itemKey;
    const key = `${itemKey}|${g.monthId}`;
    const first = taken.get(key);
    if (first !== undefined) return { do: 'refuse', reason: CLUSTER_IMPORT_JOB_TEXTS.twice(itemKey, first) };
    taken.set(key, g.firstRow);
    return { do: 'edit', itemKey };
  });
}

export const clusterImport: ImportKind<ClusterGroup, ClusterRow, ClusterContent, ClusterImportEdit, ClusterImportEnv> = {
  format: CLUSTER_IMPORT_FORMAT,
  plan: async (db, groups) =>
    planClusters(
      groups,
      await clustersNamed(
        db,
        groups.map((g) => g.itemKey),
      ),
    ),
  editType: clusterImportEditType,
  toEdit: (g, itemKey) => ({ clusterId: itemKey, monthId: g.monthId, lines: g.lines, description: g.description?.text ?? null }),
};

export const clusterImportJob = (runner: Pick<JobRunner, 'enqueue'>, lockTtlMinutes: number): JobHandler => importJob(runner, clusterImport, lockTtlMinutes);
