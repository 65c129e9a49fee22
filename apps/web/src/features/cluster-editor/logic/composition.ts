import type { ClusterDto, ClusterKey, ClusterSave } from '@bo/shared/clusters';
import { CLUSTER_EDITOR_TEXTS } from '@bo/shared/cluster-editor';
import { clusterKeyString, parseClusterKey } from '@bo/shared/item-keys';

/** A module as the editor holds it in a cluster (part 2 §3 "Cluster module"); `status` is the module's own. */
export interface EditorModule {
  moduleName: string;
  moduleLabel: string;
  macroFamily: string;
  brand: string;
  monthId: string;
  status: string;
  clusterCompositionStatus: 'ADDED' | 'REMOVED';
  /**
   * Active SKUs (not in the module's bin): total, must-have and eligible. The cluster answer gives MH and
   * EL; the module search gives only the total (mh/el null). Absent when nothing is known.
   */
  skus?: SkuCounts;
}

export interface SkuCounts {
  total: number;
  mh: number | null;
  el: number | null;
}

/** cluster key → its modules, in display order. */
type Compositions = Record<string, EditorModule[]>;

export const keyOf: (k: ClusterKey) => string = clusterKeyString;
export const parseKey: (key: string) => ClusterKey = parseClusterKey;

/** A module as the cluster page holds it, from a cluster's module or a searched one (its SKU total given or counted). */
export const toEditorModule = (
  m: Pick<EditorModule, 'moduleName' | 'moduleLabel' | 'macroFamily' | 'brand' | 'monthId' | 'status'> & { length: number; elLength: number },
  clusterCompositionStatus: EditorModule['clusterCompositionStatus'],
  total = m.length + m.elLength,
): EditorModule => ({
  moduleName: m.moduleName,
  moduleLabel: m.moduleLabel,
  macroFamily: m.macroFamily,
  brand: m.brand,
  monthId: m.monthId,
  status: m.status,
  clusterCompositionStatus,
  skus: { total, mh: m.length, el: m.elLength },
});

export const toEditorModules = (dto: ClusterDto): EditorModule[] => dto.modules.map((m) => toEditorModule(m, m.clusterCompositionStatus));

type AddOutcome = 'added' | 'restored' | 'present';

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
    // The version this page loaded (the save answer refreshes it): a repeated or stale submit is refused (409).
    version: dto.version,
  };
}

// ───────────── changes of the composition (pure; the reducer applies them) ─────────────

/**
 * What the undo history holds: every cluster's modules, the 'all clusters' bin and the checked LIAs
 * (a LIA taken away, the last one too, is a step that Undo gives back).
 */
export interface CompositionSnapshot {
  compositions: Compositions;
  allBin: EditorModule[];
  lias: Record<string, string[]>;
  /** Clusters holding a version restored from the History panel (cluster key → version): their save records a revert. */
  revertOf?: Record<string, number>;
}

export type CompositionOutcome = { kind: 'apply'; next: CompositionSnapshot } | { kind: 'error'; message: string };

const moduleAlreadyPresent: CompositionOutcome = { kind: 'error', message: CLUSTER_EDITOR_TEXTS.moduleAlreadyPresent };

/** A module dropped (or restored from the bin) into one cluster; one already ADDED there is an error. */
export function addToCluster(s: CompositionSnapshot, key: string, module: EditorModule): CompositionOutcome {
  const { list, outcome } = addModule(s.compositions[key] ?? [], module);
  if (outcome === 'present') return moduleAlreadyPresent;
  return { kind: 'apply', next: { ...s, compositions: { ...s.compositions, [key]: list } } };
}

/** A module moved to a cluster's bin. */
export function removeFromCluster(s: CompositionSnapshot, key: string, moduleName: string): CompositionOutcome {
  return { kind: 'apply', next: { ...s, compositions: { ...s.compositions, [key]: removeModule(s.compositions[key] ?? [], moduleName) } } };
}

/**
 * A module added to all clusters: to each of `targets` (the editable clusters of the module's brand)
 * that does not hold it yet, and out of the 'all clusters' bin. An error when no cluster can take it.
 */
export function addToAllClusters(s: CompositionSnapshot, targets: readonly string[], module: EditorModule): CompositionOutcome {
  if (targets.length === 0) return { kind: 'error', message: `No open cluster of the brand ${module.brand} can be edited` };
  const compositions: Compositions = { ...s.compositions };
  let changed = false;
  for (const k of targets) {
    const { list, outcome } = addModule(compositions[k] ?? [], module);
    if (outcome !== 'present') {
      compositions[k] = list;
      changed = true;
    }
  }
  if (!changed) return moduleAlreadyPresent;
  return { kind: 'apply', next: { ...s, compositions, allBin: s.allBin.filter((m) => m.moduleName !== module.moduleName) } };
}

/** A module removed from all `targets` (the editable clusters); it waits in the 'all clusters' bin. */
export function removeFromAllClusters(s: CompositionSnapshot, targets: readonly string[], module: EditorModule): CompositionOutcome {
  const compositions: Compositions = { ...s.compositions };
  for (const k of targets) compositions[k] = removeModule(compositions[k] ?? [], module.moduleName);
  return { kind: 'apply', next: { ...s, compositions, allBin: [...s.allBin.filter((m) => m.moduleName !== module.moduleName), { ...module, clusterCompositionStatus: 'REMOVED' }] } };
}

/**
 * The checked LIAs of a cluster changed: one undoable step, the last LIA taken away too (the spec's
 * 'At least one lia must be selected' is checked when saving, not here). The same set is no step.
 */
export function setClusterLias(s: CompositionSnapshot, key: string, codes: readonly string[]): CompositionOutcome | null {
  if (sameSet(s.lias[key] ?? [], codes)) return null;
  return { kind: 'apply', next: { ...s, lias: { ...s.lias, [key]: [...codes] } } };
}
