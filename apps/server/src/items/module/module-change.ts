/**
 * What a module row of the massive edit does to one module in one month (part 2 §3): the SKUs of ADD
 * go in with the row's STATUS (new ones at the end, ones in the bin come back, ones already there move
 * to that class), the SKUs of REMOVE go to the bin, the SKUs of the min-value list get the row's min
 * value, and a DESCRIPTION replaces the module's. The lifecycle core (item-change.ts) decides whether the
 * module may change at all; this file only says how its content changes, through the line operations
 * shared with Import Module (items/module/module-lines.ts).
 */
import { MASSIVE_EDIT_TEXTS, type ModuleMassiveEditRow } from '@bo/shared/massive-edit';
import { MODULE_TEXTS, type CompositionLine } from '@bo/shared/modules';
import { canReopen } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { changeTexts, type ChangeKind } from '../lifecycle/item-change.js';
import { moduleKind } from './module-kind.js';
import { readCompositions, skuScopes, writeCompositionChanges } from './module-composition.repository.js';
import { CompositionDraft, skuProblem, type SkuProblem, type SkuScope } from './module-lines.js';
import { updateModuleRow, type ModuleRow } from './modules.repository.js';
import { modulesNamed } from './module-names.repository.js';
import type { EditType } from '../lifecycle/change-plan.js';

export interface ModuleContent {
  description: string;
  lines: CompositionLine[];
}

/** What a module change needs to know besides the module: the brand and collection of the row's SKUs. */
export interface ModuleEnv {
  skus: ReadonlyMap<string, SkuScope>;
}

/** The massive edit's own texts; the line changes are MODULE_LINE_TEXTS (items/module/module-lines.ts). */
const MODULE_CHANGE_TEXTS = {
  notInModule: (upcs: readonly string[]) => `SKU ${upcs.join(', ')} is not in the module: it cannot get a min value`,
  otherScope: (upcs: readonly string[]) => `SKU ${upcs.join(', ')} is not of the module's brand and collection`,
  unknownSku: (upcs: readonly string[]) => `Unknown SKU ${upcs.join(', ')}`,
  deletedSku: (upcs: readonly string[]) => `SKU ${upcs.join(', ')} is deleted and cannot be added`,
  description: (from: string, to: string) => `Description: "${from}" → "${to}"`,
} as const;

/** The env of these rows: one read of their SKUs. */
export async function moduleEnv(db: Queryable, rows: readonly ModuleMassiveEditRow[]): Promise<ModuleEnv> {
  const upcs = [...new Set(rows.flatMap((r) => [...r.upcToAddList, ...r.upcToRemoveList, ...r.upcMinValueSkuList]))];
  return { skus: await skuScopes(db, upcs) };
}

/** The module row's change of one module's content (pure). */
function changeModule(content: ModuleContent, edit: ModuleMassiveEditRow, row: ModuleRow, env: ModuleEnv): { next: ModuleContent; changes: string[] } | { error: string } {
  // Every SKU of the row must exist; only the SKUs to add must be of the module's scope and not deleted.
  const unknown = [...edit.upcToAddList, ...edit.upcToRemoveList, ...edit.upcMinValueSkuList].filter((u) => !env.skus.has(u));
  if (unknown.length) return { error: MODULE_CHANGE_TEXTS.unknownSku([...new Set(unknown)]) };
  const toAdd = (problem: SkuProblem) => edit.upcToAddList.filter((u) => skuProblem(env.skus.get(u), row, true) === problem);
  const otherScope = toAdd('otherScope');
  if (otherScope.length) return { error: MODULE_CHANGE_TEXTS.otherScope(otherScope) };
  const deleted = toAdd('deleted');
  if (deleted.length) return { error: MODULE_CHANGE_TEXTS.deletedSku(deleted) };

  const draft = new CompositionDraft(content.lines);
  for (const upc of edit.upcToAddList) draft.put(upc, edit.upcStatus === 'MH');
  for (const upc of edit.upcToRemoveList) draft.remove(upc);
  const absent = edit.upcMinValueSkuList.filter((u) => !draft.isActive(u));
  if (absent.length) return { error: MODULE_CHANGE_TEXTS.notInModule(absent) };
  for (const upc of edit.upcMinValueSkuList) draft.setMinValue(upc, edit.upcMinValueSkuValue);
  const changes = [...draft.changes];
  let description = content.description;
  if (edit.moduleDescription && edit.moduleDescription !== content.description) {
    changes.push(MODULE_CHANGE_TEXTS.description(content.description, edit.moduleDescription));
    description = edit.moduleDescription;
  }
  return { next: { description, lines: [...draft.lines] }, changes };
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

/** Which modules a row's names or labels mean, and what it says when one means none: the massive edit's module rows and Import Module share it. */
export const moduleNaming: Pick<EditType<ModuleRow, unknown, never, unknown>, 'type' | 'named' | 'texts'> = {
  type: 'module',
  named: modulesNamed,
  texts: {
    unknownItem: (token) => `Unknown module ${token}`,
    noOpenMonth: (token) => `The module ${token} is in no open month`,
  },
};
