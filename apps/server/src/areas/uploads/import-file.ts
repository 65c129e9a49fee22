/**
 * What every import workbook has in common (docs/IMPORTS.md): the first visible tab, its first non-blank
 * row is the header naming the columns (by title, case-insensitive, any order, other columns ignored),
 * each following row belongs to one item-month, named by an item column and a Month column. Rows group
 * by (item, month) in the order the groups first appear; the kind of import reads the rest of each row.
 * What a cell gets wrong is said as `file row N, column C: reason`.
 */
import { itemKeyString } from '@bo/shared/item-keys';
import { isMonthId, toMonthId } from '@bo/shared/months';
import { firstSheetRows, isBlank, NO_RESULT, type Cell, type SheetRow } from '../../lib/xlsx/xlsx-rows.js';
import { serialDate } from '../../lib/xlsx/xlsx-sheet.js';

/** The columns of one kind of import: their titles, which are required, and which name the item-month. */
export interface ImportColumns<K extends string> {
  titles: Readonly<Record<K, string>>;
  /** Without these the workbook is refused (400 missingColumns). */
  required: readonly K[];
  /** A required column another may stand for (Import Cluster: 'Module names' for 'Module name'). */
  standIns?: Partial<Record<K, K>>;
  item: K;
  month: K;
}

type ColumnIndex<K extends string = string> = Partial<Record<K, number>>;

/** The rows of one item-month (the item as the file names it). */
export interface ImportGroup<Line> {
  itemKey: string;
  monthId: string;
  firstRow: number;
  lines: Line[];
  /** What is wrong with its cells: the whole group is refused. */
  errors: string[];
}

interface RowError {
  fileRow: number;
  message: string;
}

interface ImportFile<G> {
  groups: G[];
  /** Rows that belong to no item-month (no item, no readable month). */
  rowErrors: RowError[];
}

/** One data row as a kind of import reads it. */
export interface ImportRow<K extends string> {
  /** 1-based, as Excel shows it. */
  number: number;
  cell(key: K): Cell;
  /** Whether the header has that column. */
  has(key: K): boolean;
  /** The cell as text, or null with the reason noted in `errors` when it holds a formula error. */
  read(key: K): string | null;
  /** Notes `file row N, column C: reason`. */
  fail(key: K, reason: string): void;
  errors: string[];
}

/** At most this many reasons are listed for one item-month (then "and N more"). */
const MAX_REASONS = 20;

export const IMPORT_FILE_TEXTS = {
  at: (row: number, column: string, reason: string) => `file row ${row}, column ${column}: ${reason}`,
  empty: 'empty',
  formulaError: (error: string) => (error === NO_RESULT ? 'the formula has no saved value, or its value is an error' : `the formula gives ${error}`),
  badMonth: (value: string) => `'${value}' is not a month (M03_2027 or 03/2027)`,
  moreErrors: (n: number) => `and ${n} more`,
} as const;

export const listReasons = (reasons: readonly string[]) =>
  reasons.length > MAX_REASONS ? `${reasons.slice(0, MAX_REASONS).join(', ')} ${IMPORT_FILE_TEXTS.moreErrors(reasons.length - MAX_REASONS)}` : reasons.join(', ');

const norm = (title: string) => title.trim().replace(/\s+/g, ' ').toLowerCase();

/** Where each known column is in the header row (the first title wins when one is given twice). */
function headerIndex<K extends string>(columns: ImportColumns<K>, cells: readonly Cell[]): ColumnIndex<K> {
  const byTitle = new Map((Object.entries(columns.titles) as [K, string][]).map(([key, title]) => [norm(title), key]));
  const index: ColumnIndex<K> = {};
  cells.forEach((cell, i) => {
    const key = typeof cell === 'string' ? byTitle.get(norm(cell)) : undefined;
    if (key && index[key] === undefined) index[key] = i;
  });
  return index;
}

/** The titles of the required columns the header lacks. */
export const missingColumns = <K extends string>(columns: ImportColumns<K>, index: ColumnIndex<K>): string[] =>
  columns.required
    .filter((k) => index[k] === undefined && (columns.standIns?.[k] === undefined || index[columns.standIns[k]] === undefined))
    .map((k) => columns.titles[k] ?? k);

/** The header (first non-blank row) and whether a data row follows it: what the upload call checks before storing. */
export async function readHeader<K extends string>(file: Buffer, columns: ImportColumns<K>): Promise<{ index: ColumnIndex<K>; hasData: boolean } | null> {
  let index: ColumnIndex<K> | null = null;
  for await (const row of firstSheetRows(file)) {
    if (isBlank(row.cells)) continue;
    if (!index) {
      index = headerIndex(columns, row.cells);
      if (missingColumns(columns, index).length) return { index, hasData: false };
      continue;
    }
    return { index, hasData: true };
  }
  return index ? { index, hasData: false } : null;
}

/** A cell as text (numbers as Excel shows integers: a UPC typed as a number is still its digits). */
export function text(cell: Cell): string | null {
  if (cell === null) return null;
  if (typeof cell === 'string') return cell.trim();
  if (typeof cell === 'number') return Number.isInteger(cell) ? BigInt(cell).toString() : String(cell);
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return null;
}

/**
 * A month cell: M03_2027, 03/2027 or 3/2027, or a date — a date cell comes as its serial number (styles are not
 * read), so any number is taken as a serial date, of the workbook's date system (`date1904`); text
 * `YYYY-MM-DD` counts too. Any day of the month gives the month.
 */
export function monthOf(cell: Cell, date1904 = false): string | null {
  if (typeof cell === 'number') {
    const date = serialDate(cell, date1904);
    return date ? toMonthId(Number(date.slice(0, 4)), Number(date.slice(5, 7))) : null;
  }
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

function importRow<K extends string>(row: SheetRow, index: ColumnIndex<K>, columns: ImportColumns<K>): ImportRow<K> {
  const errors: string[] = [];
  const fail = (key: K, reason: string) => errors.push(IMPORT_FILE_TEXTS.at(row.number, columns.titles[key], reason));
  const cell = (key: K): Cell => (index[key] === undefined ? null : (row.cells[index[key]] ?? null));
  const read = (key: K): string | null => {
    const c = cell(key);
    if (c !== null && typeof c === 'object') {
      fail(key, IMPORT_FILE_TEXTS.formulaError(c.error));
      return null;
    }
    return text(c);
  };
  return { number: row.number, cell, has: (key) => index[key] !== undefined, read, fail, errors };
}

/** The format of one kind of import: its columns, and how it reads the rest of a row into its group. */
export interface ImportFormat<K extends string, G extends ImportGroup<unknown>> extends ImportColumns<K> {
  /** The group with the kind's own fields. */
  newGroup(group: ImportGroup<never>): G;
  /** Adds a line to the group, or notes what is wrong in `row.errors` (which refuse the group). */
  readRow(row: ImportRow<K>, group: G): void;
}

/**
 * Reads the groups of the workbook, row by row (streaming). A row without its item or a readable month
 * is a row error; the others go to their group, whose kind reads the rest.
 */
export async function readImportFile<K extends string, G extends ImportGroup<unknown>>(file: Buffer, format: ImportFormat<K, G>): Promise<ImportFile<G>> {
  const columns = format;
  const groups = new Map<string, G>();
  const rowErrors: RowError[] = [];
  let index: ColumnIndex<K> | null = null;
  for await (const sheetRow of firstSheetRows(file)) {
    if (isBlank(sheetRow.cells)) continue;
    if (!index) {
      index = headerIndex(columns, sheetRow.cells);
      continue;
    }
    const row = importRow(sheetRow, index, columns);
    const itemKey = row.read(columns.item);
    const monthText = row.read(columns.month);
    const monthId = monthOf(row.cell(columns.month), sheetRow.date1904);
    if (!itemKey || !monthId) {
      if (!itemKey && row.errors.length === 0) row.fail(columns.item, IMPORT_FILE_TEXTS.empty);
      if (itemKey && !monthId && monthText) row.fail(columns.month, IMPORT_FILE_TEXTS.badMonth(monthText));
      else if (itemKey && !monthText && !row.errors.length) row.fail(columns.month, IMPORT_FILE_TEXTS.empty);
      rowErrors.push({ fileRow: row.number, message: row.errors.join(', ') });
      continue;
    }
    const key = itemKeyString({ itemKey, monthId });
    let group = groups.get(key);
    if (!group) {
      group = format.newGroup({ itemKey, monthId, firstRow: row.number, lines: [], errors: [] });
      groups.set(key, group);
    }
    format.readRow(row, group);
    group.errors.push(...row.errors);
  }
  return { groups: [...groups.values()], rowErrors };
}
