/**
 * The SQL of the module information calls (docs/module-calls.md). The pending rows come from the
 * Pending Area's own definition (`pendingWhere`, `pendingPage`); the active SKU lines from the cluster
 * editor's `activeSkuLines`, so both percentages count the same lines.
 */
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { ModuleKey } from '@bo/shared/modules';
import type { Queryable } from '../../db/client.js';
import { modules, months } from '../../db/schema.js';
import { pendingPage, pendingWhere, type PendingRow } from '../pending-area/pending-area.repository.js';
import type { Visibility } from '../../lib/visibility.js';

/** The latest live version of the module in a month before `monthId` (month order, as for clusters). */
export async function previousModuleVersion(db: Queryable, moduleName: string, monthId: string): Promise<{ id: number; monthId: string } | undefined> {
  const [current] = await db.select({ year: months.year, month: months.month }).from(months).where(eq(months.monthId, monthId));
  if (!current) return undefined;
  const [row] = await db
    .select({ id: modules.id, monthId: modules.monthId })
    .from(modules)
    .innerJoin(months, eq(months.monthId, modules.monthId))
    .where(
      and(
        eq(modules.moduleName, moduleName),
        isNull(modules.deletionStatus),
        or(lt(months.year, current.year), and(eq(months.year, current.year), lt(months.month, current.month))),
      ),
    )
    .orderBy(desc(months.year), desc(months.month))
    .limit(1);
  return row;
}

/** Of these modules, those in the Pending Area of a caller who may edit `editable` (its rows). */
export async function pendingModules(db: Queryable, keys: readonly ModuleKey[], editable: Visibility, lockTtlMinutes: number): Promise<PendingRow[]> {
  if (keys.length === 0) return [];
  const wanted = sql.join(
    keys.map((k) => sql`(${k.moduleName}, ${k.monthId})`),
    sql`, `,
  );
  const where = sql`${pendingWhere('module', {}, editable)} AND (m.module_name, m.month_id) IN (${wanted})`;
  return pendingPage(db, 'module', where, lockTtlMinutes, 0, keys.length);
}
