import { describe, expect, it } from 'vitest';
import { moduleRowErrors } from '@bo/shared/massive-edit';
import { removalRows, replacementRows, toDiscoRequest, type ModuleRowDraft } from './disco-rows';

/** The request row Massive Edit would send for a stored row (its cells split by line). */
const asRequest = ({ values: v }: ModuleRowDraft) => {
  const list = (text: string) => text.split('\n').filter(Boolean);
  return {
    moduleLabels: list(v.moduleLabels),
    moduleDescription: v.moduleDescription,
    upcToAddList: list(v.upcToAddList),
    upcToRemoveList: list(v.upcToRemoveList),
    upcStatus: v.upcStatus,
    monthIdList: list(v.monthIdList),
    upcMinValueSkuList: list(v.upcMinValueSkuList),
    upcMinValueSkuValue: Number(v.upcMinValueSkuValue),
  };
};

describe('removalRows (GO TO MASSIVE EDIT)', () => {
  it('makes one valid row per module and month removing the checked SKUs', () => {
    const rows = removalRows([
      { upc: '111', moduleName: 'A', monthId: 'M01_2027' },
      { upc: '222', moduleName: 'A', monthId: 'M01_2027' },
      { upc: '111', moduleName: 'A', monthId: 'M02_2027' },
      { upc: '333', moduleName: 'B', monthId: 'M01_2027' },
    ]);
    expect(rows.map((r) => [r.id, r.values.moduleLabels, r.values.monthIdList, r.values.upcToRemoveList])).toEqual([
      ['r1', 'A', 'M01_2027', '111\n222'],
      ['r2', 'A', 'M02_2027', '111'],
      ['r3', 'B', 'M01_2027', '333'],
    ]);
    for (const row of rows) {
      expect(row.values).toMatchObject({ upcToAddList: '', upcStatus: 'MH', upcMinValueSkuValue: '1', upcMinValueSkuList: '' });
      expect(moduleRowErrors(asRequest(row))).toEqual([]);
    }
    expect(removalRows([])).toEqual([]);
  });
});

describe('replacementRows (guided replacement)', () => {
  it('removes the old SKU and adds the new one with the same class and min value, months of the same line kind together', () => {
    const rows = replacementRows('OLD', 'NEW', [
      { moduleName: 'A', moduleLabel: 'A label', monthId: 'M02_2027', mustHave: true, minValue: 1 },
      { moduleName: 'A', moduleLabel: 'A label', monthId: 'M01_2027', mustHave: true, minValue: 1 },
      { moduleName: 'A', moduleLabel: 'A label', monthId: 'M03_2027', mustHave: false, minValue: 1 },
      { moduleName: 'B', moduleLabel: 'B label', monthId: 'M01_2027', mustHave: true, minValue: 2.5 },
    ]);
    expect(rows.map((r) => r.values)).toEqual([
      { moduleLabels: 'A', moduleDescription: '', upcToAddList: 'NEW', upcToRemoveList: 'OLD', upcStatus: 'MH', monthIdList: 'M01_2027\nM02_2027', upcMinValueSkuList: '', upcMinValueSkuValue: '1' },
      { moduleLabels: 'A', moduleDescription: '', upcToAddList: 'NEW', upcToRemoveList: 'OLD', upcStatus: 'EL', monthIdList: 'M03_2027', upcMinValueSkuList: '', upcMinValueSkuValue: '1' },
      { moduleLabels: 'B', moduleDescription: '', upcToAddList: 'NEW', upcToRemoveList: 'OLD', upcStatus: 'MH', monthIdList: 'M01_2027', upcMinValueSkuList: 'NEW', upcMinValueSkuValue: '2.5' },
    ]);
    for (const row of rows) expect(moduleRowErrors(asRequest(row))).toEqual([]);
    expect(replacementRows('OLD', 'NEW', [])).toEqual([]);
  });
});

describe('paging', () => {
  it('sends the zero-based page and only the filters with values', () => {
    expect(toDiscoRequest({ brandCode: ['AUR'], months: [], upc: undefined }, 2)).toEqual({ brandCode: ['AUR'], pageIndex: 2 });
  });
});
