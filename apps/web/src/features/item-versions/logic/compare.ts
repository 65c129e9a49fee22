/**
 * The History panel's comparisons and the restore of a module version, pure (unit-tested on their own).
 * Both sides of a comparison are version contents: the composition on screen is turned into one first
 * (its active lines only, as the server stores a version), so a version compares the same way with the
 * screen and with another version. The publish diff's texts are in lib/publish-diff-summary.ts (Massive Edit
 * uses them too).
 */
import type { ClusterVersionContent, ModuleVersionContent, ModuleVersionDetail } from '@bo/shared/item-versions';
import type { ProductDto } from '@bo/shared/modules';
import { countsLine } from '../../../lib/publish-diff-summary';

// ───────────── modules ─────────────

/** The composition on screen as a version holds it: active lines (not the bin), description. */
export function moduleContentOf(products: readonly ProductDto[], description: string | null): ModuleVersionContent {
  return {
    moduleDescription: description,
    lines: products.filter((p) => p.moduleCompositionStatus !== 'REMOVED').map((p) => ({ upc: p.upc, mustHave: p.mustHave, minValue: p.minValue })),
  };
}

type LineClass = 'MH' | 'EL' | null;
export type LineChange = 'added' | 'removed' | 'mhToEl' | 'elToMh' | 'min' | 'same';

/** One SKU of a side-by-side comparison: its class and min value on the left (the version) and on the right. */
interface ModuleCompareRow {
  upc: string;
  left: LineClass;
  right: LineClass;
  leftMin: number | null;
  rightMin: number | null;
  /** Read from left to right: 'added' = only on the right (e.g. the screen has it, the version has not). */
  change: LineChange;
}

const classOf = (l: { mustHave: boolean } | undefined): LineClass => (l ? (l.mustHave ? 'MH' : 'EL') : null);

/** Every SKU of either side, changed ones first (added, removed, switched, min value), then unchanged, each group by UPC. */
export function compareModuleContents(left: ModuleVersionContent, right: ModuleVersionContent): ModuleCompareRow[] {
  const l = new Map(left.lines.map((x) => [x.upc, x]));
  const r = new Map(right.lines.map((x) => [x.upc, x]));
  const upcs = [...new Set([...l.keys(), ...r.keys()])];
  const rows = upcs.map((upc): ModuleCompareRow => {
    const a = l.get(upc);
    const b = r.get(upc);
    const change: LineChange = !a
      ? 'added'
      : !b
        ? 'removed'
        : a.mustHave && !b.mustHave
          ? 'mhToEl'
          : !a.mustHave && b.mustHave
            ? 'elToMh'
            : (a.minValue ?? null) !== (b.minValue ?? null)
              ? 'min'
              : 'same';
    return { upc, left: classOf(a), right: classOf(b), leftMin: a?.minValue ?? null, rightMin: b?.minValue ?? null, change };
  });
  return rows.sort((x, y) => CHANGE_ORDER[x.change] - CHANGE_ORDER[y.change] || x.upc.localeCompare(y.upc));
}

const CHANGE_ORDER: Record<LineChange, number> = { added: 0, removed: 1, mhToEl: 2, elToMh: 3, min: 4, same: 5 };

/** The counts of a comparison in the summary's words: "+3 SKUs, −1, 2 MH→EL, 1 EL→MH, 1 min value" ("no change" when equal). */
export function moduleCompareSummary(rows: readonly ModuleCompareRow[]): string {
  const n = (c: LineChange) => rows.filter((r) => r.change === c).length;
  return countsLine({ added: n('added'), removed: n('removed'), mhToEl: n('mhToEl'), elToMh: n('elToMh'), min: n('min') });
}

/** A SKU of the version that the restore leaves out, and why. */
export interface SkippedSku {
  upc: string;
  reason: 'missing' | 'discontinued' | 'notFound';
}

interface ModuleRestore {
  products: ProductDto[];
  skipped: SkippedSku[];
}

/** The UPCs a restore needs tile data for: in the version (not flagged) but not among the module's lines, active or in the bin. */
export function upcsToFetch(current: readonly ProductDto[], detail: Pick<ModuleVersionDetail, 'content' | 'flags'>): string[] {
  const have = new Set(current.map((p) => p.upc));
  const flagged = new Set([...detail.flags.missing, ...detail.flags.discontinued]);
  return detail.content.lines.map((l) => l.upc).filter((u) => !have.has(u) && !flagged.has(u));
}

/**
 * The module's lines once a version is restored: the version's SKUs active with its MH/EL and min values, the
 * other active SKUs to the bin, the bin's others left there. SKUs that no longer exist or are discontinued now
 * (the server's flags) are not brought back: listed in `skipped`; a flagged SKU still active on screen stays active
 * (with the version's MH/EL and min value when the version has it).
 * A version's SKU missing from the module's lines comes from `fetched` (the SKU search), else it is skipped.
 */
export function restoreModuleVersion(current: readonly ProductDto[], detail: Pick<ModuleVersionDetail, 'content' | 'flags'>, fetched: readonly ProductDto[]): ModuleRestore {
  const skipped: SkippedSku[] = [];
  const missing = new Set(detail.flags.missing);
  const disco = new Set(detail.flags.discontinued);
  const wanted = new Map<string, ModuleVersionContent['lines'][number]>();
  // A flagged SKU that is active on screen is restored as the version had it (MH/EL, min value): only
  // bringing one back (from the bin or the search) is refused, so "not restored" never names a SKU on screen.
  const activeNow = new Set(current.filter((p) => p.moduleCompositionStatus !== 'REMOVED').map((p) => p.upc));
  for (const line of detail.content.lines) {
    if (activeNow.has(line.upc)) wanted.set(line.upc, line);
    else if (missing.has(line.upc)) skipped.push({ upc: line.upc, reason: 'missing' });
    else if (disco.has(line.upc)) skipped.push({ upc: line.upc, reason: 'discontinued' });
    else wanted.set(line.upc, line);
  }
  const flagged = (upc: string) => missing.has(upc) || disco.has(upc);
  const products: ProductDto[] = current.map((p) => {
    const line = wanted.get(p.upc);
    const active = p.moduleCompositionStatus !== 'REMOVED';
    if (line) return activeAs(p, line, active);
    if (active && !flagged(p.upc)) return { ...p, moduleCompositionStatus: 'REMOVED', previousStatus: p.moduleCompositionStatus, previousVersion: p.mustHave ? 'MH' : 'EL' };
    return p;
  });
  const have = new Set(current.map((p) => p.upc));
  const byUpc = new Map(fetched.map((p) => [p.upc, p]));
  for (const line of wanted.values()) {
    if (have.has(line.upc)) continue;
    const found = byUpc.get(line.upc);
    if (!found) skipped.push({ upc: line.upc, reason: 'notFound' });
    else products.push({ ...activeAs(found, line, false), previousStatus: null });
  }
  return { products, skipped };
}

/** A line made active as the version had it; an unchanged active line keeps its object (the editor compares by value anyway). */
function activeAs(p: ProductDto, line: ModuleVersionContent['lines'][number], active: boolean): ProductDto {
  const minValue = line.minValue ?? p.minValue;
  if (active && p.mustHave === line.mustHave && p.minValue === minValue) return p;
  return {
    ...p,
    mustHave: line.mustHave,
    eligible: !line.mustHave,
    minValue,
    ...(active ? {} : { moduleCompositionStatus: 'ADDED' as const, previousVersion: null }),
  };
}

// ───────────── clusters ─────────────

/** One list of a cluster comparison (stores, modules, LIAs, classifications): what only one side has, and what both have. */
export interface SetCompare<T> {
  onlyLeft: T[];
  onlyRight: T[];
  both: T[];
}

interface ClusterCompare {
  description: { left: string | null; right: string | null; changed: boolean };
  stores: SetCompare<string>;
  modules: SetCompare<string>;
  lias: SetCompare<string>;
  classifications: SetCompare<number>;
}

function compareSets<T extends string | number>(left: readonly T[], right: readonly T[]): SetCompare<T> {
  const l = new Set(left);
  const r = new Set(right);
  const sort = (xs: T[]) => xs.sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
  return {
    onlyLeft: sort([...l].filter((x) => !r.has(x))),
    onlyRight: sort([...r].filter((x) => !l.has(x))),
    both: sort([...l].filter((x) => r.has(x))),
  };
}

export function compareClusterContents(left: ClusterVersionContent, right: ClusterVersionContent): ClusterCompare {
  const ld = left.clusterDescription ?? '';
  const rd = right.clusterDescription ?? '';
  return {
    description: { left: left.clusterDescription, right: right.clusterDescription, changed: ld !== rd },
    stores: compareSets(left.stores, right.stores),
    modules: compareSets(left.modules, right.modules),
    lias: compareSets(left.lias, right.lias),
    classifications: compareSets(left.classifications, right.classifications),
  };
}

/** "+2 stores, −1 module, +1 LIA, description" read from left to right ("no change" when equal). */
export function clusterCompareSummary(c: ClusterCompare): string {
  const parts: string[] = [];
  const count = (set: SetCompare<unknown>, one: string, many: string) => {
    if (set.onlyRight.length) parts.push(`+${set.onlyRight.length} ${set.onlyRight.length === 1 ? one : many}`);
    if (set.onlyLeft.length) parts.push(`−${set.onlyLeft.length} ${set.onlyLeft.length === 1 ? one : many}`);
  };
  count(c.stores, 'store', 'stores');
  count(c.modules, 'module', 'modules');
  count(c.lias, 'LIA', 'LIAs');
  count(c.classifications, 'classification', 'classifications');
  if (c.description.changed) parts.push('description');
  return parts.length ? parts.join(', ') : 'no change';
}
