import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { clientClassifications, clusterClassifications, clusters } from '../../db/schema.js';

export type ClassificationRow = typeof clientClassifications.$inferSelect;

/** Every classification, by label, with how many live clusters carry it. */
export async function classificationsWithClusterCounts(db: Queryable) {
  const rows = await db
    .select({
      classificationId: clientClassifications.classificationId,
      classificationLabel: clientClassifications.classificationLabel,
      // Qualified by hand: drizzle writes the outer column unqualified, which the subquery would capture.
      clusterCount: sql<number>`(SELECT count(*)::int FROM cluster_classifications cc JOIN clusters c ON c.id = cc.cluster_pk
                                  WHERE cc.classification_id = client_classifications.classification_id AND c.deletion_status IS NULL)`,
    })
    .from(clientClassifications)
    .orderBy(asc(clientClassifications.classificationLabel));
  return rows.map((r) => ({ ...r, clusterCount: Number(r.clusterCount) }));
}

export async function findClassificationByLabel(db: Queryable, label: string): Promise<ClassificationRow | null> {
  const [row] = await db.select().from(clientClassifications).where(eq(clientClassifications.classificationLabel, label));
  return row ?? null;
}

export async function insertClassification(db: Queryable, label: string, createdBy: string): Promise<ClassificationRow> {
  const [saved] = await db.insert(clientClassifications).values({ classificationLabel: label, createdBy }).returning();
  return saved!;
}

/** The classification, locked for the rest of the transaction. */
export async function findClassificationForUpdate(db: Queryable, classificationId: number): Promise<ClassificationRow | null> {
  const [row] = await db.select().from(clientClassifications).where(eq(clientClassifications.classificationId, classificationId)).for('update');
  return row ?? null;
}

/** The keys of the live clusters that carry the classification, in row order. */
export async function liveClustersCarrying(db: Queryable, classificationId: number): Promise<{ clusterId: string; monthId: string }[]> {
  return db
    .select({ clusterId: clusters.clusterId, monthId: clusters.monthId })
    .from(clusterClassifications)
    .innerJoin(clusters, eq(clusters.id, clusterClassifications.clusterPk))
    .where(and(eq(clusterClassifications.classificationId, classificationId), isNull(clusters.deletionStatus)))
    .orderBy(asc(clusters.id));
}

/** Deletes the classification; its links to clusters that are not live (deleted or being deleted) go with it (ON DELETE CASCADE). */
export async function deleteClassificationRow(db: Queryable, classificationId: number): Promise<void> {
  await db.delete(clientClassifications).where(eq(clientClassifications.classificationId, classificationId));
}
