/** Import code cells (code-cells.ts): number cells that lost their zeros refused, and the one repair with known codes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { libreOfficeResave, SOFFICE, SOFFICE_SKIP } from '../../../test/soffice.js';
import { codeOfCell, restoreZeros } from './code-cells.js';
import { firstSheetRows, type SheetRow } from '../../lib/xlsx/xlsx-rows.js';

describe('codeOfCell', () => {
  it('refuses a UPC number cell of fewer than 12 digits, a rounded number, and a text UPC that lost its zeros', () => {
    expect(codeOfCell(12345678905, 'upc')).toEqual({
      ok: false,
      reason: "'12345678905' is a number cell of 11 digits: a spreadsheet program dropped its leading zeros; format the column as text and type the UPC with its zeros",
    });
    expect(codeOfCell(800000000017, 'upc')).toEqual({ ok: true, code: '800000000017' });
    expect(codeOfCell(8e20, 'upc')).toMatchObject({ ok: false });
    expect(codeOfCell(12.5, 'store')).toMatchObject({ ok: false });
    expect(codeOfCell('12345678905', 'upc')).toMatchObject({ ok: false });
    expect(codeOfCell('012345678905', 'upc')).toEqual({ ok: true, code: '012345678905' });
    expect(codeOfCell('8E+11', 'store')).toMatchObject({ ok: false });
    expect(codeOfCell(200007, 'store')).toEqual({ ok: true, code: '200007' });
    expect(codeOfCell(' S1 ', 'store')).toEqual({ ok: true, code: 'S1' });
    expect(codeOfCell(null, 'upc')).toEqual({ ok: true, code: null });
    expect(codeOfCell({ error: '#N/A' }, 'upc')).toMatchObject({ ok: false });
  });
});

describe('restoreZeros', () => {
  it('puts the zeros back when exactly one known code is the code with leading zeros', () => {
    expect(restoreZeros('123', ['000123', 'S1', '124'])).toBe('000123');
    expect(restoreZeros('123', ['000123', '0123'])).toBeNull(); // two candidates: nothing proves which
    expect(restoreZeros('123', ['000123', '123'])).toBeNull(); // the code itself is known
    expect(restoreZeros('123', ['1123'])).toBeNull();
    expect(restoreZeros('A1', ['0A1'])).toBeNull();
  });

  it('property: a code with zeros is found back from its number among codes without other zero forms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: 1, max: 1e9 }), { maxLength: 20 }), (n, zeros, others) => {
        const code = '0'.repeat(zeros) + String(n);
        const known = [code, ...others.filter((o) => o !== n).map(String)];
        expect(restoreZeros(String(Number(code)), known)).toBe(code);
      }),
    );
  });
});

describe.skipIf(!SOFFICE)(`a workbook LibreOffice made from a CSV ${SOFFICE ? '' : SOFFICE_SKIP}`, { timeout: 180_000 }, () => {
  it('gives the UPC and store cells as numbers, which codeOfCell refuses or reads as their digits', async () => {
    const [xlsx] = await libreOfficeResave([{ name: 'module.csv', content: 'Module name,UPC,Store\r\nMOD1,012345678905,000123\r\nMOD1,800000000017,S1\r\n' }], 'xlsx');
    const rows: SheetRow[] = [];
    for await (const row of firstSheetRows(xlsx!)) rows.push(row);
    expect(rows.map((r) => r.cells)).toEqual([
      ['Module name', 'UPC', 'Store'],
      ['MOD1', 12345678905, 123],
      ['MOD1', 800000000017, 'S1'],
    ]);
    expect(codeOfCell(rows[1]!.cells[1]!, 'upc')).toMatchObject({ ok: false, reason: expect.stringContaining('dropped its leading zeros') });
    expect(codeOfCell(rows[2]!.cells[1]!, 'upc')).toEqual({ ok: true, code: '800000000017' });
    // A store code's zeros: only the known stores can put them back.
    expect(codeOfCell(rows[1]!.cells[2]!, 'store')).toEqual({ ok: true, code: '123' });
    expect(restoreZeros('123', ['000123', '200007'])).toBe('000123');
  });
});
