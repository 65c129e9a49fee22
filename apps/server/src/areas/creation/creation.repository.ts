/** SQL of creating macro families, modules and clusters from home, and the store lookup of the cluster form. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../db/client.js';
import {
  brands,
  clusterClassifications,
  clusterCountries,
  clusterLias,
  clusters,
  clusterStarsZones,
  clusterStores,
  collections,
  lias,
  macroFamilies,
  moduleStarsZones,
  modules,
  planningChannels,
  releases,
  starsZones,
} from '../../db/schema.js';

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

// ───────────── existence ─────────────

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

// ───────────── inserts ─────────────

export async function insertModule(tx: Queryable, row: typeof modules.$inferInsert, zones: readonly string[]) {
  const [saved] = await tx.insert(modules).values(row).returning();
  if (zones.length) await tx.insert(moduleStarsZones).values([...new Set(zones)].map((starsZone) => ({ moduleId: saved!.id, starsZone })));
  return saved!;
}

export interface NewClusterChildren {
  countries: string[];
  zones: string[];
  storeJdas: string[];
  lias: string[];
  classificationIds: number[];
}

export async function insertCluster(tx: Queryable, row: typeof clusters.$inferInsert, children: NewClusterChildren) {
  const [saved] = await tx.insert(clusters).values(row).returning();
  const pk = saved!.id;
  if (children.countries.length) await tx.insert(clusterCountries).values(children.countries.map((countryCode) => ({ clusterPk: pk, countryCode })));
  if (children.zones.length) await tx.insert(clusterStarsZones).values(children.zones.map((starsZone) => ({ clusterPk: pk, starsZone })));
  if (children.storeJdas.length) await tx.insert(clusterStores).values(children.storeJdas.map((storeJda) => ({ clusterPk: pk, storeJda })));
  if (children.lias.length) await tx.insert(clusterLias).values(children.lias.map((liaCode) => ({ clusterPk: pk, liaCode })));
  if (children.classificationIds.length) {
    await tx.insert(clusterClassifications).values(children.classificationIds.map((classificationId) => ({ clusterPk: pk, classificationId })));
  }
  return saved!;
}

// ───────────── stores and names ─────────────

export interface StoreInfo {
  storeJda: string;
  codiceStoreSap: string;
  name: string;
  starsCustomer: string;
  starsCustomerName: string;
  customerSegmentation: string;
  countryCode: string;
  starsZone: string;
  planningChannelId: string;
}

/** Stores by SAP code (exact), with their customer's name and their country's stars zone. */
export async function storesBySap(db: Queryable, codes: readonly string[]): Promise<Map<string, StoreInfo>> {
  const wanted = [...new Set(codes)];
  if (wanted.length === 0) return new Map();
  const rows = await queryRows<StoreInfo>(
    db,
    sql`SELECT s.store_jda AS "storeJda", s.codice_store_sap AS "codiceStoreSap", s.name, s.stars_customer AS "starsCustomer",
               sc.name AS "starsCustomerName", s.customer_segmentation AS "customerSegmentation", s.country_code AS "countryCode",
               co.stars_zone AS "starsZone", s.planning_channel_id AS "planningChannelId"
        FROM stores s
        JOIN stars_customers sc ON sc.customer_code = s.stars_customer
        JOIN countries co ON co.country_code = s.country_code
        WHERE s.codice_store_sap IN ${wanted}`,
  );
  return new Map(rows.map((r) => [r.codiceStoreSap, r]));
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
