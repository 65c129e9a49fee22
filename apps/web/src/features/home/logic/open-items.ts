import { MAX_OPEN_CLUSTERS } from '@bo/shared/cluster-editor';
import type { ModuleListItem } from '@bo/shared/search';
import { clearMassiveEditRows, storeMassiveEditSelection as storeSelection } from '@/lib/massive-edit-storage';

/**
 * How home opens the editors (docs/web-app.md "Home → editors"; the URLs themselves are in
 * `lib/editor-urls.ts`, shared with the editors):
 * - one module: a new tab on `/module?moduleName=…&monthId=…`;
 * - several modules, or the modules of the chosen macro families: `/module?modules=NAME|MONTH,…`
 *   (at most MAX_OPEN_MODULES, what the module page loads at once);
 * - clusters: `/cluster?clusters=ID|MONTH,…` (at most MAX_OPEN_CLUSTERS), one cluster from its row in a
 *   new tab on `/cluster?clusterId=…&monthId=…`;
 * - massive edit of the selected modules (admins): lib/massive-edit-storage.ts, then `/massive-edit-selected-wi`.
 */
export { MAX_OPEN_CLUSTERS };
export const MAX_OPEN_MODULES = 200;
const q = encodeURIComponent;

/** Stores the selected modules for /massive-edit-selected-wi (lib/massive-edit-storage.ts). */
export function storeMassiveEditSelection(monthId: string, modules: readonly ModuleListItem[]): void {
  storeSelection({
    monthId,
    modules: modules.map((m) => ({ moduleName: m.moduleName, monthId: m.monthId, moduleLabel: m.moduleLabel, moduleDescription: m.moduleDescription })),
  });
}

export { clearMassiveEditRows };

/** /statistics with the home's month and brands (and collections) in the query. */
export const statisticsUrl = (monthId: string, brands: readonly string[], collections: readonly string[]) =>
  `/statistics?monthId=${q(monthId)}${brands.map((b) => `&brand=${q(b)}`).join('')}${collections.map((c) => `&collection=${q(c)}`).join('')}`;
