/**
 * Client classifications (part 2 §2 "Client Classification List popup", §5): list, create, delete.
 * Creating and deleting need `canManageClassifications` (admin or an edit grant); both are audited.
 * Deleting a classification also takes it off the clusters that carry it (the popup says how many).
 */
import { CLASSIFICATION_TEXTS, canManageClassifications, type Classification } from '@bo/shared/classifications';
import { classificationLabelError } from '@bo/shared/validation';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { lockKeyForCreation } from '../creation/creation.repository.js';
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
    const removedFromClusters = await repo.liveClustersCarrying(tx, classificationId);
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
