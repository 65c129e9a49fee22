/**
 * POST /api/cluster/brand and /api/cluster/planningChannel (part 2 §7: releaseId → option lists;
 * docs/module-calls.md): the brands, and planning channels, of the live modules and clusters in the
 * release's months that the caller may view. They are the home search's filter options
 * (`filterOptions`) for those months, so both screens offer the same values with the same labels.
 */
import type { FilterKey, FilterOption, SearchFilters } from '@bo/shared/search';
import type { ServiceContext } from '../../plugins/context.js';
import { notFound } from '../../lib/errors.js';
import { listReleases } from '../admin/releases.repository.js';
import { byCodePoint } from '../../lib/text-order.js';
import { filterOptions } from './search.service.js';

async function releaseOptions(ctx: ServiceContext, releaseId: string, key: FilterKey, narrow: SearchFilters = {}): Promise<FilterOption[]> {
  const [release] = await listReleases(ctx.db, releaseId);
  if (!release) throw notFound(`The release ${releaseId} does not exist`, 'releaseNotFound');
  if (release.months.length === 0) return [];
  const filters: SearchFilters = { ...narrow, monthId: release.months.map((m) => m.monthId) };
  const [ofModules, ofClusters] = await Promise.all([filterOptions(ctx, 'module', filters, [key]), filterOptions(ctx, 'cluster', filters, [key])]);
  const merged = new Map([...(ofModules[key] ?? []), ...(ofClusters[key] ?? [])].map((o) => [o.value, o]));
  return [...merged.values()].sort((a, b) => byCodePoint(a.value, b.value));
}

/** POST /api/cluster/brand */
export const brandOptions = (ctx: ServiceContext, releaseId: string) => releaseOptions(ctx, releaseId, 'brand');

/** POST /api/cluster/planningChannel: optionally among the items of some brands. */
export const planningChannelOptions = (ctx: ServiceContext, releaseId: string, brand?: readonly string[]) =>
  releaseOptions(ctx, releaseId, 'planningChannel', brand?.length ? { brand: [...brand] } : {});
