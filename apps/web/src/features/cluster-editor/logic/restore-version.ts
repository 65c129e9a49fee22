import type { ModuleDto } from '@bo/shared/modules';
import type { EditorModule } from './composition';

/**
 * A cluster's modules once a version is restored (History panel): the version's modules ADDED, the other ADDED ones to
 * the cluster's bin, the bin's others left there. A version module the cluster no longer lists comes from `fetched`
 * (the module details call); one not found is not restored (`skipped`).
 */
export function restoredModules(current: readonly EditorModule[], names: readonly string[], fetched: readonly EditorModule[]): { modules: EditorModule[]; skipped: string[] } {
  const wanted = new Set(names);
  const modules: EditorModule[] = current.map((m) => {
    const status = wanted.has(m.moduleName) ? 'ADDED' : 'REMOVED';
    return m.clusterCompositionStatus === status ? m : { ...m, clusterCompositionStatus: status };
  });
  const have = new Set(current.map((m) => m.moduleName));
  const byName = new Map(fetched.map((m) => [m.moduleName, m]));
  const skipped: string[] = [];
  for (const name of names) {
    if (have.has(name)) continue;
    const found = byName.get(name);
    if (found) modules.push({ ...found, clusterCompositionStatus: 'ADDED' });
    else skipped.push(name);
  }
  return { modules, skipped };
}

/** The module details' answer as the cluster editor holds a module. */
export const editorModuleOf = (d: ModuleDto): EditorModule => ({
  moduleName: d.moduleName,
  moduleLabel: d.moduleLabel,
  macroFamily: d.macroFamily,
  brand: d.brand,
  monthId: d.monthId,
  status: d.status,
  clusterCompositionStatus: 'ADDED',
  skus: { total: d.length + d.elLength, mh: d.length, el: d.elLength },
});
