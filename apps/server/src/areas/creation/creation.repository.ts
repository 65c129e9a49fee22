/** SQL of the creation area: macro families, the generic cluster name's lookups. What every item creation shares is items/lifecycle/creation.repository.ts; the kinds' inserts are items/module and items/cluster. */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../db/client.js';
import { macroFamilies } from '../../db/schema.js';

export async function familyByName(db: Queryable, name: string) {
  const [row] = await db.select().from(macroFamilies).where(sql`lower(${macroFamilies.macroFamily}) = lower(${name})`);
  return row;
}

export async function insertFamily(tx: Queryable, name: string) {
  const [row] = await tx.insert(macroFamilies).values({ macroFamily: name, specialKind: null }).returning();
  return row!;
}

export async function listFamilies(db: Queryable) {
  return db.select({ macroFamily: macroFamilies.macroFamily, specialKind: macroFamilies.specialKind }).from(macroFamilies);
}

/** Cluster ids (any month, any state) that start with `prefix`. `left()` rather than LIKE: `_` is a LIKE wildcard. */
export async function clusterIdsWithPrefix(db: Queryable, prefix: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT DISTINCT cluster_id AS id FROM clusters WHERE left(cluster_id, ${prefix.length}) = ${prefix}`,
  );
  return rows.map((r) => r.id);
}

export async function countryZones(db: Queryable, codes: readonly string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await queryRows<{ code: string; zone: string }>(
    db,
    sql`SELECT country_code AS code, stars_zone AS zone FROM countries WHERE country_code IN ${[...new Set(codes)]}`,
  );
  return new Map(rows.map((r) => [r.code, r.zone]));
}
