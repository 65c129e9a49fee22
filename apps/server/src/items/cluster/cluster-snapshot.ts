import type { SnapshotLoader } from '../lifecycle/publish.job.js';
import { clusterContents, clusterCountryCodes, clusterModuleRows, clusterStoreRows, findClusters, together } from './clusters.repository.js';

/**
 * What a cluster sends to the planning system when it is published: its identity, its stores and its
 * ADDED modules (those that exist in the month). The gateway rejects a cluster without stores or modules.
 */
export const clusterSnapshot: SnapshotLoader = async (db, item) => {
  const [row] = await findClusters(db, [{ clusterId: item.itemKey, monthId: item.monthId }]);
  if (!row) return null;
  const [storeRows, moduleRows, countries, contents] = await together(db, [
    () => clusterStoreRows(db, [row.id]),
    () => clusterModuleRows(db, [row.id]),
    () => clusterCountryCodes(db, [row.id]),
    () => clusterContents(db, [row]),
  ]);
  const content = contents.get(row.id)!;
  return {
    clusterId: row.clusterId,
    clusterLabel: row.clusterLabel,
    clusterDescription: row.clusterDescription,
    monthId: row.monthId,
    brandCode: row.brandCode,
    collection: row.collection,
    planningChannelId: row.planningChannelId,
    releaseId: row.releaseId,
    rangeFacing: row.rangeFacing,
    countries: countries.get(row.id) ?? [],
    lias: [...content.lias].sort(),
    classifications: [...content.classifications].sort((a, b) => a - b),
    stores: storeRows.map((s) => ({
      storeJda: s.storeJda,
      codiceStoreSap: s.codiceStoreSap,
      starsCustomer: s.starsCustomer,
      customerSegmentation: s.customerSegmentation,
      countryCode: s.countryCode,
    })),
    modules: moduleRows
      .filter((m) => m.status === 'ADDED')
      .map((m) => ({ moduleName: m.moduleName, moduleLabel: m.moduleLabel, macroFamily: m.macroFamily })),
  };
};
