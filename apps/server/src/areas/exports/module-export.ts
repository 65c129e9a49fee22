/**
 * The module kind of the export engine: a module exported with its SKU lines (no REMOVED ones),
 * Must Have first, as a spreadsheet row per line or a PDF page of cards.
 */
import { moduleKeyString } from '@bo/shared/item-keys';
import type { ModuleDto, ProductDto } from '@bo/shared/modules';
import type { Queryable } from '../../db/client.js';
import { findModules, moduleZones, type ModuleRow } from '../../items/module/modules.repository.js';
import { toModuleDtos } from '../../items/module/module.presenter.js';
import { legoMatches, narrowingSet, requireExportable, someKept, targetKey, type ExportKindDef, type ExportStatus, type ExportTarget } from './export-kind.js';
import type { ModuleUnit } from './module-xlsx.js';

/** A module's lines as exported: no REMOVED lines; Must Have first, then Eligible, each in the module's order. */
export function exportedLines(module: ModuleDto): ProductDto[] {
  const active = module.productDtoList.filter((p) => p.moduleCompositionStatus !== 'REMOVED');
  return [...active.filter((p) => p.mustHave), ...active.filter((p) => !p.mustHave)];
}

/** Whether the target's status and narrowing keep the module (see `narrowing` in @bo/shared/exports). */
export function keepsModule(target: ExportTarget, status: ExportStatus, module: Pick<ModuleDto, 'status' | 'legoMonth' | 'starZones' | 'clusters'>): boolean {
  if (status === 'Published' && module.status !== 'SUBMITTED') return false;
  if (!legoMatches(target, module.legoMonth)) return false;
  const zones = narrowingSet(target.zones);
  if (zones && !module.starZones.some((z) => zones.has(z))) return false;
  const customers = narrowingSet(target.customers);
  if (customers && !module.clusters.some((c) => c.starsCustomer.some((s) => customers.has(s)))) return false;
  return true;
}

const refOf = (t: ExportTarget) => ({ moduleName: t.name, monthId: t.monthId });

/** The live rows of the targets, by targetKey. */
async function rowsOf(db: Queryable, targets: readonly ExportTarget[]): Promise<Map<string, ModuleRow>> {
  return new Map((await findModules(db, targets.map(refOf))).map((r) => [moduleKeyString(r), r]));
}

export const moduleExport: ExportKindDef<ModuleUnit> = {
  kind: 'module',
  batch: 20,

  async check(ctx, targets, status) {
    const rows = await rowsOf(ctx.db, targets);
    const zones = await moduleZones(ctx.db, [...rows.values()].map((r) => r.id));
    requireExportable(ctx, 'module', targets, rows, (row) => ({ brand: row.brandCode, zones: zones.get(row.id) ?? [] }));
    const dtos = new Map(
      (await toModuleDtos(ctx.db, [...rows.values()], { lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES, withoutProducts: true })).map((d) => [moduleKeyString(d), d]),
    );
    return someKept(targets.filter((t) => keepsModule(t, status, dtos.get(targetKey(t))!)));
  },

  async read(db, targets, status, opts) {
    const rows = await rowsOf(db, targets);
    const dtos = new Map((await toModuleDtos(db, [...rows.values()], opts)).map((d) => [moduleKeyString(d), d]));
    const out = new Map<string, ModuleUnit>();
    for (const t of targets) {
      const module = dtos.get(targetKey(t));
      // A module deleted, reopened (Published) or narrowed away since the call is left out.
      if (module && keepsModule(t, status, module)) out.set(targetKey(t), { module, lines: exportedLines(module) });
    }
    return out;
  },

  label: ({ module }) => module.moduleLabel.trim() || module.moduleName,
  brand: ({ module }) => module.brand,
  skus: ({ lines }) => [...lines],
};
