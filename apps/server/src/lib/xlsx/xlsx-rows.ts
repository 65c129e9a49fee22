/**
 * Rows of the worksheet of a workbook's first visible tab, read with ExcelJS's streaming reader (a row at a time, never
 * the whole sheet in memory). Formulas are never evaluated: a formula cell gives its cached result,
 * and a cell whose result is an Excel error (#N/A, #REF! …) is marked as such.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { zipEntries, type ZipEntry } from './xlsx-check.js';
import { workbookFacts } from './xlsx-sheet.js';
import { contentText, forEachEntry, openEntry, ZipCursor } from './zip-stream.js';

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

/** The most bytes xl/workbook.xml or its rels may expand to (they are a few KB). */
const MAX_WORKBOOK_PART_BYTES = 16 << 20;

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS = 'xl/sharedStrings.xml';

/** The rows of the worksheet a workbook is read from, and how its serial dates count. */
export interface VisibleSheet {
  /** Its rows, in order; stop early by returning from the loop. */
  rows: AsyncGenerator<ExcelJS.Row>;
  /** The workbook's date system. */
  date1904: boolean;
}

/** ExcelJS's streaming reader's own steps (missing from its types), which this file calls in its own order. */
interface ReaderSteps {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ eventType: string; value: unknown }>;
}

/**
 * The one way both readers (this file's `firstSheetRows`, release-loader/read-records.ts) read a workbook: the
 * worksheet of its first visible tab (xlsx-sheet.ts `workbookFacts`, from xl/workbook.xml and its rels), its text
 * cells from the shared strings, cell by cell with ExcelJS's streaming parsers, never the whole sheet in memory.
 *
 * The zip is walked by its central directory (`entries`, zip-stream.ts), not by ExcelJS's own walk: that walk puts
 * a worksheet stored before the shared strings (every workbook Excel or ExcelJS writes) aside in a temporary file,
 * and now and then stops after it, so the sheet was read without its shared strings or its workbook (about 1 read
 * in 300, more on a busy machine). Here `open` is called twice: once to read the workbook, its rels and the shared
 * strings, in the order they are stored, skipping everything else; once more for the chosen worksheet alone.
 */
export async function readVisibleSheet(open: () => AsyncIterable<Buffer | string>, entries: readonly ZipEntry[]): Promise<VisibleSheet> {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const workbookEntry = byName.get(WORKBOOK);
  const relsEntry = byName.get(WORKBOOK_RELS);
  if (!workbookEntry || !relsEntry) throw new Error(`the workbook has no ${workbookEntry ? WORKBOOK_RELS : WORKBOOK}`);
  const sharedStrings = byName.get(SHARED_STRINGS);

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const steps = reader as unknown as ReaderSteps;
  let workbookXml = '';
  let relsXml = '';
  await forEachEntry(open(), sharedStrings ? [workbookEntry, relsEntry, sharedStrings] : [workbookEntry, relsEntry], async (entry, content) => {
    if (entry === sharedStrings) {
      content.setEncoding('utf8'); // decoded across chunks, as the worksheet below
      for await (const _ of steps._parseSharedStrings(content)); // 'cache': fills the reader's shared strings
    } else if (entry === workbookEntry) {
      workbookXml = await contentText(content, WORKBOOK, MAX_WORKBOOK_PART_BYTES);
      await steps._parseWorkbook(Readable.from([Buffer.from(workbookXml, 'utf8')]));
    } else {
      relsXml = await contentText(content, WORKBOOK_RELS, MAX_WORKBOOK_PART_BYTES);
      await steps._parseRels(Readable.from([Buffer.from(relsXml, 'utf8')]));
    }
  });
  const facts = workbookFacts(workbookXml, relsXml);
  if (!facts.sheet) throw new Error('the workbook has no visible worksheet');
  const sheetEntry = byName.get(facts.sheet.part);
  if (!sheetEntry) throw new Error(`the worksheet '${facts.sheet.name}' (${facts.sheet.part}) is not in the file`);
  const sheetNo = /sheet(\d+)\.xml$/.exec(sheetEntry.name)?.[1] ?? sheetEntry.name;

  async function* rows(): AsyncGenerator<ExcelJS.Row> {
    const cursor = new ZipCursor(open());
    try {
      const { content, done } = await openEntry(cursor, sheetEntry!);
      // Text, decoded across chunks: ExcelJS decodes each Buffer chunk on its own, which breaks a character whose
      // bytes fall on both sides of a chunk's end ("Premi\uFFFD\uFFFDre").
      content.setEncoding('utf8');
      try {
        for (const { eventType, value } of steps._parseWorksheet(content, sheetNo)) {
          if (eventType === 'worksheet') yield* value as AsyncIterable<ExcelJS.Row>;
        }
      } finally {
        await done();
      }
    } finally {
      await cursor.close();
    }
  }
  return { rows: rows(), date1904: facts.date1904 };
}

/**
 * The rows of the worksheet of the first visible tab (`readVisibleSheet`), in order. Stop early by returning
 * from the loop: the reader is abandoned (the file is a Buffer, nothing is left open).
 */
export async function* firstSheetRows(file: Buffer): AsyncGenerator<SheetRow> {
  const sheet = await readVisibleSheet(() => Readable.from([file]), zipEntries(file));
  for await (const row of sheet.rows) {
    const values = (row.values ?? []) as unknown[];
    const cells: Cell[] = [];
    for (let i = 1; i < values.length; i++) cells.push(cellOf(values[i]));
    yield { number: row.number, cells, date1904: sheet.date1904 };
  }
}
