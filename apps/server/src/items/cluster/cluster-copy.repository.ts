import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { clusters } from '../../db/schema.js';
import type { ClusterRow } from './clusters.repository.js';

/**
 * Writes the header of `source` into `destination` as WIP: overwrites the live row `existing` or creates
 * the row (with `createdAfterDelete`). Answers the row id; its children are replaced by the caller.
 */
export async function writeClusterCopyRow(
  tx: Tx,
  source: ClusterRow,
  existing: ClusterRow | undefined,
  destination: string,
  releaseId: string | null,
  username: string,
  createdAfterDelete: boolean,
): Promise<number> {
  const now = new Date();
  const values = {
    clusterLabel: source.clusterLabel,
    clusterDescription: source.clusterDescription,
    brandCode: source.brandCode,
    collection: source.collection,
    planningChannelId: source.planningChannelId,
    releaseId: releaseId ?? source.releaseId,
    rangeFacing: source.rangeFacing,
    status: 'WIP',
    rpasErrors: null,
    updatedAt: now,
    updatedBy: username,
  };
  if (existing) {
    await tx
      .update(clusters)
      .set({ ...values, version: sql`${clusters.version} + 1` })
      .where(eq(clusters.id, existing.id));
    return existing.id;
  }
  const [row] = await tx
    .insert(clusters)
    .values({ ...values, clusterId: source.clusterId, monthId: destination, createdAt: now, createdBy: username, createdAfterDelete })
    .returning({ id: clusters.id });
  return row!.id;
}
