import { MAX_OPEN_CLUSTERS } from '@bo/shared/cluster-editor';
import type { ModuleListItem } from '@bo/shared/search';

/**
 * How home opens the editors (docs/web-app.md "Home → editors"; the URLs themselves are in
 * `lib/editor-urls.ts`, shared with the editors):
 * - one module: a new tab on `/module?moduleName=…&monthId=…`;
 * - several modules, or the modules of the chosen macro families: `/module?modules=NAME|MONTH,…`
 *   (at most MAX_OPEN_MODULES, what the module page loads at once);
 * - clusters: `/cluster?clusters=ID|MONTH,…` (at most MAX_OPEN_CLUSTERS), one cluster from its row in a
 *   new tab on `/cluster?clusterId=…&monthId=…`;
 * - massive edit of the selected modules (admins): sessionStorage `bo.home.massiveEditSelection`, then
 *   `/massive-edit-selected-wi`.
 */
export { MAX_OPEN_CLUSTERS };
export const MAX_OPEN_MODULES = 200;
export const MASSIVE_EDIT_SELECTION_KEY = 'bo.home.massiveEditSelection';
/** What the Massive Edit page keeps of rows not sent yet: the home's Massive Edit button clears it. */
export const MASSIVE_EDIT_ROWS_KEY = 'bo.massiveEdit.rows';

const q = encodeURIComponent;

export interface MassiveEditSelection {
  monthId: string;
  modules: { moduleName: string; monthId: string; moduleLabel: string; moduleDescription: string }[];
}

export function storeMassiveEditSelection(monthId: string, modules: readonly ModuleListItem[]): void {
  const selection: MassiveEditSelection = {
    monthId,
    modules: modules.map((m) => ({ moduleName: m.moduleName, monthId: m.monthId, moduleLabel: m.moduleLabel, moduleDescription: m.moduleDescription })),
  };
  sessionStorage.setItem(MASSIVE_EDIT_SELECTION_KEY, JSON.stringify(selection));
}

export function clearMassiveEditRows(): void {
  try {
    sessionStorage.removeItem(MASSIVE_EDIT_ROWS_KEY);
    localStorage.removeItem(MASSIVE_EDIT_ROWS_KEY);
  } catch {
    // nothing stored
  }
}

/** /statistics with the home's month and brands (and collections) in the query. */
export const statisticsUrl = (monthId: string, brands: readonly string[], collections: readonly string[]) =>
  `/statistics?monthId=${q(monthId)}${brands.map((b) => `&brand=${q(b)}`).join('')}${collections.map((c) => `&collection=${q(c)}`).join('')}`;
