/**
 * The publish diff (docs/versions.md): what publishing a module- or cluster-month changes, against its last
 * published version and against the previous month's. The one shape of that answer, built here for both
 * calls that give it: POST /api/module|cluster/publishDiff (item-versions.service.ts) and Massive Edit's
 * Save & Publish preview (massive-edit-types.ts), so both agree.
 */
import { compareMonthIds } from '@bo/shared/months';
import type { ClusterPublishDiff, ClusterVersionContent, ModulePublishDiff, ModuleVersionContent } from '@bo/shared/item-versions';
import type { Queryable } from '../../db/client.js';
import { clusterKind } from '../../items/cluster/cluster-kind.js';
import type { ItemKind, LifecycleRow } from '../../items/lifecycle/item-kind.js';
import { moduleKind } from '../../items/module/module-kind.js';
import { activeSkusOfModules, currentContent, lastPublishedVersion, type VersionContent, type VersionedType } from '../../items/lifecycle/item-versions.repository.js';
import { clusterMembershipDiff, moduleDiff, storeGroups } from './version-diff.js';

type PublishedRow = LifecycleRow & { publicationDate: Date | null };
const KINDS = { module: moduleKind, cluster: clusterKind } as unknown as Record<VersionedType, ItemKind<PublishedRow>>;

interface Published<C> {
  version: number | null;
  at: string | null;
  content: C;
}

/**
 * What a month's item last sent to the planning system: its newest 'publish' version or, when none was
 * recorded but the item is SUBMITTED (published before versions were kept), its current content.
 */
async function publishedOf<T extends VersionedType>(db: Queryable, type: T, row: PublishedRow, itemKey: string): Promise<Published<VersionContent<T>> | null> {
  const last = await lastPublishedVersion(db, type, itemKey, row.monthId);
  if (last) return { version: last.version, at: last.createdAt, content: last.content };
  if (row.status !== 'SUBMITTED') return null;
  return { version: null, at: row.publicationDate?.toISOString() ?? null, content: await currentContent(db, type, row.id) };
}

/** The newest earlier month where the item is live, with what it published there (null: none or never published). */
async function previousMonthOf<T extends VersionedType>(db: Queryable, type: T, itemKey: string, monthId: string) {
  const earlier = (await KINDS[type].liveVersions(db, itemKey)).filter((r) => compareMonthIds(r.monthId, monthId) < 0);
  const prev = earlier.sort((a, b) => compareMonthIds(b.monthId, a.monthId))[0];
  if (!prev) return null;
  const published = await publishedOf(db, type, prev, itemKey);
  return published ? { monthId: prev.monthId, published } : null;
}

/**
 * What publishing a module-month whose composition will be `now` changes: against its last published version and
 * against the previous month's published version. `row` is the item as stored (its status says whether it was
 * published before versions were kept); the caller has checked the rights. Used by POST /api/module/publishDiff
 * and by Massive Edit's Save & Publish preview (its planned content), so both agree.
 */
export async function modulePublishDiffOf(db: Queryable, row: PublishedRow, moduleName: string, now: ModuleVersionContent): Promise<ModulePublishDiff> {
  const last = await publishedOf(db, 'module', row, moduleName);
  const prev = await previousMonthOf(db, 'module', moduleName, row.monthId);
  return {
    moduleName,
    monthId: row.monthId,
    lastPublished: last ? { version: last.version, at: last.at, diff: moduleDiff(last.content, now) } : null,
    previousMonth: prev ? { monthId: prev.monthId, diff: moduleDiff(prev.published.content, now) } : null,
  };
}

/**
 * The same for a cluster-month whose content will be `now`: stores and modules added and removed, and how many
 * stores gain or lose how many SKUs (a store gets the distinct active SKUs of the cluster's modules in the
 * version's month).
 */
export async function clusterPublishDiffOf(db: Queryable, row: PublishedRow, clusterId: string, now: ClusterVersionContent): Promise<ClusterPublishDiff> {
  const nowSkus = await activeSkusOfModules(db, row.monthId, now.modules);
  const diffAgainst = async (before: ClusterVersionContent, beforeMonth: string) => ({
    ...clusterMembershipDiff(before, now),
    skusPerStore: storeGroups({ stores: before.stores, skus: await activeSkusOfModules(db, beforeMonth, before.modules) }, { stores: now.stores, skus: nowSkus }),
  });
  const last = await publishedOf(db, 'cluster', row, clusterId);
  const prev = await previousMonthOf(db, 'cluster', clusterId, row.monthId);
  return {
    clusterId,
    monthId: row.monthId,
    lastPublished: last ? { version: last.version, at: last.at, diff: await diffAgainst(last.content, row.monthId) } : null,
    previousMonth: prev ? { monthId: prev.monthId, diff: await diffAgainst(prev.published.content, prev.monthId) } : null,
  };
}
