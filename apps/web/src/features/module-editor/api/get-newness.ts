import { queryOptions } from '@tanstack/react-query';
import { addMonths } from '@bo/shared/months';
import type { ModuleKey } from '@bo/shared/modules';
import type { NewnessResponse } from '@bo/shared/working-area';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';
import { getNewnessLego } from './get-newness-lego';
import { getNewnessNotLego } from './get-newness-not-lego';

/** Newness tabs (part 1 §2): 0 lego and not lego, 1 current month, 2 previous month, 3 two months before. */
export type NewnessTab = 0 | 1 | 2 | 3;

/** The SKUs to highlight per module for a newness tab: the lego and not-lego lists (tab 0) or the not-lego list of the tab's month. */
export const newnessQueryOptions = (tab: NewnessTab | null, keys: ModuleKey[]) =>
  queryOptions({
    queryKey: ['module-newness', tab, keys],
    enabled: tab !== null && keys.length > 0,
    queryFn: async () => {
      const month = keys[0]!.monthId;
      const lists: NewnessResponse[] =
        tab === 0
          ? await Promise.all([getNewnessLego(keys, true), getNewnessNotLego(keys, month)])
          : [await getNewnessNotLego(keys, addMonths(month, 1 - (tab ?? 1)))];
      const out: Record<ModuleKeyString, Set<string>> = {};
      for (const list of lists) for (const item of list) for (const upc of item.upcList) (out[moduleKey(item)] ??= new Set()).add(upc);
      for (const k of keys) out[moduleKey(k)] ??= new Set();
      return out;
    },
  });
