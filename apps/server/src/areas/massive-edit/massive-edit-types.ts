/** The three kinds of massive edit rows (part 2 §3): which items they name, in which months, and how they publish. */
import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import type { ClassificationMassiveEditRow, ClusterMassiveEditRow, ModuleMassiveEditRow } from '@bo/shared/massive-edit';
import type { ClusterVersionContent, ModuleVersionContent } from '@bo/shared/item-versions';
import { formatMonthId } from '@bo/shared/months';
import type { ClusterContent, ClusterRow } from '../../items/cluster/clusters.repository.js';
import type { PublishChangedKind } from '../../items/lifecycle/publish-changed.js';
import { clusterKind } from '../../items/cluster/cluster-kind.js';
import { moduleKind } from '../../items/module/module-kind.js';
import type { ModuleRow } from '../../items/module/modules.repository.js';
import { currentContent } from '../../items/lifecycle/item-versions.repository.js';
import { clusterPublishDiffOf, modulePublishDiffOf } from '../item-versions/publish-diff.presenter.js';
import { clusterPublishBlockers, hasModulesInWip, modulePublishBlockers } from '../../items/lifecycle/publish-blockers.js';
import { classificationChange, classificationEnv, clusterChange, clusterEnv, clusterNaming, type ClassificationEnv, type ClusterEnv } from '../../items/cluster/cluster-change.js';
import type { EditType } from '../../items/lifecycle/change-plan.js';
import type { VersionedRow } from '../../items/lifecycle/item-change.js';
import { moduleChange, moduleEnv, moduleNaming, type ModuleContent, type ModuleEnv } from '../../items/module/module-change.js';
import { MASSIVE_EDIT_JOBS } from '../../jobs/job-kinds.js';
import { byCodePoint } from '../../lib/text-order.js';


const reasonsText = (reasons: readonly { message: string }[]) => reasons.map((r) => r.message).join(', ');

const modulePublish: PublishChangedKind<ModuleRow> = {
  kind: moduleKind,
  async publishBlockers(tx, rows) {
    const blocked = await modulePublishBlockers(tx, rows);
    return new Map([...blocked].map(([id, reasons]) => [id, reasonsText(reasons)]));
  },
  texts: {
    publishNotAllowed: () => "You don't have the right to publish the module",
    notWip: (month) => `Only modules in WIP can be published (${formatMonthId(month)})`,
  },
};

const clusterPublish: PublishChangedKind<ClusterRow> = {
  kind: clusterKind,
  async publishBlockers(tx, rows) {
    const blocked = await clusterPublishBlockers(tx, rows);
    return new Map([...blocked].map(([id, reasons]) => [id, hasModulesInWip(reasons) ? CLUSTER_TEXTS.modulesInWip : reasonsText(reasons)]));
  },
  texts: {
    publishNotAllowed: () => "You don't have the right to publish the cluster",
    notWip: () => CLUSTER_TEXTS.notWip,
  },
};

/** A module's planned content as a version holds it: its active lines (not the bin). */
const moduleVersionContent = (c: ModuleContent): ModuleVersionContent => ({
  moduleDescription: c.description,
  lines: c.lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED').map((l) => ({ upc: l.upc, mustHave: l.mustHave, minValue: l.minValue ?? null })),
});

/** A cluster's planned content as a version holds it; a massive edit does not change stores, so they are the stored ones. */
const clusterVersionContent = (c: ClusterContent, stores: string[]): ClusterVersionContent => ({
  clusterDescription: c.description,
  stores,
  modules: [...c.modules].filter(([, status]) => status === 'ADDED').map(([name]) => name).sort(byCodePoint),
  lias: [...c.lias].sort(byCodePoint),
  classifications: [...c.classifications].sort((a, b) => a - b),
});

/**
 * An edit type from its own parts: its job kind is the type's, and the item kind's naming says which
 * items a row's tokens name and the texts of a token that names none.
 */
function editType<Row extends VersionedRow, Content, Edit, Env>(
  naming: Pick<EditType<Row, Content, Edit, Env>, 'named' | 'texts'>,
  parts: Omit<EditType<Row, Content, Edit, Env>, 'jobKind' | 'named' | 'texts'>,
): EditType<Row, Content, Edit, Env> {
  return { ...parts, jobKind: MASSIVE_EDIT_JOBS[parts.type], named: naming.named, texts: naming.texts };
}

export const moduleEditType = editType<ModuleRow, ModuleContent, ModuleMassiveEditRow, ModuleEnv>(moduleNaming, {
  type: 'module',
  change: moduleChange,
  publish: modulePublish,
  tokens: (edit) => edit.moduleLabels,
  months: (edit) => edit.monthIdList,
  env: moduleEnv,
  async publishDiff(db, { row, content }) {
    return { module: { ...(await modulePublishDiffOf(db, row, row.moduleName, moduleVersionContent(content))), label: row.moduleLabel } };
  },
});

export const clusterEditType = editType<ClusterRow, ClusterContent, ClusterMassiveEditRow, ClusterEnv>(clusterNaming, {
  type: 'cluster',
  change: clusterChange,
  publish: clusterPublish,
  tokens: (edit) => edit.clusterLabels,
  months: (edit) => edit.months,
  env: clusterEnv,
  async publishDiff(db, { row, content }) {
    const { stores } = await currentContent(db, 'cluster', row.id);
    return { cluster: { ...(await clusterPublishDiffOf(db, row, row.clusterId, clusterVersionContent(content, stores))), label: row.clusterLabel } };
  },
});

export const classificationEditType = editType<ClusterRow, ClusterContent, ClassificationMassiveEditRow, ClassificationEnv>(clusterNaming, {
  type: 'classification',
  change: classificationChange,
  publish: null,
  tokens: (edit) => edit.clusterLabels,
  months: () => [],
  env: classificationEnv,
});
