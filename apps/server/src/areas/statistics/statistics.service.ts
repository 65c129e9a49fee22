/**
 * The Statistics page (part 2 §2, §3, §5; docs/statistics.md): the attribute values of the month's clusters
 * and the clusters whose share of active SKUs with each chosen value lies inside its range. Both see only
 * the clusters the caller may view (grants in SQL, as the home search); nothing is refused with 403.
 * Opening a cluster of the result takes its lock with the editor's own `POST /api/cluster/lock`.
 */
import {
  STATISTIC_FIELDS,
  STATISTICS_TEXTS,
  type StatisticCluster,
  type StatisticField,
  type StatisticFilter,
  type StatisticFilterOptions,
  type StatisticOption,
} from '@bo/shared/statistics';
import type { ServiceContext } from '../../plugins/context.js';
import { tooManyResults } from '../../lib/errors.js';
import { clusterWhere } from '../search/search.repository.js';
import { byText } from '../../lib/text-order.js';
import { visibilityOf } from '../../lib/visibility.js';
import { statisticClusters, statisticOptionValues } from './statistics.repository.js';

interface Scope {
  monthId: string;
  brand: string[];
  collection: string[];
  planningChannel?: string[];
}

/** The caller's live clusters of the month, brands, collections and planning channels (empty lists: no narrowing). */
const whereOf = (ctx: ServiceContext, s: Scope) =>
  clusterWhere({ monthId: [s.monthId], brand: s.brand, collection: s.collection, planningChannel: s.planningChannel ?? [] }, visibilityOf(ctx.user.grants));

const label = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

/** POST /api/cluster/statisticFiltersByBrand: per attribute, the values its sliders offer (sorted, YES before NO). */
export async function statisticFilterOptions(ctx: ServiceContext, scope: Scope): Promise<StatisticFilterOptions> {
  const rows = await statisticOptionValues(ctx.db, whereOf(ctx, scope));
  const answer = Object.fromEntries(STATISTIC_FIELDS.map((f) => [f, [] as StatisticOption[]])) as Record<StatisticField, StatisticOption[]>;
  for (const { field, value } of rows) answer[field].push({ value, label: field === 'polar' || field === 'prizm' ? label(value) : value });
  for (const field of STATISTIC_FIELDS) {
    const yesNo = field === 'polar' || field === 'prizm';
    answer[field].sort((a, b) => (yesNo ? byText(b.value, a.value) : byText(a.value, b.value)));
  }
  return answer;
}

/**
 * POST /api/cluster/statistic: the clusters in scope whose share (0–100 %) of active SKUs having `field` =
 * `searchValue` lies inside [minRange, maxRange] for every filter; by label; 413 past MAX_SEARCH_RESULTS.
 * The body's validation already refused an empty filter list and crossed or out-of-range sliders (400).
 */
export async function statisticSearch(ctx: ServiceContext, body: Scope & { planningChannel: string[]; filters: StatisticFilter[] }): Promise<StatisticCluster[]> {
  const limit = ctx.config.MAX_SEARCH_RESULTS;
  const rows = await statisticClusters(ctx.db, whereOf(ctx, body), body.filters, ctx.config.LOCK_TTL_MINUTES, limit + 1);
  if (rows.length > limit) throw tooManyResults(STATISTICS_TEXTS.tooMany);
  return rows.map((r) => ({ ...r, locked: r.userLock !== null }));
}
