/** SQL of publishing: the publication state of a module or cluster row, whichever kind the item is. */
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { clusters, modules } from '../../db/schema.js';

/** A live module or cluster of a month (itemKey = moduleName or clusterId). */
export interface PublishedItemRef {
  itemType: 'module' | 'cluster';
  itemKey: string;
  monthId: string;
}

/** The publication fields of an item row; both tables name them alike. */
export type PublicationState = Partial<Pick<typeof modules.$inferInsert, 'status' | 'rpasErrors' | 'publicationDate' | 'updatedAt' | 'updatedBy'>>;

const tableOf = (t: PublishedItemRef['itemType']) => (t === 'module' ? modules : clusters);

function keyWhere(item: PublishedItemRef) {
  return item.itemType === 'module'
    ? and(eq(modules.moduleName, item.itemKey), eq(modules.monthId, item.monthId), isNull(modules.deletionStatus))
    : and(eq(clusters.clusterId, item.itemKey), eq(clusters.monthId, item.monthId), isNull(clusters.deletionStatus));
}

/** The status of the item's live row (undefined when there is none); `forUpdate` locks the row. */
export async function publishedItemStatus(db: Queryable, item: PublishedItemRef, forUpdate = false): Promise<string | undefined> {
  const table = tableOf(item.itemType);
  const q = db.select({ status: table.status }).from(table).where(keyWhere(item));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row?.status;
}

/** Writes publication fields on the item's live row. */
export async function setPublicationState(db: Queryable, item: PublishedItemRef, state: PublicationState): Promise<void> {
  await db.update(tableOf(item.itemType)).set(state).where(keyWhere(item));
}
