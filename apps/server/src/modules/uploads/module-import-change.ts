/**
 * Import Module's change of one module-month (docs/IMPORTS.md): the file's lines are the module's active
 * composition. A SKU not in the module is added with its class, one in the bin comes back, class and
 * min value follow the file (an empty min value keeps the line's), active SKUs missing from the file go
 * to the bin; REMOVED lines not in the file stay. The lifecycle core (lifecycle/item-change.ts) decides
 * whether the module may change at all — with the import right instead of the edit right — and the
 * massive edit engine runs it (massive-edit/massive-edit.job.ts).
 */
import type { CompositionLine } from '@bo/shared/modules';
import { canImportItem } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { changeTexts, type ChangeKind } from '../lifecycle/item-change.js';
import { MODULE_TEXTS } from '../lifecycle/module-kind.js';
import { moduleEditType } from '../massive-edit/massive-edit-types.js';
import { MODULE_CHANGE_TEXTS, moduleChange, type ModuleContent, type ModuleEnv } from '../massive-edit/module-change.js';
import { skuScopes } from '../modules/module-composition.repository.js';
import type { ModuleRow } from '../modules/modules.repository.js';
import { IMPORT_FILE_TEXTS, listReasons } from './import-file.js';
import { importEditType } from './import.job.js';
import type { ImportLine } from './module-import-file.js';

/** What the import asks of one module-month. */
export interface ModuleImportEdit {
  moduleName: string;
  monthId: string;
  lines: ImportLine[];
}

export const MODULE_IMPORT_TEXTS = {
  unknownSku: (upc: string) => `unknown SKU ${upc}`,
  otherScope: (upc: string, brand: string, collection: string) => `SKU ${upc} is not of the module's brand and collection (${brand} ${collection})`,
  deletedSku: (upc: string) => `SKU ${upc} is deleted and cannot be added`,
  notAuthorized: (name: string) => `You don't have the right to import the module ${name}`,
} as const;

const cls = (mustHave: boolean) => (mustHave ? 'MH' : 'EL');

/** The env of these edits: one read of their SKUs. */
export async function moduleImportEnv(db: Queryable, edits: readonly ModuleImportEdit[]): Promise<ModuleEnv> {
  return { skus: await skuScopes(db, [...new Set(edits.flatMap((e) => e.lines.map((l) => l.upc)))]) };
}

/** The module's content with the file's lines as its active composition (pure). */
export function replaceComposition(content: ModuleContent, edit: ModuleImportEdit, row: ModuleRow, env: ModuleEnv): { next: ModuleContent; changes: string[] } | { error: string } {
  const lines: CompositionLine[] = content.lines.map((l) => ({ ...l }));
  const index = new Map(lines.map((l, i) => [l.upc, i]));
  const errors: string[] = [];
  const changes: string[] = [];
  const at = (line: ImportLine, reason: string) => IMPORT_FILE_TEXTS.at(line.fileRow, 'UPC', reason);
  const inFile = new Set<string>();
  for (const line of edit.lines) {
    inFile.add(line.upc);
    const sku = env.skus.get(line.upc);
    if (!sku) {
      errors.push(at(line, MODULE_IMPORT_TEXTS.unknownSku(line.upc)));
      continue;
    }
    if (sku.brandCode !== row.brandCode || sku.collection !== row.collection) {
      errors.push(at(line, MODULE_IMPORT_TEXTS.otherScope(line.upc, row.brandCode, row.collection)));
      continue;
    }
    const i = index.get(line.upc);
    const current = i === undefined ? undefined : lines[i]!;
    const active = current && current.moduleCompositionStatus !== 'REMOVED';
    if (!active && sku.deleted) {
      errors.push(at(line, MODULE_IMPORT_TEXTS.deletedSku(line.upc)));
      continue;
    }
    const minValue = line.minValue ?? current?.minValue ?? 1;
    if (!current) {
      index.set(line.upc, lines.length);
      lines.push({ upc: line.upc, mustHave: line.mustHave, moduleCompositionStatus: 'ADDED', minValue, previousStatus: null });
      changes.push(MODULE_CHANGE_TEXTS.added(line.upc, cls(line.mustHave)));
      continue;
    }
    if (!active) {
      lines[i!] = { ...current, mustHave: line.mustHave, moduleCompositionStatus: 'ADDED', previousStatus: null, minValue };
      changes.push(MODULE_CHANGE_TEXTS.restored(line.upc, cls(line.mustHave)));
      continue;
    }
    if (current.mustHave !== line.mustHave) {
      lines[i!] = { ...lines[i!]!, mustHave: line.mustHave };
      changes.push(MODULE_CHANGE_TEXTS.moved(line.upc, cls(current.mustHave), cls(line.mustHave)));
    }
    const before = current.minValue ?? 1;
    if (line.minValue !== null && line.minValue !== before) {
      lines[i!] = { ...lines[i!]!, minValue: line.minValue };
      changes.push(MODULE_CHANGE_TEXTS.minValue(line.upc, before, line.minValue));
    }
  }
  if (errors.length) return { error: listReasons(errors) };
  for (const [i, line] of lines.entries()) {
    if (line.moduleCompositionStatus === 'REMOVED' || inFile.has(line.upc)) continue;
    lines[i] = { ...line, moduleCompositionStatus: 'REMOVED', previousStatus: line.moduleCompositionStatus };
    changes.push(MODULE_CHANGE_TEXTS.removed(line.upc));
  }
  return { next: { description: content.description, lines }, changes };
}

/** A module as Import Module changes it: the massive edit's module, with the import right and the replacing change. */
export const moduleImportChange: ChangeKind<ModuleRow, ModuleContent, ModuleImportEdit, ModuleEnv> = {
  ...moduleChange,
  change: replaceComposition,
  mayChange: (grants, scope) => canImportItem(grants, scope),
  texts: changeTexts('module', MODULE_TEXTS.submitInProgress, (name) => MODULE_IMPORT_TEXTS.notAuthorized(name)),
};

/** Import Module as a kind of massive edit: one step per existing module-month, never published. */
export const moduleImportEditType = importEditType(moduleEditType, { jobKind: 'upload-module', change: moduleImportChange, env: moduleImportEnv }, (edit) => edit.moduleName);
