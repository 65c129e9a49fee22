/**
 * Rows of a workbook's first worksheet, read with ExcelJS's streaming reader (a row at a time, never
 * the whole sheet in memory). Formulas are never evaluated: a formula cell gives its cached result,
 * and a cell whose result is an Excel error (#N/A, #REF! …) is marked as such.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

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
 * The rows of the first worksheet, in order. Stop early by returning from the loop: the reader is
 * abandoned (the file is a Buffer, nothing is left open).
 */
export async function* firstSheetRows(file: Buffer): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
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
