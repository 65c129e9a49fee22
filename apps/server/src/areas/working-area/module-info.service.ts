/**
 * Module information for the working area (docs/module-calls.md): refresh percentage, pending
 * information, and the filtered / pty detail views of the page's modules. Reads only; every call
 * answers about the modules the caller may view and leaves the others out (like the newness views).
 */
import { moduleKeyString } from '@bo/shared/item-keys';
import {
  refreshPercentage,
  type ModulePercentage,
  type ModulePercentageRequest,
  type PendingModuleInfo,
} from '@bo/shared/module-info';
import type { ModuleKey } from '@bo/shared/modules';
import type { PerformanceFilters } from '@bo/shared/working-area';
import type { ServiceContext } from '../../plugins/context.js';
import { activeSkuLines } from '../../items/cluster/cluster-editor.repository.js';
import { visibilityOf } from '../../lib/visibility.js';
import { activeLines, statsFor } from './working-area.repository.js';
import { performanceFigures, visibleRows } from './working-area.service.js';
import * as repo from './module-info.repository.js';

type Row = Awaited<ReturnType<typeof visibleRows>>[number];

/** The viewable modules of the keys, once each, in the order asked. */
async function viewable(ctx: ServiceContext, keys: readonly ModuleKey[]): Promise<Row[]> {
  const byKey = new Map((await visibleRows(ctx, keys)).map((r) => [moduleKeyString(r), r]));
  const out: Row[] = [];
  for (const k of keys) {
    const row = byKey.get(moduleKeyString(k));
    if (row && !out.includes(row)) out.push(row);
  }
  return out;
}

/**
 * POST /api/module/percentage: the refresh of each module, with the definition of the cluster refresh
 * (/api/cluster/clusterPercentage): active (not removed) SKUs of the body's composition, or of the saved
 * one, against the previous version of the module (the latest earlier month holding it).
 */
export async function modulePercentage(ctx: ServiceContext, list: ModulePercentageRequest): Promise<{ moduleDtoList: ModulePercentage[] }> {
  const rows = await viewable(ctx, list);
  const sent = new Map(list.map((m) => [moduleKeyString(m), m.productDtoList]));
  const out: ModulePercentage[] = [];
  for (const row of rows) {
    const page = sent.get(moduleKeyString(row));
    const lines = page
      ? page.filter((p) => p.moduleCompositionStatus !== 'REMOVED').map((p) => ({ upc: p.upc, mustHave: p.mustHave }))
      : await activeSkuLines(ctx.db, row.monthId, [row.moduleName]);
    const all = new Set(lines.map((l) => l.upc));
    const mh = new Set(lines.filter((l) => l.mustHave).map((l) => l.upc));
    const previous = await repo.previousModuleVersion(ctx.db, row.moduleName, row.monthId);
    const before = previous ? new Set((await activeSkuLines(ctx.db, previous.monthId, [row.moduleName])).map((l) => l.upc)) : null;
    out.push({
      moduleName: row.moduleName,
      monthId: row.monthId,
      percentageRefresh: before ? refreshPercentage(all, before) : null,
      previousMonthId: previous?.monthId ?? null,
      totalSku: all.size,
      totalMh: mh.size,
    });
  }
  return { moduleDtoList: out };
}

/**
 * POST /api/module/pendingModuleInfo: for each viewable module, whether the caller's Pending Area lists
 * it (the same SQL: `pendingWhere` with the caller's edit grants), why, and the planning system's warnings.
 */
export async function pendingModuleInfo(ctx: ServiceContext, keys: readonly ModuleKey[]): Promise<PendingModuleInfo[]> {
  const rows = await viewable(ctx, keys);
  const pending = new Map(
    (await repo.pendingModules(ctx.db, rows, visibilityOf(ctx.user.grants, ['edit']), ctx.config.LOCK_TTL_MINUTES)).map((p) => [
      moduleKeyString({ moduleName: p.name, monthId: p.monthId }),
      p,
    ]),
  );
  return rows.map((r) => {
    const p = pending.get(moduleKeyString(r));
    const rpasErrors = (r.rpasErrors ?? '')
      .split(';')
      .map((e) => e.trim())
      .filter(Boolean);
    const reason = !p ? null : p.status === 'SUBMIT_IN_PROGRESS' ? 'SUBMIT_STUCK' : rpasErrors.length ? 'PLANNING_SYSTEM_WARNINGS' : 'WIP';
    return { moduleName: r.moduleName, monthId: r.monthId, status: r.status, pending: !!p, reason, rpasErrors };
  });
}

/** The active lines of the rows, per module key, in the stored order of the lines' query. */
async function linesByModule(ctx: ServiceContext, rows: readonly Row[]) {
  const lines = await activeLines(ctx.db, [...new Set(rows.map((r) => r.moduleName))], [...new Set(rows.map((r) => r.monthId))]);
  const out = new Map<string, string[]>();
  for (const l of lines) out.set(moduleKeyString(l), [...(out.get(moduleKeyString(l)) ?? []), l.upc]);
  return out;
}

/**
 * POST /api/module/filteredDetails: per viewable module, its active SKUs that sold (sell-out above 0)
 * in the places of the performance filters over their rolling window ending with the module's month,
 * within `legoClassDes` (the figures of /api/module/modules with the same filters).
 */
export async function filteredDetails(ctx: ServiceContext, keys: readonly ModuleKey[], f: PerformanceFilters = {}) {
  const rows = await viewable(ctx, keys);
  const lines = await linesByModule(ctx, rows);
  const byMonth = new Map<string, Awaited<ReturnType<typeof performanceFigures>>>();
  for (const monthId of new Set(rows.map((r) => r.monthId))) {
    const upcs = rows.filter((r) => r.monthId === monthId).flatMap((r) => lines.get(moduleKeyString(r)) ?? []);
    byMonth.set(monthId, await performanceFigures(ctx, f, monthId, upcs));
  }
  return rows.map((r) => {
    const { kept, figures } = byMonth.get(r.monthId)!;
    const upcList = [...new Set(lines.get(moduleKeyString(r)) ?? [])].filter((u) => kept.has(u) && (figures.get(u)?.sellOut ?? 0) > 0);
    return { moduleName: r.moduleName, monthId: r.monthId, upcList };
  });
}

/** POST /api/module/filteredDetailsPty: per viewable module, its active SKUs with a pty above 0 in its month, largest first. */
export async function filteredDetailsPty(ctx: ServiceContext, keys: readonly ModuleKey[]) {
  const rows = await viewable(ctx, keys);
  const lines = await linesByModule(ctx, rows);
  const out = [];
  for (const r of rows) {
    const upcs = [...new Set(lines.get(moduleKeyString(r)) ?? [])];
    const stats = await statsFor(ctx.db, upcs, r.monthId);
    const skuList = upcs
      .map((upc) => ({ upc, pty: stats.get(upc)?.pty ?? 0 }))
      .filter((s) => s.pty > 0)
      .sort((a, b) => b.pty - a.pty || (a.upc < b.upc ? -1 : a.upc > b.upc ? 1 : 0));
    out.push({
      moduleName: r.moduleName,
      monthId: r.monthId,
      pty: skuList.reduce((sum, s) => sum + s.pty, 0),
      upcList: skuList.map((s) => s.upc),
      skuList,
    });
  }
  return out;
}
