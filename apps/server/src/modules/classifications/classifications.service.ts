/**
 * Client classifications (part 2 §2 "Client Classification List popup", §5): list, create, delete.
 * Creating and deleting need `canManageClassifications` (admin or an edit grant); both are audited.
 * Deleting a classification also takes it off the clusters that carry it (the popup says how many).
 */
import { asc, eq, isNull, sql } from 'drizzle-orm';
import { CLASSIFICATION_TEXTS, canManageClassifications, type Classification } from '@bo/shared/classifications';
import { classificationLabelError } from '@bo/shared/validation';
import { clientClassifications, clusterClassifications, clusters } from '../../db/schema.js';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { lockKeyForCreation } from '../creation/creation.repository.js';

/** GET /api/classification/all: sorted by label, with how many live clusters carry each. */
export async function listClassifications(ctx: ServiceContext): Promise<Classification[]> {
  const rows = await ctx.db
    .select({
      classificationId: clientClassifications.classificationId,
      classificationLabel: clientClassifications.classificationLabel,
      // Qualified by hand: drizzle writes the outer column unqualified, which the subquery would capture.
      clusterCount: sql<number>`(SELECT count(*)::int FROM cluster_classifications cc JOIN clusters c ON c.id = cc.cluster_pk
                                  WHERE cc.classification_id = client_classifications.classification_id AND c.deletion_status IS NULL)`,
    })
    .from(clientClassifications)
    .orderBy(asc(clientClassifications.classificationLabel));
  return rows.map((r) => ({ ...r, clusterCount: Number(r.clusterCount) })).sort((a, b) => (a.classificationLabel < b.classificationLabel ? -1 : 1));
}

/** POST /api/classification/create?classificationLabel= */
export async function createClassification(ctx: ServiceContext, label: string | undefined): Promise<Classification> {
  if (!canManageClassifications(ctx.user.grants)) throw forbidden(CLASSIFICATION_TEXTS.notAllowed);
  const text = label ?? '';
  const error = classificationLabelError(text);
  if (error) throw badRequest(error, [{ path: 'querystring.classificationLabel', message: error }], 'invalidClassification');
  const row = await ctx.db.transaction(async (tx) => {
    await lockKeyForCreation(tx, 'classification', text);
    const [existing] = await tx.select().from(clientClassifications).where(eq(clientClassifications.classificationLabel, text));
    if (existing) throw conflict(CLASSIFICATION_TEXTS.exists(text), 'classificationAlreadyExists');
    const [saved] = await tx.insert(clientClassifications).values({ classificationLabel: text, createdBy: ctx.user.username }).returning();
    await audit(tx, { username: ctx.user.username, action: 'create', itemType: 'classification', itemKey: text, requestId: ctx.requestId });
    return saved!;
  });
  return { classificationId: row.classificationId, classificationLabel: row.classificationLabel, clusterCount: 0 };
}

/** DELETE /api/classification/delete?classificationId= */
export async function deleteClassification(ctx: ServiceContext, classificationId: number): Promise<{ classificationId: number; classificationLabel: string; removedFromClusters: number }> {
  if (!canManageClassifications(ctx.user.grants)) throw forbidden(CLASSIFICATION_TEXTS.notAllowed);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(clientClassifications).where(eq(clientClassifications.classificationId, classificationId)).for('update');
    if (!row) throw notFound(CLASSIFICATION_TEXTS.notFound, 'classificationNotFound');
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(clusterClassifications)
      .innerJoin(clusters, eq(clusters.id, clusterClassifications.clusterPk))
      .where(sql`${clusterClassifications.classificationId} = ${classificationId} AND ${isNull(clusters.deletionStatus)}`);
    // cluster_classifications rows go with it (ON DELETE CASCADE).
    await tx.delete(clientClassifications).where(eq(clientClassifications.classificationId, classificationId));
    const removedFromClusters = Number(used?.n ?? 0);
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
