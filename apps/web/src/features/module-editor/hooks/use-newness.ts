import { useQuery } from '@tanstack/react-query';
import { addMonths } from '@bo/shared/months';
import type { NewnessResponse } from '@bo/shared/working-area';
import { getNewnessLego } from '../api/get-newness-lego';
import { getNewnessNotLego } from '../api/get-newness-not-lego';
import type { EditorModule } from './editor-reducer';
import { moduleKey, type ModuleKeyString } from '../logic/module-key';

/** Newness tabs (part 1 §2): 0 lego and not lego, 1 current month, 2 previous month, 3 two months before. */
export type NewnessTab = 0 | 1 | 2 | 3;
export const NEWNESS_TABS: { value: NewnessTab; label: string }[] = [
  { value: 0, label: 'Lego & not lego' },
  { value: 1, label: 'Current month' },
  { value: 2, label: 'Previous month' },
  { value: 3, label: 'Two months before' },
];

/** The SKUs to highlight per module for the chosen newness tab (null: no newness view). */
export function useNewness(modules: EditorModule[], tab: NewnessTab | null): Record<ModuleKeyString, Set<string>> | null {
  const keys = modules.map((m) => ({ moduleName: m.dto.moduleName, monthId: m.dto.monthId }));
  const query = useQuery({
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
  return tab === null ? null : (query.data ?? null);
}
