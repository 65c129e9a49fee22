/**
 * What home hands to the Massive Edit pages through the tab's storage (docs/web-app.md "Massive Edit"):
 * - the modules selected on home for /massive-edit-selected-wi (admins): sessionStorage `bo.home.massiveEditSelection`;
 * - the rows of /massive-edit-wi not sent yet: sessionStorage `bo.massiveEdit.rows` (home's Massive Edit button clears it).
 * Every `bo.` key is cleared at logout (lib/session.ts).
 */
const MASSIVE_EDIT_SELECTION_KEY = 'bo.home.massiveEditSelection';
export const MASSIVE_EDIT_ROWS_KEY = 'bo.massiveEdit.rows';

interface MassiveEditSelection {
  monthId: string;
  modules: { moduleName: string; monthId: string; moduleLabel: string; moduleDescription: string }[];
}

export function storeMassiveEditSelection(selection: MassiveEditSelection): void {
  sessionStorage.setItem(MASSIVE_EDIT_SELECTION_KEY, JSON.stringify(selection));
}

/** The selection home stored, or null when there is none (or it cannot be read). */
export function readMassiveEditSelection(): MassiveEditSelection | null {
  try {
    const raw = sessionStorage.getItem(MASSIVE_EDIT_SELECTION_KEY);
    const parsed = raw ? (JSON.parse(raw) as MassiveEditSelection) : null;
    return parsed && Array.isArray(parsed.modules) ? parsed : null;
  } catch {
    return null;
  }
}

export function clearMassiveEditRows(): void {
  try {
    sessionStorage.removeItem(MASSIVE_EDIT_ROWS_KEY);
    localStorage.removeItem(MASSIVE_EDIT_ROWS_KEY);
  } catch {
    // nothing stored
  }
}
