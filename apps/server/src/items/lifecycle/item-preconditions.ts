/**
 * The save and publish preconditions of the lifecycle core (docs/LIFECYCLE.md, "Editing states"), one
 * implementation for every kind: the item is not being submitted, its month and its release are open,
 * the caller holds its live lock, and it is still the version the editor loaded.
 */
import { sameUser } from '@bo/shared/permissions';
import type { ServiceContext } from '../../plugins/context.js';
import { conflict, ruleBroken } from '../../lib/errors.js';
import type { MonthState } from './months.repository.js';
import type { ItemGate, ItemKind, LifecycleRow } from './item-kind.js';

/** 422 when the item cannot change for anyone now: submission running, release closed, month closed. */
export function assertChangeable<Row extends LifecycleRow>(kind: ItemKind<Row>, row: Row, month: MonthState): void {
  if (row.status === 'SUBMIT_IN_PROGRESS') throw ruleBroken('submitInProgress', kind.texts.submitInProgress);
  // Closing a release closes its months too: the release is the reason to name first.
  if (month.releaseClosed) throw ruleBroken('releaseClosed', kind.texts.releaseClosed);
  if (!month.open) throw ruleBroken('monthClosed', kind.texts.monthClosed);
}

export type { ItemGate } from './item-kind.js';

/** The lock check of save and publish, for both kinds: 422 moduleNotLocked / clusterNotLocked unless the caller owns every gate's live lock. */
export function assertLocksHeld<Row extends LifecycleRow>(ctx: ServiceContext, kind: ItemKind<Row>, gates: readonly Pick<ItemGate, 'lockOwner'>[]): void {
  for (const gate of gates) {
    if (!sameUser(gate.lockOwner, ctx.user.username)) throw ruleBroken(kind.texts.notLockedKey, kind.texts.notLocked);
  }
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
