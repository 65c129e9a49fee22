import { and, eq } from 'drizzle-orm';
import { compareMonthIds } from '@bo/shared/months';
import type { Queryable } from '../../db/client.js';
import { legoMonths, months } from '../../db/schema.js';

/** Every month, sorted by year then month. */
export async function listMonths(db: Queryable) {
  const rows = await db.select({ monthId: months.monthId, open: months.open }).from(months);
  return rows.sort((a, b) => compareMonthIds(a.monthId, b.monthId));
}

/** Is the month a LEGO month for the brand and collection? */
export async function isLegoMonth(db: Queryable, key: { monthId: string; brandCode: string; collection: string }): Promise<boolean> {
  const rows = await db
    .select({ monthId: legoMonths.monthId })
    .from(legoMonths)
    .where(and(eq(legoMonths.monthId, key.monthId), eq(legoMonths.brandCode, key.brandCode), eq(legoMonths.collection, key.collection)))
    .limit(1);
  return rows.length > 0;
}
