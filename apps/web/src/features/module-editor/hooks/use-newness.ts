import { useQuery } from '@tanstack/react-query';
import { newnessQueryOptions, type NewnessTab } from '../api/get-newness';
import type { EditorModule } from './editor-reducer';
import type { ModuleKeyString } from '../logic/module-key';

export type { NewnessTab };
export const NEWNESS_TABS: { value: NewnessTab; label: string }[] = [
  { value: 0, label: 'Lego & not lego' },
  { value: 1, label: 'Current month' },
  { value: 2, label: 'Previous month' },
  { value: 3, label: 'Two months before' },
];

/** The SKUs to highlight per module for the chosen newness tab (null: no newness view). */
export function useNewness(modules: EditorModule[], tab: NewnessTab | null): Record<ModuleKeyString, Set<string>> | null {
  const keys = modules.map((m) => ({ moduleName: m.dto.moduleName, monthId: m.dto.monthId }));
  const query = useQuery(newnessQueryOptions(tab, keys));
  return tab === null ? null : (query.data ?? null);
}
