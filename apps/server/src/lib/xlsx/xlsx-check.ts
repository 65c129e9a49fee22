/**
 * Is this file an Excel workbook we may read, without trusting it? (docs/IMPORTS.md "Limits".)
 *
 * A .xlsx is a zip: the central directory at its end lists every entry with its compressed and
 * expanded size. We read that directory (a few KB), refuse a file that is no zip or lacks
 * `[Content_Types].xml` and `xl/workbook.xml`, refuse an expanded size past the limit from the
 * declared sizes, then inflate each entry as a stream — never holding it in memory — counting its bytes
 * (an entry that expands past what it declares is refused: a zip bomb lies there) and, in the
 * worksheets, the `<row` elements (a sheet's `<dimension ref="A1:K250000"/>`, when present, refuses
 * it before that). Nothing here parses a cell: ExcelJS's streaming reader does that afterwards.
 */
import zlib from 'node:zlib';

type XlsxRefusal = 'notExcel' | 'tooBigExpanded' | 'tooManyRows';

export class XlsxRefused extends Error {
  constructor(readonly reason: XlsxRefusal) {
    super(reason);
  }
}

interface XlsxLimits {
  maxExpandedBytes: number;
  maxRows: number;
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

/** The entries of the zip's central directory; throws notExcel when it is no zip. */
export function zipEntries(file: Buffer): ZipEntry[] {
  if (file.length < 22 || file.readUInt32LE(0) !== LOCAL) throw new XlsxRefused('notExcel');
  return zipEntriesOfTail(file, 0);
}

/**
 * The entries of the zip's central directory, read from the end of the file only: `tail` is the file's
 * last bytes, from offset `tailOffset` (0 when it is the whole file). The end record and the central
 * directory must both lie in `tail`: throws notExcel when they do not (or are no zip's), tooBigExpanded
 * for a zip64 archive.
 */
export function zipEntriesOfTail(tail: Buffer, tailOffset: number): ZipEntry[] {
  if (tail.length < 22) throw new XlsxRefused('notExcel');
  // The end record is in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - 22 - 0xffff); i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxRefused('notExcel');
  const count = tail.readUInt16LE(eocd + 10);
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  // A zip64 archive of more than 65535 entries or 4 GB: no workbook we accept is one.
  if (count === 0xffff || dirOffset === ZIP64_MARK || dirSize === ZIP64_MARK) throw new XlsxRefused('tooBigExpanded');
  // Offsets in the file; the directory before the tail cannot be read from it.
  if (dirOffset < tailOffset || dirOffset + dirSize > tailOffset + eocd) throw new XlsxRefused('notExcel');
  const entries: ZipEntry[] = [];
  let p = dirOffset - tailOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > tail.length || tail.readUInt32LE(p) !== CENTRAL) throw new XlsxRefused('notExcel');
    const method = tail.readUInt16LE(p + 10);
    const compressedSize = tail.readUInt32LE(p + 20);
    const size = tail.readUInt32LE(p + 24);
    const nameLength = tail.readUInt16LE(p + 28);
    const extraLength = tail.readUInt16LE(p + 30);
    const commentLength = tail.readUInt16LE(p + 32);
    const localOffset = tail.readUInt32LE(p + 42);
    const name = tail.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    if (size === ZIP64_MARK || compressedSize === ZIP64_MARK || localOffset === ZIP64_MARK) throw new XlsxRefused('tooBigExpanded');
    entries.push({ name, method, compressedSize, size, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The compressed bytes of an entry (after its local header). */
function entryData(file: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== LOCAL) throw new XlsxRefused('notExcel');
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > file.length) throw new XlsxRefused('notExcel');
  return file.subarray(start, end);
}

const isWorksheet = (name: string) => /^xl\/worksheets\/[^/]+\.xml$/.test(name);

/** Rows a `<dimension ref="A1:K250">` declares (the last row number), if the text has one. */
function dimensionRows(xmlStart: string): number | null {
  const m = /<(?:\w+:)?dimension\s+ref="[A-Z]*\d*:?[A-Z]*(\d+)"/.exec(xmlStart);
  return m ? Number(m[1]) : null;
}

/**
 * Inflates one entry as a stream, calling `onChunk` with each piece of text; refuses it past `limit`
 * expanded bytes. Answers the expanded size.
 */
async function inflateEntry(data: Buffer, method: number, limit: number, onChunk: (text: string) => boolean): Promise<number> {
  if (method === 0) {
    if (data.length > limit) throw new XlsxRefused('tooBigExpanded');
    onChunk(data.toString('utf8'));
    return data.length;
  }
  if (method !== 8) throw new XlsxRefused('notExcel');
  return new Promise<number>((resolve, reject) => {
    const inflate = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    let total = 0;
    let settled = false;
    const stop = (err: Error | null, value = total) => {
      if (settled) return;
      settled = true;
      inflate.removeAllListeners('data');
      inflate.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) return stop(new XlsxRefused('tooBigExpanded'));
      try {
        if (!onChunk(chunk.toString('latin1'))) stop(null);
      } catch (err) {
        stop(err as Error);
      }
    });
    inflate.on('error', () => stop(new XlsxRefused('notExcel')));
    inflate.on('end', () => stop(null));
    inflate.end(data);
  });
}

/** Checks the workbook against the limits; answers the rows its worksheets hold, or throws XlsxRefused. */
export async function checkXlsx(file: Buffer, limits: XlsxLimits): Promise<{ rows: number }> {
  const entries = zipEntries(file);
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('[Content_Types].xml') || !names.has('xl/workbook.xml')) throw new XlsxRefused('notExcel');
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  if (declared > limits.maxExpandedBytes) throw new XlsxRefused('tooBigExpanded');

  let rows = 0;
  let expanded = 0;
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const data = entryData(file, entry);
    const sheet = isWorksheet(entry.name);
    let head = '';
    let tail = '';
    let dimensionSeen = !sheet;
    // An entry may not expand past what it declares, nor the whole past the limit.
    const limit = Math.min(entry.size, limits.maxExpandedBytes - expanded);
    expanded += await inflateEntry(data, entry.method, limit, (text) => {
      if (!sheet) return true;
      if (!dimensionSeen) {
        head += text;
        const declaredRows = dimensionRows(head);
        if (declaredRows !== null && rows + declaredRows > limits.maxRows) throw new XlsxRefused('tooManyRows');
        if (declaredRows !== null || head.includes('<sheetData') || head.length > 64 * 1024) dimensionSeen = true;
      }
      // `<row ` or `<row>` (with or without a namespace prefix), across chunk boundaries.
      // A match ending inside `tail` was counted with the chunk before.
      const joined = tail + text;
      for (const m of joined.matchAll(/<(?:\w{1,8}:)?row[\s>/]/g)) if (m.index + m[0].length > tail.length) rows++;
      tail = joined.slice(-14);
      if (rows > limits.maxRows) throw new XlsxRefused('tooManyRows');
      return true;
    });
  }
  return { rows };
}
