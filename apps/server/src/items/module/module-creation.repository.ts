/** SQL of creating a module: its row and its stars zones. */
import type { Queryable } from '../../db/client.js';
import { moduleStarsZones, modules } from '../../db/schema.js';

export async function insertModule(tx: Queryable, row: typeof modules.$inferInsert, zones: readonly string[]) {
  const [saved] = await tx.insert(modules).values(row).returning();
  if (zones.length) await tx.insert(moduleStarsZones).values([...new Set(zones)].map((starsZone) => ({ moduleId: saved!.id, starsZone })));
  return saved!;
}
