/** The home sidebar's bells (part 1 §2 "Sidebar buttons", §7). */
import { z } from 'zod';

/**
 * `GET /api/sku/badgeCounts`: discontinued and removed SKUs still in live modules of open months.
 * Counts stop at BADGE_COUNT_CAP (100 means "100 or more"): the bells only need to know whether any exist.
 */
export const BADGE_COUNT_CAP = 100;
export const badgeCountsSchema = z.object({ numDisco: z.number().int(), numRemoved: z.number().int() });
export type BadgeCounts = z.infer<typeof badgeCountsSchema>;

/** `GET /api/module/countPendingAreaAlerts`: a bare number. */
export const pendingAlertsSchema = z.number().int();
