/**
 * Locks of the lifecycle core (docs/LIFECYCLE.md, "Locks"), one implementation for every item kind.
 * Where modules and clusters used to differ, the stricter rule holds for both: an item in a closed month
 * or a closed release is never locked, and a forced unlock checks every key before it releases any.
 */
import { itemKeyString, uniqueKeys, type ItemKeyParts } from '@bo/shared/item-keys';
import { canEdit, isAdmin, sameUser, type ItemScope } from '@bo/shared/permissions';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { acquireLocks, liveLocks, nameForcedRelease, releaseLocks, type LockItemType, type LockState } from '../../lib/locks.repository.js';
import type { ItemKind, LifecycleRow } from './item-kind.js';

export interface LockAnswer extends ItemKeyParts {
  locked: boolean;
  userLock: string | null;
  acquired: boolean;
}

/** Keys once each, in request order. */
export const uniqueItemKeys = <K extends ItemKeyParts>(keys: readonly K[]): K[] => uniqueKeys(keys, itemKeyString);

/**
 * Takes or renews the lock of every item the caller may edit now: an edit right on it, its month open and
 * its release open. The others, and those another user holds, answer `acquired: false` (read-only).
 * Unknown and deleted items are left out; 404 when none exists.
 */
export async function lockItems<Row extends LifecycleRow>(ctx: ServiceContext, kind: ItemKind<Row>, keys: readonly ItemKeyParts[]): Promise<LockAnswer[]> {
  const wanted = uniqueItemKeys(keys);
  // The rows, their scopes and their months' states in one statement.
  const gated = await kind.findLiveGated(ctx.db, wanted, ctx.config.LOCK_TTL_MINUTES);
  const found = new Map(gated.rows.map((r) => [itemKeyString(kind.keyOf(r)), r]));
  const rows = wanted.map((k) => found.get(itemKeyString(k))).filter((r): r is Row => !!r);
  if (rows.length === 0) throw notFound(`None of these ${kind.type}s exists`);
  const editable = rows.filter((row) => {
    const { scope, gate } = gated.facts.get(row.id)!;
    return canEdit(ctx.user.grants, scope) && gate.month.open && !gate.month.releaseClosed;
  });
  const editing = new Set(editable);
  const [taken, current] = await Promise.all([
    acquireLocks(ctx.db, kind.type, editable.map(kind.keyOf), ctx.user.username, ctx.config.LOCK_TTL_MINUTES),
    liveLocks(ctx.db, kind.type, rows.filter((r) => !editing.has(r)).map(kind.keyOf), ctx.config.LOCK_TTL_MINUTES),
  ]);
  return rows.map((row) => {
    const key = kind.keyOf(row);
    const mayEdit = editing.has(row);
    const holder = (mayEdit ? taken : current).get(itemKeyString(key)) ?? null;
    return { ...key, locked: holder !== null, userLock: holder, acquired: mayEdit && sameUser(holder, ctx.user.username) };
  });
}

export interface UnlockTarget extends ItemKeyParts {
  /** The item's scope, or null when it has none (unknown item, macro family): only an admin may force it. */
  scope: ItemScope | null;
}

/**
 * Releases locks. Without `forced` only the caller's own go. `forced` (admin, or an edit right on the item)
 * removes anyone's lock: every key is checked first, so a refused key (403) leaves every lock in place.
 * All keys go in one transaction; removing another user's lock is audited as lock-override.
 */
export async function releaseItemLocks(
  ctx: ServiceContext,
  itemType: LockItemType,
  targets: readonly UnlockTarget[],
  forced: boolean,
  refusedText: (itemKeys: string[]) => string,
): Promise<LockState[]> {
  if (forced && !isAdmin(ctx.user.grants)) {
    const refused = targets.filter((t) => t.scope === null || !canEdit(ctx.user.grants, t.scope));
    if (refused.length) throw forbidden(refusedText(refused.map((t) => t.itemKey)));
  }
  return ctx.db.transaction(async (tx) => {
    // The holders of the locks removed here hear of it at once (live events: lockLost, reason 'forced', by the caller).
    if (forced) await nameForcedRelease(tx, ctx.user.username);
    const released = await releaseLocks(tx, itemType, targets, ctx.user.username, forced);
    for (const r of released) {
      if (sameUser(r.owner, ctx.user.username)) continue;
      await audit(tx, {
        username: ctx.user.username,
        action: 'lock-override',
        itemType,
        itemKey: r.itemKey,
        monthId: r.monthId,
        summary: { previousOwner: r.owner },
        requestId: ctx.requestId,
      });
    }
    return released;
  });
}

/** Unlocks items of a kind (see releaseItemLocks); each key once, with its scope when forced. */
export async function unlockItems<Row extends LifecycleRow>(
  ctx: ServiceContext,
  kind: ItemKind<Row>,
  keys: readonly ItemKeyParts[],
  forced: boolean,
): Promise<{ wanted: ItemKeyParts[]; released: LockState[] }> {
  const wanted = uniqueItemKeys(keys);
  const scopeByKey = new Map<string, ItemScope>();
  if (forced && !isAdmin(ctx.user.grants)) {
    const rows = await kind.findLive(ctx.db, wanted);
    const scopes = await kind.scopes(ctx.db, rows);
    for (const r of rows) scopeByKey.set(itemKeyString(kind.keyOf(r)), scopes.get(r.id)!);
  }
  const targets = wanted.map((k) => ({ ...k, scope: scopeByKey.get(itemKeyString(k)) ?? null }));
  const released = await releaseItemLocks(ctx, kind.type, targets, forced, kind.texts.mayNotUnlock);
  return { wanted, released };
}

/** Live lock holders of the keys, by itemKeyString. */
export function lockHolders(ctx: ServiceContext, itemType: LockItemType, keys: readonly ItemKeyParts[]) {
  return liveLocks(ctx.db, itemType, keys, ctx.config.LOCK_TTL_MINUTES);
}
