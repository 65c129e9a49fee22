/**
 * Workflow state on top of the plan: items that someone is editing right now (locks) and the
 * deletion requests behind the DELETION_PENDING modules and clusters.
 */
import { itemKeyString } from '@bo/shared/item-keys';
import type { deletionRequests, locks } from '../db/schema.js';
import type { BatchWriter } from './batch-writer.js';
import type { ClusterDef } from './clusters.js';
import type { ModuleDef } from './modules.js';
import { FIRST_OPEN_INDEX, type MonthRow } from './reference-data.js';
import { Rng } from './random.js';
import { EDITOR_BRANDS, EDITOR_ZONES, SUBMITTER_BRANDS, SUBMITTER_ZONES } from './users.js';

/** A lock's item as one string: its kind, then the item-month key. */
export const lockKey = (itemType: string, itemKey: string, monthId: string) => `${itemType}|${itemKeyString({ itemKey, monthId })}`;

interface Lockable {
  name: string;
  brand: string;
  zones: readonly string[];
  start: number;
  end: number;
  deleteFrom: number | null;
}

const REQUESTED_AT = new Date('2026-11-16T10:30:00Z');

export interface LockRow {
  itemType: 'module' | 'cluster';
  itemKey: string;
  monthId: string;
  owner: string;
}

/**
 * A few modules and clusters in open months are held by the editor and the submitter (inside their
 * own brands and zones). Chosen from the definitions alone, before anything is written, so that the
 * showcase (showcase.ts) can keep its items free. Lock times are left to the database clock (now): a
 * lock dated in the past would already have lapsed when the demo starts.
 */
export function chooseLocks(
  seed: number,
  scale: number,
  months: readonly MonthRow[],
  moduleDefs: readonly ModuleDef[],
  clusterDefs: readonly ClusterDef[],
): LockRow[] {
  const rng = Rng.for(seed, 'locks');
  const modules: Lockable[] = moduleDefs.map((d) => ({ name: d.name, brand: d.brand.code, zones: d.zones, start: d.start, end: d.end, deleteFrom: d.deleteFrom }));
  const clusters: Lockable[] = clusterDefs.map((d) => ({ name: d.clusterId, brand: d.brand.code, zones: d.zones, start: d.start, end: d.end, deleteFrom: d.deleteFrom }));
  const few = (n: number) => Math.max(1, Math.round(n * Math.sqrt(scale)));
  const plan = [
    { owner: 'editor', itemType: 'module', items: modules, brands: EDITOR_BRANDS, zones: EDITOR_ZONES, count: few(3) },
    { owner: 'submitter', itemType: 'module', items: modules, brands: SUBMITTER_BRANDS, zones: SUBMITTER_ZONES, count: few(2) },
    { owner: 'editor', itemType: 'cluster', items: clusters, brands: EDITOR_BRANDS, zones: EDITOR_ZONES, count: few(2) },
    { owner: 'submitter', itemType: 'cluster', items: clusters, brands: SUBMITTER_BRANDS, zones: SUBMITTER_ZONES, count: few(1) },
  ] as const;
  const taken = new Set<string>();
  const rows: LockRow[] = [];
  for (const p of plan) {
    const brands: readonly string[] = p.brands;
    const zones: readonly string[] = p.zones;
    const eligible = p.items.filter(
      (item) => brands.includes(item.brand) && item.zones.some((z) => zones.includes(z)) && item.end >= FIRST_OPEN_INDEX,
    );
    for (const item of rng.sample(eligible, p.count)) {
      const from = Math.max(item.start, FIRST_OPEN_INDEX);
      const to = item.deleteFrom === null ? item.end : item.deleteFrom - 1;
      if (to < from) continue;
      const monthId = months[rng.int(from, to)]!.monthId;
      const key = lockKey(p.itemType, item.name, monthId);
      if (taken.has(key)) continue;
      taken.add(key);
      rows.push({ itemType: p.itemType, itemKey: item.name, monthId, owner: p.owner });
    }
  }
  return rows;
}

export async function writeLocks(rows: readonly LockRow[], writer: BatchWriter<typeof locks>): Promise<void> {
  for (const row of rows) await writer.add(row);
}

export async function writeDeletionRequests(
  months: readonly MonthRow[],
  deletedModules: readonly ModuleDef[],
  deletedClusters: readonly ClusterDef[],
  writer: BatchWriter<typeof deletionRequests>,
): Promise<void> {
  let id = 0;
  const requests = [
    ...deletedModules.map((d) => ({ itemType: 'module', itemKey: d.name, from: d.deleteFrom! })),
    ...deletedClusters.map((d) => ({ itemType: 'cluster', itemKey: d.clusterId, from: d.deleteFrom! })),
  ];
  for (const r of requests) {
    await writer.add({
      id: ++id,
      itemType: r.itemType,
      itemKey: r.itemKey,
      deleteFromMonthId: months[r.from]!.monthId,
      requestedBy: 'creator',
      requestedAt: REQUESTED_AT,
      errorMessage: null,
      active: true,
    });
  }
}
