import { clusterKeyString, moduleKeyString } from '@bo/shared/item-keys';
import { itemInMonth, type MassiveEditPublishDiff } from '@bo/shared/massive-edit';
import { clusterDiffSummary, moduleDiffSummary, publishDiffParts, type PublishDiffPart } from '../../../lib/publish-diff-summary';

/** One item-month of Save & Publish's confirmation: who, and what publishing it changes, on one line. */
interface PublishLine {
  key: string;
  /** "Sun module · MRA_SUN_01 (06/2027)" (the label left out when it is the name). */
  name: string;
  /** Against the last published version, then against the previous month's (shown on one line, ' · ' between). */
  parts: [PublishDiffPart, PublishDiffPart];
}

const nameOf = (label: string, itemKey: string, monthId: string) => `${label && label !== itemKey ? `${label} · ` : ''}${itemInMonth(itemKey, monthId)}`;

/** The lines of the preview's publish diff, in row order (modules or clusters: one table sends one kind). */
export function publishLines(diff: MassiveEditPublishDiff): PublishLine[] {
  return [
    ...diff.modules.map((d) => ({
      key: moduleKeyString(d),
      name: nameOf(d.label, d.moduleName, d.monthId),
      parts: publishDiffParts(d, moduleDiffSummary),
    })),
    ...diff.clusters.map((d) => ({
      key: clusterKeyString(d),
      name: nameOf(d.label, d.clusterId, d.monthId),
      parts: publishDiffParts(d, clusterDiffSummary),
    })),
  ];
}
