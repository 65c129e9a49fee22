/**
 * Import Cluster as a kind of import (docs/IMPORTS.md "Import Cluster"; the job: import.job.ts). The
 * file's cluster cell (an id, else a label) is resolved once, in the group's month; every cluster-month
 * that exists is changed by the massive edit engine. One that does not exist is created, in its own
 * transaction, with the rules of the cluster creation call (items/cluster/cluster-creation.ts: checkNewCluster,
 * insertNewCluster) from the group's creation columns, then filled through the lifecycle core
 * (decideChange, writeChange): created and filled, or neither.
 */
import { clusterCreateSchema } from '@bo/shared/creation';
import { formatMonthId } from '@bo/shared/months';
import { canImportItem } from '@bo/shared/permissions';
import type { Db, Tx } from '../../db/client.js';
import type { ClusterContent, ClusterRow } from '../../items/cluster/clusters.repository.js';
import { storesBySap } from '../../items/cluster/cluster-creation.repository.js';
import { checkNewCluster, insertNewCluster, type PreparedCluster } from '../../items/cluster/cluster-creation.js';
import type { JobCaller } from '../../items/lifecycle/job-caller.js';
import { clustersNamed } from '../../items/cluster/cluster-names.repository.js';
import { clusterNaming } from '../../items/cluster/cluster-change.js';
import type { NamedItem } from '../../items/lifecycle/change-plan.js';
import { CLUSTER_IMPORT_TEXTS, clusterImportChange, clusterImportEnv, type ClusterImportEdit, type ClusterImportEnv } from './cluster-import-change.js';
import { CLUSTER_IMPORT_FORMAT, type ClusterGroup } from './cluster-import-file.js';
import { listReasons } from './import-file.js';
import { fillCreated } from './import-creation.js';
import { importEditType, importJobOf, refusedBy, type GroupPlan, type ImportKind } from './import.job.js';
import { checkedVersion, NO_OVERWRITE, overwriteKey, type OverwriteKeys } from './stale-version.js';
import { CLUSTER_IMPORT_JOB } from '../../jobs/job-kinds.js';


const CLUSTER_IMPORT_JOB_TEXTS = {
  ambiguousLabel: (label: string, monthId: string, ids: readonly string[]) => `the label ${label} names several clusters in ${formatMonthId(monthId)} (${ids.join(', ')}): give the Cluster id`,
  twice: (id: string, row: number) => `the cluster ${id} is already given on file row ${row}`,
  noCreationFields: 'the cluster does not exist: give Cluster label, Brand, Collection, Stars zones, LIAs and SAP codes to create it',
  created: (modules: number) => `created with ${modules} module(s)`,
} as const;

/** Import Cluster as a kind of massive edit: one step per cluster-month, never published. */
export const clusterImportEditType = importEditType(clusterNaming, { jobKind: CLUSTER_IMPORT_JOB, change: clusterImportChange, env: clusterImportEnv }, (edit) => edit.clusterId);

/**
 * The cluster each group means: the cluster of that id in the month, else the one of that label
 * (case-insensitive; several is refused). One the file names nowhere is created (its cell is the new
 * cluster's id). A cluster-month given twice (its id and its label) is refused the second time.
 */
function planClusters(groups: readonly ClusterGroup[], named: readonly NamedItem[]): GroupPlan[] {
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
    const key = overwriteKey(itemKey, g.monthId);
    const first = taken.get(key);
    if (first !== undefined) return { do: 'refuse', reason: CLUSTER_IMPORT_JOB_TEXTS.twice(itemKey, first) };
    taken.set(key, g.firstRow);
    return id || labelled.length ? { do: 'edit', itemKey } : { do: 'create' };
  });
}

/** Checks one cluster-month to create (nothing written): answers the cluster to write, or why it cannot be created. */
async function prepareCreation(db: Db, group: ClusterGroup, caller: JobCaller): Promise<{ prepared: PreparedCluster } | { reason: string }> {
  const fields = group.create;
  if (!fields) return { reason: CLUSTER_IMPORT_JOB_TEXTS.noCreationFields };
  // A store is named by its SAP code; its Stars customer and segment are its own (the form picks them).
  const stores = await storesBySap(db, fields.sapCodes);
  const parsed = clusterCreateSchema.safeParse({
    clusterId: group.itemKey,
    clusterLabel: fields.clusterLabel,
    clusterDescription: group.description?.text ?? '',
    monthId: group.monthId,
    brandCode: fields.brandCode,
    collection: fields.collection,
    lias: fields.lias,
    starZones: fields.starZones,
    stores: fields.sapCodes.map((sap) => {
      const store = stores.get(sap);
      return { codiceStoreSap: sap, starsCustomer: store?.starsCustomer ?? '-', customerSegmentation: [store?.customerSegmentation ?? '-'] };
    }),
  });
  if (!parsed.success) return { reason: listReasons([...new Set(parsed.error.issues.map((i) => i.message))]) };
  let prepared: PreparedCluster | string[];
  try {
    prepared = await checkNewCluster(db, caller.grants, parsed.data);
  } catch (err) {
    return refusedBy(err);
  }
  if (Array.isArray(prepared)) return { reason: listReasons(prepared) };
  if (!canImportItem(caller.grants, prepared.scope)) return { reason: CLUSTER_IMPORT_TEXTS.notAuthorized(group.itemKey) };
  return { prepared };
}

const toEdit = (g: ClusterGroup, itemKey: string, fileVersion: number | null): ClusterImportEdit => ({
  clusterId: itemKey,
  monthId: g.monthId,
  lines: g.lines,
  description: g.description?.text ?? null,
  fileVersion,
});

/** Creates the cluster-month and fills it in `tx`, through the lifecycle core; throws ImportRefused when it cannot be. */
async function writeCreation(tx: Tx, group: ClusterGroup, prepared: PreparedCluster, caller: JobCaller, run: { lockTtlMinutes: number; jobId: number }): Promise<string> {
  try {
    const saved = await insertNewCluster(tx, caller, prepared, { upload: { jobId: run.jobId } });
    const edit = toEdit(group, saved.clusterId, null);
    await fillCreated(tx, clusterImportChange, { itemKey: saved.clusterId, monthId: saved.monthId }, edit, await clusterImportEnv(tx, [edit]), caller, run);
    return CLUSTER_IMPORT_JOB_TEXTS.created(group.lines.filter((l) => !l.removed).length);
  } catch (err) {
    return refusedBy(err);
  }
}

/**
 * Import Cluster as a kind of import. `overwrite`: the cluster-months (`${clusterId}|${monthId}`) whose
 * file version is not checked (stale-version.ts; the job reads it from its payload's `overwrite`).
 */
export function clusterImportKind(overwrite: OverwriteKeys = NO_OVERWRITE): ImportKind<ClusterGroup, ClusterRow, ClusterContent, ClusterImportEdit, ClusterImportEnv, PreparedCluster> {
  return {
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
    toEdit: (g, itemKey) => toEdit(g, itemKey, checkedVersion(overwrite, itemKey, g)),
    creation: { prepare: prepareCreation, write: writeCreation },
  };
}

/** The job: the kind with the payload's overwrite list. */
export const clusterImportJob = importJobOf(clusterImportKind);
