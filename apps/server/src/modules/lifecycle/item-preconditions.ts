/**
 * The save and publish preconditions of the lifecycle core (docs/LIFECYCLE.md, "Editing states"), one
 * implementation for every kind: the item is not being submitted, its month and its release are open,
 * and the caller holds its live lock.
 */
import { itemKeyString } from '@bo/shared/item-keys';
import { sameUser } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import type { ServiceContext } from '../../lib/context.js';
import { ruleBroken } from '../../lib/errors.js';
import { liveLocks } from '../locks/locks.repository.js';
import { monthStateOf, type MonthState } from '../months/months.repository.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';

/** 422 when the item cannot change for anyone now: submission running, release closed, month closed. */
export function assertChangeable<Row extends LifecycleRow>(kind: ItemKind<Row>, row: Row, month: MonthState): void {
  if (row.status === 'SUBMIT_IN_PROGRESS') throw ruleBroken('submitInProgress', kind.texts.submitInProgress);
  // Closing a release closes its months too: the release is the reason to name first.
  if (month.releaseClosed) throw ruleBroken('releaseClosed', kind.texts.releaseClosed);
  if (!month.open) throw ruleBroken('monthClosed', kind.texts.monthClosed);
}

/** assertChangeable, reading the month's state. */
export async function assertWritable<Row extends LifecycleRow>(db: Queryable, kind: ItemKind<Row>, row: Row): Promise<void> {
  assertChangeable(kind, row, await monthStateOf(db, row.monthId));
}

/** 422 moduleNotLocked / clusterNotLocked unless the caller holds the live lock of every row. */
export async function assertLocksHeld<Row extends LifecycleRow>(db: Queryable, ctx: ServiceContext, kind: ItemKind<Row>, rows: readonly Row[]): Promise<void> {
  const keys = rows.map(kind.keyOf);
  const holders = await liveLocks(db, kind.type, keys, ctx.config.LOCK_TTL_MINUTES);
  if (keys.some((k) => !sameUser(holders.get(itemKeyString(k)), ctx.user.username))) throw ruleBroken(kind.texts.notLockedKey, kind.texts.notLocked);
}
