/**
 * Pure comparisons of two versions' contents (docs/versions.md): the module and cluster diffs of the
 * publish confirmation and the one-line summary of each history entry.
 */
import type { ClusterDiff, ClusterVersionContent, ModuleDiff, ModuleVersionContent } from '@bo/shared/item-versions';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const minus = (a: Iterable<string>, b: ReadonlySet<string>) => [...a].filter((x) => !b.has(x)).sort(byText);

/** What changes from `before` to `after` (before = null: everything is added). */
export function moduleDiff(before: ModuleVersionContent | null, after: ModuleVersionContent): ModuleDiff {
  const old = new Map((before?.lines ?? []).map((l) => [l.upc, l]));
  const now = new Map(after.lines.map((l) => [l.upc, l]));
  const diff: ModuleDiff = { added: minus(now.keys(), new Set(old.keys())), removed: minus(old.keys(), new Set(now.keys())), mhToEl: [], elToMh: [], minChanged: [] };
  for (const upc of [...now.keys()].sort(byText)) {
    const a = old.get(upc);
    const b = now.get(upc)!;
    if (!a) continue;
    if (a.mustHave && !b.mustHave) diff.mhToEl.push(upc);
    if (!a.mustHave && b.mustHave) diff.elToMh.push(upc);
    if ((a.minValue ?? null) !== (b.minValue ?? null)) diff.minChanged.push({ upc, from: a.minValue ?? null, to: b.minValue ?? null });
  }
  return diff;
}

/** Stores that gain / lose how many SKUs, grouped; a store's SKUs are those of the cluster's modules. */
export function storeGroups(
  before: { stores: readonly string[]; skus: ReadonlySet<string> },
  after: { stores: readonly string[]; skus: ReadonlySet<string> },
): ClusterDiff['skusPerStore'] {
  const oldStores = new Set(before.stores);
  const newStores = new Set(after.stores);
  const gainedBoth = minus(after.skus, before.skus).length;
  const lostBoth = minus(before.skus, after.skus).length;
  const groups = new Map<string, { gained: number; lost: number; stores: number }>();
  const count = (gained: number, lost: number) => {
    if (gained === 0 && lost === 0) return; // unchanged stores are not a change
    const key = `${gained}|${lost}`;
    const g = groups.get(key) ?? { gained, lost, stores: 0 };
    g.stores += 1;
    groups.set(key, g);
  };
  for (const s of newStores) count(oldStores.has(s) ? gainedBoth : after.skus.size, oldStores.has(s) ? lostBoth : 0);
  for (const s of oldStores) if (!newStores.has(s)) count(0, before.skus.size);
  return [...groups.values()].sort((a, b) => b.stores - a.stores || b.gained - a.gained || b.lost - a.lost);
}

/** The cluster diff without the per-store SKU groups (those need the modules' SKUs: the service adds them). */
export function clusterMembershipDiff(before: ClusterVersionContent | null, after: ClusterVersionContent): Omit<ClusterDiff, 'skusPerStore'> {
  const oldStores = new Set(before?.stores ?? []);
  const oldModules = new Set(before?.modules ?? []);
  return {
    storesAdded: minus(after.stores, oldStores),
    storesRemoved: minus(before?.stores ?? [], new Set(after.stores)),
    modulesAdded: minus(after.modules, oldModules),
    modulesRemoved: minus(before?.modules ?? [], new Set(after.modules)),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "+3 SKUs, −1, 2 MH→EL, 1 EL→MH, 2 min values, description" (or "no change"). */
export function moduleSummary(before: ModuleVersionContent, after: ModuleVersionContent): string {
  const d = moduleDiff(before, after);
  const parts: string[] = [];
  if (d.added.length) parts.push(`+${plural(d.added.length, 'SKU')}`);
  if (d.removed.length) parts.push(d.added.length ? `−${d.removed.length}` : `−${plural(d.removed.length, 'SKU')}`);
  if (d.mhToEl.length) parts.push(`${d.mhToEl.length} MH→EL`);
  if (d.elToMh.length) parts.push(`${d.elToMh.length} EL→MH`);
  if (d.minChanged.length) parts.push(plural(d.minChanged.length, 'min value'));
  if ((before.moduleDescription ?? '') !== (after.moduleDescription ?? '')) parts.push('description');
  return parts.join(', ') || 'no change';
}

/** "+2 stores, −1 module, +1 LIA, 1 classification, description" (or "no change"). */
export function clusterSummary(before: ClusterVersionContent, after: ClusterVersionContent): string {
  const parts: string[] = [];
  const delta = (old: readonly (string | number)[], now: readonly (string | number)[], word: string) => {
    const o = new Set(old.map(String));
    const n = new Set(now.map(String));
    const added = [...n].filter((x) => !o.has(x)).length;
    const removed = [...o].filter((x) => !n.has(x)).length;
    if (added) parts.push(`+${plural(added, word)}`);
    if (removed) parts.push(`−${plural(removed, word)}`);
  };
  delta(before.stores, after.stores, 'store');
  delta(before.modules, after.modules, 'module');
  delta(before.lias, after.lias, 'LIA');
  delta(before.classifications, after.classifications, 'classification');
  if ((before.clusterDescription ?? '') !== (after.clusterDescription ?? '')) parts.push('description');
  return parts.join(', ') || 'no change';
}
