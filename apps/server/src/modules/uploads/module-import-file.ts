/**
 * Reads an Import Module workbook (docs/IMPORTS.md "Import Module"): the header row names the columns
 * (MODULE_IMPORT_COLUMNS, case-insensitive, any order), each following row is one SKU line of one
 * module-month. Rows group by (Module name, Month) in the order the groups first appear. What a cell
 * gets wrong is said as `file row N, column C: reason`.
 */
import { isMonthId, toMonthId } from '@bo/shared/months';
import { MODULE_IMPORT_COLUMNS, MODULE_IMPORT_REQUIRED, type ModuleImportColumn } from '@bo/shared/uploads';
import { firstSheetRows, isBlank, NO_RESULT, type Cell, type SheetRow } from './xlsx-rows.js';

export interface ImportLine {
  fileRow: number;
  upc: string;
  mustHave: boolean;
  /** null: the cell is empty (an existing line keeps its value, a new one gets 1). */
  minValue: number | null;
}

export interface ModuleCreationFields {
  moduleLabel: string;
  macroFamily: string;
  brand: string;
  collection: string;
  /** null: the column is absent or empty (docs/IMPORTS.md: the zones the caller may import). */
  starZones: string[] | null;
}

/** One module-month of the file: its lines, what is wrong with its cells, and how to create it. */
export interface ModuleGroup {
  moduleName: string;
  monthId: string;
  firstRow: number;
  lines: ImportLine[];
  errors: string[];
  /** From the first row of the group that carries all of Module label, Macro family, Brand and Collection. */
  create: ModuleCreationFields | null;
}

export interface ModuleImportFile {
  groups: ModuleGroup[];
  /** Rows that belong to no module-month (no module name, no readable month). */
  rowErrors: { fileRow: number; message: string }[];
}

export type ColumnIndex = Partial<Record<ModuleImportColumn, number>>;

const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** Where each known column is in the header row (the first title wins when one is given twice). */
export function headerIndex(cells: readonly Cell[]): ColumnIndex {
  const byTitle = new Map(Object.entries(MODULE_IMPORT_COLUMNS).map(([key, title]) => [norm(title), key as ModuleImportColumn]));
  const index: ColumnIndex = {};
  cells.forEach((cell, i) => {
    const key = typeof cell === 'string' ? byTitle.get(norm(cell)) : undefined;
    if (key && index[key] === undefined) index[key] = i;
  });
  return index;
}

/** The titles of the required columns the header lacks. */
export const missingColumns = (index: ColumnIndex) => MODULE_IMPORT_REQUIRED.filter((k) => index[k] === undefined).map((k) => MODULE_IMPORT_COLUMNS[k]);

/** The header (first non-blank row) and whether a data row follows it: what the upload call checks before storing. */
export async function readHeader(file: Buffer): Promise<{ index: ColumnIndex; hasData: boolean } | null> {
  let index: ColumnIndex | null = null;
  for await (const row of firstSheetRows(file)) {
    if (isBlank(row.cells)) continue;
    if (!index) {
      index = headerIndex(row.cells);
      if (missingColumns(index).length) return { index, hasData: false };
      continue;
    }
    return { index, hasData: true };
  }
  return index ? { index, hasData: false } : null;
}

/** A cell as text (numbers as Excel shows integers: a UPC typed as a number is still its digits). */
function text(cell: Cell): string | null {
  if (cell === null) return null;
  if (typeof cell === 'string') return cell.trim();
  if (typeof cell === 'number') return Number.isInteger(cell) ? BigInt(cell).toString() : String(cell);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return null;
}

/** A month cell: M03_2027, 03/2027 or 3/2027, or a date. */
export function monthOf(cell: Cell): string | null {
  const t = text(cell);
  if (!t) return null;
  const upper = t.toUpperCase();
  if (isMonthId(upper)) return upper;
  const slash = /^(\d{1,2})\/(\d{4})$/.exec(t);
  if (slash && Number(slash[1]) >= 1 && Number(slash[1]) <= 12) return toMonthId(Number(slash[2]), Number(slash[1]));
  const iso = /^(\d{4})-(\d{2})-\d{2}$/.exec(t);
  if (iso && Number(iso[2]) >= 1 && Number(iso[2]) <= 12) return toMonthId(Number(iso[1]), Number(iso[2]));
  return null;
}

const MIN_VALUE_MAX = 99_999_999.9;

export const IMPORT_FILE_TEXTS = {
  at: (row: number, column: string, reason: string) => `file row ${row}, column ${column}: ${reason}`,
  empty: 'empty',
  formulaError: (error: string) => (error === NO_RESULT ? 'the formula has no saved value, or its value is an error' : `the formula gives ${error}`),
  badMonth: (value: string) => `'${value}' is not a month (M03_2027 or 03/2027)`,
  badClass: (value: string) => `'${value}' is not MH or EL`,
  badMinValue: (value: string) => `'${value}' is not a min value (a number from 0 to 99,999,999.9, one decimal at most)`,
  badUpc: (value: string) => `'${value}' is not a UPC`,
  twice: (upc: string, row: number) => `SKU ${upc} is already on file row ${row}`,
} as const;

/** Reads the groups of the workbook, row by row (streaming). */
export async function readModuleImport(file: Buffer): Promise<ModuleImportFile> {
  const groups = new Map<string, ModuleGroup>();
  const rowErrors: ModuleImportFile['rowErrors'] = [];
  let index: ColumnIndex | null = null;
  const T = MODULE_IMPORT_COLUMNS;
  for await (const row of firstSheetRows(file)) {
    if (isBlank(row.cells)) continue;
    if (!index) {
      index = headerIndex(row.cells);
      continue;
    }
    readRow(row, index, groups, rowErrors, T);
  }
  return { groups: [...groups.values()], rowErrors };
}

function readRow(row: SheetRow, index: ColumnIndex, groups: Map<string, ModuleGroup>, rowErrors: ModuleImportFile['rowErrors'], T: typeof MODULE_IMPORT_COLUMNS) {
  const n = row.number;
  const cell = (key: ModuleImportColumn): Cell => (index[key] === undefined ? null : (row.cells[index[key]!] ?? null));
  const errors: string[] = [];
  /** The cell as text, or null with the reason noted when it holds a formula error. */
  const read = (key: ModuleImportColumn): string | null => {
    const c = cell(key);
    if (c !== null && typeof c === 'object') {
      errors.push(IMPORT_FILE_TEXTS.at(n, T[key], IMPORT_FILE_TEXTS.formulaError(c.error)));
      return null;
    }
    return text(c);
  };
  const moduleName = read('moduleName');
  const monthText = read('monthId');
  const monthId = monthOf(cell('monthId'));
  if (!moduleName || !monthId) {
    if (!moduleName && errors.length === 0) errors.push(IMPORT_FILE_TEXTS.at(n, T.moduleName, IMPORT_FILE_TEXTS.empty));
    if (moduleName && !monthId && monthText) errors.push(IMPORT_FILE_TEXTS.at(n, T.monthId, IMPORT_FILE_TEXTS.badMonth(monthText)));
    else if (moduleName && !monthText && !errors.length) errors.push(IMPORT_FILE_TEXTS.at(n, T.monthId, IMPORT_FILE_TEXTS.empty));
    rowErrors.push({ fileRow: n, message: errors.join(', ') });
    return;
  }
  const key = `${moduleName}|${monthId}`;
  let group = groups.get(key);
  if (!group) {
    group = { moduleName, monthId, firstRow: n, lines: [], errors: [], create: null };
    groups.set(key, group);
  }
  const upc = read('upc');
  const cls = read('mustHave');
  const min = read('minValue');
  if (!upc && !errors.length) errors.push(IMPORT_FILE_TEXTS.at(n, T.upc, IMPORT_FILE_TEXTS.empty));
  else if (upc && !/^[\w.-]{1,20}$/.test(upc)) errors.push(IMPORT_FILE_TEXTS.at(n, T.upc, IMPORT_FILE_TEXTS.badUpc(upc)));
  const upperCls = cls?.toUpperCase();
  if (upperCls !== 'MH' && upperCls !== 'EL') errors.push(IMPORT_FILE_TEXTS.at(n, T.mustHave, cls ? IMPORT_FILE_TEXTS.badClass(cls) : IMPORT_FILE_TEXTS.empty));
  let minValue: number | null = null;
  if (min) {
    const value = Number(min.replace(',', '.'));
    if (!/^\d+([.,]\d+)?$/.test(min) || !Number.isFinite(value) || value > MIN_VALUE_MAX || Math.round(value * 10) / 10 !== value) {
      errors.push(IMPORT_FILE_TEXTS.at(n, T.minValue, IMPORT_FILE_TEXTS.badMinValue(min)));
    } else minValue = value;
  }
  const twice = upc ? group.lines.find((l) => l.upc === upc) : undefined;
  if (twice) errors.push(IMPORT_FILE_TEXTS.at(n, T.upc, IMPORT_FILE_TEXTS.twice(upc!, twice.fileRow)));
  if (errors.length) {
    group.errors.push(...errors);
    return;
  }
  group.lines.push({ fileRow: n, upc: upc!, mustHave: upperCls === 'MH', minValue });
  if (!group.create) {
    const label = read('moduleLabel');
    const family = read('macroFamily');
    const brand = read('brand');
    const collection = read('collection');
    if (label && family && brand && collection) {
      const zones = read('starsZones');
      const starZones = zones ? [...new Set(zones.split(/[,\s]+/).filter(Boolean))] : null;
      group.create = { moduleLabel: label, macroFamily: family, brand, collection, starZones: starZones?.length ? starZones : null };
    }
  }
}
