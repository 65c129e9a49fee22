import { describe, expect, it } from 'vitest';
import { exportItemsText, exportKindText, exportMonthsText } from './exports.js';

const subject = (over: Partial<Parameters<typeof exportItemsText>[0]> = {}) => ({ itemKind: 'module' as const, itemCount: 12, itemNames: ['MOD_A', 'MOD_B', 'MOD_C'], monthIds: ['M01_2027'], ...over });

describe('what an export holds, as the histories say it', () => {
  it('names the kind and count', () => {
    expect(exportKindText(subject())).toBe('12 modules');
    expect(exportKindText(subject({ itemKind: 'cluster', itemCount: 1, itemNames: ['CL1'] }))).toBe('1 cluster');
    expect(exportKindText(subject({ itemKind: null, itemCount: null, itemNames: [], monthIds: [] }))).toBe('—');
  });

  it('names the first items, then how many more', () => {
    expect(exportItemsText(subject())).toBe('MOD_A, MOD_B, MOD_C and 9 more');
    expect(exportItemsText(subject({ itemCount: 3 }))).toBe('MOD_A, MOD_B, MOD_C');
    expect(exportItemsText(subject({ itemCount: 1, itemNames: ['MOD_A'] }))).toBe('MOD_A');
    expect(exportItemsText(subject({ itemNames: [] }))).toBe('—');
  });

  it('says the months as people read them', () => {
    expect(exportMonthsText(subject())).toBe('01/2027');
    expect(exportMonthsText(subject({ monthIds: ['M11_2026', 'M01_2027'] }))).toBe('11/2026, 01/2027');
    expect(exportMonthsText(subject({ monthIds: ['M01_2027', 'M02_2027', 'M03_2027', 'M12_2027'] }))).toBe('01/2027 – 12/2027 (4 months)');
    expect(exportMonthsText(subject({ monthIds: [] }))).toBe('—');
  });
});
