/**
 * Item versions (issue 18; docs/versions.md): the paged history of a module or cluster per month, one
 * version with its flags, and the "what changes" diff before a publish. Every call needs the view right on
 * the item (403), which must be live in the month (404). Versions are written by the database (see
 * item-versions.repository.ts); a revert is a normal save carrying `revertOf` (`revertTarget` checks it).
 */
import {
  HISTORY_PAGE_SIZE,
  VERSION_TEXTS,
  type ClusterPublishDiff,
  type ClusterVersionContent,
  type ClusterVersionDetail,
  type HistoryPage,
  type ModulePublishDiff,
  type ModulePublishDiffRequest,
  type ModuleVersionContent,
  type ModuleVersionDetail,
  type VersionEntry,
} from '@bo/shared/item-versions';
import { canView } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { clusterKind } from '../../items/cluster/cluster-kind.js';
import type { ItemKind, LifecycleRow } from '../../items/lifecycle/item-kind.js';
import { moduleKind } from '../../items/module/module-kind.js';
import {
  countVersions,
  currentContent,
  missingModules,
  missingStores,
  skuFlags,
  versionAndPrevious,
  versionsPage,
  type VersionContent,
  type VersionedType,
  type VersionRow,
} from '../../items/lifecycle/item-versions.repository.js';
import { clusterPublishDiffOf, modulePublishDiffOf } from './publish-diff.presenter.js';
import { clusterSummary, moduleSummary } from './version-diff.js';

type Row = LifecycleRow & { publicationDate: Date | null };
const KINDS = { module: moduleKind, cluster: clusterKind } as unknown as Record<VersionedType, ItemKind<Row>>;
const NAMES: Record<VersionedType, string> = { module: 'module', cluster: 'cluster' };

/** The live row of the item-month the caller may view: 404 unknown or deleted, 403 not visible. */
async function viewableRow(ctx: ServiceContext, db: Queryable, type: VersionedType, itemKey: string, monthId: string): Promise<Row> {
  const kind = KINDS[type];
  const [row] = await kind.findLive(db, [{ itemKey, monthId }]);
  if (!row) throw notFound(`The ${NAMES[type]} ${itemKey} does not exist in ${monthId}`);
  const scope = (await kind.scopes(db, [row])).get(row.id)!;
  if (!canView(ctx.user.grants, scope)) throw forbidden(kind.texts.mayNotView(itemKey));
  return row;
}

function summaryOf<T extends VersionedType>(type: T, before: VersionContent<T> | undefined, after: VersionContent<T>): string {
  if (!before) return VERSION_TEXTS.firstVersion;
  return type === 'module'
    ? moduleSummary(before as ModuleVersionContent, after as ModuleVersionContent)
    : clusterSummary(before as ClusterVersionContent, after as ClusterVersionContent);
}

function entryOf<T extends VersionedType>(type: T, row: VersionRow<VersionContent<T>>, previous: VersionRow<VersionContent<T>> | undefined): VersionEntry {
  return { version: row.version, action: row.action, user: row.username, at: row.createdAt, summary: summaryOf(type, previous?.content, row.content), revertOf: row.revertOf };
}

/** GET /api/{module|cluster}/history: one page of versions, newest first; summaries against the version before. */
export async function history(ctx: ServiceContext, type: VersionedType, itemKey: string, monthId: string, page: number): Promise<HistoryPage> {
  await viewableRow(ctx, ctx.db, type, itemKey, monthId);
  const total = await countVersions(ctx.db, type, itemKey, monthId);
  const offset = page * HISTORY_PAGE_SIZE;
  // One more than the page: the version before its oldest entry, for that entry's summary.
  const rows = offset < total ? await versionsPage(ctx.db, type, itemKey, monthId, offset, HISTORY_PAGE_SIZE + 1) : [];
  const content = rows.slice(0, HISTORY_PAGE_SIZE).map((r, i) => entryOf(type, r, rows[i + 1]));
  return { content, number: page, size: HISTORY_PAGE_SIZE, totalElements: total, totalPages: Math.ceil(total / HISTORY_PAGE_SIZE) };
}

async function versionOf<T extends VersionedType>(ctx: ServiceContext, type: T, itemKey: string, monthId: string, n: number) {
  await viewableRow(ctx, ctx.db, type, itemKey, monthId);
  const [row, previous] = await versionAndPrevious(ctx.db, type, itemKey, monthId, n);
  if (!row || row.version !== n) throw notFound(VERSION_TEXTS.unknownVersion);
  return { entry: entryOf(type, row, previous), content: row.content };
}

/** GET /api/module/history/version/:n: the version's content, its SKUs that no longer exist or are discontinued flagged. */
export async function moduleVersion(ctx: ServiceContext, moduleName: string, monthId: string, n: number): Promise<ModuleVersionDetail> {
  const { entry, content } = await versionOf(ctx, 'module', moduleName, monthId, n);
  return { entry, content, flags: await skuFlags(ctx.db, content.lines.map((l) => l.upc)) };
}

/** GET /api/cluster/history/version/:n: the version's content, its stores and modules no longer in that month flagged. */
export async function clusterVersion(ctx: ServiceContext, clusterId: string, monthId: string, n: number): Promise<ClusterVersionDetail> {
  const { entry, content } = await versionOf(ctx, 'cluster', clusterId, monthId, n);
  const [stores, modules] = [await missingStores(ctx.db, content.stores), await missingModules(ctx.db, monthId, content.modules)];
  return { entry, content, flags: { missingStores: stores, missingModules: modules } };
}

// ───────────────────────────── Publish diff ─────────────────────────────

/**
 * POST /api/module/publishDiff: each module's composition (the page's unsaved lines when sent, else the
 * saved ones) against its last published version and against the previous month's published version.
 */
export async function modulePublishDiff(ctx: ServiceContext, items: ModulePublishDiffRequest): Promise<ModulePublishDiff[]> {
  const out: ModulePublishDiff[] = [];
  for (const item of items) {
    const row = await viewableRow(ctx, ctx.db, 'module', item.moduleName, item.monthId);
    const saved = await currentContent(ctx.db, 'module', row.id);
    const now: ModuleVersionContent = item.productDtoList
      ? {
          moduleDescription: saved.moduleDescription,
          lines: item.productDtoList.filter((l) => l.moduleCompositionStatus !== 'REMOVED').map((l) => ({ upc: l.upc, mustHave: l.mustHave, minValue: l.minValue ?? null })),
        }
      : saved;
    out.push(await modulePublishDiffOf(ctx.db, row, item.moduleName, now));
  }
  return out;
}

/** POST /api/cluster/publishDiff: each cluster's saved content against its last published version and the previous month's. */
export async function clusterPublishDiff(ctx: ServiceContext, items: readonly { clusterId: string; monthId: string }[]): Promise<ClusterPublishDiff[]> {
  const out: ClusterPublishDiff[] = [];
  for (const item of items) {
    const row = await viewableRow(ctx, ctx.db, 'cluster', item.clusterId, item.monthId);
    out.push(await clusterPublishDiffOf(ctx.db, row, item.clusterId, await currentContent(ctx.db, 'cluster', row.id)));
  }
  return out;
}
