import { MASSIVE_EDIT_TEXTS } from '@bo/shared/massive-edit';
import { describe, expect, it } from 'vitest';
import { analyseRow, type DraftRow, emptyRow, normalizeMinValue, parseMonthToken, ROW_TEXTS, splitLines, summarise, toRequestRow } from './draft-rows';

const moduleRow = (values: Record<string, string>, id = 'x'): DraftRow => {
  const row = emptyRow('module', id);
  return { ...row, values: { ...row.values, ...values } };
};
const OPEN = new Set(['M03_2027', 'M04_2027']);

describe('cells', () => {
  it('takes one value per line, trimmed, empty lines dropped', () => {
    expect(splitLines(' a \n\n b\r\nc\n')).toEqual(['a', 'b', 'c']);
  });

  it('reads months written both ways', () => {
    expect(parseMonthToken('03/2027')).toBe('M03_2027');
    expect(parseMonthToken('m11_2026')).toBe('M11_2026');
    expect(parseMonthToken('13/2027')).toBeNull();
    expect(parseMonthToken('March')).toBeNull();
  });

  it('min value on leaving: empty or below 1 becomes 1, step 0.1', () => {
    expect(normalizeMinValue('')).toBe('1');
    expect(normalizeMinValue('0.4')).toBe('1');
    expect(normalizeMinValue('2.26')).toBe('2.3');
    expect(normalizeMinValue('3,5')).toBe('3.5');
    expect(normalizeMinValue('abc')).toBe('abc');
  });
});

describe('toRequestRow', () => {
  it('builds the module request row from the cells', () => {
    const row = moduleRow({
      moduleLabels: 'AU_01\nAU_02',
      moduleDescription: '  ',
      upcToAddList: '8050\n',
      upcStatus: 'el',
      monthIdList: 'M03_2027\n04/2027\nM03_2027',
      upcMinValueSkuList: '8050',
      upcMinValueSkuValue: '2.5',
    });
    expect(toRequestRow('module', row)).toEqual({
      moduleLabels: ['AU_01', 'AU_02'],
      moduleDescription: null,
      upcToAddList: ['8050'],
      upcToRemoveList: [],
      upcStatus: 'EL',
      monthIdList: ['M03_2027', 'M04_2027'],
      upcMinValueSkuList: ['8050'],
      upcMinValueSkuValue: 2.5,
    });
  });

  it('sends the default min value when the row has no min-value SKU (the number is disabled then)', () => {
    expect(toRequestRow('module', moduleRow({ upcMinValueSkuValue: '7' }))).toMatchObject({ upcMinValueSkuValue: 1 });
  });
});

describe('analyseRow', () => {
  it('shows nothing on a blank row', () => {
    expect(analyseRow('module', emptyRow('module', 'a'), OPEN)).toMatchObject({ blank: true, errors: [] });
    expect(analyseRow('cluster', emptyRow('cluster', 'a'), OPEN)).toMatchObject({ blank: true, errors: [] });
    expect(analyseRow('classification', emptyRow('classification', 'a'), OPEN)).toMatchObject({ blank: true, errors: [] });
  });

  it('names the shared row rules a module row breaks', () => {
    const a = analyseRow('module', moduleRow({ upcToAddList: '8050' }), OPEN);
    expect(a.blank).toBe(false);
    expect(a.errors).toEqual([MASSIVE_EDIT_TEXTS.moduleRequired, MASSIVE_EDIT_TEXTS.monthRequiredModule]);
    expect(analyseRow('module', moduleRow({ moduleLabels: 'AU_01', upcToAddList: '8050', monthIdList: 'M03_2027' }), OPEN).errors).toEqual([]);
    // Only a description: no month needed.
    expect(analyseRow('module', moduleRow({ moduleLabels: 'AU_01', moduleDescription: 'New' }), OPEN).errors).toEqual([]);
    // Status changed from MH alone is not blank.
    expect(analyseRow('module', moduleRow({ upcStatus: 'EL' }), OPEN).blank).toBe(false);
  });

  it('names what a paste brought that the request cannot take', () => {
    const a = analyseRow(
      'module',
      moduleRow({ moduleLabels: 'AU_01', upcToAddList: '8050', monthIdList: 'M03_2027\nmarch\nM01_2020', upcStatus: 'XX', upcMinValueSkuList: '8050', upcMinValueSkuValue: 'abc' }),
      OPEN,
    );
    expect(a.errors).toEqual([ROW_TEXTS.badStatus('XX'), ROW_TEXTS.notAMonth('march'), ROW_TEXTS.monthNotOpen('M01_2020'), ROW_TEXTS.badMinValue('abc')]);
    // A cell holding only text the request drops still makes the row non-blank.
    expect(analyseRow('module', moduleRow({ monthIdList: 'march' }), OPEN).blank).toBe(false);
  });

  it('applies the cluster and classification rules', () => {
    const cluster = emptyRow('cluster', 'c');
    expect(analyseRow('cluster', { ...cluster, values: { ...cluster.values, liasToAdd: 'L1' } }, OPEN).errors).toEqual([
      MASSIVE_EDIT_TEXTS.clusterRequired,
      MASSIVE_EDIT_TEXTS.monthRequiredCluster,
    ]);
    const cls = emptyRow('classification', 'k');
    expect(analyseRow('classification', { ...cls, values: { ...cls.values, clusterLabels: 'C1' } }, OPEN).errors).toEqual([MASSIVE_EDIT_TEXTS.classificationRequired]);
  });
});

describe('summarise', () => {
  const analysis = (row: DraftRow) => analyseRow('module', row, OPEN);

  it('sends the non-blank rows with their table row numbers; Save needs one and no invalid row', () => {
    const valid = moduleRow({ moduleLabels: 'AU_01', moduleDescription: 'x' }, 'v');
    const blank = emptyRow('module', 'b');
    const invalid = moduleRow({ upcToAddList: '1' }, 'i');
    expect(summarise([blank], analysis)).toMatchObject({ sent: [], canSave: false });
    const ok = summarise([blank, valid], analysis);
    expect(ok.canSave).toBe(true);
    expect(ok.sent.map((s) => [s.rowId, s.rowNumber])).toEqual([['v', 2]]);
    expect(summarise([valid, blank, invalid], analysis)).toMatchObject({ invalidRows: 1, canSave: false });
  });
});
