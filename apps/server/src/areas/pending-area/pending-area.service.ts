/**
 * The Pending Area (part 2 §2, §3, §5, §6, §8; docs/pending-area.md): the caller's pending modules or
 * clusters (pending-area.repository.ts holds the one definition, shared with the home bell), their
 * filter options, and one page of them. The page lists only what the caller may edit, so a caller
 * without any edit grant is refused with 403 (the page then shows that access is missing).
 */
import { canExportAny } from '@bo/shared/permissions';
import {
  hasPendingFilter,
  PENDING_FILTER_KEYS,
  PENDING_PAGE_SIZE,
  PENDING_TEXTS,
  type ClusterPendingPage,
  type ModulePendingPage,
  type PendingAreaFilters,
  type PendingFilterOptions,
  type PendingView,
} from '@bo/shared/pending-area';
import type { ServiceContext } from '../../plugins/context.js';
import { areaVisibility, pageRows, sortOptions } from '../../lib/area-lists.js';
import { badRequest, tooManyResults } from '../../lib/errors.js';
import { countPending, pendingOptionValues, pendingPage, pendingWhere } from './pending-area.repository.js';

/** Admin or any edit grant: the same right as the export page (permissions.ts `canExportAny`). */
function editableBy(ctx: ServiceContext) {
  return areaVisibility(ctx.user.grants, canExportAny, PENDING_TEXTS.noRight, ['edit']);
}

/** POST /api/cluster/pendingAreaInitialFilters: the values of the four filters among the caller's pending items. */
export async function pendingFilterOptions(ctx: ServiceContext, view: PendingView): Promise<PendingFilterOptions> {
  const where = pendingWhere(view, {}, editableBy(ctx));
  const found = await Promise.all(PENDING_FILTER_KEYS.map((key) => pendingOptionValues(ctx.db, view, key, where)));
  const [status = [], brandCode = [], commodity = [], months = []] = found;
  return {
    status: sortOptions(status, 'text'),
    brandCode: sortOptions(brandCode, 'text'),
    commodity: sortOptions(commodity, 'text'),
    months: sortOptions(months, 'months'),
  };
}

type PageOf<V extends PendingView> = V extends 'module' ? ModulePendingPage : ClusterPendingPage;

/**
 * POST /api/{module|cluster}/pendingArea: one page (`pageIndex`, zero-based) of the pending items
 * matching the filters; at least one filter is required (part 2 §5), more than MAX_SEARCH_RESULTS
 * matches answer 413 (part 2 §8). A page past the end is empty, with the count.
 */
export async function pendingList<V extends PendingView>(ctx: ServiceContext, view: V, body: PendingAreaFilters & { pageIndex: number }): Promise<PageOf<V>> {
  const editable = editableBy(ctx);
  const { pageIndex, ...filters } = body;
  if (!hasPendingFilter(filters)) throw badRequest(PENDING_TEXTS.selectFilter);
  const where = pendingWhere(view, filters, editable);
  const count = await countPending(ctx.db, view, where);
  if (count > ctx.config.MAX_SEARCH_RESULTS) throw tooManyResults(PENDING_TEXTS.tooMany);
  const rows = await pageRows(count, pageIndex, PENDING_PAGE_SIZE, (offset, limit) => pendingPage(ctx.db, view, where, ctx.config.LOCK_TTL_MINUTES, offset, limit));
  const common = (r: (typeof rows)[number]) => ({
    brandCode: r.brandCode,
    commodity: r.commodity,
    status: r.status as 'WIP' | 'SUBMIT_IN_PROGRESS',
    monthId: r.monthId,
    legoMonth: r.legoMonth,
    locked: r.userLock !== null,
    userLock: r.userLock,
    rpasErrors: r.rpasErrors || null, // no warnings: null, whether never sent back or cleared to ""
  });
  const page = { count, maxResultsForPage: PENDING_PAGE_SIZE };
  if (view === 'module') {
    return { ...page, modulePendingAreaDtoList: rows.map((r) => ({ ...common(r), moduleName: r.name, moduleLabel: r.label })) } as PageOf<V>;
  }
  return { ...page, clusterPendingAreaDtoList: rows.map((r) => ({ ...common(r), clusterId: r.name, clusterLabel: r.label })) } as PageOf<V>;
}
