/**
 * Import Module's change of one module-month (docs/IMPORTS.md): the file's lines are the module's active
 * composition. A SKU not in the module is added with its class, one in the bin comes back, class and
 * min value follow the file (an empty min value keeps the line's), active SKUs missing from the file go
 * to the bin; REMOVED lines not in the file stay. The lifecycle core (lifecycle/item-change.ts) decides
 * whether the module may change at all — with the import right instead of the edit right — and the
 * massive edit engine runs it (items/lifecycle/change-job.ts).
 */
import { canImportItem } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { changeTexts, type ChangeKind } from '../../items/lifecycle/item-change.js';
import { MODULE_TEXTS } from '@bo/shared/modules';
import { moduleChange, moduleNaming, type ModuleContent, type ModuleEnv } from '../../items/module/module-change.js';
import { skuScopes } from '../../items/module/module-composition.repository.js';
import { CompositionDraft, skuProblem, type SkuProblem } from '../../items/module/module-lines.js';
import type { ModuleRow } from '../../items/module/modules.repository.js';
import { IMPORT_FILE_TEXTS, listReasons } from './import-file.js';
import { importEditType } from './import.job.js';
import type { ImportLine } from './module-import-file.js';
import { staleRefusal } from './stale-version.js';

/** What the import asks of one module-month. */
export interface ModuleImportEdit {
  moduleName: string;
  monthId: string;
  lines: ImportLine[];
  /**
   * The module's version the file was exported at: another current version refuses the change
   * (stale-version.ts). Null: not guarded (no Version in the file, or the caller overwrites it).
   */
  fileVersion?: number | null;
}

export const MODULE_IMPORT_TEXTS = {
  unknown: (upc: string) => `unknown SKU ${upc}`,
  otherScope: (upc: string, brand: string, collection: string) => `SKU ${upc} is not of the module's brand and collection (${brand} ${collection})`,
  deleted: (upc: string) => `SKU ${upc} is deleted and cannot be added`,
  notAuthorized: (name: string) => `You don't have the right to import the module ${name}`,
} as const;

/** The env of these edits: one read of their SKUs. */
async function moduleImportEnv(db: Queryable, edits: readonly ModuleImportEdit[]): Promise<ModuleEnv> {
  return { skus: await skuScopes(db, [...new Set(edits.flatMap((e) => e.lines.map((l) => l.upc)))]) };
}

const refusal = (problem: SkuProblem, upc: string, row: ModuleRow) =>
  problem === 'otherScope' ? MODULE_IMPORT_TEXTS.otherScope(upc, row.brandCode, row.collection) : MODULE_IMPORT_TEXTS[problem](upc);

/** The module's content with the file's lines as its active composition (pure). */
function replaceComposition(content: ModuleContent, edit: ModuleImportEdit, row: ModuleRow, env: ModuleEnv): { next: ModuleContent; changes: string[] } | { error: string } {
  const stale = staleRefusal(row, edit.fileVersion ?? null);
  if (stale) return { error: stale };
  const draft = new CompositionDraft(content.lines);
  const errors: string[] = [];
  for (const line of edit.lines) {
    const problem = skuProblem(env.skus.get(line.upc), row, !draft.isActive(line.upc));
    if (problem) errors.push(IMPORT_FILE_TEXTS.at(line.fileRow, 'UPC', refusal(problem, line.upc, row)));
    else draft.put(line.upc, line.mustHave, line.minValue);
  }
  if (errors.length) return { error: listReasons(errors) };
  const inFile = new Set(edit.lines.map((l) => l.upc));
  for (const upc of draft.activeUpcs()) if (!inFile.has(upc)) draft.remove(upc);
  return { next: { description: content.description, lines: [...draft.lines] }, changes: [...draft.changes] };
}

/** A module as Import Module changes it: the massive edit's module, with the import right and the replacing change. */
export const moduleImportChange: ChangeKind<ModuleRow, ModuleContent, ModuleImportEdit, ModuleEnv> = {
  ...moduleChange,
  change: replaceComposition,
  mayChange: (grants, scope) => canImportItem(grants, scope),
  texts: changeTexts('module', MODULE_TEXTS.submitInProgress, (name) => MODULE_IMPORT_TEXTS.notAuthorized(name)),
};

/** Import Module as a kind of massive edit: one step per existing module-month, never published. */
export const moduleImportEditType = importEditType(moduleNaming, { jobKind: 'upload-module', change: moduleImportChange, env: moduleImportEnv }, (edit) => edit.moduleName);
