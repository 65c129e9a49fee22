/**
 * Client classifications (part 2 §2 "Client Classification List popup", §5): list, create, delete.
 * Creating needs `canManageClassifications` (admin or an edit grant), and so does deleting a classification
 * that no live cluster carries. Deleting one that live clusters carry changes each of them, so each must be a
 * change the caller may make now (docs/DECISIONS.md "Deleting a client classification"): the lifecycle core
 * decides it as it decides a massive edit's classification row (edit right on the cluster's brand and zones,
 * month and release open, not being submitted, no other user's lock), the rule of any cluster change. One refusal refuses the whole delete (403 classificationInUse, naming the clusters the caller
 * may see) and nothing changes: a cluster of a closed month keeps its classification, so it cannot be deleted.
 * Allowed, one transaction: each cluster loses it with a version of its own (`classificationDelete`), its
 * version bumped and an audit line; then the row goes. Both calls are audited.
 */
import { CLASSIFICATION_TEXTS, IN_USE_NAMED_MAX, canManageClassifications, type Classification } from '@bo/shared/classifications';
import { itemKeyString, type ItemKeyParts } from '@bo/shared/item-keys';
import type { ClassificationMassiveEditRow } from '@bo/shared/massive-edit';
import { formatMonthId } from '@bo/shared/months';
import { canView } from '@bo/shared/permissions';
import { classificationLabelError } from '@bo/shared/validation';
import type { Tx } from '../../db/client.js';
import { audit, auditMany, type AuditEntry } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { ClusterContent, ClusterRow } from '../../items/cluster/clusters.repository.js';
import { lockKeyForCreation } from '../../items/lifecycle/creation.repository.js';
import { recordVersionsAs } from '../../items/lifecycle/item-versions.repository.js';
import { decideChange, loadChangeFacts, writeChange, type ChangeDecision, type ChangeFacts, type ChangeKind } from '../../items/lifecycle/item-change.js';
import type { JobCaller } from '../../items/lifecycle/job-caller.js';
import { classificationChange, type ClassificationEnv } from '../../items/cluster/cluster-change.js';
import * as repo from './classifications.repository.js';

/** GET /api/classification/all: sorted by label, with how many live clusters carry each. */
export async function listClassifications(ctx: ServiceContext): Promise<Classification[]> {
  const rows = await repo.classificationsWithClusterCounts(ctx.db);
  return rows.sort((a, b) => (a.classificationLabel < b.classificationLabel ? -1 : 1));
}

/** POST /api/classification/create?classificationLabel= */
export async function createClassification(ctx: ServiceContext, label: string | undefined): Promise<Classification> {
  if (!canManageClassifications(ctx.user.grants)) throw forbidden(CLASSIFICATION_TEXTS.notAllowed);
  const text = label ?? '';
  const error = classificationLabelError(text);
  if (error) throw badRequest(error, [{ path: 'querystring.classificationLabel', message: error }], 'invalidClassification');
  const row = await ctx.db.transaction(async (tx) => {
    await lockKeyForCreation(tx, 'classification', text);
    if (await repo.findClassificationByLabel(tx, text)) throw conflict(CLASSIFICATION_TEXTS.exists(text), 'classificationAlreadyExists');
    const saved = await repo.insertClassification(tx, text, ctx.user.username);
    await audit(tx, { username: ctx.user.username, action: 'create', itemType: 'classification', itemKey: text, requestId: ctx.requestId });
    return saved;
  });
  return { classificationId: row.classificationId, classificationLabel: row.classificationLabel, clusterCount: 0 };
}

/** DELETE /api/classification/delete?classificationId= */
export async function deleteClassification(ctx: ServiceContext, classificationId: number): Promise<{ classificationId: number; classificationLabel: string; removedFromClusters: number }> {
  if (!canManageClassifications(ctx.user.grants)) throw forbidden(CLASSIFICATION_TEXTS.notAllowed);
  return ctx.db.transaction(async (tx) => {
    const row = await repo.findClassificationForUpdate(tx, classificationId);
    if (!row) throw notFound(CLASSIFICATION_TEXTS.notFound, 'classificationNotFound');
    const removedFromClusters = await removeFromCarryingClusters(tx, ctx, row);
    await repo.deleteClassificationRow(tx, classificationId);
    await audit(tx, {
      username: ctx.user.username,
      action: 'delete',
      itemType: 'classification',
      itemKey: row.classificationLabel,
      requestId: ctx.requestId,
      summary: { classificationId, removedFromClusters },
    });
    return { classificationId, classificationLabel: row.classificationLabel, removedFromClusters };
  });
}

/**
 * A cluster losing a classification that is being deleted: the massive edit's classification change (the same
 * content change, write and core preconditions: a SUBMITTED cluster needs the edit right, as any cluster change).
 * The change does not reopen the cluster: classifications are not sent to the planning system.
 */
const classificationRemoval: ChangeKind<ClusterRow, ClusterContent, ClassificationMassiveEditRow, ClassificationEnv> = {
  ...classificationChange,
  texts: { ...classificationChange.texts, notAuthorized: () => CLASSIFICATION_TEXTS.mayNotEditCluster },
};

interface Decided {
  key: ItemKeyParts;
  facts: ChangeFacts<ClusterRow, ClusterContent> | undefined;
  decision: ChangeDecision<ClusterContent>;
}

/**
 * Takes the classification off every live cluster that carries it, each as a change of that cluster (its rows
 * locked for the transaction); answers how many changed. One cluster the caller may not change now refuses
 * them all, before anything is written.
 */
async function removeFromCarryingClusters(tx: Tx, ctx: ServiceContext, row: repo.ClassificationRow): Promise<number> {
  const keys = (await repo.liveClustersCarrying(tx, row.classificationId)).map((k) => ({ itemKey: k.clusterId, monthId: k.monthId }));
  if (keys.length === 0) return 0;
  const caller: JobCaller = { username: ctx.user.username, grants: ctx.user.grants, requestId: ctx.requestId };
  const label = row.classificationLabel;
  const edit: ClassificationMassiveEditRow = { clusterLabels: [], classificationsToAdd: [], classificationsToRemove: [label] };
  const env: ClassificationEnv = { byLabel: new Map([[label.toUpperCase(), { id: row.classificationId, label }]]) };
  const facts = await loadChangeFacts(tx, classificationRemoval, keys, ctx.config.LOCK_TTL_MINUTES, true);
  const decided: Decided[] = keys.map((key) => {
    const f = facts.get(itemKeyString(key));
    return { key, facts: f, decision: decideChange(classificationRemoval, f, key, edit, env, caller, false) };
  });

  const refused = decided.flatMap((d) => (d.decision.outcome === 'failed' ? [{ ...d, reason: d.decision.reason }] : []));
  if (refused.length) {
    // Clusters the caller may not see are counted, not named (their labels are not theirs to read).
    const seen = refused.filter((d) => d.facts && canView(caller.grants, d.facts.scope));
    const lines = seen.slice(0, IN_USE_NAMED_MAX).map((d) => CLASSIFICATION_TEXTS.inUseCluster(d.facts!.row.clusterLabel, d.key.itemKey, formatMonthId(d.key.monthId), d.reason));
    if (seen.length > IN_USE_NAMED_MAX) lines.push(CLASSIFICATION_TEXTS.inUseMore(seen.length - IN_USE_NAMED_MAX));
    const unseen = refused.length - seen.length;
    if (unseen) lines.push(CLASSIFICATION_TEXTS.inUseUnseen(unseen));
    throw forbidden(CLASSIFICATION_TEXTS.inUse(label, lines), 'classificationInUse');
  }

  await recordVersionsAs(tx, 'classificationDelete', caller.username);
  const audits: AuditEntry[] = [];
  for (const d of decided) {
    if (d.decision.outcome !== 'applied') continue;
    audits.push(await writeChange(tx, classificationRemoval, d.facts!, d.decision, caller, { classificationDeleted: { classificationId: row.classificationId, classificationLabel: label } }));
  }
  await auditMany(tx, audits);
  return audits.length;
}
