import { MASSIVE_EDIT_ROWS_KEY } from '@/lib/massive-edit-storage';
import type { ModuleRowDraft } from './disco-rows';

/** Hands the rows to /massive-edit-wi through the tab's storage (lib/massive-edit-storage.ts), as its own stored rows. */
export function storeForMassiveEdit(rows: readonly ModuleRowDraft[]): void {
  sessionStorage.setItem(MASSIVE_EDIT_ROWS_KEY, JSON.stringify({ type: 'module', rows }));
}
