/** Which live clusters and client classifications a list of names or labels means (the massive edit's and the imports' cluster rows). */
import { and, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { clientClassifications, clusters } from '../../db/schema.js';
import type { NamedItem } from '../lifecycle/change-plan.js';

const CHUNK = 2000;

/** Live clusters, in any month, whose id is one of `tokens` or whose label is one of them (case-insensitive). */
export async function clustersNamed(db: Queryable, tokens: readonly string[]): Promise<(NamedItem & { brandCode: string })[]> {
  const out: (NamedItem & { brandCode: string })[] = [];
  const unique = [...new Set(tokens)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    const lower = part.map((t) => t.toLowerCase());
    const rows = await db
      .select({ itemKey: clusters.clusterId, label: clusters.clusterLabel, monthId: clusters.monthId, brandCode: clusters.brandCode })
      .from(clusters)
      .where(and(isNull(clusters.deletionStatus), or(inArray(clusters.clusterId, part), inArray(sql`lower(${clusters.clusterLabel})`, lower))));
    out.push(...rows);
  }
  return out;
}

/** Client classification ids by upper-cased label, for the labels that exist. */
export async function classificationIdsByLabel(db: Queryable, labels: readonly string[]): Promise<Map<string, { id: number; label: string }>> {
  const out = new Map<string, { id: number; label: string }>();
  if (labels.length === 0) return out;
  const rows = await db
    .select({ id: clientClassifications.classificationId, label: clientClassifications.classificationLabel })
    .from(clientClassifications)
    .where(inArray(sql`upper(${clientClassifications.classificationLabel})`, [...new Set(labels.map((l) => l.toUpperCase()))]));
  for (const r of rows) out.set(r.label.toUpperCase(), r);
  return out;
}

/** Labels of these classification ids. */
export async function classificationLabels(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: clientClassifications.classificationId, label: clientClassifications.classificationLabel })
    .from(clientClassifications)
    .where(inArray(clientClassifications.classificationId, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.label]));
}
