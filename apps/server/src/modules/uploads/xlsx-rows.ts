/**
 * Rows of a workbook's first worksheet, read with ExcelJS's streaming reader (a row at a time, never
 * the whole sheet in memory). Formulas are never evaluated: a formula cell gives its cached result,
 * and a cell whose result is an Excel error (#N/A, #REF! …) is marked as such.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { zipEntries } from './xlsx-check.js';

/** The `error` of a formula cell without a saved result. */
export const NO_RESULT = '';

/** A cell as the import reads it. */
export type Cell = string | number | boolean | { error: string } | null;

export interface SheetRow {
  /** 1-based, as Excel shows it. */
  number: number;
  /** 0-based by column (A = 0). */
  cells: Cell[];
}

/** One cell's value, formulas replaced by their cached result. */
export function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('error' in v && typeof v.error === 'string') return { error: v.error };
    if ('formula' in v || 'sharedFormula' in v) {
      // No saved result: never computed, or an error (ExcelJS's streaming reader drops error results).
      if (v.result === undefined || v.result === null) return { error: NO_RESULT };
      return cellOf(v.result);
    }
    if (Array.isArray(v.richText)) return cellOf((v.richText as { text?: string }[]).map((r) => r.text ?? '').join(''));
    if ('text' in v) return cellOf(v.text);
    if ('result' in v) return cellOf(v.result);
  }
  return null;
}

/** Whether a row has no value at all. */
export const isBlank = (cells: readonly Cell[]) => cells.every((c) => c === null);

/**
 * A read of the workbook that lost zip entries (ExcelJS's streaming reader, see `firstSheetRows`): read it
 * again. Also thrown by the release loader's reader (release-loader/read-records.ts).
 */
export class LostEntries extends Error {
  constructor() {
    super('the reader missed xl/workbook.xml or xl/sharedStrings.xml, which the zip holds');
  }
}

/** How many times a workbook that loses entries is read, in all. */
export const READ_ATTEMPTS = 3;

/** Which of the entries a worksheet is read with the zip holds, by its central directory. */
export interface ZipHolds {
  workbook: boolean;
  sharedStrings: boolean;
}

export const zipHolds = (names: Iterable<string>): ZipHolds => {
  const set = new Set(names);
  return { workbook: set.has('xl/workbook.xml'), sharedStrings: set.has('xl/sharedStrings.xml') };
};

/** What the guard looks at in ExcelJS's streaming reader (its own fields, missing from its types). */
export interface ReaderState {
  model?: unknown;
  sharedStrings?: unknown;
}

/**
 * Makes `reader` throw LostEntries when it starts on a worksheet without an entry the zip holds: checked when
 * ExcelJS starts on a worksheet, before it reads the workbook's model — no row has been given out yet.
 * `beforeCheck` is for tests only: it sees the reader first and may change it (to lose its shared strings).
 */
export function guardLostEntries(reader: ExcelJS.stream.xlsx.WorkbookReader, holds: ZipHolds, beforeCheck?: (reader: ReaderState) => void): void {
  const read = reader as unknown as ReaderState & { _parseWorksheet: (...args: unknown[]) => Generator<unknown> };
  const parseWorksheet = read._parseWorksheet;
  read._parseWorksheet = function (...args: unknown[]) {
    beforeCheck?.(read);
    if ((holds.workbook && read.model === undefined) || (holds.sharedStrings && read.sharedStrings === undefined)) throw new LostEntries();
    return parseWorksheet.apply(this, args);
  };
}

/**
 * The rows of the first worksheet, in order. Stop early by returning from the loop: the reader is
 * abandoned (the file is a Buffer, nothing is left open).
 *
 * ExcelJS 4.4's streaming reader sometimes ends its walk through the zip early when it has put a worksheet
 * aside in a temporary file (a worksheet that comes before the shared strings, as in every workbook Excel or
 * ExcelJS writes): the entries after it are never read, and the worksheet is then read without its shared
 * strings and without xl/workbook.xml (seen 1 read in 300 here: "Cannot read properties of undefined (reading
 * 'sheets')", or text cells read as empty). Before any row is given out, the reader is checked to have read
 * every one of those entries the zip holds; if it has not, the file is read again (it is in memory), at most
 * READ_ATTEMPTS times.
 */
export async function* firstSheetRows(file: Buffer): AsyncGenerator<SheetRow> {
  const holds = zipHolds(zipEntries(file).map((e) => e.name));
  for (let attempt = 1; ; attempt++) {
    try {
      yield* readFirstSheet(file, holds);
      return;
    } catch (error) {
      if (!(error instanceof LostEntries) || attempt >= READ_ATTEMPTS) throw error;
    }
  }
}

async function* readFirstSheet(file: Buffer, holds: ZipHolds): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  guardLostEntries(reader, holds);
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      const values = (row.values ?? []) as unknown[];
      const cells: Cell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(cellOf(values[i]));
      yield { number: row.number, cells };
    }
    return;
  }
}
