import type { ClusterDto, ClusterKey, ClusterSave } from '@bo/shared/clusters';

/** A module as the editor holds it in a cluster (part 2 §3 "Cluster module"); `status` is the module's own. */
export interface EditorModule {
  moduleName: string;
  moduleLabel: string;
  macroFamily: string;
  brand: string;
  monthId: string;
  status: string;
  clusterCompositionStatus: 'ADDED' | 'REMOVED';
}

/** cluster key → its modules, in display order. */
export type Compositions = Record<string, EditorModule[]>;

export const keyOf = (k: ClusterKey) => `${k.clusterId}|${k.monthId}`;
export const parseKey = (key: string): ClusterKey => {
  const [clusterId = '', monthId = ''] = key.split('|');
  return { clusterId, monthId };
};

export const toEditorModules = (dto: ClusterDto): EditorModule[] =>
  dto.modules.map((m) => ({
    moduleName: m.moduleName,
    moduleLabel: m.moduleLabel,
    macroFamily: m.macroFamily,
    brand: m.brand,
    monthId: m.monthId,
    status: m.status,
    clusterCompositionStatus: m.clusterCompositionStatus,
  }));

export type AddOutcome = 'added' | 'restored' | 'present';

/** Puts a module in a cluster as ADDED: new, or back from the bin; an ADDED one is already present. */
export function addModule(list: readonly EditorModule[], module: EditorModule): { list: EditorModule[]; outcome: AddOutcome } {
  const found = list.find((m) => m.moduleName === module.moduleName);
  if (found?.clusterCompositionStatus === 'ADDED') return { list: [...list], outcome: 'present' };
  if (found) return { list: list.map((m) => (m === found ? { ...m, clusterCompositionStatus: 'ADDED' } : m)), outcome: 'restored' };
  return { list: [...list, { ...module, clusterCompositionStatus: 'ADDED' }], outcome: 'added' };
}

/** Moves a module of the cluster to its bin (REMOVED). */
export function removeModule(list: readonly EditorModule[], moduleName: string): EditorModule[] {
  return list.map((m) => (m.moduleName === moduleName ? { ...m, clusterCompositionStatus: 'REMOVED' } : m));
}

/** Modules ADDED in every one of the clusters (the 'Add to all clusters' area shows them). */
export function commonModules(compositions: Compositions, keys: readonly string[]): EditorModule[] {
  if (keys.length === 0) return [];
  const [first, ...rest] = keys.map((k) => compositions[k] ?? []);
  return (first ?? []).filter(
    (m) => m.clusterCompositionStatus === 'ADDED' && rest.every((l) => l.some((x) => x.moduleName === m.moduleName && x.clusterCompositionStatus === 'ADDED')),
  );
}

/** Groups modules by macro family, families alphabetical, labels alphabetical within. */
export function byFamily(list: readonly EditorModule[]): [string, EditorModule[]][] {
  const groups = new Map<string, EditorModule[]>();
  for (const m of list) groups.set(m.macroFamily, [...(groups.get(m.macroFamily) ?? []), m]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([family, mods]) => [family, [...mods].sort((a, b) => a.moduleLabel.localeCompare(b.moduleLabel))]);
}

/** Same modules with the same statuses, whatever the order. */
export function sameComposition(a: readonly EditorModule[], b: readonly EditorModule[]): boolean {
  if (a.length !== b.length) return false;
  const map = new Map(a.map((m) => [m.moduleName, m.clusterCompositionStatus]));
  return b.every((m) => map.get(m.moduleName) === m.clusterCompositionStatus);
}

export const checkedLias = (dto: ClusterDto) => dto.lias.filter((l) => l.isChecked).map((l) => l.liaCode).sort();
export const sameSet = <T,>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The body of save / checkForPublish / publish for one cluster, with the screen's edits. */
export function toSaveBody(dto: ClusterDto, modules: readonly EditorModule[], description: string, lias: readonly string[], classifications: readonly number[]): ClusterSave {
  return {
    clusterId: dto.clusterId,
    monthId: dto.monthId,
    clusterDescription: description,
    modules: modules.map((m) => ({ moduleName: m.moduleName, clusterCompositionStatus: m.clusterCompositionStatus })),
    lias: dto.lias.map((l) => ({ liaCode: l.liaCode, isChecked: lias.includes(l.liaCode) })),
    classifications: classifications.map((classificationId) => ({ classificationId })),
  };
}
