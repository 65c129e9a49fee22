/**
 * The rows of one release file, streamed: CSV (UTF-8, `;` or `,` as the header line says, quoted
 * fields, csv-parse) or .xlsx (the first worksheet, ExcelJS's streaming reader), told apart by content
 * (an .xlsx is a zip: it starts with `PK\x03\x04`). Never the whole file in memory.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import type { Queryable } from '../../db/client.js';

/** Where a file's bytes come from: opened once per read. */
export interface FileSource {
  /** The name errors give the file (the uploaded file's name). */
  name: string;
  /** Bytes, for progress. */
  size: number;
  /**
   * A new stream of the bytes. `db` is the load's transaction: a source kept in the database reads
   * through it where it must (the embedded database has one connection), see uploads' chunkSource.
   */
  open(db?: Queryable): Readable;
}

export const fileSource = (path: string, name = path.split('/').pop() ?? path): FileSource => ({
  name,
  size: fs.statSync(path).size,
  open: () => fs.createReadStream(path, { highWaterMark: 1 << 20 }),
});

export const bufferSource = (name: string, content: Buffer | string): FileSource => {
  const buffer = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return { name, size: buffer.length, open: () => Readable.from([buffer]) };
};

export interface RecordRow {
  /** 1-based; the header is row 1. */
  row: number;
  cells: (string | null)[];
}

/** A row the reader could not read (bad quoting, a formula error): the file stops there unless `fatal` is false. */
export class ReadError extends Error {
  constructor(
    readonly row: number,
    message: string,
  ) {
    super(message);
  }
}

export type FileFormatKind = 'csv' | 'xlsx';

/**
 * The rows of the file, header first. `onBytes` hears how many bytes were read so far. Cells with an
 * Excel error value come as `{ error }` text in a ReadError-free way: they are given as null plus an
 * entry in `cellErrors` (row, column index, text).
 */
export async function* readRecords(
  db: Queryable,
  source: FileSource,
  onBytes: (bytes: number) => void,
  cellErrors: (row: number, column: number, reason: string) => void,
): AsyncGenerator<RecordRow> {
  const { head, rest } = await peek(source.open(db), onBytes);
  if (head.length === 0) return;
  const stream = Readable.from(chain(head, rest));
  if (head.subarray(0, 4).equals(ZIP_MAGIC)) yield* xlsxRows(stream, cellErrors);
  else yield* csvRows(stream, detectDelimiter(head));
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Which format the file is, by content. */
export const formatOf = (head: Buffer): FileFormatKind => (head.subarray(0, 4).equals(ZIP_MAGIC) ? 'xlsx' : 'csv');

/** Reads until the first line break (or 64 KiB), counting bytes. */
async function peek(stream: Readable, onBytes: (bytes: number) => void): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  let read = 0;
  const counted = (async function* () {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      read += buffer.length;
      onBytes(read);
      yield buffer;
    }
  })();
  const parts: Buffer[] = [];
  let length = 0;
  for (;;) {
    const next = await counted.next();
    if (next.done) break;
    parts.push(next.value);
    length += next.value.length;
    if (length >= 65_536 || next.value.includes(0x0a)) break;
  }
  return { head: Buffer.concat(parts), rest: counted };
}

async function* chain(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield head;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}

/** `;` or `,`: whichever the header line has more of outside quotes (`,` on a tie). */
export function detectDelimiter(head: Buffer): ';' | ',' {
  const end = head.indexOf(0x0a);
  const line = head.subarray(0, end === -1 ? head.length : end).toString('utf8');
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ';') semicolons++;
    else if (!quoted && ch === ',') commas++;
  }
  return semicolons > commas ? ';' : ',';
}

async function* csvRows(stream: Readable, delimiter: string): AsyncGenerator<RecordRow> {
  const parser = stream.pipe(
    parse({ delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, info: true }),
  );
  let row = 0;
  try {
    // The row is the line the record ends on (the line number a text editor and a spreadsheet show).
    for await (const record of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      row = record.info.lines;
      yield { row, cells: record.record };
    }
  } catch (error) {
    stream.destroy();
    const message = error instanceof Error ? error.message : String(error);
    throw new ReadError(row + 1, `the file cannot be read as CSV: ${message}`);
  }
}

/** One xlsx cell as text; formulas give their cached result, never evaluated. */
function cellText(value: unknown): string | null | { error: string } {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.error === 'string') return { error: v.error };
    if ('formula' in v || 'sharedFormula' in v) {
      if (v.result === undefined || v.result === null) return { error: 'a formula without a saved value' };
      return cellText(v.result);
    }
    if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('text' in v) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
  }
  return null;
}

async function* xlsxRows(stream: Readable, cellErrors: (row: number, column: number, reason: string) => void): AsyncGenerator<RecordRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = (row.values ?? []) as unknown[];
        const cells: (string | null)[] = [];
        for (let i = 1; i < values.length; i++) {
          const cell = cellText(values[i]);
          if (cell !== null && typeof cell === 'object') {
            cellErrors(row.number, i - 1, `the cell holds an error (${cell.error || 'no value'})`);
            cells.push(null);
          } else cells.push(cell);
        }
        if (cells.every((c) => c === null || c.trim() === '')) continue;
        yield { row: row.number, cells };
      }
      return;
    }
  } catch (error) {
    if (error instanceof ReadError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ReadError(1, `the file cannot be read as an Excel workbook: ${message}`);
  }
}
