/**
 * firstSheetRows against ExcelJS's streaming reader, which now and then stops reading a zip's entries after a
 * worksheet it put aside (xlsx-rows.ts): every one of many workbooks written by ExcelJS reads whole.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { firstSheetRows, type SheetRow } from './xlsx-rows.js';

async function workbook(rows: (string | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Modules');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const readAll = async (file: Buffer) => {
  const out: SheetRow[] = [];
  for await (const row of firstSheetRows(file)) out.push(row);
  return out;
};

describe('firstSheetRows', () => {
  it('reads every row with its shared strings, for each of 400 workbooks written one after the other', async () => {
    const rows = [
      ['Cluster id', 'Month', 'Module name', 'Status', 'Description'],
      ['CL_A', 'M01_2027', 'MOD_A', null, 'New description'],
      ['cl_b label', '01/2027', 'mod_c label', 'added', null],
    ];
    const expected = rows.map((r, i) => ({ number: i + 1, cells: r.slice(0, r.length - (r.at(-1) === null ? 1 : 0)) }));
    const wrong: number[] = [];
    for (let i = 0; i < 400; i++) {
      // Each file differs a little (its times), as uploads do; the failures were found around the 225th read.
      const read = await readAll(await workbook(rows)).catch(() => null);
      if (JSON.stringify(read) !== JSON.stringify(expected)) wrong.push(i);
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('stops at the first sheet and refuses what is no zip', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('One').addRow(['a']);
    wb.addWorksheet('Two').addRow(['b']);
    expect(await readAll(Buffer.from(await wb.xlsx.writeBuffer()))).toEqual([{ number: 1, cells: ['a'] }]);
    await expect(readAll(Buffer.from('not a zip at all, just text'))).rejects.toThrow();
  });
});
