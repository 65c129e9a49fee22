/** The reads of a massive edit that only it needs: which live items a row's names and labels mean. */
import { and, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { clientClassifications, clusters, modules } from '../../db/schema.js';

export interface NamedItem {
  /** moduleName or clusterId */
  itemKey: string;
  label: string;
  monthId: string;
}

const CHUNK = 2000;

/** Live modules, in any month, whose name is one of `tokens` or whose label is one of them (case-insensitive). */
export async function modulesNamed(db: Queryable, tokens: readonly string[]): Promise<NamedItem[]> {
  const out: NamedItem[] = [];
  const unique = [...new Set(tokens)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const part = unique.slice(i, i + CHUNK);
    const lower = part.map((t) => t.toLowerCase());
    const rows = await db
      .select({ itemKey: modules.moduleName, label: modules.moduleLabel, monthId: modules.monthId })
      .from(modules)
      .where(and(isNull(modules.deletionStatus), or(inArray(modules.moduleName, part), inArray(sql`lower(${modules.moduleLabel})`, lower))));
    out.push(...rows);
  }
  return out;
}

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

/** Live modules of these months named or labelled by `tokens`, with their brand (what a cluster row may add). */
export async function modulesNamedInMonths(db: Queryable, tokens: readonly string[], monthIds: readonly string[]) {
  if (tokens.length === 0 || monthIds.length === 0) return [];
  const unique = [...new Set(tokens)];
  const lower = unique.map((t) => t.toLowerCase());
  return db
    .select({ moduleName: modules.moduleName, moduleLabel: modules.moduleLabel, monthId: modules.monthId, brandCode: modules.brandCode })
    .from(modules)
    .where(
      and(
        isNull(modules.deletionStatus),
        inArray(modules.monthId, [...new Set(monthIds)]),
        or(inArray(modules.moduleName, unique), inArray(sql`lower(${modules.moduleLabel})`, lower)),
      ),
    );
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
