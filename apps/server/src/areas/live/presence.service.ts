/**
 * Presence (docs/LIVE.md "Presence"): what a tab has open, who it belongs to, and the leases of the locks an editing
 * page holds. Every refusal comes before any write: nothing is stored on a 403 or a 404.
 */
import { itemKeyString } from '@bo/shared/item-keys';
import type { LiveItemKind, PresenceBody } from '@bo/shared/live-events';
import { canView } from '@bo/shared/permissions';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { clusterKind } from '../../items/cluster/cluster-kind.js';
import type { ItemKind } from '../../items/lifecycle/item-kind.js';
import { moduleKind } from '../../items/module/module-kind.js';
import { refKey } from './live-notices.js';
import { claimStreamTab, claimTab, removeTab, renewLeases, replacePresence, tabOwner, type PresenceItem } from './live.repository.js';

const KINDS: Record<LiveItemKind, ItemKind> = { module: moduleKind, cluster: clusterKind };

const TAB_NOT_YOURS = 'This tab belongs to another user';

/** Each item once; an item given twice is edited when either says so. */
function uniqueItems(items: PresenceBody['items']): PresenceItem[] {
  const out = new Map<string, PresenceItem>();
  for (const i of items) {
    const known = out.get(refKey(i));
    out.set(refKey(i), { kind: i.kind, name: i.name, monthId: i.monthId, mode: known?.mode === 'editing' ? 'editing' : i.mode });
  }
  return [...out.values()];
}

/** 404 for an item that does not exist (or is deleted), 403 for one the caller may not see: as the item's own calls. */
async function checkVisible(ctx: ServiceContext, items: readonly PresenceItem[]): Promise<void> {
  for (const kindName of ['module', 'cluster'] as const) {
    const kind = KINDS[kindName];
    const wanted = items.filter((i) => i.kind === kindName).map((i) => ({ itemKey: i.name, monthId: i.monthId }));
    if (wanted.length === 0) continue;
    const rows = await kind.findLive(ctx.db, wanted);
    const found = new Map(rows.map((r) => [itemKeyString(kind.keyOf(r)), r]));
    const missing = wanted.find((k) => !found.has(itemKeyString(k)));
    if (missing) throw notFound(`The ${kindName} ${missing.itemKey} does not exist in ${missing.monthId}`);
    const scopes = await kind.scopes(ctx.db, rows);
    const hidden = rows.find((r) => !canView(ctx.user.grants, scopes.get(r.id)!));
    if (hidden) throw forbidden(kind.texts.mayNotView(kind.keyOf(hidden).itemKey));
  }
}

/**
 * Claims a tab for the caller's stream (or renews it): 403 when it is another user's. Answers when this stream opened
 * (the database's time), which its close hands to removeTabPresence.
 */
export async function claimCallerTab(ctx: ServiceContext, tabId: string): Promise<string> {
  const openedAt = await claimStreamTab(ctx.db, tabId, ctx.user.username);
  if (openedAt === null) throw forbidden(TAB_NOT_YOURS);
  return openedAt;
}

/**
 * PUT /api/presence: replaces what the tab has open and renews it; the caller's locks on the items it edits are renewed
 * and leased (LOCK_LEASE_SECONDS from now on, locks.repository.ts `liveLock`).
 */
export async function putPresence(ctx: ServiceContext, body: PresenceBody): Promise<void> {
  const items = uniqueItems(body.items);
  await checkVisible(ctx, items);
  await ctx.db.transaction(async (tx) => {
    if (!(await claimTab(tx, body.tabId, ctx.user.username))) throw forbidden(TAB_NOT_YOURS);
    await replacePresence(tx, body.tabId, ctx.user.username, items);
    await renewLeases(
      tx,
      ctx.user.username,
      items.filter((i) => i.mode === 'editing'),
      ctx.config.LOCK_LEASE_SECONDS,
      ctx.config.LOCK_TTL_MINUTES,
    );
  });
}

/** DELETE /api/presence/:tabId: the tab closed. An unknown tab is no error (it may have lapsed); another user's is 403. */
export async function deletePresence(ctx: ServiceContext, tabId: string): Promise<void> {
  const owner = await tabOwner(ctx.db, tabId);
  if (owner === null) return;
  if (owner.toLowerCase() !== ctx.user.username.toLowerCase()) throw forbidden(TAB_NOT_YOURS);
  await removeTab(ctx.db, tabId);
}
