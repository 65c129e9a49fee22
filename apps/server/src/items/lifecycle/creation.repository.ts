/** SQL every item creation shares (the create calls, the imports, the classifications): the per-key lock, which reference codes exist, and whether a key or label is taken. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { brands, clusters, collections, lias, macroFamilies, modules, planningChannels, releases, starsZones } from '../../db/schema.js';

/** Serialises creations of one key for the rest of the transaction (two creators of one name: one wins). */
export async function lockKeyForCreation(tx: Queryable, kind: 'module' | 'cluster' | 'macroFamily' | 'classification', key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`create:${kind}:${key.toLowerCase()}`}))`);
}

/** Which of the codes exist in a reference table (brands, collections, zones …; LIAs: reference-data's unknownLiaCodes). */
export async function existingCodes(
  db: Queryable,
  table: 'brand' | 'collection' | 'zone' | 'channel' | 'family' | 'release',
  codes: readonly string[],
): Promise<Set<string>> {
  const wanted = [...new Set(codes)];
  if (wanted.length === 0) return new Set();
  const column = {
    brand: brands.brandCode,
    collection: collections.collectionCode,
    zone: starsZones.zoneCode,
    channel: planningChannels.planningChannelId,
    family: macroFamilies.macroFamily,
    release: releases.releaseId,
  }[table];
  const source = { brand: brands, collection: collections, zone: starsZones, channel: planningChannels, family: macroFamilies, release: releases }[table];
  const rows = await db.select({ code: column }).from(source).where(inArray(column, wanted));
  return new Set(rows.map((r) => r.code));
}

/** The planning channel of each of the LIA codes that exist. */
export async function liaChannels(db: Queryable, codes: readonly string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db.select().from(lias).where(inArray(lias.liaCode, [...codes]));
  return new Map(rows.map((r) => [r.liaCode, r.planningChannelId]));
}

/** Live rows whose key equals `key` (case-insensitively), any month. */
export async function liveKeyMonths(db: Queryable, kind: 'module' | 'cluster', key: string): Promise<{ key: string; monthId: string }[]> {
  const rows =
    kind === 'module'
      ? await db
          .select({ key: modules.moduleName, monthId: modules.monthId })
          .from(modules)
          .where(and(sql`lower(${modules.moduleName}) = lower(${key})`, isNull(modules.deletionStatus)))
      : await db
          .select({ key: clusters.clusterId, monthId: clusters.monthId })
          .from(clusters)
          .where(and(sql`lower(${clusters.clusterId}) = lower(${key})`, isNull(clusters.deletionStatus)));
  return rows;
}

/** A live item of the month that already has this label (case-insensitively). */
export async function liveLabelInMonth(db: Queryable, kind: 'module' | 'cluster', label: string, monthId: string): Promise<string | undefined> {
  const rows =
    kind === 'module'
      ? await db
          .select({ key: modules.moduleName })
          .from(modules)
          .where(and(sql`lower(${modules.moduleLabel}) = lower(${label})`, eq(modules.monthId, monthId), isNull(modules.deletionStatus)))
          .limit(1)
      : await db
          .select({ key: clusters.clusterId })
          .from(clusters)
          .where(and(sql`lower(${clusters.clusterLabel}) = lower(${label})`, eq(clusters.monthId, monthId), isNull(clusters.deletionStatus)))
          .limit(1);
  return rows[0]?.key;
}
