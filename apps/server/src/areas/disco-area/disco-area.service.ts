/**
 * The Discontinuation / Removed Area (part 2 §2, §3, §4, §5, §6, §9; docs/disco-area.md): the caller's
 * discontinued or removed SKU lines (disco-area.repository.ts holds the one definition, shared with the
 * home bells), their filter options, one page of them, the alert counts, and the guided replacement.
 *
 * Who may use the area: admin or anyone with an edit grant (`canUseDiscoArea`, as the home sidebar
 * decides); others get 403. The rows are only those of modules the caller may view.
 */
import { BADGE_COUNT_CAP, type BadgeCounts } from '@bo/shared/badges';
import {
  DISCO_FILTER_KEYS,
  DISCO_PAGE_SIZE,
  DISCO_TEXTS,
  MAX_REPLACEMENT_PROPOSALS,
  REPLACEMENT_ROLLING_MONTHS,
  type DiscoFilterOptions,
  type DiscoFilters,
  type DiscoPage,
  type DiscoView,
  type ReplacementProposals,
} from '@bo/shared/disco-area';
import { addMonths } from '@bo/shared/months';
import { canUseDiscoArea } from '@bo/shared/permissions';
import type { ServiceContext } from '../../plugins/context.js';
import { areaVisibility, pageRows, sortOptions } from '../../lib/area-lists.js';
import { notFound } from '../../lib/errors.js';
import { visibilityOf } from '../../lib/visibility.js';
import * as repo from './disco-area.repository.js';

/** The area's right (403 otherwise); the rows are those of modules the caller may view. */
function viewableBy(ctx: ServiceContext) {
  return areaVisibility(ctx.user.grants, canUseDiscoArea, DISCO_TEXTS.noRight);
}

/**
 * The options of every filter among the caller's rows of the view; each filter's options are narrowed
 * by the other chosen filters (not by its own, so more of its values stay choosable).
 */
export async function filterOptions(ctx: ServiceContext, view: DiscoView, filters: DiscoFilters = {}): Promise<DiscoFilterOptions> {
  const visible = viewableBy(ctx);
  const found = await Promise.all(DISCO_FILTER_KEYS.map((key) => repo.optionValues(ctx.db, key, repo.discoWhere(view, filters, visible, key))));
  const options = Object.fromEntries(DISCO_FILTER_KEYS.map((key, i) => [key, found[i] ?? []])) as DiscoFilterOptions;
  for (const key of DISCO_FILTER_KEYS) sortOptions(options[key], key === 'months' ? 'months' : key === 'storeCount' ? 'numbers' : 'text');
  return options;
}

/** POST /api/sku/skuDiscoInfo, /api/sku/skuDeletedInfo: one page (`pageIndex`, zero-based); past the end: empty, with the count. */
export async function discoList(ctx: ServiceContext, view: DiscoView, body: DiscoFilters & { pageIndex: number }): Promise<DiscoPage> {
  const visible = viewableBy(ctx);
  const { pageIndex, ...filters } = body;
  const where = repo.discoWhere(view, filters, visible);
  const count = await repo.countRows(ctx.db, where);
  const rows = await pageRows(count, pageIndex, DISCO_PAGE_SIZE, (offset, limit) => repo.discoPage(ctx.db, where, ctx.config.LOCK_TTL_MINUTES, offset, limit));
  return {
    count,
    maxResultsForPage: DISCO_PAGE_SIZE,
    skuDiscoTypeDtoList: rows.map(({ userLock, ...r }) => ({ ...r, locked: userLock !== null, userLock })),
  };
}

/** GET /api/sku/skuDiscoAlert/: the bells' counts, for who may use the area. */
export async function discoAlert(ctx: ServiceContext): Promise<BadgeCounts> {
  return repo.discoCounts(ctx.db, viewableBy(ctx), BADGE_COUNT_CAP);
}

/**
 * POST /api/sku/replacementProposals (guided replacement, beyond the spec): for one of the caller's
 * discontinued or removed SKUs (404 otherwise), up to five active SKUs of the same brand, collection
 * and macro family, by closest price then best sell-out over the rolling window, and the SKU's lines
 * that a replacement would change (live modules of open months the caller may edit).
 */
export async function replacementProposals(ctx: ServiceContext, upc: string): Promise<ReplacementProposals> {
  const visible = viewableBy(ctx);
  const sku = await repo.listedSku(ctx.db, upc, visible);
  if (!sku) throw notFound(DISCO_TEXTS.notListed);
  const families = await repo.skuFamilies(ctx.db, upc, visible);
  const end = await repo.firstOpenMonth(ctx.db);
  const window = end ? Array.from({ length: REPLACEMENT_ROLLING_MONTHS }, (_, i) => addMonths(end, i - REPLACEMENT_ROLLING_MONTHS + 1)) : [];
  const editable = visibilityOf(ctx.user.grants, ['edit']);
  const [proposals, usages] = await Promise.all([
    repo.proposals(ctx.db, sku, families, window.length ? window : ['-'], MAX_REPLACEMENT_PROPOSALS, editable),
    repo.usages(ctx.db, upc, editable),
  ]);
  return { sku: { ...sku, macroFamilies: families }, proposals, usages, rollingMonths: window };
}
