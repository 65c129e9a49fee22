import { and, eq, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import { moduleStarsZones, modules } from '../../db/schema.js';
import { readComposition, writeComposition } from './module-composition.repository.js';
import { moduleZones, type ModuleRow } from './modules.repository.js';

/** The module of a key in any deletion state, locked for the transaction. */
export async function findModuleAnyState(db: Queryable, ref: { moduleName: string; monthId: string }): Promise<ModuleRow | undefined> {
  const [row] = await db
    .select()
    .from(modules)
    .where(and(eq(modules.moduleName, ref.moduleName), eq(modules.monthId, ref.monthId)))
    .for('update');
  return row;
}

/**
 * Writes `source` (header, stars zones and composition) into `destination` as WIP: overwrites the live
 * row `existing` or creates the row (with `createdAfterDelete`). Answers the number of SKU lines.
 */
export async function writeModuleCopy(
  tx: Tx,
  source: ModuleRow,
  existing: ModuleRow | undefined,
  destination: string,
  username: string,
  createdAfterDelete: boolean,
): Promise<number> {
  const lines = await readComposition(tx, source.id);
  const zones = (await moduleZones(tx, [source.id])).get(source.id) ?? [];
  const fields = {
    moduleLabel: source.moduleLabel,
    moduleDescription: source.moduleDescription,
    macroFamily: source.macroFamily,
    brandCode: source.brandCode,
    collection: source.collection,
    planningChannelId: source.planningChannelId,
    newModule: source.newModule,
    initialSize: source.initialSize,
    door: source.door,
    status: 'WIP',
    rpasErrors: null,
    updatedAt: new Date(),
    updatedBy: username,
  };
  let id: number;
  if (existing) {
    await tx
      .update(modules)
      .set({ ...fields, version: sql`${modules.version} + 1` })
      .where(eq(modules.id, existing.id));
    id = existing.id;
    await tx.delete(moduleStarsZones).where(eq(moduleStarsZones.moduleId, id));
  } else {
    const [created] = await tx
      .insert(modules)
      .values({ ...fields, moduleName: source.moduleName, monthId: destination, createdBy: username, createdAfterDelete })
      .returning({ id: modules.id });
    id = created!.id;
  }
  if (zones.length) await tx.insert(moduleStarsZones).values(zones.map((z) => ({ moduleId: id, starsZone: z })));
  await writeComposition(tx, id, lines);
  return lines.length;
}
