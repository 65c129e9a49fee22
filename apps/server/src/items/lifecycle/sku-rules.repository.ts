/**
 * What makes a SKU (alias `s`) discontinued or removed: the SKU half of the Disco / Removed Area's
 * definition (docs/disco-area.md; the line half is disco-area.repository.ts `lineRule`). Kind-free and
 * below the areas because the item versions (item-versions.repository.ts), the Disco Area and the
 * statistics all read it.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DiscoView } from '@bo/shared/disco-area';
import { SAP_DISABLED_STATUSES } from './publish-checks.js';

export const gedExpired = sql`(s.ged_expire_date IS NOT NULL AND s.ged_expire_date < CURRENT_DATE)`;
const sapDisabled = sql`(s.sap_status IS NOT NULL AND s.sap_status IN ${[...SAP_DISABLED_STATUSES]})`;

/** What makes the SKU itself (alias `s`) discontinued or removed: the SKU half of the definition. */
export function skuRule(view: DiscoView): SQL {
  if (view === 'removed') return sql`s.deleted`;
  return sql`(NOT s.deleted AND (s.flag_disco OR ${gedExpired} OR ${sapDisabled}))`;
}
