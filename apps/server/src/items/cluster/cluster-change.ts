/**
 * What a cluster row and a classification row of the massive edit do to one cluster in one month
 * (part 2 §3). Cluster rows add modules of the cluster's month and brand (a module in the cluster's bin
 * comes back), send modules to the bin, add and remove LIAs (at least one stays) and replace the
 * description. Classification rows add and remove client classifications; they are not sent to the
 * planning system, so they do not reopen a SUBMITTED cluster. The lifecycle core (item-change.ts)
 * decides whether the cluster may change at all. The content write here is the cluster save's and
 * publish's too (cluster-lifecycle.service.ts).
 */
import { CLUSTER_TEXTS } from '@bo/shared/clusters';
import { MASSIVE_EDIT_TEXTS, type ClassificationMassiveEditRow, type ClusterMassiveEditRow } from '@bo/shared/massive-edit';
import { MESSAGES } from '@bo/shared/validation';
import type { Queryable, Tx } from '../../db/client.js';
import { changeTexts, type ChangeKind } from '../lifecycle/item-change.js';
import { clusterKind } from './cluster-kind.js';
import {
  clusterContents,
  replaceClusterClassifications,
  replaceClusterLias,
  replaceClusterModules,
  updateClusterRow,
  type ClusterContent,
  type ClusterRow,
} from './clusters.repository.js';
import { unknownLiaCodes } from '../lifecycle/reference-data.repository.js';
import { classificationIdsByLabel, clustersNamed } from './cluster-names.repository.js';
import type { EditType } from '../lifecycle/change-plan.js';
import { modulesNamedInMonths } from '../module/module-names.repository.js';

export const CLUSTER_CHANGE_TEXTS = {
  noSuchModule: (token: string) => `The module ${token} does not exist in the cluster's month`,
  unknownLia: (codes: readonly string[]) => `Unknown LIA ${codes.join(', ')}`,
  unknownClassification: (labels: readonly string[]) => `Unknown client classification ${labels.join(', ')}`,
  addedModule: (name: string) => `Added module ${name}`,
  restoredModule: (name: string) => `Module ${name} back from the bin`,
  removedModule: (name: string) => `Removed module ${name}`,
  addedLia: (code: string) => `Added LIA ${code}`,
  removedLia: (code: string) => `Removed LIA ${code}`,
  addedClassification: (label: string) => `Added client classification ${label}`,
  removedClassification: (label: string) => `Removed client classification ${label}`,
  description: (from: string, to: string) => `Description: "${from}" → "${to}"`,
} as const;

/** Live modules per month: by lower-cased name and by lower-cased label. */
export type ModulesByMonth = ReadonlyMap<string, ReadonlyMap<string, { moduleName: string; brandCode: string }>>;

/** Modules a cluster row names, per month, and the LIAs it names that do not exist. */
export interface ClusterEnv {
  modules: ModulesByMonth;
  unknownLias: ReadonlySet<string>;
}

/** The live modules of these months that these tokens name (a name or a label, case-insensitive). */
export async function modulesByMonth(db: Queryable, tokens: readonly string[], months: readonly string[]): Promise<ModulesByMonth> {
  const found = await modulesNamedInMonths(db, tokens, months);
  const modules = new Map<string, Map<string, { moduleName: string; brandCode: string }>>();
  for (const m of found) {
    const inMonth = modules.get(m.monthId) ?? new Map<string, { moduleName: string; brandCode: string }>();
    inMonth.set(m.moduleLabel.toLowerCase(), { moduleName: m.moduleName, brandCode: m.brandCode });
    modules.set(m.monthId, inMonth);
  }
  // Names win over labels: a token that is one module's name and another's label means the named one.
  for (const m of found) modules.get(m.monthId)!.set(m.moduleName.toLowerCase(), { moduleName: m.moduleName, brandCode: m.brandCode });
  return modules;
}

export async function clusterEnv(db: Queryable, rows: readonly ClusterMassiveEditRow[]): Promise<ClusterEnv> {
  const modules = await modulesByMonth(
    db,
    rows.flatMap((r) => [...r.moduleLabelsToAdd, ...r.moduleLabelsToRemove]),
    rows.flatMap((r) => r.months),
  );
  const unknownLias = new Set(await unknownLiaCodes(db, rows.flatMap((r) => [...r.liasToAdd, ...r.liasToRemove])));
  return { modules, unknownLias };
}

export const copyContent = (c: ClusterContent): ClusterContent => ({ description: c.description, modules: new Map(c.modules), lias: new Set(c.lias), classifications: new Set(c.classifications) });

/** The spec's refusal of a module of another brand (part 2 §8), naming the module. */
export const moduleNotAllowed = (row: ClusterRow, moduleName: string) => `${CLUSTER_TEXTS.moduleNotAllowed([row.clusterId])} (${moduleName})`;

/** The cluster row's change of one cluster's content (pure). */
export function changeCluster(content: ClusterContent, edit: ClusterMassiveEditRow, row: ClusterRow, env: ClusterEnv): { next: ClusterContent; changes: string[] } | { error: string } {
  const unknown = [...edit.liasToAdd, ...edit.liasToRemove].filter((c) => env.unknownLias.has(c));
  if (unknown.length) return { error: CLUSTER_CHANGE_TEXTS.unknownLia(unknown) };
  const next = copyContent(content);
  const changes: string[] = [];
  const inMonth = env.modules.get(row.monthId);
  for (const token of edit.moduleLabelsToAdd) {
    const m = inMonth?.get(token.toLowerCase());
    if (!m) return { error: CLUSTER_CHANGE_TEXTS.noSuchModule(token) };
    if (m.brandCode !== row.brandCode) return { error: moduleNotAllowed(row, m.moduleName) };
    const status = next.modules.get(m.moduleName);
    if (status === 'ADDED') continue;
    next.modules.set(m.moduleName, 'ADDED');
    changes.push(status === 'REMOVED' ? CLUSTER_CHANGE_TEXTS.restoredModule(m.moduleName) : CLUSTER_CHANGE_TEXTS.addedModule(m.moduleName));
  }
  for (const token of edit.moduleLabelsToRemove) {
    // A module in the cluster by its name, else by what the token names in the month.
    const name = next.modules.has(token) ? token : inMonth?.get(token.toLowerCase())?.moduleName;
    if (!name || next.modules.get(name) !== 'ADDED') continue;
    next.modules.set(name, 'REMOVED');
    changes.push(CLUSTER_CHANGE_TEXTS.removedModule(name));
  }
  for (const code of edit.liasToAdd) {
    if (next.lias.has(code)) continue;
    next.lias.add(code);
    changes.push(CLUSTER_CHANGE_TEXTS.addedLia(code));
  }
  for (const code of edit.liasToRemove) {
    if (!next.lias.delete(code)) continue;
    changes.push(CLUSTER_CHANGE_TEXTS.removedLia(code));
  }
  if (edit.liasToRemove.length && next.lias.size === 0) return { error: MESSAGES.atLeastOneLia };
  if (edit.clusterDescription && edit.clusterDescription !== content.description) {
    changes.push(CLUSTER_CHANGE_TEXTS.description(content.description, edit.clusterDescription));
    next.description = edit.clusterDescription;
  }
  return { next, changes };
}

const sameSet = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => a.size === b.size && [...a].every((v) => b.has(v));
const sameModules = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** Whether two contents of a cluster are the same: description, modules with their status, LIAs and classifications. */
export const sameClusterContent = (a: ClusterContent, b: ClusterContent): boolean =>
  a.description === b.description && sameModules(a.modules, b.modules) && sameSet(a.lias, b.lias) && sameSet(a.classifications, b.classifications);

/**
 * Writes the parts of a cluster's content that changed, then the row (status, description, version + 1):
 * the one content write of the cluster save, publish and massive edit.
 */
export async function writeClusterContent(tx: Tx, row: ClusterRow, before: ClusterContent, after: ClusterContent, state: { status: string; username: string }) {
  if (!sameModules(before.modules, after.modules)) await replaceClusterModules(tx, row.id, [...after.modules].map(([moduleName, status]) => ({ moduleName, status })));
  if (!sameSet(before.lias, after.lias)) await replaceClusterLias(tx, row.id, [...after.lias]);
  if (!sameSet(before.classifications, after.classifications)) await replaceClusterClassifications(tx, row.id, [...after.classifications]);
  await updateClusterRow(tx, row.id, { clusterDescription: after.description, status: state.status, updatedAt: new Date(), updatedBy: state.username });
}

const notAuthorized = (id: string, toPublish: boolean) => (toPublish ? MASSIVE_EDIT_TEXTS.submitError : MASSIVE_EDIT_TEXTS.editError)('cluster', [id]);

/** A cluster as one kind of massive-edit row changes it: its pure change, and whether the change reopens a SUBMITTED cluster. */
const clusterChangeKind = <Edit, Env>(change: ChangeKind<ClusterRow, ClusterContent, Edit, Env>['change'], reopens: boolean): ChangeKind<ClusterRow, ClusterContent, Edit, Env> => ({
  kind: clusterKind,
  label: (row) => row.clusterLabel,
  loadContent: clusterContents,
  change,
  write: writeClusterContent,
  reopens,
  texts: changeTexts('cluster', CLUSTER_TEXTS.submitInProgress, notAuthorized),
});

/** A cluster, as a cluster row of the massive edit changes it. */
export const clusterChange = clusterChangeKind<ClusterMassiveEditRow, ClusterEnv>(changeCluster, true);

/** Client classifications a classification row names, by upper-cased label. */
export interface ClassificationEnv {
  byLabel: ReadonlyMap<string, { id: number; label: string }>;
}

export async function classificationEnv(db: Queryable, rows: readonly ClassificationMassiveEditRow[]): Promise<ClassificationEnv> {
  return { byLabel: await classificationIdsByLabel(db, rows.flatMap((r) => [...r.classificationsToAdd, ...r.classificationsToRemove])) };
}

/** The classification row's change of one cluster's classifications (pure). */
export function changeClassifications(content: ClusterContent, edit: ClassificationMassiveEditRow, _row: ClusterRow, env: ClassificationEnv): { next: ClusterContent; changes: string[] } | { error: string } {
  const unknown = [...edit.classificationsToAdd, ...edit.classificationsToRemove].filter((l) => !env.byLabel.has(l.toUpperCase()));
  if (unknown.length) return { error: CLUSTER_CHANGE_TEXTS.unknownClassification(unknown) };
  const next = copyContent(content);
  const changes: string[] = [];
  for (const label of edit.classificationsToAdd) {
    const c = env.byLabel.get(label.toUpperCase())!;
    if (next.classifications.has(c.id)) continue;
    next.classifications.add(c.id);
    changes.push(CLUSTER_CHANGE_TEXTS.addedClassification(c.label));
  }
  for (const label of edit.classificationsToRemove) {
    const c = env.byLabel.get(label.toUpperCase())!;
    if (!next.classifications.delete(c.id)) continue;
    changes.push(CLUSTER_CHANGE_TEXTS.removedClassification(c.label));
  }
  return { next, changes };
}

/** A cluster, as a classification row changes it: classifications only, the status stays. */
export const classificationChange = clusterChangeKind<ClassificationMassiveEditRow, ClassificationEnv>(changeClassifications, false);

/** Which clusters a row's ids or labels mean, and what it says when one means none: the massive edit's cluster and classification rows and Import Cluster share it. */
export const clusterNaming: Pick<EditType<ClusterRow, unknown, never, unknown>, 'type' | 'named' | 'texts'> = {
  type: 'cluster',
  named: clustersNamed,
  texts: {
    unknownItem: (token) => `Unknown cluster ${token}`,
    noOpenMonth: (token) => `The cluster ${token} is in no open month`,
  },
};
