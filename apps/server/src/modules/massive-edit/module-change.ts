/**
 * What a module row of the massive edit does to one module in one month (part 2 §3): the SKUs of ADD
 * go in with the row's STATUS (new ones at the end, ones in the bin come back, ones already there move
 * to that class), the SKUs of REMOVE go to the bin, the SKUs of the min-value list get the row's min
 * value, and a DESCRIPTION replaces the module's. The lifecycle core (item-change.ts) decides whether the
 * module may change at all; this file only says how its content changes.
 */
import { MASSIVE_EDIT_TEXTS, type ModuleMassiveEditRow } from '@bo/shared/massive-edit';
import type { CompositionLine } from '@bo/shared/modules';
import { canReopen } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { changeTexts, type ChangeKind } from '../lifecycle/item-change.js';
import { MODULE_TEXTS, moduleKind } from '../lifecycle/module-kind.js';
import { readCompositions, skuScopes, writeCompositionChanges } from '../modules/module-composition.repository.js';
import { updateModuleRow, type ModuleRow } from '../modules/modules.repository.js';

export interface ModuleContent {
  description: string;
  lines: CompositionLine[];
}

/** What a module change needs to know besides the module: the brand and collection of the row's SKUs. */
export interface ModuleEnv {
  skus: ReadonlyMap<string, { brandCode: string; collection: string; deleted: boolean }>;
}

export const MODULE_CHANGE_TEXTS = {
  notInModule: (upcs: readonly string[]) => `SKU ${upcs.join(', ')} is not in the module: it cannot get a min value`,
  otherScope: (upcs: readonly string[]) => `SKU ${upcs.join(', ')} is not of the module's brand and collection`,
  unknownSku: (upcs: readonly string[]) => `Unknown SKU ${upcs.join(', ')}`,
  deletedSku: (upcs: readonly string[]) => `SKU ${upcs.join(', ')} is deleted and cannot be added`,
  added: (upc: string, cls: string) => `Added SKU ${upc} as ${cls}`,
  restored: (upc: string, cls: string) => `SKU ${upc} back from the bin as ${cls}`,
  moved: (upc: string, from: string, to: string) => `SKU ${upc} moved from ${from} to ${to}`,
  removed: (upc: string) => `Removed SKU ${upc}`,
  minValue: (upc: string, from: number, to: number) => `Min value of SKU ${upc}: ${from} → ${to}`,
  description: (from: string, to: string) => `Description: "${from}" → "${to}"`,
} as const;

/** The env of these rows: one read of their SKUs. */
export async function moduleEnv(db: Queryable, rows: readonly ModuleMassiveEditRow[]): Promise<ModuleEnv> {
  const upcs = [...new Set(rows.flatMap((r) => [...r.upcToAddList, ...r.upcToRemoveList, ...r.upcMinValueSkuList]))];
  return { skus: await skuScopes(db, upcs) };
}

const cls = (mustHave: boolean) => (mustHave ? 'MH' : 'EL');

/** The module row's change of one module's content (pure). */
export function changeModule(content: ModuleContent, edit: ModuleMassiveEditRow, row: ModuleRow, env: ModuleEnv): { next: ModuleContent; changes: string[] } | { error: string } {
  const unknown = [...edit.upcToAddList, ...edit.upcToRemoveList, ...edit.upcMinValueSkuList].filter((u) => !env.skus.has(u));
  if (unknown.length) return { error: MODULE_CHANGE_TEXTS.unknownSku([...new Set(unknown)]) };
  const otherScope = edit.upcToAddList.filter((u) => {
    const sku = env.skus.get(u)!;
    return sku.brandCode !== row.brandCode || sku.collection !== row.collection;
  });
  if (otherScope.length) return { error: MODULE_CHANGE_TEXTS.otherScope(otherScope) };
  const deleted = edit.upcToAddList.filter((u) => env.skus.get(u)!.deleted);
  if (deleted.length) return { error: MODULE_CHANGE_TEXTS.deletedSku(deleted) };

  const changes: string[] = [];
  const lines = content.lines.map((l) => ({ ...l }));
  const index = new Map(lines.map((l, i) => [l.upc, i]));
  const mustHave = edit.upcStatus === 'MH';
  for (const upc of edit.upcToAddList) {
    const i = index.get(upc);
    if (i === undefined) {
      index.set(upc, lines.length);
      lines.push({ upc, mustHave, moduleCompositionStatus: 'ADDED', minValue: 1, previousStatus: null });
      changes.push(MODULE_CHANGE_TEXTS.added(upc, edit.upcStatus));
      continue;
    }
    const line = lines[i]!;
    if (line.moduleCompositionStatus === 'REMOVED') {
      lines[i] = { ...line, mustHave, moduleCompositionStatus: 'ADDED', previousStatus: null };
      changes.push(MODULE_CHANGE_TEXTS.restored(upc, edit.upcStatus));
    } else if (line.mustHave !== mustHave) {
      lines[i] = { ...line, mustHave };
      changes.push(MODULE_CHANGE_TEXTS.moved(upc, cls(line.mustHave), edit.upcStatus));
    }
  }
  for (const upc of edit.upcToRemoveList) {
    const i = index.get(upc);
    const line = i === undefined ? undefined : lines[i];
    if (!line || line.moduleCompositionStatus === 'REMOVED') continue;
    lines[i!] = { ...line, moduleCompositionStatus: 'REMOVED', previousStatus: line.moduleCompositionStatus };
    changes.push(MODULE_CHANGE_TEXTS.removed(upc));
  }
  const absent = edit.upcMinValueSkuList.filter((u) => {
    const i = index.get(u);
    return i === undefined || lines[i]!.moduleCompositionStatus === 'REMOVED';
  });
  if (absent.length) return { error: MODULE_CHANGE_TEXTS.notInModule(absent) };
  for (const upc of edit.upcMinValueSkuList) {
    const i = index.get(upc)!;
    const line = lines[i]!;
    const before = line.minValue ?? 1;
    if (before === edit.upcMinValueSkuValue) continue;
    lines[i] = { ...line, minValue: edit.upcMinValueSkuValue };
    changes.push(MODULE_CHANGE_TEXTS.minValue(upc, before, edit.upcMinValueSkuValue));
  }
  let description = content.description;
  if (edit.moduleDescription && edit.moduleDescription !== content.description) {
    changes.push(MODULE_CHANGE_TEXTS.description(content.description, edit.moduleDescription));
    description = edit.moduleDescription;
  }
  return { next: { description, lines }, changes };
}

/** A module, as a massive edit changes it. */
export const moduleChange: ChangeKind<ModuleRow, ModuleContent, ModuleMassiveEditRow, ModuleEnv> = {
  kind: moduleKind,
  label: (row) => row.moduleLabel,
  async loadContent(db, rows) {
    const compositions = await readCompositions(
      db,
      rows.map((r) => r.id),
    );
    return new Map(rows.map((r) => [r.id, { description: r.moduleDescription, lines: compositions.get(r.id)! }]));
  },
  change: changeModule,
  async write(tx, row, before, after, state) {
    await writeCompositionChanges(tx, row.id, before.lines, after.lines);
    await updateModuleRow(tx, row.id, {
      moduleDescription: after.description,
      status: state.status,
      // Reopened: the planning system's warnings were about the version it no longer has.
      ...(state.reopened ? { rpasErrors: null } : {}),
      version: row.version + 1,
      updatedAt: new Date(),
      updatedBy: state.username,
    });
  },
  reopens: true,
  extraRefusal: (grants, scope, row) => (row.status === 'SUBMITTED' && !canReopen(grants, scope) ? MODULE_TEXTS.reopenRequired : null),
  texts: changeTexts('module', MODULE_TEXTS.submitInProgress, (name, toPublish) => (toPublish ? MASSIVE_EDIT_TEXTS.submitError : MASSIVE_EDIT_TEXTS.editError)('module', [name])),
};
