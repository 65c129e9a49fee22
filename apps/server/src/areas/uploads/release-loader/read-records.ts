/**
 * The rows of one release file, streamed: CSV (UTF-8, `;` or `,` as the header line says, quoted
 * fields, csv-parse) or .xlsx (the first visible tab, ExcelJS's streaming reader), told apart by content
 * (an .xlsx is a zip: it starts with `PK\x03\x04`). Never the whole file in memory.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Queryable } from '../../../db/client.js';
import { XlsxRefused, zipEntriesOfTail, type ZipEntry } from '../../../lib/xlsx/xlsx-check.js';
import { readVisibleSheet, type VisibleSheet } from '../../../lib/xlsx/xlsx-rows.js';
import { serialDate } from '../../../lib/xlsx/xlsx-sheet.js';
import { detectDelimiter } from './csv-delimiter.js';
import { markInvalidUtf8, unmarkInvalidUtf8 } from './utf8-text.js';

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

/**
 * A CSV file that is not UTF-8 (docs/SPREADSHEET-FILES.md): bytes that are not UTF-8 and not one valid
 * multi-byte sequence, as Excel's "CSV (Comma delimited)" writes an `é` (0xE9 in Windows-1252). Thrown once the
 * whole file is read: its cells' "not valid UTF-8" errors are then replaced by this one line (stage-file.ts).
 * Never decoded as Windows-1252: the same bytes are other letters in Windows-1250 (Polish, Czech…) or 1251.
 */
export class NotUtf8 extends ReadError {
  constructor(row: number) {
    super(row, "the file is not UTF-8 (it looks like Windows-1252 or ISO-8859-1, as Excel's 'CSV (Comma delimited)' writes it): save it as 'CSV UTF-8 (Comma delimited)'");
  }
}

/** Why a CSV file's first bytes show another encoding than UTF-8 (UTF-16, UTF-32), or null. */
export function otherEncoding(head: Buffer): string | null {
  const utf16 = "the file is UTF-16 (as Excel's 'Unicode Text' writes it, separated by tabs): save it as 'CSV UTF-8 (Comma delimited)'";
  if (head.length >= 4 && ((head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0) || (head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff))) {
    return "the file is UTF-32: save it as 'CSV UTF-8 (Comma delimited)'";
  }
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return utf16;
  // Without a byte order mark: a header of ASCII letters in UTF-16 has a NUL beside each of them.
  const start = head.subarray(0, Math.min(head.length, 64));
  let nuls = 0;
  for (const b of start) if (b === 0) nuls++;
  return start.length >= 8 && nuls * 3 >= start.length ? utf16 : null;
}

export type FileFormatKind = 'csv' | 'xlsx';

export interface ReadOptions {
  /**
   * Whether the file's column (0-based) is a date column: an .xlsx number there is a serial date (a date cell
   * comes as one: styles are not read), given as `YYYY-MM-DD` in the workbook's date system. Asked when a row
   * is read, so it may answer from the header row.
   */
  dateColumn?: (column: number) => boolean;
  /**
   * Called (once) when a CSV file shows a valid multi-byte UTF-8 sequence: it is UTF-8, so its bytes that are not
   * are cell errors, never NotUtf8 (stage-file.ts holds those errors back until then or until the end).
   */
  isUtf8?: () => void;
}

/**
 * The rows of the file, header first. `onBytes` hears how many bytes were read so far (never fewer than
 * before, though an .xlsx is read more than once). Cells with an Excel error value come as `{ error }` text
 * in a ReadError-free way: they are given as null plus an entry in `cellErrors` (row, column index, text).
 *
 * An .xlsx is opened once to read the zip's central directory at its end (keeping only its last MiB, or opened
 * once more from where the directory starts when it lies further back), then read by that directory
 * (lib/xlsx/xlsx-rows.ts `readVisibleSheet`: once for the workbook and its shared strings, once for the worksheet).
 */
export async function* readRecords(
  db: Queryable,
  source: FileSource,
  onBytes: (bytes: number) => void,
  cellErrors: (row: number, column: number, reason: string) => void,
  options?: ReadOptions,
): AsyncGenerator<RecordRow> {
  let reported = 0;
  let counting = true;
  const report = (bytes: number) => {
    if (!counting || bytes <= reported) return;
    reported = bytes;
    onBytes(bytes);
  };
  const first = source.open(db);
  const { head, rest } = await peek(first, report);
  if (head.length === 0) return;
  if (!head.subarray(0, 4).equals(ZIP_MAGIC)) {
    const other = otherEncoding(head);
    if (other) {
      first.destroy();
      throw new ReadError(1, other);
    }
    yield* csvRows(chain(head, rest), detectDelimiter(head), options?.isUtf8);
    return;
  }
  // The rest of this first read only looks for the central directory; the rows' reads count the bytes.
  counting = false;
  let entries: ZipEntry[];
  try {
    entries = await zipDirectory(chain(head, rest), () => source.open(db));
  } catch (error) {
    throw new ReadError(1, `the file cannot be read as an Excel workbook: ${error instanceof XlsxRefused ? 'its zip directory is missing or damaged' : messageOf(error)}`);
  } finally {
    first.destroy();
  }
  counting = true;
  yield* xlsxRows(db, source, entries, report, cellErrors, options);
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Which format the file is, by content. */
export const formatOf = (head: Buffer): FileFormatKind => (head.subarray(0, 4).equals(ZIP_MAGIC) ? 'xlsx' : 'csv');

/** Reads until the first line break (or 64 KiB), counting bytes. */
async function peek(stream: Readable, onBytes: (bytes: number) => void): Promise<{ head: Buffer; rest: AsyncIterator<Buffer> }> {
  const bytes = counted(stream, onBytes);
  const parts: Buffer[] = [];
  let length = 0;
  for (;;) {
    const next = await bytes.next();
    if (next.done) break;
    parts.push(next.value);
    length += next.value.length;
    if (length >= 65_536 || next.value.includes(0x0a)) break;
  }
  return { head: Buffer.concat(parts), rest: bytes };
}

async function* chain(head: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield head;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}


/** The bytes with invalid UTF-8 marked for csv-parse (utf8-text.ts); `marker.marked` says whether anything was. */
async function* markedBytes(bytes: AsyncIterable<Buffer>, marker: ReturnType<typeof markInvalidUtf8>): AsyncGenerator<Buffer> {
  for await (const chunk of bytes) yield marker.write(chunk);
  const rest = marker.end();
  if (rest.length > 0) yield rest;
}

async function* csvRows(bytes: AsyncIterable<Buffer>, delimiter: string, isUtf8?: () => void): AsyncGenerator<RecordRow> {
  const marker = markInvalidUtf8();
  const stream = Readable.from(markedBytes(bytes, marker));
  const parser = stream.pipe(
    parse({ delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, info: true }),
  );
  let row = 0;
  let utf8 = false;
  try {
    // The row is the line the record ends on (the line number a text editor and a spreadsheet show).
    for await (const record of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      row = record.info.lines;
      if (!utf8 && marker.multibyte) {
        utf8 = true;
        isUtf8?.();
      }
      // The marker runs ahead of the parser: nothing marked yet, nothing to unmark in this record.
      yield { row, cells: marker.marked ? record.record.map(unmarkInvalidUtf8) : record.record };
    }
  } catch (error) {
    stream.destroy();
    const message = error instanceof Error ? error.message : String(error);
    throw new ReadError(row + 1, `the file cannot be read as CSV: ${message}`);
  }
  if (marker.invalid && !marker.multibyte) throw new NotUtf8(1);
  if (!utf8 && marker.multibyte) isUtf8?.();
}

/** One xlsx cell as text; formulas give their cached result, never evaluated. `date` reads a number of a date column. */
function cellText(value: unknown, date?: (serial: number) => string | null): string | null | { error: string } {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return date?.(value) ?? String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.error === 'string') return { error: v.error };
    if ('formula' in v || 'sharedFormula' in v) {
      if (v.result === undefined || v.result === null) return { error: 'a formula without a saved value' };
      return cellText(v.result, date);
    }
    if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('text' in v) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
  }
  return null;
}

/** How much of a zip's end is kept to find its central directory (an .xlsx has few entries). */
const ZIP_TAIL_BYTES = 1 << 20;
/** The largest central directory read (a workbook's lists a few dozen entries). */
const MAX_ZIP_DIRECTORY_BYTES = 64 << 20;

/**
 * The zip's central directory, from the last ZIP_TAIL_BYTES of `chunks`; when it starts further back (a long
 * directory, or a comment), the file is opened again (`reopen`) and read from where the end record says it starts.
 * Throws XlsxRefused when there is none or it is damaged.
 */
async function zipDirectory(chunks: AsyncIterable<Buffer>, reopen: () => Readable): Promise<ZipEntry[]> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  for await (const chunk of chunks) {
    kept.push(chunk);
    keptBytes += chunk.length;
    total += chunk.length;
    while (keptBytes - kept[0]!.length >= ZIP_TAIL_BYTES) keptBytes -= kept.shift()!.length;
  }
  const joined = Buffer.concat(kept);
  const tail = joined.subarray(Math.max(0, joined.length - ZIP_TAIL_BYTES));
  const tailOffset = total - tail.length;
  try {
    return zipEntriesOfTail(tail, tailOffset);
  } catch (error) {
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (!(error instanceof XlsxRefused) || eocd < 0 || eocd + 22 > tail.length) throw error;
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset >= tailOffset || total - dirOffset > MAX_ZIP_DIRECTORY_BYTES + ZIP_TAIL_BYTES) throw error;
    // Read again from the directory's start to the end.
    const parts: Buffer[] = [];
    let at = 0;
    const stream = reopen();
    try {
      for await (const raw of stream as AsyncIterable<Buffer>) {
        const end = at + raw.length;
        if (end > dirOffset) parts.push(raw.subarray(Math.max(0, dirOffset - at)));
        at = end;
      }
    } finally {
      stream.destroy();
    }
    return zipEntriesOfTail(Buffer.concat(parts), dirOffset);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The bytes of `stream`, counted from 0 to `onBytes`. */
async function* counted(stream: Readable, onBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  let read = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    read += buffer.length;
    onBytes(read);
    yield buffer;
  }
}

/** The rows of the first visible tab (lib/xlsx/xlsx-rows.ts `readVisibleSheet`), the file opened once per pass. */
async function* xlsxRows(
  db: Queryable,
  source: FileSource,
  entries: readonly ZipEntry[],
  onBytes: (bytes: number) => void,
  cellErrors: (row: number, column: number, reason: string) => void,
  options: ReadOptions | undefined,
): AsyncGenerator<RecordRow> {
  try {
    const sheet = await readVisibleSheet(() => counted(source.open(db), onBytes), entries);
    yield* xlsxRead(sheet, cellErrors, options?.dateColumn);
    onBytes(source.size); // read to its end: what lies after the worksheet is not needed
  } catch (error) {
    if (error instanceof ReadError) throw error;
    throw new ReadError(1, `the file cannot be read as an Excel workbook: ${messageOf(error)}`);
  }
}

/** The rows of the visible sheet, as text cells. */
async function* xlsxRead(
  sheet: VisibleSheet,
  cellErrors: (row: number, column: number, reason: string) => void,
  dateColumn: ((column: number) => boolean) | undefined,
): AsyncGenerator<RecordRow> {
  const date = (serial: number) => serialDate(serial, sheet.date1904);
  for await (const row of sheet.rows) {
    const values = (row.values ?? []) as unknown[];
    const cells: (string | null)[] = [];
    for (let i = 1; i < values.length; i++) {
      // A serial number that names no day stays a number: parseCell then says it is not a date.
      const cell = cellText(values[i], dateColumn?.(i - 1) ? date : undefined);
      if (cell !== null && typeof cell === 'object') {
        cellErrors(row.number, i - 1, `the cell holds an error (${cell.error || 'no value'})`);
        cells.push(null);
      } else cells.push(cell);
    }
    if (cells.every((c) => c === null || c.trim() === '')) continue;
    yield { row: row.number, cells };
  }
}
