import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { auditLog, brands, clientClassifications, collections, countries, lias, planningChannels, rules, starsZones, templates } from '../../db/schema.js';

export const listLias = (db: Queryable) =>
  db.select({ liaCode: lias.liaCode, planningChannelId: lias.planningChannelId }).from(lias).orderBy(asc(lias.liaCode));

export const listStarsZones = (db: Queryable) =>
  db.select({ starsZone: starsZones.zoneCode, description: starsZones.description }).from(starsZones).orderBy(asc(starsZones.zoneCode));

export const listBrands = (db: Queryable) =>
  db.select({ brandCode: brands.brandCode, description: brands.description }).from(brands).orderBy(asc(brands.brandCode));

export const listRules = (db: Queryable) => db.select().from(rules).orderBy(asc(rules.ruleCode));

export const listCountries = (db: Queryable) =>
  db
    .select({ countryCode: countries.countryCode, name: countries.name, starsZone: countries.starsZone })
    .from(countries)
    .orderBy(asc(countries.name));

export const listCollections = (db: Queryable) => db.select().from(collections).orderBy(asc(collections.collectionCode));

export const listPlanningChannels = (db: Queryable) =>
  db.select().from(planningChannels).orderBy(asc(planningChannels.planningChannelId));

export const listTemplates = (db: Queryable, templatesType: string) =>
  db
    .select({ templateId: templates.templateId, templateLabel: templates.templateLabel })
    .from(templates)
    .where(and(eq(templates.templatesType, templatesType)))
    .orderBy(asc(templates.templateLabel));

// ───────────── existence of references ─────────────

/** The LIA codes among `codes` that do not exist, once each, in the order given. */
export async function unknownLiaCodes(db: Queryable, codes: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(codes)];
  if (wanted.length === 0) return [];
  const rows = await db.select({ liaCode: lias.liaCode }).from(lias).where(inArray(lias.liaCode, wanted));
  const known = new Set(rows.map((r) => r.liaCode));
  return wanted.filter((code) => !known.has(code));
}

/** The client classification ids among `ids` that do not exist, once each, in the order given. */
export async function unknownClassificationIds(db: Queryable, ids: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await db
    .select({ id: clientClassifications.classificationId })
    .from(clientClassifications)
    .where(inArray(clientClassifications.classificationId, wanted));
  const known = new Set(rows.map((r) => r.id));
  return wanted.filter((id) => !known.has(id));
}

/**
 * The labels of deleted classifications among `ids`, from the audit of their deletion (the row is gone, the
 * versions of the clusters that carried one hold only its id).
 */
export async function deletedClassificationLabels(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: sql<number>`(${auditLog.summary} ->> 'classificationId')::int`, label: auditLog.itemKey })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.itemType, 'classification'),
        eq(auditLog.action, 'delete'),
        inArray(sql<number>`(${auditLog.summary} ->> 'classificationId')::int`, [...new Set(ids)]),
      ),
    );
  return new Map(rows.filter((r) => r.label !== null).map((r) => [Number(r.id), r.label!]));
}
