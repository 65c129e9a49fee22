import { and, eq, ne } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { moduleSkus, skus } from '../../db/schema.js';
import type { SnapshotLoader } from '../publishing/publish.job.js';
import { findModule, moduleZones } from './modules.repository.js';

/** What the planning system receives for a module: its header and its active SKUs. */
export const moduleSnapshot: SnapshotLoader = async (db: Queryable, item) => {
  const row = await findModule(db, { moduleName: item.itemKey, monthId: item.monthId });
  if (!row) return null;
  const lines = await db
    .select({ upc: moduleSkus.upc, mustHave: moduleSkus.mustHave, minValue: moduleSkus.minValue, sapStatus: skus.sapStatus })
    .from(moduleSkus)
    .innerJoin(skus, eq(skus.upc, moduleSkus.upc))
    .where(and(eq(moduleSkus.moduleId, row.id), ne(moduleSkus.status, 'REMOVED')))
    .orderBy(moduleSkus.position);
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
