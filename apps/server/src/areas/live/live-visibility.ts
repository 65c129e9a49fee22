/**
 * Who may see what a live event is about: the rules of the result lists and of the items' own calls, never a copy.
 * An item-month: `canView` (packages/shared/permissions.ts) on the item's scope as its kind reads it (brand and stars
 * zones: lifecycle/module-kind, cluster-kind). A scope (month, brand): the brands the lists show the user
 * (search/visibility.ts `visibilityOf`).
 */
import type { Grant } from '@bo/shared/grants';
import type { LiveItemKind } from '@bo/shared/live-events';
import { canView, type ItemScope } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { clusterKind } from '../../items/cluster/cluster-kind.js';
import type { ItemKind } from '../../items/lifecycle/item-kind.js';
import { moduleKind } from '../../items/module/module-kind.js';
import { visibilityOf } from '../../lib/visibility.js';
import { refKey } from './live-notices.js';
import type { ItemState } from './live.repository.js';

const KINDS: Record<LiveItemKind, ItemKind> = { module: moduleKind, cluster: clusterKind };

/** The permission scope of each item state, by refKey. */
export async function itemScopes(db: Queryable, states: readonly ItemState[]): Promise<Map<string, ItemScope>> {
  const out = new Map<string, ItemScope>();
  for (const kind of ['module', 'cluster'] as const) {
    const rows = states.filter((s) => s.kind === kind);
    if (rows.length === 0) continue;
    const scopes = await KINDS[kind].scopes(db, rows);
    for (const r of rows) out.set(refKey(r), scopes.get(r.id)!);
  }
  return out;
}

export const mayViewItem = (grants: readonly Grant[], scope: ItemScope | undefined): boolean => !!scope && canView(grants, scope);

/** A scope event: '*' (every brand) goes to everyone, a brand to those whose lists may show it. */
export function mayViewScope(grants: readonly Grant[], brand: string): boolean {
  if (brand === '*') return true;
  const v = visibilityOf(grants);
  return v.all || v.brands.includes(brand);
}
