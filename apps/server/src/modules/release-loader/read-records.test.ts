/**
 * readRecords on .xlsx files: ExcelJS's streaming reader now and then misses the zip entries after a worksheet
 * it put aside (uploads/xlsx-rows.ts); the reader learns from the zip's central directory (its last MiB) which
 * entries the file holds, and reads the file again when a read missed one. A lost read is simulated here
 * through the test-only hook, deterministically.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/client.js';
import { zipEntries, zipEntriesOfTail } from '../uploads/xlsx-check.js';
import { bufferSource, fileSource, NotUtf8, otherEncoding, readRecords, ReadError, type FileSource, type ReadTestHooks, type RecordRow } from './read-records.js';

const db = {} as Queryable; // file and buffer sources never use it

const ROWS: (string | number | null)[][] = [
  ['moduleCode', 'month', 'label', 'qty'],
  ['MOD_A', 'M01_2027', 'Première étagère', 3],
  [null, null, null, null], // blank: skipped
  ['MOD_B', 'M02_2027', 'cl_b label', 12.5],
  ['MOD_C', 'M02_2027', 'Première étagère', null],
];
const EXPECTED: RecordRow[] = [
  { row: 1, cells: ['moduleCode', 'month', 'label', 'qty'] },
  { row: 2, cells: ['MOD_A', 'M01_2027', 'Première étagère', '3'] },
  { row: 4, cells: ['MOD_B', 'M02_2027', 'cl_b label', '12.5'] },
  { row: 5, cells: ['MOD_C', 'M02_2027', 'Première étagère'] },
];

/** A workbook as Excel and ExcelJS write it: the worksheet before the shared strings. `padding`: an image of random bytes, to pass 1 MiB. */
async function workbook(padding = 0): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Modules');
  for (const r of ROWS) ws.addRow(r);
  if (padding) ws.addImage(wb.addImage({ buffer: randomBytes(padding) as unknown as ExcelJS.Buffer, extension: 'png' }), 'F2:G4');
  wb.addWorksheet('Second').addRow(['not read']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** `source`, counting its opens, each open giving its bytes in pieces of `piece` bytes (as a source kept in the database does). */
function counting(source: FileSource, content: Buffer, piece = 0): FileSource & { opens: number } {
  const counted = {
    ...source,
    opens: 0,
    open: (tx?: Queryable) => {
      counted.opens++;
      if (!piece) return source.open(tx);
      const pieces: Buffer[] = [];
      for (let at = 0; at < content.length; at += piece) pieces.push(content.subarray(at, at + piece));
      return Readable.from(pieces);
    },
  };
  return counted;
}

async function read(source: FileSource, hooks?: ReadTestHooks) {
  const rows: RecordRow[] = [];
  const bytes: number[] = [];
  const cellErrors: string[] = [];
  for await (const row of readRecords(db, source, (b) => bytes.push(b), (r, c, reason) => cellErrors.push(`${r}:${c} ${reason}`), hooks)) rows.push(row);
  return { rows, bytes, cellErrors };
}

/** The progress never goes back and ends at the file's size. */
function expectProgress(bytes: number[], size: number) {
  expect(bytes.length).toBeGreaterThan(0);
  for (let i = 1; i < bytes.length; i++) expect(bytes[i]).toBeGreaterThan(bytes[i - 1]!);
  expect(bytes.at(-1)).toBe(size);
}

/** Rewrites the central directory with `pad` bytes of extra field and of comment on each entry (the entries and their data are untouched). */
function padCentralDirectory(file: Buffer, pad: number): Buffer {
  const eocd = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = file.readUInt16LE(eocd + 10);
  const dirOffset = file.readUInt32LE(eocd + 16);
  const headers: Buffer[] = [];
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    const nameLength = file.readUInt16LE(p + 28);
    const extraLength = file.readUInt16LE(p + 30);
    const commentLength = file.readUInt16LE(p + 32);
    const header = Buffer.from(file.subarray(p, p + 46 + nameLength));
    header.writeUInt16LE(pad, 30);
    header.writeUInt16LE(pad, 32);
    const extra = Buffer.alloc(pad, 0x20);
    extra.writeUInt16LE(0x7777, 0); // an extra field of an id nobody reads
    extra.writeUInt16LE(pad - 4, 2);
    headers.push(header, extra, Buffer.alloc(pad, 'x'));
    p += 46 + nameLength + extraLength + commentLength;
  }
  const directory = Buffer.concat(headers);
  const end = Buffer.from(file.subarray(eocd));
  end.writeUInt32LE(directory.length, 12);
  return Buffer.concat([file.subarray(0, dirOffset), directory, end]);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-records-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readRecords (.xlsx)', () => {
  it('reads every text cell (shared strings) from a file on disk, a buffer and pieces of a file past 1 MiB', async () => {
    const small = await workbook();
    const file = path.join(dir, 'module.xlsx');
    fs.writeFileSync(file, small);
    for (const source of [fileSource(file), bufferSource('module.xlsx', small)]) {
      const { rows, bytes, cellErrors } = await read(source);
      expect(rows).toEqual(EXPECTED);
      expect(cellErrors).toEqual([]);
      expectProgress(bytes, small.length);
    }

    const big = await workbook(1_500_000);
    expect(big.length).toBeGreaterThan(1 << 20);
    const pieces = counting(bufferSource('big.xlsx', big), big, 64 * 1024);
    const attempts: number[] = [];
    const { rows, bytes } = await read(pieces, { beforeWorksheetCheck: (_, attempt) => void attempts.push(attempt) });
    expect(rows).toEqual(EXPECTED);
    expectProgress(bytes, big.length);
    // Once to learn the entries, once per read (one, unless ExcelJS lost entries by itself).
    expect(attempts[0]).toBe(1);
    expect(pieces.opens).toBe(1 + attempts.length);
  });

  it('reads the file again when a read lost its shared strings or its workbook, before any row is given out', async () => {
    for (const size of [0, 1_500_000]) {
      const content = await workbook(size);
      for (const lose of ['sharedStrings', 'model'] as const) {
        const source = counting(bufferSource('module.xlsx', content), content, 64 * 1024);
        const attempts: number[] = [];
        const { rows, bytes } = await read(source, {
          beforeWorksheetCheck: (reader, attempt) => {
            attempts.push(attempt);
            if (attempt === 1) reader[lose] = undefined; // as a read that ended its walk through the zip early
          },
        });
        expect(rows).toEqual(EXPECTED);
        expect(attempts.slice(0, 2)).toEqual([1, 2]);
        expect(source.opens).toBe(1 + attempts.length);
        expectProgress(bytes, content.length);
      }
    }
  });

  it('refuses a file that loses entries on every read, after 3 reads, as an unreadable workbook', async () => {
    const content = await workbook();
    const source = counting(bufferSource('module.xlsx', content), content);
    const attempts: number[] = [];
    const rows: RecordRow[] = [];
    const reading = (async () => {
      const hooks: ReadTestHooks = {
        beforeWorksheetCheck: (reader, attempt) => {
          attempts.push(attempt);
          reader.sharedStrings = undefined;
        },
      };
      for await (const row of readRecords(db, source, () => {}, () => {}, hooks)) rows.push(row);
    })();
    const error = await reading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadError);
    expect((error as ReadError).row).toBe(1);
    expect((error as ReadError).message).toMatch(/^the file cannot be read as an Excel workbook: /);
    expect(rows).toEqual([]);
    expect(attempts).toEqual([1, 2, 3]);
    expect(source.opens).toBe(4);
  });

  it('reads a zip whose central directory is not in its last MiB, or is malformed, without the check', async () => {
    const padded = padCentralDirectory(await workbook(), 60_000);
    expect(padded.length).toBeGreaterThan(1 << 20);
    expect(zipEntries(padded).map((e) => e.name)).toContain('xl/sharedStrings.xml'); // a sound zip, only its directory is past 1 MiB
    const broken = await workbook();
    broken.writeUInt32LE(0x12345, broken.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) + 16); // the directory's offset points nowhere
    for (const content of [padded, broken]) {
      const source = counting(bufferSource('module.xlsx', content), content, 64 * 1024);
      const attempts: number[] = [];
      const { rows, bytes } = await read(source, { beforeWorksheetCheck: (_, attempt) => void attempts.push(attempt) });
      expect(rows).toEqual(EXPECTED);
      expectProgress(bytes, content.length);
      expect(attempts).toEqual([1]);
      expect(source.opens).toBe(2);
    }
  });
});

describe('zipEntriesOfTail', () => {
  it('reads the central directory from the end of the file, or refuses a tail without it', async () => {
    const file = await workbook(1_500_000);
    const names = zipEntries(file).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/worksheets/sheet1.xml']));
    const at = file.length - (1 << 20);
    expect(zipEntriesOfTail(file.subarray(at), at).map((e) => e.name)).toEqual(names);
    expect(zipEntriesOfTail(file, 0)).toEqual(zipEntries(file));
    const dirOffset = file.readUInt32LE(file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) + 16);
    expect(() => zipEntriesOfTail(file.subarray(dirOffset + 1), dirOffset + 1)).toThrow('notExcel');
  });
});

describe('readRecords (CSV encodings, docs/SPREADSHEET-FILES.md)', () => {
  const csvRead = async (content: Buffer) => {
    const rows: RecordRow[] = [];
    let utf8 = 0;
    try {
      for await (const row of readRecords(db, bufferSource('f.csv', content), () => {}, () => {}, { isUtf8: () => utf8++ })) rows.push(row);
      return { rows, utf8 };
    } catch (error) {
      return { rows, utf8, error: error instanceof NotUtf8 ? 'NotUtf8' : error instanceof ReadError ? `${error.row}: ${error.message}` : String(error) };
    }
  };

  it('refuses UTF-16 and UTF-32 by their byte order mark, and UTF-16 without one, before any row', async () => {
    const text = 'upc,color\r\n800000000017,003\r\n';
    expect(otherEncoding(Buffer.from(text))).toBeNull();
    expect(otherEncoding(Buffer.from(`\uFEFF${text}`))).toBeNull();
    expect(otherEncoding(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toContain('UTF-16');
    expect(otherEncoding(Buffer.from(text, 'utf16le'))).toContain('UTF-16');
    expect(otherEncoding(Buffer.from([0xff, 0xfe, 0, 0, 0x75, 0, 0, 0]))).toContain('UTF-32');
    expect(await csvRead(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]))).toMatchObject({ rows: [], error: expect.stringContaining('1: the file is UTF-16') });
  });

  it('gives every row of a Windows-1252 file, then NotUtf8; a UTF-8 file says so once and keeps its stray bytes as cell text', async () => {
    const latin = await csvRead(Buffer.from('name\ncaf\xe9\nb\n', 'latin1'));
    expect(latin).toMatchObject({ utf8: 0, error: 'NotUtf8' });
    expect(latin.rows.map((r) => r.cells[0])).toEqual(['name', 'caf\uDCE9', 'b']);
    const mixed = await csvRead(Buffer.concat([Buffer.from('name\ncafé\n'), Buffer.from([0x62, 0xe9, 0x0a])]));
    expect(mixed).toEqual({ utf8: 1, rows: [{ row: 1, cells: ['name'] }, { row: 2, cells: ['café'] }, { row: 3, cells: ['b\uDCE9'] }] });
    expect(await csvRead(Buffer.from('name\nplain\n'))).toEqual({ utf8: 0, rows: [{ row: 1, cells: ['name'] }, { row: 2, cells: ['plain'] }] });
  });
});
