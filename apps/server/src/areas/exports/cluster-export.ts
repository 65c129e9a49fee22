/**
 * The cluster kind of the export engine: a cluster exported with its header (label, month, brand,
 * countries, stars zones, LIAs, client classifications, range facing …), its stores and its modules
 * (ADDED ones) with their SKU lines. Published exports only SUBMITTED clusters; the content is the
 * cluster as saved (the schema keeps no separate published copy: a SUBMITTED cluster's saved content
 * is what was published).
 */
import type { ClusterDto } from '@bo/shared/clusters';
import { clusterKeyString, moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleDto } from '@bo/shared/modules';
import type { Queryable } from '../../db/client.js';
import { clusterScopes, clusterStoreRows, findClusters, type ClusterRow } from '../../items/cluster/clusters.repository.js';
import { toClusterDtos } from '../../items/cluster/cluster.presenter.js';
import { findModules } from '../../items/module/modules.repository.js';
import { toModuleDtos } from '../../items/module/module.presenter.js';
import { legoMatches, narrowingSet, requireExportable, someKept, targetKey, type ExportKindDef, type ExportStatus, type ExportTarget } from './export-kind.js';
import { legoKey, legoKeys } from './exports.repository.js';
import { exportedLines } from './module-export.js';
import type { ModuleUnit } from './module-xlsx.js';

export type ClusterStoreLine = Omit<Awaited<ReturnType<typeof clusterStoreRows>>[number], 'clusterPk'>;

/** A cluster as exported: its header, and its stores and modules after the target's narrowing. */
export interface ClusterUnit {
  cluster: ClusterDto;
  /** The LIAs the cluster carries (the header's LIAs; the DTO also lists those it could carry). */
  lias: string[];
  stores: ClusterStoreLine[];
  modules: ModuleUnit[];
  /**
   * The cluster's ADDED modules whatever the narrowing, in its order: the 'Clusters' row says what the
   * cluster is, and Import Cluster reads its 'Module names' back as the whole composition (a list
   * narrowed by zones would send the other modules to the bin).
   */
  composition: ModuleDto[];
}

const refOf = (t: ExportTarget) => ({ clusterId: t.name, monthId: t.monthId });

async function rowsOf(db: Queryable, targets: readonly ExportTarget[]): Promise<Map<string, ClusterRow>> {
  return new Map((await findClusters(db, targets.map(refOf))).map((r) => [clusterKeyString(r), r]));
}

const keepsCluster = (target: ExportTarget, status: ExportStatus, row: ClusterRow, lego: ReadonlySet<string>) =>
  (status === 'Saved' || row.status === 'SUBMITTED') && legoMatches(target, lego.has(legoKey(row)));

/** The stores the target keeps: in its zones (by the store's country) and of its customers. */
export function keptStores(target: ExportTarget, list: readonly ClusterStoreLine[]): ClusterStoreLine[] {
  const zones = narrowingSet(target.zones);
  const customers = narrowingSet(target.customers);
  return list.filter((s) => (!zones || zones.has(s.starsZone)) && (!customers || customers.has(s.starsCustomer)));
}

export const clusterExport: ExportKindDef<ClusterUnit> = {
  kind: 'cluster',
  // A cluster brings its modules and their SKUs: fewer per round trip than modules.
  batch: 5,

  async check(ctx, targets, status) {
    const rows = await rowsOf(ctx.db, targets);
    const scopes = await clusterScopes(ctx.db, [...rows.values()]);
    requireExportable(ctx, 'cluster', targets, rows, (row) => scopes.get(row.id)!);
    const lego = await legoKeys(ctx.db, [...rows.values()]);
    return someKept(targets.filter((t) => keepsCluster(t, status, rows.get(targetKey(t))!, lego)));
  },

  async read(db, targets, status, opts) {
    const all = await rowsOf(db, targets);
    const lego = await legoKeys(db, [...all.values()]);
    // A cluster deleted, reopened (Published) or no longer in the LEGO state asked for is left out.
    const kept = targets.flatMap((t) => {
      const row = all.get(targetKey(t));
      return row && keepsCluster(t, status, row, lego) ? [{ target: t, row }] : [];
    });
    const rows = kept.map((k) => k.row);
    const dtos = new Map((await toClusterDtos(db, rows, opts)).map((d) => [clusterKeyString(d), d]));
    const storesByPk = new Map<number, ClusterStoreLine[]>();
    for (const { clusterPk, ...store } of await clusterStoreRows(db, rows.map((r) => r.id))) {
      storesByPk.set(clusterPk, [...(storesByPk.get(clusterPk) ?? []), store]);
    }
    const moduleRefs = [...dtos.values()].flatMap((c) => c.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => ({ moduleName: m.moduleName, monthId: c.monthId })));
    const moduleDtos = new Map((await toModuleDtos(db, await findModules(db, moduleRefs), opts)).map((d) => [moduleKeyString(d), d]));

    const out = new Map<string, ClusterUnit>();
    for (const { target, row } of kept) {
      const cluster = dtos.get(clusterKeyString(row))!;
      const zones = narrowingSet(target.zones);
      // The cluster's order (family, label); a module outside the target's zones is left out of its modules.
      const composition = cluster.modules
        .filter((m) => m.clusterCompositionStatus === 'ADDED')
        .flatMap((m) => {
          const module = moduleDtos.get(moduleKeyString({ moduleName: m.moduleName, monthId: cluster.monthId }));
          return module ? [module] : [];
        });
      const modules = composition.filter((module) => !zones || module.starZones.some((z) => zones.has(z))).map((module) => ({ module, lines: exportedLines(module) }));
      out.set(targetKey(target), {
        cluster,
        lias: cluster.lias.filter((l) => l.isChecked).map((l) => l.liaCode),
        stores: keptStores(target, storesByPk.get(row.id) ?? []),
        modules,
        composition,
      });
    }
    return out;
  },

  label: ({ cluster }) => cluster.clusterLabel.trim() || cluster.clusterId,
  brand: ({ cluster }) => cluster.brandCode,
  skus: ({ modules }) => modules.flatMap((m) => m.lines),
};
