/**
 * The save and publish preconditions of the lifecycle core (docs/LIFECYCLE.md, "Editing states"), one
 * implementation for every kind: the item is not being submitted, its month and its release are open,
 * the caller holds its live lock, and it is still the version the editor loaded.
 */
import { itemKeyString } from '@bo/shared/item-keys';
import { sameUser } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import type { ServiceContext } from '../../plugins/context.js';
import { conflict, ruleBroken } from '../../lib/errors.js';
import { liveLocks } from '../../lib/locks.repository.js';
import { itemGateRow } from './item-gate.repository.js';
import type { MonthState } from './months.repository.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';

/** 422 when the item cannot change for anyone now: submission running, release closed, month closed. */
export function assertChangeable<Row extends LifecycleRow>(kind: ItemKind<Row>, row: Row, month: MonthState): void {
  if (row.status === 'SUBMIT_IN_PROGRESS') throw ruleBroken('submitInProgress', kind.texts.submitInProgress);
  // Closing a release closes its months too: the release is the reason to name first.
  if (month.releaseClosed) throw ruleBroken('releaseClosed', kind.texts.releaseClosed);
  if (!month.open) throw ruleBroken('monthClosed', kind.texts.monthClosed);
}

/** What a save or publish of one item checks before it writes, read in one statement: its month's state and who holds its live lock. */
export interface ItemGate {
  month: MonthState;
  lockOwner: string | undefined;
}

/** The gate of one item (a save's or publish's round trips: one instead of one for the month and one for the lock). */
export async function gateOf<Row extends LifecycleRow>(db: Queryable, ctx: ServiceContext, kind: ItemKind<Row>, row: Row): Promise<ItemGate> {
  const { lockOwner, ...month } = await itemGateRow(db, kind.type, kind.keyOf(row), ctx.config.LOCK_TTL_MINUTES);
  return { month, lockOwner: lockOwner ?? undefined };
}

/** 422 moduleNotLocked / clusterNotLocked unless the caller is the lock's owner. */
export function assertLockOwner<Row extends LifecycleRow>(ctx: ServiceContext, kind: ItemKind<Row>, owner: string | undefined): void {
  if (!sameUser(owner, ctx.user.username)) throw ruleBroken(kind.texts.notLockedKey, kind.texts.notLocked);
}

/** assertChangeable, then the caller's live lock, from the item's gate (one statement). */
export async function assertWritableAndLocked<Row extends LifecycleRow>(db: Queryable, ctx: ServiceContext, kind: ItemKind<Row>, row: Row): Promise<void> {
  const gate = await gateOf(db, ctx, kind, row);
  assertChangeable(kind, row, gate.month);
  assertLockOwner(ctx, kind, gate.lockOwner);
}

/** 422 moduleNotLocked / clusterNotLocked unless the caller holds the live lock of every row. */
export async function assertLocksHeld<Row extends LifecycleRow>(db: Queryable, ctx: ServiceContext, kind: ItemKind<Row>, rows: readonly Row[]): Promise<void> {
  const keys = rows.map(kind.keyOf);
  const holders = await liveLocks(db, kind.type, keys, ctx.config.LOCK_TTL_MINUTES);
  for (const k of keys) assertLockOwner(ctx, kind, holders.get(itemKeyString(k)));
}

/** The 409 text of a save or publish carrying versions the items have moved past. */
export function versionConflictText(type: 'module' | 'cluster', stale: readonly { itemKey: string; loaded: number }[]): string {
  if (stale.length === 1) return `The ${type} ${stale[0]!.itemKey} was changed since you opened it (version ${stale[0]!.loaded}): reload it before saving again.`;
  return `The ${type}s ${stale.map((s) => `${s.itemKey} (version ${s.loaded})`).join(', ')} were changed since you opened them: reload them before saving again.`;
}

/**
 * 409 versionConflict when a body carries the version its editor loaded and the row has moved past it
 * (a repeated submit, or someone else's save): nothing is written. A body without a version is not checked.
 */
export function assertVersions<Row extends LifecycleRow & { version: number }>(kind: ItemKind<Row>, items: readonly { row: Row; loaded: number | undefined }[]): void {
  const stale = items.filter((i) => i.loaded !== undefined && i.loaded !== i.row.version).map((i) => ({ itemKey: kind.keyOf(i.row).itemKey, loaded: i.loaded! }));
  if (stale.length) throw conflict(versionConflictText(kind.type, stale), 'versionConflict');
}
