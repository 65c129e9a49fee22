/**
 * Rows of the worksheet of a workbook's first visible tab, read with ExcelJS's streaming reader (a row at a time, never
 * the whole sheet in memory). Formulas are never evaluated: a formula cell gives its cached result,
 * and a cell whose result is an Excel error (#N/A, #REF! …) is marked as such.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { zipEntries } from './xlsx-check.js';
import { workbookFacts, type WorkbookFacts } from './xlsx-sheet.js';

/** The `error` of a formula cell without a saved result. */
export const NO_RESULT = '';

/** A cell as the import reads it. */
export type Cell = string | number | boolean | { error: string } | null;

export interface SheetRow {
  /** 1-based, as Excel shows it. */
  number: number;
  /** 0-based by column (A = 0). A date cell is its serial number (styles are not read): see `date1904`. */
  cells: Cell[];
  /** The workbook's date system, for the serial numbers of date cells (xlsx-sheet.ts `serialDate`). */
  date1904: boolean;
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

/** The most bytes xl/workbook.xml or its rels may expand to (they are a few KB). */
const MAX_WORKBOOK_PART_BYTES = 16 << 20;

/** The bytes of a zip entry ExcelJS hands its parser (a stream, ended or not). */
function entryBytes(entry: NodeJS.ReadableStream, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let length = 0;
    entry.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > MAX_WORKBOOK_PART_BYTES) reject(new Error(`${name} is larger than ${MAX_WORKBOOK_PART_BYTES} bytes`));
      else parts.push(chunk);
    });
    entry.on('end', () => resolve(Buffer.concat(parts)));
    entry.on('error', reject);
  });
}

/** The rows of the worksheet a workbook is read from, and how its serial dates count. */
export interface VisibleSheet {
  /** Its rows, in order; stop early by returning from the loop. */
  rows: AsyncGenerator<ExcelJS.Row>;
  /** The workbook's date system (known once a row has been given out). */
  date1904(): boolean;
}

/**
 * The one way both readers (this file's `firstSheetRows`, release-loader/read-records.ts) choose the worksheet:
 * the first visible tab (xlsx-sheet.ts `workbookFacts`), taken from xl/workbook.xml and its rels as ExcelJS's
 * streaming reader walks them (kept as text on the way: a few KB). ExcelJS names a worksheet by its part
 * (`xl/worksheets/sheetN.xml`); any other worksheet is dropped unread when it comes (a worksheet it put aside in
 * a temporary file: that file is closed and removed), so the chosen one is the only one emitted.
 *
 * Also makes the read throw LostEntries when it starts on a worksheet without an entry the zip holds (ExcelJS's
 * streaming reader sometimes misses the entries after a worksheet it put aside: see `firstSheetRows`): checked
 * when ExcelJS starts on a worksheet, before it reads the workbook's model — no row has been given out yet.
 * xl/workbook.xml and its rels are always needed (to choose); the shared strings when the zip holds them.
 * `beforeCheck` is for tests only: it sees the reader first and may change it (to lose its shared strings).
 */
export function visibleSheetRows(reader: ExcelJS.stream.xlsx.WorkbookReader, holds: ZipHolds, beforeCheck?: (reader: ReaderState) => void): VisibleSheet {
  const read = reader as unknown as ReaderState & {
    _parseWorksheet: (iterator: unknown, sheetNo: string) => Iterator<unknown>;
    _parseWorkbook: (entry: unknown) => Promise<void>;
    _parseRels: (entry: unknown) => Promise<void>;
  };
  let workbookXml: string | undefined;
  let relsXml: string | undefined;
  let facts: WorkbookFacts | undefined;
  const parseWorkbook = read._parseWorkbook;
  read._parseWorkbook = async function (entry: unknown) {
    const bytes = await entryBytes(entry as NodeJS.ReadableStream, 'xl/workbook.xml');
    workbookXml = bytes.toString('utf8');
    return parseWorkbook.call(this, Readable.from([bytes]));
  };
  const parseRels = read._parseRels;
  read._parseRels = async function (entry: unknown) {
    const bytes = await entryBytes(entry as NodeJS.ReadableStream, 'xl/_rels/workbook.xml.rels');
    relsXml = bytes.toString('utf8');
    return parseRels.call(this, Readable.from([bytes]));
  };
  const parseWorksheet = read._parseWorksheet;
  read._parseWorksheet = function (iterator: unknown, sheetNo: string) {
    beforeCheck?.(read);
    if ((holds.workbook && read.model === undefined) || (holds.sharedStrings && read.sharedStrings === undefined) || workbookXml === undefined || relsXml === undefined) {
      throw new LostEntries();
    }
    facts ??= workbookFacts(workbookXml, relsXml);
    if (!facts.sheet) throw new Error('the workbook has no visible worksheet');
    if (`xl/worksheets/sheet${sheetNo}.xml` !== facts.sheet.part) {
      // Not read: a worksheet put aside is a file stream (close it; ExcelJS then removes the file); one read in
      // place is drained by ExcelJS.
      (iterator as { destroy?: () => void }).destroy?.();
      return [][Symbol.iterator]();
    }
    return parseWorksheet.call(this, iterator, sheetNo);
  };
  async function* rows(): AsyncGenerator<ExcelJS.Row> {
    for await (const sheet of reader) {
      yield* sheet as AsyncIterable<ExcelJS.Row>;
      return;
    }
    // No worksheet emitted: none at all (no rows), or the chosen one is a part ExcelJS does not read.
    const wanted = facts?.sheet ?? (workbookXml !== undefined && relsXml !== undefined ? workbookFacts(workbookXml, relsXml).sheet : null);
    if (wanted) throw new Error(`the worksheet '${wanted.name}' (${wanted.part}) cannot be read`);
  }
  return { rows: rows(), date1904: () => facts?.date1904 ?? false };
}

/**
 * The rows of the worksheet of the first visible tab (`visibleSheetRows`), in order. Stop early by returning
 * from the loop: the reader is abandoned (the file is a Buffer, nothing is left open).
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
  const sheet = visibleSheetRows(reader, holds);
  for await (const row of sheet.rows) {
    const values = (row.values ?? []) as unknown[];
    const cells: Cell[] = [];
    for (let i = 1; i < values.length; i++) cells.push(cellOf(values[i]));
    yield { number: row.number, cells, date1904: sheet.date1904() };
  }
}
