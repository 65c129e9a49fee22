import type { Queryable } from '../../db/client.js';
import type { SnapshotLoader } from '../lifecycle/publish.job.js';
import { activeLinesWithSapStatus } from './module-composition.repository.js';
import { findModule, moduleZones } from './modules.repository.js';

/** What the planning system receives for a module: its header and its active SKUs. */
export const moduleSnapshot: SnapshotLoader = async (db: Queryable, item) => {
  const row = await findModule(db, { moduleName: item.itemKey, monthId: item.monthId });
  if (!row) return null;
  const lines = await activeLinesWithSapStatus(db, row.id);
  return {
    moduleName: row.moduleName,
    moduleLabel: row.moduleLabel,
    moduleDescription: row.moduleDescription,
    monthId: row.monthId,
    brand: row.brandCode,
    collection: row.collection,
    macroFamily: row.macroFamily,
    starZones: (await moduleZones(db, [row.id])).get(row.id) ?? [],
    skus: lines.map((l) => ({ upc: l.upc, status: l.mustHave ? 'MH' : 'EL', minValue: l.minValue, sapStatus: l.sapStatus })),
  };
};
