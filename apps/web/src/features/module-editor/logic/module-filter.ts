import type { EditorModule } from '../hooks/editor-reducer';
import { hasChanges } from '../hooks/editor-reducer';

/** The Modules panel's filter of the page's cards (part 2 §2 "module filter panel"). */
export interface ModuleFilter {
  /** Part of the name or label, any case. */
  text: string;
  status: 'all' | 'WIP' | 'SUBMITTED' | 'unsaved';
}

export const NO_MODULE_FILTER: ModuleFilter = { text: '', status: 'all' };

export const isFiltering = (f: ModuleFilter) => f.text.trim() !== '' || f.status !== 'all';

export function matchesModuleFilter(m: EditorModule, f: ModuleFilter): boolean {
  const text = f.text.trim().toLowerCase();
  if (text && !m.dto.moduleName.toLowerCase().includes(text) && !m.dto.moduleLabel.toLowerCase().includes(text)) return false;
  if (f.status === 'unsaved') return hasChanges(m);
  if (f.status !== 'all') return m.dto.status === f.status;
  return true;
}
