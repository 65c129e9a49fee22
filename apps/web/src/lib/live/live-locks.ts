import type { LiveItemKind } from '@bo/shared/live-events';
import type { ChangeBatch } from './live-changes';
import { presenceKey } from './presence-map';

/** Who holds each item's lock after a batch of changes (null: free), by `presenceKey`; the item's last event wins. */
export type LockHolders = ReadonlyMap<string, string | null>;

export function lockHolders(batch: ChangeBatch): LockHolders {
  const holders = new Map<string, string | null>();
  for (const item of batch.items) holders.set(presenceKey(item), item.lockedBy);
  return holders;
}

/** What a list row shows of an item's lock (the list DTOs' fields; the pending area's rows have no `locked`). */
interface ShowsLock {
  monthId: string;
  locked?: boolean;
  userLock: string | null;
}

/**
 * The rows with the lock holder the live events report, so a lock taken or released shows at once, before the
 * list's refetch answers (which then replaces them). The same array when no row changes: nothing re-renders.
 */
export function withLiveLocks<T extends ShowsLock>(rows: T[], kind: LiveItemKind, nameOf: (row: T) => string, holders: LockHolders): T[] {
  if (holders.size === 0) return rows;
  let changed = false;
  const out = rows.map((row) => {
    const key = presenceKey({ kind, name: nameOf(row), monthId: row.monthId });
    if (!holders.has(key)) return row;
    const holder = holders.get(key) ?? null;
    const hasLocked = row.locked !== undefined;
    if (row.userLock === holder && (!hasLocked || row.locked === (holder !== null))) return row;
    changed = true;
    return hasLocked ? { ...row, locked: holder !== null, userLock: holder } : { ...row, userLock: holder };
  });
  return changed ? out : rows;
}
