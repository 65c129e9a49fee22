/**
 * The code columns' rule (code-columns.ts): what proves a lost zero, what is repaired from the row, what is
 * refused, and that a code nothing proves anything about is left alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeFindings, upcProblem, validGtin, type RowCells } from './code-columns.js';

const row = (cells: Record<string, string>): RowCells => (name) => cells[name] ?? null;
const SKU = { upc: '800000000017', model: 'AU4012', color: '003', size: '52', materialCode: '0AU4012', skuCode: '0AU4012__00352' };

describe('codeFindings', () => {
  it('repairs a colour from the skuCode (the demo release after LibreOffice: 003 → 3)', () => {
    expect(codeFindings('registry', row(SKU))).toEqual([]);
    expect(codeFindings('registry', row({ ...SKU, color: '3' }))).toEqual([{ column: 'color', repair: '003', proof: 'skuCode' }]);
    // A separator between colour and size, and a size that lost its zero too.
    expect(codeFindings('registry', row({ ...SKU, color: '3', size: '52', skuCode: 'AU4012-003-052' }))).toEqual([
      { column: 'color', repair: '003', proof: 'skuCode' },
      { column: 'size', repair: '052', proof: 'skuCode' },
    ]);
  });

  it('repairs a colour from a materialCode that ends with it, and refuses when the two codes disagree', () => {
    expect(codeFindings('registry', row({ ...SKU, color: '3', materialCode: 'AU4012003', skuCode: 'X1' }))).toEqual([{ column: 'color', repair: '003', proof: 'materialCode' }]);
    expect(codeFindings('registry', row({ ...SKU, color: '3', materialCode: 'AU4012_003', skuCode: 'AU4012__00352' }))).toEqual([{ column: 'color', repair: '003', proof: 'skuCode' }]);
    expect(codeFindings('registry', row({ ...SKU, color: '3', materialCode: 'AU4012_0003' }))).toEqual([
      { column: 'color', reason: "'3' is '003' in skuCode and '0003' in materialCode: a spreadsheet program may have dropped its leading zeros; format the column as text" },
    ]);
  });

  it('leaves alone what nothing proves: text colours, codes that agree, codes without the model', () => {
    expect(codeFindings('registry', row({ ...SKU, color: '003/2P', skuCode: '0AU4012__003/2P52' }))).toEqual([]);
    expect(codeFindings('registry', row({ ...SKU, color: '3', skuCode: '0AU4012__352' }))).toEqual([]);
    expect(codeFindings('registry', row({ ...SKU, color: '3', skuCode: 'SC1', materialCode: 'M1' }))).toEqual([]);
    expect(codeFindings('segment', row({ storeJda: '123', codiceStoreSap: '0042' }))).toEqual([]);
  });

  it('refuses a UPC of 9–11 digits with a valid check digit, and any code in scientific notation', () => {
    expect(codeFindings('registry', row({ ...SKU, upc: '12345678905' }))).toEqual([
      { column: 'upc', reason: "'12345678905' has 11 digits: a spreadsheet program may have dropped its leading zeros (012345678905 is a valid UPC-A); format the column as text" },
    ]);
    expect(codeFindings('module', row({ upc: '12345678905' }))).toHaveLength(1);
    expect(codeFindings('module', row({ upc: '12345678904' }))).toEqual([]); // not a GTIN: some other code
    expect(codeFindings('module', row({ upc: '96385074' }))).toEqual([]); // an EAN-8
    expect(codeFindings('module', row({ upc: '8.00E+11' }))).toEqual([
      { column: 'upc', reason: "'8.00E+11' is a number in scientific notation: a spreadsheet program rounded the code; format the column as text" },
    ]);
    expect(codeFindings('segment', row({ storeJda: '2E+5', codiceStoreSap: 'S1' }))).toHaveLength(1);
    expect(codeFindings('cluster', row({ kind: 'STORE', value: '2E+5' }))).toHaveLength(1);
    expect(codeFindings('cluster', row({ kind: 'MODULE', value: '2E+5' }))).toEqual([]);
    expect(codeFindings('reference', row({ code: '2E+5' }))).toEqual([]);
  });

  it('property: a colour padded with zeros, written into the skuCode, comes back whole after the zeros are dropped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 10, max: 99 }), fc.constantFrom('', '_', '__', '-'), (n, zeros, size, sep) => {
        const color = '0'.repeat(zeros) + String(n);
        const skuCode = `0AU4012${sep}${color}${String(size)}`;
        expect(codeFindings('registry', row({ ...SKU, color: String(n), size: String(size), skuCode, materialCode: 'M' }))).toEqual([{ column: 'color', repair: color, proof: 'skuCode' }]);
        // As written (nothing lost): nothing to say.
        expect(codeFindings('registry', row({ ...SKU, color, size: String(size), skuCode, materialCode: 'M' }))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('property: a UPC-A or EAN-13 that starts with zeros is refused once they are dropped to 9–11 digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{7,9}$/), fc.constantFrom(12, 13), (payload, length) => {
        let sum = 0;
        const padded = payload.padStart(length - 1, '0');
        for (let i = padded.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += Number(padded[i]) * w;
        const gtin = padded + String((10 - (sum % 10)) % 10);
        expect(validGtin(gtin)).toBe(true);
        const dropped = gtin.replace(/^0+/, '');
        if (dropped.length >= 9 && dropped.length <= 11) expect(upcProblem(dropped)).toContain(`has ${dropped.length} digits`);
        expect(upcProblem(gtin)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
