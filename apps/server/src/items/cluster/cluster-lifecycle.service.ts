import {
  CLUSTER_SAVE_ERRORS,
  CLUSTER_TEXTS,
  type CheckForPublishAnswer,
  type ClusterCopyAnswer,
  type ClusterPublishAnswer,
  type ClusterCopyRequest,
  type ClusterDto,
  type ClusterKey,
  type ClusterSave,
  type ClusterSaveAnswer,
} from '@bo/shared/clusters';
import { CLASSIFICATION_TEXTS } from '@bo/shared/classifications';
import { itemKeyString, moduleKeyString, uniqueKeys, type ItemKeyParts } from '@bo/shared/item-keys';
import type { PublishBlockReason } from '@bo/shared/modules';
import { canEdit, canPublish, canView, clusterReadOnlyReason } from '@bo/shared/permissions';
import type { Queryable, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, forbidden, notFound, ruleBroken } from '../../lib/errors.js';
import { clusterKind } from './cluster-kind.js';
import { lockHolders, lockItems, unlockItems } from '../lifecycle/item-locks.js';
import { itemMonths } from '../lifecycle/item-months.js';
import { assertChangeable, assertLocksHeld, assertVersions } from '../lifecycle/item-preconditions.js';
import { loadTargets, recordSaveVersions, saveNaming, type ItemTarget, type SaveOptions } from '../lifecycle/item-targets.js';
import { requestCaller } from '../lifecycle/job-caller.js';
import { startAuditedPublication } from '../lifecycle/publish-changed.js';
import { deletedClassificationLabels, unknownClassificationIds, unknownLiaCodes } from '../lifecycle/reference-data.repository.js';
import { SUBMISSION_STARTED, type PublishItem } from '../lifecycle/publish.job.js';
import { clusterBlockReasons, publishBlockedMessage } from '../lifecycle/publish-checks.js';
import { hasModulesInWip } from '../lifecycle/publish-blockers.js';
import { blockingModules } from './blocking-modules.js';
import { clusterPublishFacts, liveModuleStatuses } from '../lifecycle/publishing.repository.js';
import { clusterCopy } from './cluster-copy.job.js';
import { COPY_WAIT_MS, requestCopy, type CopyRequestTexts } from '../lifecycle/copy-request.js';
import { addedModuleSets, clusterContents, clusterRefKey, clusterScopes, findClusters, liveModulesInMonth, type ClusterContent, type ClusterRow } from './clusters.repository.js';
import { sameClusterContent, writeClusterContent } from './cluster-change.js';
import { toClusterDtos } from './cluster.presenter.js';

const dtoOptions = (ctx: ServiceContext) => ({ lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES });
const lockKey = (r: ClusterKey): ItemKeyParts => ({ itemKey: r.clusterId, monthId: r.monthId });

function orderLike<T extends ClusterKey>(keys: readonly ClusterKey[], items: readonly T[]): T[] {
  const byKey = new Map(items.map((i) => [clusterRefKey(i), i]));
  return keys.map((k) => byKey.get(clusterRefKey(k))).filter((x): x is T => !!x);
}

// ───────────────────────────── reads ─────────────────────────────

/** POST /api/cluster/clusterDetails: the clusters the caller may view; unknown or deleted ones are left out. */
export async function clusterDetails(ctx: ServiceContext, keys: readonly ClusterKey[]): Promise<ClusterDto[]> {
  const wanted = uniqueKeys(keys, clusterRefKey);
  const rows = orderLike(wanted, await findClusters(ctx.db, wanted));
  const scopes = await clusterScopes(ctx.db, rows);
  const visible = rows.filter((r) => canView(ctx.user.grants, scopes.get(r.id)!));
  return toClusterDtos(ctx.db, visible, dtoOptions(ctx));
}

/** GET /api/cluster/:clusterId/months: the lifecycle core's itemMonths. */
export function clusterMonths(ctx: ServiceContext, clusterId: string, query: { monthId?: string | undefined; purpose: 'copy' | 'delete' }): Promise<string[]> {
  return itemMonths(ctx, clusterKind, clusterId, query);
}

// ───────────────────────────── locks ─────────────────────────────

/** POST /api/cluster/lock: the lifecycle core's lockItems (acquired: false = read-only). */
export async function lockClusters(ctx: ServiceContext, keys: readonly ClusterKey[]) {
  const answer = await lockItems(ctx, clusterKind, keys.map(lockKey));
  return answer.map((a) => ({ clusterId: a.itemKey, monthId: a.monthId, locked: a.locked, userLock: a.userLock, acquired: a.acquired }));
}

/** POST /api/cluster/unlock?forced=: the lifecycle core's unlockItems; answers each key with its lock state after. */
export async function unlockClusters(ctx: ServiceContext, keys: readonly ClusterKey[], forced: boolean) {
  const { wanted } = await unlockItems(ctx, clusterKind, keys.map(lockKey), forced);
  const holders = await lockHolders(ctx, 'cluster', wanted);
  return wanted.map((k) => {
    const holder = holders.get(itemKeyString(k)) ?? null;
    return { clusterId: k.itemKey, monthId: k.monthId, locked: holder !== null, userLock: holder };
  });
}

// ───────────────────────────── shared checks ─────────────────────────────

/** A cluster of a save or publish body, as the lifecycle core loads it (row, body, scope, month, lock owner). */
type Target = ItemTarget<ClusterRow, ClusterSave>;

/**
 * Checks of the body that need no database: no cluster twice, no module / LIA / classification twice,
 * and at least one checked LIA when the body carries LIAs (400).
 */
function validateBodies(list: readonly ClusterSave[], contentUsed: boolean): void {
  const fields: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  list.forEach((c, i) => {
    if (seen.has(clusterRefKey(c))) fields.push({ path: `body.${i}`, message: `The cluster ${c.clusterId} (${c.monthId}) is given twice` });
    seen.add(clusterRefKey(c));
    if (!contentUsed) return;
    const twice = (values: readonly (string | number)[]) => values.filter((v, k) => values.indexOf(v) !== k);
    const dupModules = twice((c.modules ?? []).map((m) => m.moduleName));
    if (dupModules.length) fields.push({ path: `body.${i}.modules`, message: `Modules given twice: ${[...new Set(dupModules)].join(', ')}` });
    const dupLias = twice((c.lias ?? []).map((l) => l.liaCode));
    if (dupLias.length) fields.push({ path: `body.${i}.lias`, message: `LIAs given twice: ${[...new Set(dupLias)].join(', ')}` });
    const dupClasses = twice((c.classifications ?? []).map((x) => x.classificationId));
    if (dupClasses.length) fields.push({ path: `body.${i}.classifications`, message: `Classifications given twice: ${[...new Set(dupClasses)].join(', ')}` });
  });
  if (fields.length) throw badRequest(`Invalid request: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}`, fields);
  if (!contentUsed) return;
  const noLia = list.findIndex((c) => c.lias !== undefined && !c.lias.some((l) => l.isChecked));
  if (noLia >= 0) throw badRequest(CLUSTER_TEXTS.atLeastOneLia, [{ path: `body.${noLia}.lias`, message: CLUSTER_TEXTS.atLeastOneLia }], 'atLeastOneLia');
}

/** Clusters whose body names modules that do not exist (live) in the cluster's month or belong to another brand. */
async function moduleErrors(tx: Tx, targets: readonly Target[]): Promise<Record<string, string[]>> {
  const errorsMap: Record<string, string[]> = {};
  for (const t of targets) {
    const names = (t.body.modules ?? []).map((m) => m.moduleName);
    if (names.length === 0) continue;
    const found = await liveModulesInMonth(tx, t.row.monthId, names);
    const bad = names.some((n) => found.get(n)?.brandCode !== t.row.brandCode);
    const keys = errorsMap[t.row.clusterId] ?? [];
    if (bad && !keys.includes(CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster)) errorsMap[t.row.clusterId] = [...keys, CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster];
  }
  return errorsMap;
}

/** LIA codes and classification ids of the bodies must exist (400). */
async function requireKnownReferences(tx: Tx, targets: readonly Target[]): Promise<void> {
  const codes = targets.flatMap((t) => (t.body.lias ?? []).map((l) => l.liaCode));
  const unknown = await unknownLiaCodes(tx, codes);
  if (unknown.length) throw badRequest(`Unknown LIA code(s): ${unknown.join(', ')}`, [{ path: 'body.lias', message: `Unknown LIA code(s): ${unknown.join(', ')}` }], 'unknownLia');
  const ids = targets.flatMap((t) => (t.body.classifications ?? []).map((c) => c.classificationId));
  const unknownIds = await unknownClassificationIds(tx, ids);
  if (unknownIds.length) {
    // A deleted one is named by its label (mostly a revert to a version that carried it: docs/DECISIONS.md
    // "Deleting a client classification"); the versions hold only its id.
    const deleted = await deletedClassificationLabels(tx, unknownIds);
    const never = unknownIds.filter((id) => !deleted.has(id));
    const message = [...[...deleted.values()].map(CLASSIFICATION_TEXTS.deleted), ...(never.length ? [`Unknown client classification(s): ${never.join(', ')}`] : [])].join('; ');
    throw badRequest(message, [{ path: 'body.classifications', message }], 'unknownClassification');
  }
}

const summarize = (c: ClusterContent) => ({
  added: [...c.modules.values()].filter((s) => s === 'ADDED').length,
  removed: [...c.modules.values()].filter((s) => s === 'REMOVED').length,
  lias: [...c.lias].sort(),
  classifications: [...c.classifications].sort((a, b) => a - b),
});

/** The content the body asks for (parts it leaves out stay as they are). */
function requestedContent(body: ClusterSave, current: ClusterContent, onlyDescription: boolean): ClusterContent {
  const description = body.clusterDescription ?? current.description;
  if (onlyDescription) return { ...current, description };
  return {
    description,
    modules: body.modules ? new Map(body.modules.map((m) => [m.moduleName, m.clusterCompositionStatus])) : current.modules,
    lias: body.lias ? new Set(body.lias.filter((l) => l.isChecked).map((l) => l.liaCode)) : current.lias,
    classifications: body.classifications ? new Set(body.classifications.map((c) => c.classificationId)) : current.classifications,
  };
}

/** Writes the requested content (the parts that changed) and audits it; a SUBMITTED cluster is reopened as WIP. */
async function writeContent(tx: Tx, ctx: ServiceContext, t: Target, before: ClusterContent, after: ClusterContent, onlyDescription: boolean) {
  const reopened = t.row.status === 'SUBMITTED';
  await writeClusterContent(tx, t.row, before, after, { status: reopened ? 'WIP' : t.row.status, username: ctx.user.username });
  await audit(tx, {
    username: ctx.user.username,
    action: 'save',
    itemType: 'cluster',
    itemKey: t.row.clusterId,
    monthId: t.row.monthId,
    summary: {
      before: summarize(before),
      after: summarize(after),
      descriptionChanged: before.description !== after.description,
      reopened,
      onlyDescription,
    },
    requestId: ctx.requestId,
  });
}

// ───────────────────────────── save ─────────────────────────────

/**
 * POST /api/cluster/save?onlyDescription=: all or nothing. Any entry in `errorsMap` or `unauthorizedList`
 * means nothing was saved; the answer then carries the clusters as they are.
 */
export async function saveClusterList(ctx: ServiceContext, list: readonly ClusterSave[], { onlyDescription, revertOf }: SaveOptions): Promise<ClusterSaveAnswer> {
  validateBodies(list, !onlyDescription);
  return ctx.db.transaction(async (tx) => {
    const targets = await loadTargets(tx, ctx, clusterKind, list, lockKey, saveNaming(ctx, revertOf));
    assertLocksHeld(ctx, clusterKind, targets);
    assertVersions(clusterKind, targets.map((t) => ({ row: t.row, loaded: t.body.version })));
    const unauthorizedList: string[] = [];
    for (const t of targets) {
      const reason = clusterReadOnlyReason(ctx.user.grants, ctx.user.username, t.scope, {
        status: t.row.status,
        releaseClosed: t.month.releaseClosed,
        lockedBy: ctx.user.username,
      });
      if (reason === 'noEditGrant') unauthorizedList.push(t.row.clusterLabel);
      else assertChangeable(clusterKind, t.row, t.month);
    }
    const errorsMap = onlyDescription ? {} : await moduleErrors(tx, targets);
    if (!onlyDescription) await requireKnownReferences(tx, targets);

    const rows = targets.map((t) => t.row);
    if (unauthorizedList.length || Object.keys(errorsMap).length) {
      const visible = await viewable(tx, ctx, rows);
      return { errorsMap, unauthorizedList, clusterDtoList: await toClusterDtos(tx, visible, dtoOptions(ctx)) };
    }
    // `?revertOf=n` restores version n of every cluster saved (recorded as a revert; docs/versions.md).
    await recordSaveVersions(tx, ctx, clusterKind, rows, revertOf, true);
    const contents = await clusterContents(tx, rows);
    for (const t of targets) {
      const before = contents.get(t.row.id)!;
      await writeContent(tx, ctx, t, before, requestedContent(t.body, before, onlyDescription), onlyDescription);
    }
    const fresh = orderLike(list, await findClusters(tx, list));
    return { errorsMap: {}, unauthorizedList: [], clusterDtoList: await toClusterDtos(tx, fresh, dtoOptions(ctx)) };
  });
}

async function viewable(db: Queryable, ctx: ServiceContext, rows: readonly ClusterRow[]) {
  const scopes = await clusterScopes(db, rows);
  return rows.filter((r) => canView(ctx.user.grants, scopes.get(r.id)!));
}

// ───────────────────────────── publish ─────────────────────────────

/**
 * POST /api/cluster/checkForPublish: for each cluster, the other clusters of the same month and brand whose
 * ADDED modules are exactly the same set. The body's modules (unsaved edits) count for the clusters it carries.
 * A cluster with no ADDED module is nobody's duplicate. The view right comes before the lock: a cluster the
 * caller may not view is answered as an unknown one (404, same text), as the other cluster reads leave it out,
 * even when the caller still holds its lock from before they lost the grant.
 */
export async function checkClustersForPublish(ctx: ServiceContext, list: readonly ClusterSave[]): Promise<CheckForPublishAnswer> {
  validateBodies(list, false);
  return ctx.db.transaction(async (tx) => {
    // The rows, their scopes and gates in one statement.
    const { rows: found, facts } = await clusterKind.findLiveGated(tx, list.map(lockKey), ctx.config.LOCK_TTL_MINUTES);
    const rows = found.filter((r) => canView(ctx.user.grants, facts.get(r.id)!.scope));
    const byKey = new Map(rows.map((r) => [clusterRefKey(r), r]));
    const missing = list.find((c) => !byKey.has(clusterRefKey(c)));
    if (missing) throw notFound(`The cluster ${missing.clusterId} does not exist in ${missing.monthId}`);
    assertLocksHeld(
      ctx,
      clusterKind,
      rows.map((r) => facts.get(r.id)!.gate),
    );

    const pairs = [...new Map(rows.map((r) => [`${r.monthId}|${r.brandCode}`, { monthId: r.monthId, brandCode: r.brandCode }])).values()];
    const sets = await addedModuleSets(tx, pairs);
    // Unsaved edits in the body replace the stored sets of the clusters it carries.
    for (const c of list) {
      const row = byKey.get(clusterRefKey(c))!;
      const entry = sets.get(row.id);
      if (entry && c.modules) entry.modules = new Set(c.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName));
    }
    const map: Record<string, string[]> = {};
    for (const c of list) {
      const row = byKey.get(clusterRefKey(c))!;
      const mine = sets.get(row.id)!;
      if (mine.modules.size === 0) continue;
      const twins = [...sets]
        .filter(
          ([pk, other]) =>
            pk !== row.id &&
            other.monthId === row.monthId &&
            other.brandCode === row.brandCode &&
            other.modules.size === mine.modules.size &&
            [...other.modules].every((m) => mine.modules.has(m)),
        )
        .map(([, other]) => other.clusterId)
        .sort();
      if (twins.length) map[row.clusterId] = [...new Set([...(map[row.clusterId] ?? []), ...twins])];
    }
    return { clusterDuplicatedResponseMap: map, blocking: await clusterBlocking(tx, ctx, list, byKey) };
  });
}

/**
 * Why each cluster may not be published now, on what publishing would send: the body's unsaved modules in
 * place of the stored ones (a body without `modules` keeps the stored ones). Modules in WIP first
 * (part 2 §5), then the planning system's checks (no store, no module). Clusters that may go are left out.
 */
async function requestedBlockReasons(db: Queryable, pairs: readonly { row: ClusterRow; body: ClusterSave }[]): Promise<Map<number, PublishBlockReason[]>> {
  const stored = await clusterPublishFacts(
    db,
    pairs.map((p) => p.row),
  );
  const out = new Map<number, PublishBlockReason[]>();
  for (const { row, body } of pairs) {
    let facts = stored.get(row.id)!;
    if (body.modules) {
      const names = body.modules.filter((m) => m.clusterCompositionStatus === 'ADDED').map((m) => m.moduleName);
      const statuses = await liveModuleStatuses(db, row.monthId, names);
      facts = { ...facts, modules: names.filter((n) => statuses.has(n)).map((n) => ({ moduleName: n, status: statuses.get(n)! })) };
    }
    const reasons = clusterBlockReasons(facts);
    if (reasons.length) out.set(row.id, reasons);
  }
  return out;
}

/**
 * The clusters that may not be published, each with its reasons and its blocking modules spelled out
 * (publishing/blocking-modules.ts: label, month, status, whether the caller may publish it and whether it
 * would pass, its SKUs at fault as model / colour / size).
 */
async function clusterBlocking(db: Queryable, ctx: ServiceContext, list: readonly ClusterSave[], byKey: ReadonlyMap<string, ClusterRow>): Promise<CheckForPublishAnswer['blocking']> {
  const pairs = [...new Map(list.map((c) => [clusterRefKey(c), { row: byKey.get(clusterRefKey(c))!, body: c }])).values()];
  const reasonsOf = await requestedBlockReasons(db, pairs);
  const blocked = pairs.filter((p) => reasonsOf.has(p.row.id));
  const refs = blocked.flatMap((p) => reasonsOf.get(p.row.id)!.flatMap((r) => (r.moduleName ? [{ moduleName: r.moduleName, monthId: p.row.monthId }] : [])));
  const modulesOf = await blockingModules(db, { grants: ctx.user.grants, lockTtlMinutes: ctx.config.LOCK_TTL_MINUTES }, refs);
  return blocked.map(({ row }) => {
    const reasons = reasonsOf.get(row.id)!;
    const modules = reasons.flatMap((r) => {
      const m = r.moduleName ? modulesOf.get(moduleKeyString({ moduleName: r.moduleName, monthId: row.monthId })) : undefined;
      return m ? [m] : [];
    });
    return { clusterId: row.clusterId, monthId: row.monthId, clusterLabel: row.clusterLabel, reasons, modules };
  });
}

/**
 * POST /api/cluster/publish: per cluster. Needs a submit grant (403), the lock (422), status WIP as stored
 * (422 notWip) and the loaded version, for every cluster of the body, and the body must be valid (its
 * edits follow the save rules): these refuse the whole call. Then each cluster is checked on what would be
 * sent (the body's modules in place of the stored ones): no ADDED module in WIP, a store and a module.
 * The clusters without blockers are saved (their body's edits) and go SUBMIT_IN_PROGRESS with one publish
 * job; the others are left as they are (their edits not saved) and answered `published: false` with their
 * reasons. When none can go, the call is refused as the spec says: 422 `modulesInWip` when a module in WIP
 * blocks one of them, else 422 `publishBlocked` naming each cluster and its reasons; nothing changes.
 */
export async function publishClusterList(ctx: ServiceContext, list: readonly ClusterSave[]): Promise<ClusterPublishAnswer> {
  validateBodies(list, true);
  return ctx.db.transaction(async (tx) => {
    const targets = await loadTargets(tx, ctx, clusterKind, list, lockKey);
    const refused = targets.filter((t) => !canPublish(ctx.user.grants, t.scope));
    if (refused.length) throw forbidden(`You may not publish the cluster(s) ${refused.map((t) => t.row.clusterLabel).join(', ')}`);
    assertLocksHeld(ctx, clusterKind, targets);
    if (targets.some((t) => t.row.status !== 'WIP')) throw ruleBroken('notWip', CLUSTER_TEXTS.notWip);
    assertVersions(clusterKind, targets.map((t) => ({ row: t.row, loaded: t.body.version })));

    // The body's unsaved edits follow the save rules, for every cluster of the body.
    const contents = await clusterContents(
      tx,
      targets.map((t) => t.row),
    );
    const changed = targets.filter((t) => {
      const before = contents.get(t.row.id)!;
      return !sameClusterContent(before, requestedContent(t.body, before, false));
    });
    if (changed.length) {
      const noEdit = changed.filter((t) => !canEdit(ctx.user.grants, t.scope));
      if (noEdit.length) throw forbidden(CLUSTER_TEXTS.cannotEdit(noEdit.map((t) => t.row.clusterLabel)), 'cannotEditCluster');
      for (const t of changed) assertChangeable(clusterKind, t.row, t.month);
      const errorsMap = await moduleErrors(tx, changed);
      if (Object.keys(errorsMap).length) throw ruleBroken(CLUSTER_SAVE_ERRORS.moduleNotAllowedInCluster, CLUSTER_TEXTS.moduleNotAllowed(Object.keys(errorsMap)));
      await requireKnownReferences(tx, changed);
    }
    for (const t of targets) assertChangeable(clusterKind, t.row, t.month);

    // Each cluster's blockers, on what would be sent (the body's modules count).
    const reasonsOf = await requestedBlockReasons(tx, targets);
    const going = targets.filter((t) => !reasonsOf.has(t.row.id));
    if (going.length === 0) {
      if ([...reasonsOf.values()].some(hasModulesInWip)) throw ruleBroken('modulesInWip', CLUSTER_TEXTS.modulesInWip);
      throw ruleBroken('publishBlocked', targets.map((t) => publishBlockedMessage('cluster', t.row.clusterId, reasonsOf.get(t.row.id)!)).join('; '));
    }

    for (const t of changed.filter((c) => going.includes(c))) {
      const before = contents.get(t.row.id)!;
      await writeContent(tx, ctx, t, before, requestedContent(t.body, before, false), false);
    }
    const items: PublishItem[] = going.map((t) => ({ itemType: 'cluster', itemKey: t.row.clusterId, monthId: t.row.monthId }));
    const jobId = await startAuditedPublication(tx, ctx.jobs, items, requestCaller(ctx), (jobId, i) => ({
      jobId,
      saved: changed.includes(going[i]!),
      waiting: targets.length - going.length,
    }));
    const clusters = targets.map((t) => ({
      clusterId: t.row.clusterId,
      monthId: t.row.monthId,
      clusterLabel: t.row.clusterLabel,
      published: !reasonsOf.has(t.row.id),
      reasons: reasonsOf.get(t.row.id) ?? [],
    }));
    return { message: SUBMISSION_STARTED, jobId, clusters };
  });
}

// ───────────────────────────── copy ─────────────────────────────

/** POST /api/cluster/copyCompositions: the lifecycle core's requestCopy with the cluster copy job. */
export async function copyClusters(ctx: ServiceContext, request: ClusterCopyRequest, waitMs = COPY_WAIT_MS): Promise<ClusterCopyAnswer> {
  const items = request.clusters.map((c) => ({ itemKey: c.clusterId, monthId: c.monthId, destinationMonthList: c.destinationMonthList }));
  const { jobId, result } = await requestCopy(ctx, clusterCopy, CLUSTER_COPY_REQUEST_TEXTS, { items, toPublish: request.toPublish }, waitMs);
  return { errors: result?.errors ?? [], jobId, completed: !!result, ...(result ? { outcome: result.outcome } : {}) };
}

const CLUSTER_COPY_REQUEST_TEXTS: CopyRequestTexts<ClusterRow> = {
  sourceNotFound: (id, monthId) => `The cluster ${id} does not exist in ${monthId}`,
  mayNotCopy: (rows) => `You may not copy the cluster(s) ${rows.map((r) => r.clusterLabel).join(', ')}`,
};
