import { moduleKeyString } from '@bo/shared/item-keys';
import { compareMonthIds } from '@bo/shared/months';
import { DISCO_FILTER_KEYS, type DiscoFilters, type DiscoListRequest, type DiscoRow, type ReplacementUsage } from '@bo/shared/disco-area';

/** The identity of a row: one per (SKU, module, month). */
export const rowKey = (r: Pick<DiscoRow, 'upc' | 'moduleName' | 'monthId'>) => `${r.upc}|${r.moduleName}|${r.monthId}`;

export const EMPTY_FILTERS: DiscoFilters = {};

/** The filters with values only (empty ones left out): the options call's body. */
export function chosenFilters(filters: DiscoFilters): DiscoFilters {
  const out: DiscoFilters = {};
  for (const key of DISCO_FILTER_KEYS) if (filters[key]?.length) out[key] = filters[key];
  return out;
}

export const hasFilter = (filters: DiscoFilters) => Object.keys(chosenFilters(filters)).length > 0;

/** The body of a search: the chosen filters and the zero-based page (part 2 §9: the UI is one-based). */
export const toDiscoRequest = (filters: DiscoFilters, pageIndex: number): DiscoListRequest => ({ ...chosenFilters(filters), pageIndex });


/** A Massive Edit module row as /massive-edit-wi keeps it: every cell text, lists one value per line (features/massive-edit/logic/fields.ts). */
export interface ModuleRowDraft {
  id: string;
  values: {
    moduleLabels: string;
    moduleDescription: string;
    upcToAddList: string;
    upcToRemoveList: string;
    upcStatus: 'MH' | 'EL';
    monthIdList: string;
    upcMinValueSkuList: string;
    upcMinValueSkuValue: string;
  };
}

const lines = (values: Iterable<string>) => [...new Set(values)].join('\n');
const draft = (i: number, values: Partial<ModuleRowDraft['values']>): ModuleRowDraft => ({
  id: `r${i + 1}`,
  values: {
    moduleLabels: '',
    moduleDescription: '',
    upcToAddList: '',
    upcToRemoveList: '',
    upcStatus: 'MH',
    monthIdList: '',
    upcMinValueSkuList: '',
    upcMinValueSkuValue: '1',
    ...values,
  },
});

/**
 * GO TO MASSIVE EDIT: the checked rows as module rows that remove those SKUs from those modules and
 * months — one row per module and month (the module by its name, which massive edit accepts like a label),
 * in the order the rows were checked.
 */
export function removalRows(checked: readonly Pick<DiscoRow, 'upc' | 'moduleName' | 'monthId'>[]): ModuleRowDraft[] {
  const groups = new Map<string, { moduleName: string; monthId: string; upcs: string[] }>();
  for (const r of checked) {
    const key = moduleKeyString(r);
    const group = groups.get(key) ?? { moduleName: r.moduleName, monthId: r.monthId, upcs: [] };
    group.upcs.push(r.upc);
    groups.set(key, group);
  }
  return [...groups.values()].map((g, i) => draft(i, { moduleLabels: g.moduleName, monthIdList: g.monthId, upcToRemoveList: lines(g.upcs) }));
}

/**
 * "Replace in all open months" (guided replacement): for every line of the old SKU the caller may change,
 * remove the old SKU and add the chosen one with the same class (MH/EL) and min value. Lines of one module
 * with the same class and min value share a row (their months together); a min value other than 1 names
 * the new SKU in the row's min value list.
 */
export function replacementRows(oldUpc: string, newUpc: string, usages: readonly ReplacementUsage[]): ModuleRowDraft[] {
  const groups = new Map<string, { moduleName: string; mustHave: boolean; minValue: number; months: string[] }>();
  for (const u of usages) {
    const key = `${u.moduleName}|${u.mustHave}|${u.minValue}`;
    const group = groups.get(key) ?? { moduleName: u.moduleName, mustHave: u.mustHave, minValue: u.minValue, months: [] };
    group.months.push(u.monthId);
    groups.set(key, group);
  }
  return [...groups.values()].map((g, i) =>
    draft(i, {
      moduleLabels: g.moduleName,
      upcToAddList: newUpc,
      upcToRemoveList: oldUpc,
      upcStatus: g.mustHave ? 'MH' : 'EL',
      monthIdList: lines([...g.months].sort(compareMonthIds)),
      upcMinValueSkuList: g.minValue !== 1 ? newUpc : '',
      upcMinValueSkuValue: String(g.minValue),
    }),
  );
}
