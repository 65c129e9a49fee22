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
import { moduleChange, moduleEnv, moduleNaming, type ModuleContent, type ModuleEnv } from '../../items/module/module-change.js';
import { MASSIVE_EDIT_JOBS } from '../../jobs/job-kinds.js';


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

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A module's planned content as a version holds it: its active lines (not the bin). */
const moduleVersionContent = (c: ModuleContent): ModuleVersionContent => ({
  moduleDescription: c.description,
  lines: c.lines.filter((l) => l.moduleCompositionStatus !== 'REMOVED').map((l) => ({ upc: l.upc, mustHave: l.mustHave, minValue: l.minValue ?? null })),
});

/** A cluster's planned content as a version holds it; a massive edit does not change stores, so they are the stored ones. */
const clusterVersionContent = (c: ClusterContent, stores: string[]): ClusterVersionContent => ({
  clusterDescription: c.description,
  stores,
  modules: [...c.modules].filter(([, status]) => status === 'ADDED').map(([name]) => name).sort(byText),
  lias: [...c.lias].sort(byText),
  classifications: [...c.classifications].sort((a, b) => a - b),
});

export const moduleEditType: EditType<ModuleRow, ModuleContent, ModuleMassiveEditRow, ModuleEnv> = {
  type: 'module',
  jobKind: MASSIVE_EDIT_JOBS.module,
  change: moduleChange,
  publish: modulePublish,
  tokens: (edit) => edit.moduleLabels,
  months: (edit) => edit.monthIdList,
  named: moduleNaming.named,
  env: moduleEnv,
  async publishDiff(db, { row, content }) {
    return { module: { ...(await modulePublishDiffOf(db, row, row.moduleName, moduleVersionContent(content))), label: row.moduleLabel } };
  },
  texts: moduleNaming.texts,
};

export const clusterEditType: EditType<ClusterRow, ClusterContent, ClusterMassiveEditRow, ClusterEnv> = {
  type: 'cluster',
  jobKind: MASSIVE_EDIT_JOBS.cluster,
  change: clusterChange,
  publish: clusterPublish,
  tokens: (edit) => edit.clusterLabels,
  months: (edit) => edit.months,
  named: clusterNaming.named,
  env: clusterEnv,
  async publishDiff(db, { row, content }) {
    const { stores } = await currentContent(db, 'cluster', row.id);
    return { cluster: { ...(await clusterPublishDiffOf(db, row, row.clusterId, clusterVersionContent(content, stores))), label: row.clusterLabel } };
  },
  texts: clusterNaming.texts,
};

export const classificationEditType: EditType<ClusterRow, ClusterContent, ClassificationMassiveEditRow, ClassificationEnv> = {
  type: 'classification',
  jobKind: MASSIVE_EDIT_JOBS.classification,
  change: classificationChange,
  publish: null,
  tokens: (edit) => edit.clusterLabels,
  months: () => [],
  named: clusterNaming.named,
  env: classificationEnv,
  texts: clusterNaming.texts,
};
