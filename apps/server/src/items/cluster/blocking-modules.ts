/**
 * The modules that keep clusters from being published, spelled out for the planner (docs/LIFECYCLE.md
 * "Publish per cluster"): each module's label, month and status, whether the caller may publish it (submit
 * right on its brand and zones), whether it would pass its own checks (publish-checks.ts), who holds its
 * lock, and its own reasons with the SKU at fault as model / colour / size.
 */
import type { BlockingModule, BlockingSku } from '@bo/shared/clusters';
import { itemKeyString, moduleKeyString } from '@bo/shared/item-keys';
import type { PublishBlockReason } from '@bo/shared/modules';
import type { Grant } from '@bo/shared/grants';
import { canPublish } from '@bo/shared/permissions';
import type { Queryable } from '../../db/client.js';
import { liveLocks } from '../../lib/locks.repository.js';
import { findModules, moduleScopes, type ModuleRef } from '../module/modules.repository.js';
import { modulePublishBlockers } from '../lifecycle/publish-blockers.js';
import { skuDetails, type SkuDetailRow } from '../lifecycle/publishing.repository.js';

const toSku = (row: SkuDetailRow, today: string): BlockingSku => ({
  upc: row.upc,
  model: row.model,
  color: row.color,
  colorDescription: row.colorDescription,
  size: row.size,
  sapStatus: row.sapStatus,
  gedExpired: row.gedExpireDate !== null && row.gedExpireDate < today,
  discontinued: row.flagDisco,
});

/** The blocking modules by moduleKeyString; live modules only (a name not live in its month is left out). */
export async function blockingModules(
  db: Queryable,
  caller: { grants: readonly Grant[]; lockTtlMinutes: number; today?: string },
  refs: readonly ModuleRef[],
): Promise<Map<string, BlockingModule>> {
  const rows = await findModules(db, refs);
  if (rows.length === 0) return new Map();
  const [scopes, reasonsOf, holders] = [
    await moduleScopes(db, rows),
    await modulePublishBlockers(db, rows),
    await liveLocks(
      db,
      'module',
      rows.map((r) => ({ itemKey: r.moduleName, monthId: r.monthId })),
      caller.lockTtlMinutes,
    ),
  ];
  const upcs = [...reasonsOf.values()].flatMap((list) => list.map((r) => r.upc).filter((u): u is string => !!u));
  const skus = await skuDetails(db, upcs);
  const today = caller.today ?? new Date().toISOString().slice(0, 10);
  const out = new Map<string, BlockingModule>();
  for (const row of rows) {
    const own: PublishBlockReason[] = reasonsOf.get(row.id) ?? [];
    const reasons = own.map((r) => {
      const sku = r.upc ? skus.get(r.upc) : undefined;
      return sku ? { ...r, sku: toSku(sku, today) } : r;
    });
    out.set(moduleKeyString(row), {
      moduleName: row.moduleName,
      moduleLabel: row.moduleLabel,
      monthId: row.monthId,
      status: row.status,
      canPublish: canPublish(caller.grants, scopes.get(row.id)!),
      publishable: row.status === 'WIP' && reasons.length === 0,
      userLock: holders.get(itemKeyString({ itemKey: row.moduleName, monthId: row.monthId })) ?? null,
      reasons,
    });
  }
  return out;
}
