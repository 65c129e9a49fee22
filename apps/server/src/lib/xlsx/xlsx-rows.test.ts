/**
 * firstSheetRows reads a workbook by its zip directory (xlsx-rows.ts `readVisibleSheet`): every one of many
 * workbooks reads whole (ExcelJS's own walk through the zip lost entries about 1 read in 300), and text is decoded
 * across the chunks it is inflated in.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { libreOfficeXlsx, moveTabs, SOFFICE, SOFFICE_SKIP, storeFirst, type TypedCell } from '../../../test/soffice.js';
import { monthOf } from '../../areas/uploads/import-file.js';
import { firstSheetRows, type SheetRow } from './xlsx-rows.js';
import { partOfTarget, serialDate, workbookFacts } from './xlsx-sheet.js';

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
    const expected = rows.map((r, i) => ({ number: i + 1, cells: r.slice(0, r.length - (r.at(-1) === null ? 1 : 0)), date1904: false }));
    const wrong: number[] = [];
    for (let i = 0; i < 400; i++) {
      // Each file differs a little (its times), as uploads do; the failures were found around the 225th read.
      const read = await readAll(await workbook(rows)).catch(() => null);
      if (JSON.stringify(read) !== JSON.stringify(expected)) wrong.push(i);
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('keeps every accented character of long texts whole, wherever the inflated chunks end', async () => {
    // About 1.3 MB of shared strings and cells: a character's two bytes fall on both sides of many 64 KiB chunk ends.
    const texts = Array.from({ length: 20_000 }, (_, i) => `Première étagère n°${i} – lunettes « été » ${'é'.repeat(i % 37)}`);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Modules');
    for (const t of texts) ws.addRow([t, `${t.length}`]);
    const read = await readAll(Buffer.from(await wb.xlsx.writeBuffer()));
    const bad = read.filter((r, i) => r.cells[0] !== texts[i] || r.cells[1] !== `${texts[i]!.length}`).map((r) => r.number);
    expect(read).toHaveLength(texts.length);
    expect(bad).toEqual([]);
  }, 60_000);

  it('stops at the first sheet and refuses what is no zip', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('One').addRow(['a']);
    wb.addWorksheet('Two').addRow(['b']);
    expect(await readAll(Buffer.from(await wb.xlsx.writeBuffer()))).toEqual([{ number: 1, cells: ['a'], date1904: false }]);
    await expect(readAll(Buffer.from('not a zip at all, just text'))).rejects.toThrow();
  });
});

describe('the tab a workbook is read from, and its dates', () => {
  const cellsOf = async (file: Buffer) => (await readAll(file)).map((r) => r.cells);

  it(
    SOFFICE
      ? 'reads the first visible tab of workbooks saved by LibreOffice: not a hidden first tab, nor a stale copy stored before or after it; date cells are serial numbers of the 1900 or 1904 system'
      : `LibreOffice workbooks — ${SOFFICE_SKIP}`,
    { skip: !SOFFICE, timeout: 180_000 },
    async () => {
      const real: TypedCell[][] = [['Module name', 'Month'], ['MOD_REAL', { date: '2027-03-15', shown: 'month' }]];
      const stale: TypedCell[][] = [['Module name', 'Month'], ['MOD_STALE', 'M01_2027']];
      const [hiddenFirst, copyAfter, copyBefore, date1904] = (await libreOfficeXlsx([
        { tabs: [{ name: 'Old', hidden: true, rows: stale }, { name: 'Modules', rows: real }, { name: 'Modules (2)', rows: stale }] },
        { tabs: [{ name: 'Modules', rows: real }, { name: 'Modules (2)', rows: stale }] },
        { tabs: [{ name: 'Modules (2)', rows: stale }, { name: 'Modules', rows: real }] },
        { tabs: [{ name: 'Old', hidden: true, rows: stale }, { name: 'Modules', rows: real }], date1904: true },
      ])) as Buffer[];
      const expected = [['Module name', 'Month'], ['MOD_REAL', 46461]]; // 2027-03-15
      expect(await cellsOf(hiddenFirst!)).toEqual(expected);
      expect(await cellsOf(copyAfter!)).toEqual(expected);
      // The copy stored first in the zip, the real sheet on the first tab.
      expect(await cellsOf(await storeFirst(copyAfter!, ['xl/worksheets/sheet2.xml']))).toEqual(expected);
      // The real sheet dragged before the copy: its part (sheet2.xml) is still stored after the copy's.
      expect(await cellsOf(await moveTabs(copyBefore!, [1, 0]))).toEqual(expected);
      const rows1904 = await readAll(date1904!);
      expect(rows1904.map((r) => r.cells)).toEqual([['Module name', 'Month'], ['MOD_REAL', 46461 - 1462]]);
      expect(rows1904[1]!.date1904).toBe(true);
      expect(monthOf(rows1904[1]!.cells[1]!, rows1904[1]!.date1904)).toBe('M03_2027');
    },
  );

  it('takes the first visible worksheet of xl/workbook.xml, whatever its part, and the date system', () => {
    const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
      <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>
      <Relationship Target="/xl/worksheets/sheet3.xml" Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/>
      <Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/>
      <Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="./worksheets/../worksheets/sheet2.xml"/></Relationships>`;
    const book = (sheets: string, pr = '') => `<workbook xmlns:r="x">${pr}<sheets>${sheets}</sheets></workbook>`;
    expect(workbookFacts(book('<sheet name="A" sheetId="1" r:id="rId1"/><sheet name="B" sheetId="2" r:id="rId2"/>'), rels)).toEqual({ sheet: { name: 'A', part: 'xl/worksheets/sheet1.xml' }, date1904: false });
    expect(
      workbookFacts(book('<sheet name="A" sheetId="1" state="veryHidden" r:id="rId1"/><sheet name="Chart" sheetId="5" r:id="rId3"/><sheet name="B &amp; C" sheetId="2" r:id="rId2"/>', '<workbookPr date1904="true"/>'), rels),
    ).toEqual({ sheet: { name: 'B & C', part: 'xl/worksheets/sheet3.xml' }, date1904: true });
    expect(workbookFacts(book('<x:sheet name="H" state="hidden" x:id="rId1"/><x:sheet name="D" x:id="rId4"/>', '<workbookPr date1904="1"/>'), rels)).toEqual({
      sheet: { name: 'D', part: 'xl/worksheets/sheet2.xml' },
      date1904: true,
    });
    expect(workbookFacts(book('<sheet name="H" state="hidden" r:id="rId1"/>', '<workbookPr date1904="false"/>'), rels)).toEqual({ sheet: null, date1904: false });
    expect(partOfTarget('../xl/worksheets/sheet9.xml')).toBe('xl/worksheets/sheet9.xml');
  });

  it('reads serial dates as calendar days, the same in every time zone', () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo', 'Pacific/Kiritimati']) {
        process.env.TZ = tz;
        expect(new Date(2027, 0, 1).getTimezoneOffset(), tz).toBe({ UTC: 0, 'America/Los_Angeles': 480, 'Asia/Tokyo': -540, 'Pacific/Kiritimati': -840 }[tz]);
        expect(serialDate(46461, false), tz).toBe('2027-03-15');
        expect(serialDate(46461.99, false), tz).toBe('2027-03-15'); // a time of day is dropped
        expect(serialDate(44999, true), tz).toBe('2027-03-15');
        expect(serialDate(45856, false), tz).toBe('2025-07-18');
        expect([1, 59, 61].map((n) => serialDate(n, false)), tz).toEqual(['1900-01-01', '1900-02-28', '1900-03-01']);
        expect([0, 60, -3, 2958466, Number.NaN].map((n) => serialDate(n, false)), tz).toEqual([null, null, null, null, null]);
        expect(serialDate(2958465, false), tz).toBe('9999-12-31');
        expect(serialDate(0, true), tz).toBe('1904-01-01');
        expect([monthOf(46388), monthOf(46418), monthOf(46418 - 1462, true), monthOf('03/2027'), monthOf('M03_2027'), monthOf('2027-03-31')], tz).toEqual([
          'M01_2027', 'M01_2027', 'M01_2027', 'M03_2027', 'M03_2027', 'M03_2027',
        ]);
        expect(monthOf(60), tz).toBeNull();
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
