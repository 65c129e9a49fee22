/** Which live modules a list of names or labels means (the massive edit's and the imports' module rows). */
import { and, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { modules } from '../../db/schema.js';
import type { NamedItem } from '../lifecycle/change-plan.js';

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
