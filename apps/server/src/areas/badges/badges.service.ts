/**
 * The home sidebar's bells (part 1 §2 "Sidebar buttons", §7), counted in SQL over what the caller
 * may see (docs/DECISIONS.md "Home badges"):
 * - pending alerts: the Pending Area's items (pending-area.repository.ts `pendingWhere`, one definition):
 *   live, open month, editable by the caller, WIP (with or without planning-system warnings) or stuck SUBMIT_IN_PROGRESS;
 * - disco / removed: the Disco/Removed Area's SKUs (sku-rules.repository.ts `skuRule` + disco-area.repository.ts `lineRule`, one definition):
 *   discontinued (flag_disco, GED expired or SAP disabled) / removed from the range SKUs that still sit (not in the bin)
 *   in live modules of open months the caller may view, counted up to BADGE_COUNT_CAP (docs/disco-area.md).
 */
import { BADGE_COUNT_CAP, type BadgeCounts } from '@bo/shared/badges';
import type { ServiceContext } from '../../plugins/context.js';
import { discoCounts } from '../disco-area/disco-area.repository.js';
import { countPending, pendingWhere } from '../pending-area/pending-area.repository.js';
import { visibilityOf } from '../../lib/visibility.js';

/** The Pending Area's own definition (pending-area.repository.ts), over both views: the bell equals the unfiltered list. */
export async function countPendingAreaAlerts(ctx: ServiceContext): Promise<number> {
  const editable = visibilityOf(ctx.user.grants, ['edit']);
  const [modules, clusters] = await Promise.all(
    (['module', 'cluster'] as const).map((view) => countPending(ctx.db, view, pendingWhere(view, {}, editable))),
  );
  return (modules ?? 0) + (clusters ?? 0);
}

/** The Disco/Removed Area's own definition (disco-area.repository.ts), counted in SKUs: the bells equal the unfiltered lists' SKUs. */
export async function badgeCounts(ctx: ServiceContext): Promise<BadgeCounts> {
  return discoCounts(ctx.db, visibilityOf(ctx.user.grants), BADGE_COUNT_CAP);
}
