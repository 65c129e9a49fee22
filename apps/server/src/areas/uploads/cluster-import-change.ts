/**
 * Import Cluster's change of one cluster-month (docs/IMPORTS.md "Import Cluster"): the file's ADDED
 * modules are the cluster's ADDED modules (a module in the bin comes back), ADDED modules missing from the
 * file go to the bin, REMOVED rows send their module to the bin, a Description replaces the cluster's. A
 * module added must be live in the cluster's month and of its brand. The lifecycle core
 * (lifecycle/item-change.ts) decides whether the cluster may change at all — with the import right
 * instead of the edit right — and the massive edit engine runs it.
 */
import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { canImportItem } from '@bo/shared/permissions';
import { CLUSTER_IMPORT_COLUMNS } from '@bo/shared/uploads';
import { formatMonthId } from '@bo/shared/months';
import type { Queryable } from '../../db/client.js';
import type { ClusterContent, ClusterRow } from '../../items/cluster/clusters.repository.js';
import { changeTexts, type ChangeKind } from '../../items/lifecycle/item-change.js';
import { CLUSTER_CHANGE_TEXTS, clusterChange, copyContent, moduleNotAllowed, modulesByMonth, type ModulesByMonth } from '../../items/cluster/cluster-change.js';
import { IMPORT_FILE_TEXTS, listReasons } from './import-file.js';
import { CLUSTER_IMPORT_FILE_TEXTS, type ClusterImportLine } from './cluster-import-file.js';
import { staleRefusal } from './stale-version.js';

/** What the import asks of one cluster-month. */
export interface ClusterImportEdit {
  clusterId: string;
  monthId: string;
  lines: ClusterImportLine[];
  /** null: the cluster keeps its description. */
  description: string | null;
  /**
   * The cluster's version the file was exported at: another current version refuses the change
   * (stale-version.ts). Null: not guarded (no Version in the file, or the caller overwrites it).
   */
  fileVersion?: number | null;
}

export interface ClusterImportEnv {
  modules: ModulesByMonth;
}

export const CLUSTER_IMPORT_TEXTS = {
  notFound: (id: string, monthId: string) => `The cluster ${id} does not exist in ${formatMonthId(monthId)}`,
  notAuthorized: (id: string) => `You don't have the right to import the cluster ${id}`,
} as const;

/** The env of these edits: one read of the modules they name, in their months. */
export async function clusterImportEnv(db: Queryable, edits: readonly ClusterImportEdit[]): Promise<ClusterImportEnv> {
  return {
    modules: await modulesByMonth(
      db,
      edits.flatMap((e) => e.lines.map((l) => l.module)),
      edits.map((e) => e.monthId),
    ),
  };
}

/** The cluster's content with the file's ADDED modules as its ADDED modules (pure). */
function replaceClusterComposition(content: ClusterContent, edit: ClusterImportEdit, row: ClusterRow, env: ClusterImportEnv): { next: ClusterContent; changes: string[] } | { error: string } {
  const stale = staleRefusal(row, edit.fileVersion ?? null);
  if (stale) return { error: stale };
  const next = copyContent(content);
  const changes: string[] = [];
  const errors: string[] = [];
  const at = (line: ClusterImportLine, reason: string) => IMPORT_FILE_TEXTS.at(line.fileRow, CLUSTER_IMPORT_COLUMNS.module, reason);
  const inMonth = env.modules.get(row.monthId);
  const seen = new Map<string, number>();
  const added = new Set<string>();
  for (const line of edit.lines) {
    const m = inMonth?.get(line.module.toLowerCase());
    // A module to remove: one in the cluster by its name (even if it is gone), else what the cell names in the month.
    const name = line.removed && content.modules.has(line.module) ? line.module : m?.moduleName;
    if (!name) {
      errors.push(at(line, CLUSTER_CHANGE_TEXTS.noSuchModule(line.module)));
      continue;
    }
    const twice = seen.get(name);
    if (twice !== undefined) {
      errors.push(at(line, CLUSTER_IMPORT_FILE_TEXTS.twice(name, twice)));
      continue;
    }
    seen.set(name, line.fileRow);
    const status = next.modules.get(name);
    if (line.removed) {
      // Only a module in the cluster goes to the bin; one that is not stays out of it.
      if (status !== 'ADDED') continue;
      next.modules.set(name, 'REMOVED');
      changes.push(CLUSTER_CHANGE_TEXTS.removedModule(name));
      continue;
    }
    if (m!.brandCode !== row.brandCode) {
      errors.push(at(line, moduleNotAllowed(row, name)));
      continue;
    }
    added.add(name);
    if (status === 'ADDED') continue;
    next.modules.set(name, 'ADDED');
    changes.push(status === 'REMOVED' ? CLUSTER_CHANGE_TEXTS.restoredModule(name) : CLUSTER_CHANGE_TEXTS.addedModule(name));
  }
  if (errors.length) return { error: listReasons(errors) };
  for (const [name, status] of content.modules) {
    if (status !== 'ADDED' || added.has(name) || next.modules.get(name) !== 'ADDED') continue;
    next.modules.set(name, 'REMOVED');
    changes.push(CLUSTER_CHANGE_TEXTS.removedModule(name));
  }
  if (edit.description && edit.description !== content.description) {
    changes.push(CLUSTER_CHANGE_TEXTS.description(content.description, edit.description));
    next.description = edit.description;
  }
  return { next, changes };
}

/** A cluster as Import Cluster changes it: the massive edit's cluster, with the import right and the replacing change. */
export const clusterImportChange: ChangeKind<ClusterRow, ClusterContent, ClusterImportEdit, ClusterImportEnv> = {
  ...clusterChange,
  change: replaceClusterComposition,
  mayChange: (grants, scope) => canImportItem(grants, scope),
  texts: { ...changeTexts('cluster', CLUSTER_TEXTS.submitInProgress, (id) => CLUSTER_IMPORT_TEXTS.notAuthorized(id)), notFound: CLUSTER_IMPORT_TEXTS.notFound },
};
