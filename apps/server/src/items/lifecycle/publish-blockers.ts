/**
 * Why stored items may not be published now, read once for a set of rows: the planning system's checks
 * (publish-checks.ts) on what is stored, and for clusters their modules still in WIP first. The jobs
 * that publish what they changed (copy, massive edit) word the reasons their own way.
 */
import type { PublishBlockReason } from '@bo/shared/modules';
import type { Queryable } from '../../db/client.js';
import { clusterBlockReasons, moduleBlockReasons } from './publish-checks.js';
import { clusterPublishFacts, modulePublishFacts } from './publishing.repository.js';

/** The reasons of each module row that may not be published (rows that may are left out). */
export async function modulePublishBlockers(db: Queryable, rows: readonly { id: number }[]): Promise<Map<number, PublishBlockReason[]>> {
  const facts = await modulePublishFacts(
    db,
    rows.map((r) => r.id),
  );
  const out = new Map<number, PublishBlockReason[]>();
  for (const row of rows) {
    const reasons = moduleBlockReasons(facts.get(row.id) ?? { skus: [] });
    if (reasons.length) out.set(row.id, reasons);
  }
  return out;
}

/** The reasons of each cluster row that may not be published: modules in WIP first, then the planning system's. */
export async function clusterPublishBlockers(db: Queryable, rows: readonly { id: number; monthId: string }[]): Promise<Map<number, PublishBlockReason[]>> {
  const facts = await clusterPublishFacts(db, rows);
  const out = new Map<number, PublishBlockReason[]>();
  for (const row of rows) {
    const reasons = clusterBlockReasons(facts.get(row.id) ?? { storeCount: 0, modules: [] });
    if (reasons.length) out.set(row.id, reasons);
  }
  return out;
}

/** Whether the reasons include modules still in WIP (part 2 §8 has its own text for that). */
export const hasModulesInWip = (reasons: readonly PublishBlockReason[]) => reasons.some((r) => r.code === 'moduleInWip');
