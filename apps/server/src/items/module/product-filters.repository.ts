/**
 * The SQL of POST /api/product/filters: the values the product registry (`skus`, not deleted) and the
 * customer data hold for the Active SKUs search and the performance filters.
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { brands, collections, countries, planningChannels, skus, starsCustomers, starsZones } from '../../db/schema.js';

export interface SkuScope {
  brand?: readonly string[] | undefined;
  collection?: readonly string[] | undefined;
}

const scoped = (s: SkuScope) =>
  and(
    eq(skus.deleted, false),
    s.brand?.length ? inArray(skus.brandCode, [...s.brand]) : undefined,
    s.collection?.length ? inArray(skus.collection, [...s.collection]) : undefined,
  );

export const skuBrands = (db: Queryable) =>
  db
    .selectDistinct({ value: skus.brandCode, label: brands.description })
    .from(skus)
    .innerJoin(brands, eq(brands.brandCode, skus.brandCode))
    .where(eq(skus.deleted, false))
    .orderBy(asc(skus.brandCode));

export const skuCollections = (db: Queryable, s: SkuScope) =>
  db
    .selectDistinct({ value: skus.collection, label: collections.description })
    .from(skus)
    .innerJoin(collections, eq(collections.collectionCode, skus.collection))
    .where(scoped({ brand: s.brand }))
    .orderBy(asc(skus.collection));

export const skuPlanningChannels = (db: Queryable, s: SkuScope) =>
  db
    .selectDistinct({ value: planningChannels.planningChannelId, label: planningChannels.label })
    .from(skus)
    .innerJoin(planningChannels, eq(planningChannels.planningChannelId, skus.planningChannelId))
    .where(scoped(s))
    .orderBy(asc(planningChannels.planningChannelId));

export async function skuLegoClasses(db: Queryable, s: SkuScope): Promise<string[]> {
  const rows = await db
    .selectDistinct({ value: skus.legoClass })
    .from(skus)
    .where(and(scoped(s), isNotNull(skus.legoClass)))
    .orderBy(asc(skus.legoClass));
  return rows.map((r) => r.value!).filter(Boolean);
}

export const zones = (db: Queryable) => db.select({ value: starsZones.zoneCode, label: starsZones.description }).from(starsZones).orderBy(asc(starsZones.zoneCode));

export const countriesWithZone = (db: Queryable) =>
  db.select({ code: countries.countryCode, name: countries.name, zone: countries.starsZone }).from(countries).orderBy(asc(countries.name));

export const customers = (db: Queryable) =>
  db
    .select({ code: starsCustomers.customerCode, name: starsCustomers.name, zone: countries.starsZone, channel: starsCustomers.distributionChannel })
    .from(starsCustomers)
    .innerJoin(countries, eq(countries.countryCode, starsCustomers.countryCode))
    .orderBy(asc(starsCustomers.customerCode));
