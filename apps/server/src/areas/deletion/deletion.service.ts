/**
 * Deletion and restore of modules and clusters (docs/DELETION.md). Each call is one transaction;
 * permissions are checked per item with the shared rules (canDelete to delete and restore, canView to
 * see an item in the Deletion Area).
 */
import {
  DELETION_TEXTS,
  type ClusterDeletionItem,
  type DeleteResponse,
  type DeletionItemType,
  type DeletionMonth,
  type DeletionMonthStatus,
  type ModuleDeletionItem,
  type RestoreResponse,
} from '@bo/shared/deletion';
import type { Grant } from '@bo/shared/grants';
import { itemKeyString } from '@bo/shared/item-keys';
import { compareMonthIds, parseMonthId } from '@bo/shared/months';
import { canDelete, canView, sameUser, type ItemScope } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { liveLocks } from '../../lib/locks.repository.js';
import * as repo from './deletion.repository.js';
import type { DeletionRequestRow, ItemRow } from './deletion.repository.js';
import { recordVersionsAs } from '../../items/lifecycle/item-versions.repository.js';
import { monthWindow } from './month-window.js';

interface DeleteEntry {
  /** moduleName or clusterId */
  key: string;
  monthIdFrom: string;
}

const invalidDataText = (type: DeletionItemType) =>
  type === 'module' ? DELETION_TEXTS.invalidModuleData : DELETION_TEXTS.invalidClusterData;
const deleteNotAuthorizedText = (type: DeletionItemType) =>
  type === 'module' ? DELETION_TEXTS.moduleDeleteNotAuthorized : DELETION_TEXTS.clusterDeleteNotAuthorized;
const restoreNotAuthorizedText = (type: DeletionItemType) =>
  type === 'module' ? DELETION_TEXTS.moduleRestoreNotAuthorized : DELETION_TEXTS.clusterRestoreNotAuthorized;

/** The empty-payload answer of the delete calls (also used by the routes for a malformed body). */
export const invalidDeletionData = (type: DeletionItemType, fields?: { path: string; message: string }[]) =>
  badRequest(invalidDataText(type), fields, 'invalidDeletionData');

const monthIndexOf = (monthId: string) => {
  const p = parseMonthId(monthId);
  return p ? p.year * 12 + p.month - 1 : Number.MAX_SAFE_INTEGER;
};

function groupByKey(rows: readonly ItemRow[]): Map<string, ItemRow[]> {
  const out = new Map<string, ItemRow[]>();
  for (const r of rows) out.set(r.key, [...(out.get(r.key) ?? []), r]);
  return out;
}

const isAvailable = (r: ItemRow) => r.deletionStatus === null && r.open;

async function scopesOf(db: Queryable, type: DeletionItemType, rows: readonly ItemRow[]): Promise<Map<number, ItemScope>> {
  const zones = await repo.zonesOf(db, type, rows.map((r) => r.id));
  return new Map(rows.map((r) => [r.id, { brand: r.brand, zones: zones.get(r.id) ?? [] }]));
}

/**
 * Deletes items from a start month on: that month's row and every later one go DELETION_PENDING
 * (restorable) and a deletion request is recorded; the scheduled steps do the rest.
 */
export async function deleteItems(ctx: ServiceContext, type: DeletionItemType, entries: readonly DeleteEntry[]): Promise<DeleteResponse> {
  if (entries.length === 0) throw invalidDeletionData(type);
  const username = ctx.user.username;

  return ctx.db.transaction(async (tx) => {
    const byKey = groupByKey(await repo.itemRows(tx, type, [...new Set(entries.map((e) => e.key))], true));

    // Validation first: every start month asked for must be one the item may be deleted from.
    const problems: { path: string; message: string }[] = [];
    const plans = new Map<string, { key: string; monthIdFrom: string; start: ItemRow; rows: ItemRow[] }>();
    entries.forEach(({ key, monthIdFrom }, index) => {
      const rows = byKey.get(key) ?? [];
      const available = rows.filter(isAvailable);
      const start = available.find((r) => r.monthId === monthIdFrom);
      if (!start) {
        problems.push({
          path: `body.${index}`,
          message: available.length
            ? `The month ${monthIdFrom} is not available for deleting the ${type} ${key}; available months: ${available.map((r) => r.monthId).join(', ')}.`
            : `The ${type} ${key} cannot be deleted: it is not live in any open month.`,
        });
        return;
      }
      // Asked twice, the earlier start month wins.
      const prev = plans.get(key);
      if (!prev || start.monthIndex < prev.start.monthIndex) {
        plans.set(key, { key, monthIdFrom, start, rows: rows.filter((r) => r.deletionStatus === null && r.monthIndex >= start.monthIndex) });
      }
    });
    if (problems.length) throw badRequest(problems.map((p) => p.message).join(' '), problems, 'monthNotAvailable');

    const planned = [...plans.values()];
    const scopes = await scopesOf(tx, type, planned.map((p) => p.start));
    const allowed = planned.filter((p) => canDelete(ctx.user.grants, scopes.get(p.start.id)!));
    const notAuthorized = planned.filter((p) => !allowed.includes(p)).map((p) => p.key);
    if (allowed.length === 0) throw forbidden(deleteNotAuthorizedText(type), 'deleteNotAuthorized');

    const holders = await liveLocks(tx, type, allowed.flatMap((p) => p.rows.map((r) => ({ itemKey: p.key, monthId: r.monthId }))), ctx.config.LOCK_TTL_MINUTES);
    const deleted: DeleteResponse['deleted'] = [];
    const errors: DeleteResponse['errors'] = [];
    for (const p of allowed) {
      const lockedRow = p.rows.find((r) => {
        const owner = holders.get(itemKeyString({ itemKey: p.key, monthId: r.monthId }));
        return owner !== undefined && !sameUser(owner, username);
      });
      if (lockedRow) {
        const owner = holders.get(itemKeyString({ itemKey: p.key, monthId: lockedRow.monthId }))!;
        errors.push({ key: p.key, monthIdFrom: p.monthIdFrom, message: `${owner} is editing the ${type} ${p.key} (${lockedRow.monthId})` });
        continue;
      }
      const months = (await repo.markPending(tx, type, p.rows.map((r) => r.id), username)).sort(compareMonthIds);
      const requestId = await repo.insertRequest(tx, { itemType: type, itemKey: p.key, deleteFromMonthId: p.monthIdFrom, requestedBy: username });
      await audit(tx, {
        username,
        action: 'delete',
        itemType: type,
        itemKey: p.key,
        monthId: p.monthIdFrom,
        summary: { months, deletionRequestId: requestId },
        requestId: ctx.requestId,
      });
      deleted.push({ key: p.key, monthIdFrom: p.monthIdFrom, months });
    }
    return { deleted, notAuthorized, errors };
  });
}

/** The request that speaks for an item: its newest active one, else its newest. */
const governingRequest = (newestFirst: readonly DeletionRequestRow[]) => newestFirst.find((r) => r.active) ?? newestFirst[0];

/** The row that stands for the item (label, brand, zones, stores): its first row from the start month on, else its last. */
const referenceRow = (rows: readonly ItemRow[], deleteFromMonthId: string) =>
  rows.find((r) => r.monthIndex >= monthIndexOf(deleteFromMonthId)) ?? rows[rows.length - 1];

const rowStatus = (r: ItemRow): DeletionMonthStatus => (r.deletionStatus ?? 'ACTIVE') as DeletionMonthStatus;

interface DeletedSearch {
  status: readonly DeletionMonthStatus[];
  /** moduleName or clusterId contains this text (case-insensitive). */
  text?: string | null | undefined;
  brand?: readonly string[] | null | undefined;
}

interface PageRequest {
  pageNumber: number;
  pageSize: number;
}

export interface Page<T> {
  content: T[];
  number: number;
  totalPages: number;
  totalElements: number;
  size: number;
}

interface FoundItem {
  key: string;
  reference: ItemRow;
  brand: string;
  status: DeletionMonthStatus;
  errorMessage: string | null;
  deleteFromMonthId: string;
  openMonthList: DeletionMonth[];
}

/**
 * The Deletion Area: one item per key that has a deletion request, with its months in the window
 * around `now`. The overall status is that of the first month in the window, from the deletion's start
 * month on, that has a row (an item deleted from a later month would otherwise read ACTIVE and could
 * never be selected); when the window holds none of those months, the status of the item's first row
 * from the start month on.
 */
async function findDeleted(db: Queryable, grants: readonly Grant[], type: DeletionItemType, search: DeletedSearch, now: Date) {
  if (search.status.length === 0) return [];
  const keys = await repo.requestedKeys(db, type, search.text?.trim() || null);
  if (keys.length === 0) return [];
  const [rows, requests, existing] = await Promise.all([
    repo.itemRows(db, type, keys),
    repo.requestsOf(db, type, keys),
    repo.allMonths(db),
  ]);
  const window = monthWindow(existing, now);
  const rowsByKey = groupByKey(rows);
  const requestsByKey = new Map<string, DeletionRequestRow[]>();
  for (const r of requests) requestsByKey.set(r.itemKey, [...(requestsByKey.get(r.itemKey) ?? []), r]);

  const candidates: { key: string; rows: ItemRow[]; request: DeletionRequestRow; reference: ItemRow }[] = [];
  for (const key of keys) {
    const itemRows = rowsByKey.get(key) ?? [];
    const request = governingRequest(requestsByKey.get(key) ?? []);
    const reference = request && referenceRow(itemRows, request.deleteFromMonthId);
    if (request && reference) candidates.push({ key, rows: itemRows, request, reference });
  }
  const scopes = await scopesOf(db, type, candidates.map((c) => c.reference));
  const brands = search.brand?.length ? new Set(search.brand) : null;
  const statuses = new Set(search.status);

  const found: FoundItem[] = [];
  for (const c of candidates) {
    if (!canView(grants, scopes.get(c.reference.id)!)) continue;
    if (brands && !brands.has(c.reference.brand)) continue;
    const byMonth = new Map(c.rows.map((r) => [r.monthId, r]));
    const openMonthList = window.map((monthId): DeletionMonth => {
      const r = byMonth.get(monthId);
      return r
        ? { monthId, status: rowStatus(r), createdAfterDelete: r.createdAfterDelete, uiVisible: r.deletionStatus === null }
        : { monthId, status: 'NOT_PRESENT', createdAfterDelete: false, uiVisible: false };
    });
    const from = c.request.deleteFromMonthId;
    const first = openMonthList.find((m) => m.status !== 'NOT_PRESENT' && compareMonthIds(m.monthId, from) >= 0);
    const status = first?.status ?? rowStatus(c.reference);
    if (!statuses.has(status)) continue;
    found.push({
      key: c.key,
      reference: c.reference,
      brand: c.reference.brand,
      status,
      errorMessage: c.request.errorMessage,
      deleteFromMonthId: from,
      openMonthList,
    });
  }
  return found;
}

function pageOf<T>(items: readonly T[], page: PageRequest): Page<T> {
  const start = page.pageNumber * page.pageSize;
  return {
    content: items.slice(start, start + page.pageSize),
    number: page.pageNumber,
    totalPages: Math.ceil(items.length / page.pageSize),
    totalElements: items.length,
    size: page.pageSize,
  };
}

const itemBase = (f: FoundItem) => ({
  status: f.status,
  brand: f.brand,
  errorMessage: f.errorMessage,
  deleteFromMonthId: f.deleteFromMonthId,
  openMonthList: f.openMonthList,
});

/**
 * One page of the items of a type with a deletion request that the caller may view and the search keeps,
 * each presented by `present`, which is given the whole page (so a lookup runs once per page).
 */
function deletedSearch<T>(type: DeletionItemType, present: (db: Queryable, found: readonly FoundItem[]) => Promise<T[]>) {
  return async (db: Queryable, grants: readonly Grant[], search: DeletedSearch, page: PageRequest, now: Date): Promise<Page<T>> => {
    const found = pageOf(await findDeleted(db, grants, type, search, now), page);
    return { ...found, content: await present(db, found.content) };
  };
}

/** POST /api/module/deleted: the Deletion Area's modules. */
export const searchDeletedModules = deletedSearch<ModuleDeletionItem>('module', async (_db, found) =>
  found.map((f) => ({ moduleName: f.key, moduleLabel: f.reference.label, ...itemBase(f) })),
);

/** POST /api/cluster/deleted: the Deletion Area's clusters, with the first store of each. */
export const searchDeletedClusters = deletedSearch<ClusterDeletionItem>('cluster', async (db, found) => {
  const stores = await repo.firstStores(db, found.map((f) => f.reference.id));
  return found.map((f) => {
    const store = stores.get(f.reference.id);
    return {
      clusterId: f.key,
      clusterLabel: f.reference.label,
      storeJda: store?.storeJda ?? null,
      codiceStoreSap: store?.codiceStoreSap ?? null,
      ...itemBase(f),
    };
  });
});

/**
 * Restores items: their DELETION_PENDING rows live again (later steps are final). A request with
 * nothing pending any more goes inactive. Items the caller may not delete are not restored; when the
 * caller may restore none of the items asked for, 403.
 */
export async function restoreItems(ctx: ServiceContext, type: DeletionItemType, keys: readonly string[]): Promise<RestoreResponse> {
  const unique = [...new Set(keys.map((k) => k.trim()).filter(Boolean))];
  if (unique.length === 0) throw badRequest(DELETION_TEXTS.noItemIds, undefined, 'noItemIds');
  const username = ctx.user.username;

  return ctx.db.transaction(async (tx) => {
    await recordVersionsAs(tx, 'restore', username);
    const rowsByKey = groupByKey(await repo.itemRows(tx, type, unique, true));
    const requests = await repo.requestsOf(tx, type, unique);
    const notRestored: RestoreResponse['notRestored'] = [];
    const candidates: { key: string; reference: ItemRow }[] = [];
    for (const key of unique) {
      const rows = rowsByKey.get(key) ?? [];
      const request = governingRequest(requests.filter((r) => r.itemKey === key));
      const reference = request && referenceRow(rows, request.deleteFromMonthId);
      if (!reference) notRestored.push({ key, reason: `The ${type} ${key} has no deletion to restore.` });
      else candidates.push({ key, reference });
    }
    const scopes = await scopesOf(tx, type, candidates.map((c) => c.reference));
    const allowed = candidates.filter((c) => canDelete(ctx.user.grants, scopes.get(c.reference.id)!));
    if (allowed.length === 0 && candidates.length > 0) throw forbidden(restoreNotAuthorizedText(type), 'restoreNotAuthorized');

    const restored: string[] = [];
    for (const c of candidates) {
      if (!allowed.includes(c)) {
        notRestored.push({ key: c.key, reason: `You don't have authorization to restore the ${type} ${c.key}.` });
        continue;
      }
      const months = (await repo.restorePending(tx, type, c.key, username)).sort(compareMonthIds);
      if (months.length === 0) {
        notRestored.push({
          key: c.key,
          reason: `The ${type} ${c.key} is not pending deletion (${rowStatus(c.reference).replace(/_/g, ' ')}): only DELETION_PENDING items can be restored.`,
        });
        continue;
      }
      await repo.deactivateSettledRequests(tx, type, c.key);
      await audit(tx, { username, action: 'restore', itemType: type, itemKey: c.key, monthId: months[0], summary: { months }, requestId: ctx.requestId });
      restored.push(c.key);
    }
    // Answer in the order asked.
    const order = new Map(unique.map((k, i) => [k, i]));
    notRestored.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
    return { restored, notRestored };
  });
}
