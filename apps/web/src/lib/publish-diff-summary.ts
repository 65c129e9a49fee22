/**
 * The publish diff in words (docs/versions.md "Publish diff"): the counts of a module or cluster diff, and the one
 * line per item that Massive Edit's Save & Publish confirmation shows. Pure; used by the module and cluster
 * publish confirmations (features/item-versions) and by Massive Edit, so both say it the same way.
 */
import { VERSION_TEXTS, type ClusterDiff, type ModuleDiff } from '@bo/shared/item-versions';
import { formatMonthId } from './format';

const NO_CHANGE = VERSION_TEXTS.noChange;
const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Module counts in the history's words: "+3 SKUs, −1, 2 MH→EL, 1 EL→MH, 1 min value" ("no change" when all are 0). */
export function countsLine(c: { added: number; removed: number; mhToEl: number; elToMh: number; min: number }): string {
  const parts: string[] = [];
  if (c.added) parts.push(`+${counted(c.added, 'SKU', 'SKUs')}`);
  if (c.removed) parts.push(c.added ? `−${c.removed}` : `−${counted(c.removed, 'SKU', 'SKUs')}`);
  if (c.mhToEl) parts.push(`${c.mhToEl} MH→EL`);
  if (c.elToMh) parts.push(`${c.elToMh} EL→MH`);
  if (c.min) parts.push(counted(c.min, 'min value', 'min values'));
  return parts.length ? parts.join(', ') : NO_CHANGE;
}

/** A module diff's counts in the summary's words ("no change" when empty). */
export const moduleDiffSummary = (d: ModuleDiff) =>
  countsLine({ added: d.added.length, removed: d.removed.length, mhToEl: d.mhToEl.length, elToMh: d.elToMh.length, min: d.minChanged.length });

export const isEmptyModuleDiff = (d: ModuleDiff) => d.added.length + d.removed.length + d.mhToEl.length + d.elToMh.length + d.minChanged.length === 0;

export const isEmptyClusterDiff = (d: ClusterDiff) =>
  d.storesAdded.length + d.storesRemoved.length + d.modulesAdded.length + d.modulesRemoved.length === 0 && !d.skusPerStore.some((g) => g.gained || g.lost);

/**
 * The store groups of a cluster diff as sentences, biggest change first: "12 stores gain 3 SKUs", "4 stores gain 2
 * SKUs and lose 1", "3 stores lose 5 SKUs"; groups with no change are left out.
 */
export function storeGainLines(d: ClusterDiff): string[] {
  const skus = (n: number) => counted(n, 'SKU', 'SKUs');
  return d.skusPerStore
    .filter((g) => g.stores > 0 && (g.gained || g.lost))
    .slice()
    .sort((a, b) => b.gained + b.lost - (a.gained + a.lost) || b.stores - a.stores)
    .map((g) => {
      const who = counted(g.stores, 'store', 'stores');
      const verb = (s: string, p: string) => (g.stores === 1 ? s : p);
      if (g.gained && g.lost) return `${who} ${verb('gains', 'gain')} ${skus(g.gained)} and ${verb('loses', 'lose')} ${g.lost}`;
      if (g.gained) return `${who} ${verb('gains', 'gain')} ${skus(g.gained)}`;
      return `${who} ${verb('loses', 'lose')} ${skus(g.lost)}`;
    });
}

/** A cluster diff on one line: "+1 module, −2 stores, 12 stores gain 3 SKUs" ("no change" when empty). */
export function clusterDiffSummary(d: ClusterDiff): string {
  const parts: string[] = [];
  const delta = (added: number, removed: number, one: string, many: string) => {
    if (added) parts.push(`+${counted(added, one, many)}`);
    if (removed) parts.push(`−${counted(removed, one, many)}`);
  };
  delta(d.modulesAdded.length, d.modulesRemoved.length, 'module', 'modules');
  delta(d.storesAdded.length, d.storesRemoved.length, 'store', 'stores');
  parts.push(...storeGainLines(d));
  return parts.length ? parts.join(', ') : NO_CHANGE;
}

/** An item's publish diff, as both publishDiff calls and Massive Edit's preview answer it. */
interface PublishDiffOf<D> {
  lastPublished: { diff: D } | null;
  previousMonth: { monthId: string; diff: D } | null;
}

const PUBLISH_LINE_TEXTS = {
  lastPublished: 'vs last published',
  previousMonth: (monthId: string) => `vs ${formatMonthId(monthId)}`,
} as const;

/** One comparison of a publish diff: "vs last published" + "+1 SKU", or a text alone ("Never published before"). */
export interface PublishDiffPart {
  label: string | null;
  text: string;
}

/** An item's two comparisons: against the last published version, then against the previous month's. */
export function publishDiffParts<D>(item: PublishDiffOf<D>, summary: (diff: D) => string): [PublishDiffPart, PublishDiffPart] {
  return [
    item.lastPublished ? { label: PUBLISH_LINE_TEXTS.lastPublished, text: summary(item.lastPublished.diff) } : { label: null, text: VERSION_TEXTS.neverPublished },
    item.previousMonth
      ? { label: PUBLISH_LINE_TEXTS.previousMonth(item.previousMonth.monthId), text: summary(item.previousMonth.diff) }
      : { label: null, text: VERSION_TEXTS.noPreviousMonth },
  ];
}

/** The two comparisons on one line: "vs last published: +1 SKU · vs 05/2027: +2 SKUs, −1". */
export const PUBLISH_PARTS_SEPARATOR = ' · ';
export const publishDiffLine = <D>(item: PublishDiffOf<D>, summary: (diff: D) => string): string =>
  publishDiffParts(item, summary)
    .map((p) => (p.label ? `${p.label}: ${p.text}` : p.text))
    .join(PUBLISH_PARTS_SEPARATOR);
