/**
 * readRecords on .xlsx files: the zip's central directory is read from the file's end, then the workbook is read by
 * it (lib/xlsx/xlsx-rows.ts `readVisibleSheet`), one pass for the workbook and its shared strings, one for the
 * worksheet, whatever order the entries are stored in and however the bytes come in pieces.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../db/client.js';
import { storeFirst } from '../../../../test/soffice.js';
import { zipEntries, zipEntriesOfTail } from '../../../lib/xlsx/xlsx-check.js';
import { bufferSource, fileSource, NotUtf8, otherEncoding, readRecords, ReadError, type FileSource, type RecordRow } from './read-records.js';

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

async function read(source: FileSource) {
  const rows: RecordRow[] = [];
  const bytes: number[] = [];
  const cellErrors: string[] = [];
  for await (const row of readRecords(db, source, (b) => bytes.push(b), (r, c, reason) => cellErrors.push(`${r}:${c} ${reason}`))) rows.push(row);
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
    const { rows, bytes } = await read(pieces);
    expect(rows).toEqual(EXPECTED);
    expectProgress(bytes, big.length);
    // Once for the directory, once for the workbook and its shared strings, once for the worksheet.
    expect(pieces.opens).toBe(3);
  });

  it('reads 300 workbooks one after the other whole, in pieces of every size, the worksheet stored before or after the shared strings', async () => {
    const content = await workbook();
    const reordered = await storeFirst(content, ['xl/sharedStrings.xml', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
    const names = (file: Buffer) => zipEntries(file).map((e) => e.name);
    expect(names(content).indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(names(content).indexOf('xl/sharedStrings.xml'));
    expect(names(reordered).indexOf('xl/worksheets/sheet1.xml')).toBeGreaterThan(names(reordered).indexOf('xl/sharedStrings.xml'));
    const wrong: string[] = [];
    for (let i = 0; i < 300; i++) {
      const file = i % 2 ? reordered : content;
      const piece = [0, 1, 7, 30, 4096][i % 5]!;
      const { rows } = await read(counting(bufferSource('module.xlsx', file), file, piece));
      if (JSON.stringify(rows) !== JSON.stringify(EXPECTED)) wrong.push(`${i} (${piece}) ${JSON.stringify(rows)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('reads a zip whose central directory is not in its last MiB, opening it once more from where the directory starts', async () => {
    const padded = padCentralDirectory(await workbook(), 60_000);
    expect(padded.length).toBeGreaterThan(1 << 20);
    expect(zipEntries(padded).map((e) => e.name)).toContain('xl/sharedStrings.xml'); // a sound zip, only its directory is past 1 MiB
    const source = counting(bufferSource('module.xlsx', padded), padded, 64 * 1024);
    const { rows, bytes } = await read(source);
    expect(rows).toEqual(EXPECTED);
    expectProgress(bytes, padded.length);
    expect(source.opens).toBe(4);
  });

  it('refuses, before any row, a zip whose directory is damaged or lies about where an entry is, as an unreadable workbook', async () => {
    const broken = await workbook();
    broken.writeUInt32LE(0x12345, broken.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) + 16); // the directory's offset points nowhere
    const moved = await workbook();
    const sheet = zipEntries(moved).find((e) => e.name === 'xl/worksheets/sheet1.xml')!;
    const dir = moved.readUInt32LE(moved.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) + 16);
    // The sheet's entry in the directory points 3 bytes past its local header.
    for (let p = dir; p < moved.length - 46; p++) {
      if (moved.readUInt32LE(p) === 0x02014b50 && moved.readUInt32LE(p + 42) === sheet.localOffset) moved.writeUInt32LE(sheet.localOffset + 3, p + 42);
    }
    const cut = (await workbook()).subarray(0, 300);
    for (const [content, reason] of [
      [broken, 'its zip directory is missing or damaged'],
      [moved, 'the zip has no entry where its directory puts xl/worksheets/sheet1.xml'],
      [cut, 'its zip directory is missing or damaged'],
    ] as const) {
      const rows: RecordRow[] = [];
      const error = await (async () => {
        for await (const row of readRecords(db, bufferSource('module.xlsx', content), () => {}, () => {})) rows.push(row);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReadError);
      expect((error as ReadError).row).toBe(1);
      expect((error as ReadError).message).toBe(`the file cannot be read as an Excel workbook: ${reason}`);
      expect(rows).toEqual([]);
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
