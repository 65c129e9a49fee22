/**
 * The Reference Data file (issue 33, docs/RELEASE-FILES.md "Reference Data"): its checks, its merge
 * (created or updated, never deleted; loaded before the four files are checked, so their checks see
 * its rows), its rows for the release download, and the months a release's files name.
 */
import { sql, type SQL } from 'drizzle-orm';
import { CLASSIFICATION_LABEL, LIMITS, MESSAGES } from '@bo/shared/validation';
import { queryRows, type Queryable } from '../../../db/client.js';
import { MACRO_FAMILY_SPECIAL_KINDS, REFERENCE_ROW_KINDS, type ReferenceRowKind } from './formats.js';
import type { Check } from './release-loader.repository.js';

/** Where a kind of reference row lives: its table, code column, label column (none: the kind has no label) and parent column. */
interface ReferenceTable {
  table: string;
  code: string;
  label?: string;
  parent?: string;
}

export const REFERENCE_TABLES: Record<ReferenceRowKind, ReferenceTable> = {
  BRAND: { table: 'brands', code: 'brand_code', label: 'description' },
  COLLECTION: { table: 'collections', code: 'collection_code', label: 'description' },
  PLANNING_CHANNEL: { table: 'planning_channels', code: 'planning_channel_id', label: 'label' },
  STARS_ZONE: { table: 'stars_zones', code: 'zone_code', label: 'description' },
  COUNTRY: { table: 'countries', code: 'country_code', label: 'name', parent: 'stars_zone' },
  LIA: { table: 'lias', code: 'lia_code', parent: 'planning_channel_id' },
  MACRO_FAMILY: { table: 'macro_families', code: 'macro_family', parent: 'special_kind' },
  CLIENT_CLASSIFICATION: { table: 'client_classifications', code: 'classification_label' },
};

/** The kinds whose parent is another reference row (in the file or in the database), and that row's kind. */
const PARENT_KINDS: Partial<Record<ReferenceRowKind, ReferenceRowKind>> = { COUNTRY: 'STARS_ZONE', LIA: 'PLANNING_CHANNEL' };
const PARENT_WORDS: Partial<Record<ReferenceRowKind, string>> = { STARS_ZONE: 'stars zone', PLANNING_CHANNEL: 'planning channel' };

const ident = (name: string) => sql.raw(`"${name}"`);
const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

const LABELLED = REFERENCE_ROW_KINDS.filter((k) => REFERENCE_TABLES[k].label !== undefined);
const UNLABELLED = REFERENCE_ROW_KINDS.filter((k) => REFERENCE_TABLES[k].label === undefined);
const PARENTLESS = REFERENCE_ROW_KINDS.filter((k) => REFERENCE_TABLES[k].parent === undefined);

const check = (query: SQL): Check => ({ kind: 'reference', query });

/** The checks of the staged Reference Data file (rl_reference), as the other files' (row_no, col, reason). */
export function referenceChecks(): Check[] {
  const checks: Check[] = [
    check(sql`SELECT row_no, 'code' AS col, 'this ' || kind || ' code repeats row ' || first_row AS reason FROM (
                SELECT x.row_no, x.kind, min(x.row_no) OVER (PARTITION BY x.kind, x.code) AS first_row FROM rl_reference x WHERE x.kind IS NOT NULL AND x.code IS NOT NULL
              ) d WHERE row_no <> first_row`),
    check(sql`SELECT x.row_no, 'label' AS col, 'required for kind ' || x.kind AS reason FROM rl_reference x WHERE x.label IS NULL AND x.kind IN (${list(LABELLED)})`),
    check(sql`SELECT x.row_no, 'label' AS col, x.kind || ' rows have no label: leave it empty' AS reason FROM rl_reference x WHERE x.label IS NOT NULL AND x.kind IN (${list(UNLABELLED)})`),
    check(sql`SELECT x.row_no, 'parent' AS col, x.kind || ' rows have no parent: leave it empty' AS reason FROM rl_reference x WHERE x.parent IS NOT NULL AND x.kind IN (${list(PARENTLESS)})`),
    check(sql`SELECT x.row_no, 'parent' AS col, '''' || x.parent || ''' is not a special kind of macro family (' || ${MACRO_FAMILY_SPECIAL_KINDS.join(', ')} || ', or empty)' AS reason
              FROM rl_reference x WHERE x.kind = 'MACRO_FAMILY' AND x.parent IS NOT NULL AND x.parent NOT IN (${list(MACRO_FAMILY_SPECIAL_KINDS)})`),
    // The screens' rule for a classification label (shared/validation.ts classificationLabelError).
    check(sql`SELECT x.row_no, 'code' AS col, CASE WHEN length(x.code) > ${LIMITS.classificationLabel} THEN 'at most ' || ${LIMITS.classificationLabel} || ' characters' ELSE ${MESSAGES.classificationChars} END AS reason
              FROM rl_reference x WHERE x.kind = 'CLIENT_CLASSIFICATION' AND (x.code !~ ${CLASSIFICATION_LABEL.source} OR length(x.code) > ${LIMITS.classificationLabel})`),
  ];
  for (const [kind, parentKind] of Object.entries(PARENT_KINDS) as [ReferenceRowKind, ReferenceRowKind][]) {
    const parent = REFERENCE_TABLES[parentKind];
    const what = PARENT_WORDS[parentKind]!;
    checks.push(
      check(sql`SELECT x.row_no, 'parent' AS col, CASE WHEN x.parent IS NULL THEN 'required for kind ' || x.kind ELSE '''' || x.parent || ''' is not a known ' || ${what} END AS reason
                FROM rl_reference x WHERE x.kind = ${kind} AND (x.parent IS NULL OR (
                  NOT EXISTS (SELECT 1 FROM rl_reference p WHERE p.kind = ${parentKind} AND p.code = x.parent)
                  AND NOT EXISTS (SELECT 1 FROM ${ident(parent.table)} t WHERE t.${ident(parent.code)} = x.parent)))`),
    );
  }
  return checks;
}

/** Rows of one kind created and updated by a load (an unchanged row counts in neither). */
export type ReferenceCounts = Record<ReferenceRowKind, { created: number; updated: number }>;

/**
 * Writes the staged reference rows, kind by kind in REFERENCE_ROW_KINDS's order (parents first): a new code
 * is inserted, a known one takes the file's label and parent; nothing is deleted.
 */
export async function mergeReference(db: Queryable, username: string): Promise<ReferenceCounts> {
  const counts = {} as ReferenceCounts;
  for (const kind of REFERENCE_ROW_KINDS) {
    const t = REFERENCE_TABLES[kind];
    const columns = [t.code, ...(t.label ? [t.label] : []), ...(t.parent ? [t.parent] : []), ...(kind === 'CLIENT_CLASSIFICATION' ? ['created_by'] : [])];
    const values = [sql`x.code`, ...(t.label ? [sql`x.label`] : []), ...(t.parent ? [sql`x.parent`] : []), ...(kind === 'CLIENT_CLASSIFICATION' ? [sql`${username}`] : [])];
    const updated = [t.label, t.parent].filter((c): c is string => c !== undefined);
    const onConflict =
      updated.length === 0
        ? sql`DO NOTHING`
        : sql`DO UPDATE SET ${sql.join(
            updated.map((c) => sql`${ident(c)} = EXCLUDED.${ident(c)}`),
            sql`, `,
          )} WHERE (${sql.join(
            updated.map((c) => sql`t.${ident(c)}`),
            sql`, `,
          )}) IS DISTINCT FROM (${sql.join(
            updated.map((c) => sql`EXCLUDED.${ident(c)}`),
            sql`, `,
          )})`;
    const rows = await queryRows<{ created: boolean }>(
      db,
      sql`INSERT INTO ${ident(t.table)} AS t (${sql.join(columns.map(ident), sql`, `)})
          SELECT ${sql.join(values, sql`, `)} FROM rl_reference x WHERE x.kind = ${kind} ORDER BY x.row_no
          ON CONFLICT (${ident(t.code)}) ${onConflict} RETURNING (xmax = 0) AS created`,
    );
    const created = rows.filter((r) => r.created === true || String(r.created) === 't').length;
    counts[kind] = { created, updated: rows.length - created };
  }
  return counts;
}

/** Every reference row of the database, in file order (kind, then code), with the format's column names. */
export function referenceRows(db: Queryable): Promise<Record<string, unknown>[]> {
  const selects = REFERENCE_ROW_KINDS.map((kind, i) => {
    const t = REFERENCE_TABLES[kind];
    return sql`SELECT ${i} AS k, ${kind} AS kind, ${ident(t.code)} AS code, ${t.label ? ident(t.label) : sql`NULL::text`} AS label,
                 ${t.parent ? ident(t.parent) : sql`NULL::text`} AS parent FROM ${ident(t.table)}`;
  });
  return queryRows(db, sql`SELECT kind, code, label, parent FROM (${sql.join(selects, sql` UNION ALL `)}) r ORDER BY k, code COLLATE "C"`);
}

/** The heads' months that do not exist yet: created, open, in the release being loaded. Answers their ids. */
export async function createMonths(db: Queryable, releaseId: string): Promise<string[]> {
  const rows = await queryRows<{ month_id: string }>(
    db,
    sql`INSERT INTO months (month_id, year, month, open, release_id)
        SELECT month_id, substr(month_id, 5, 4)::integer, substr(month_id, 2, 2)::integer, true, ${releaseId}
        FROM (SELECT month_id FROM rl_module_head UNION SELECT month_id FROM rl_cluster_head) h
        WHERE NOT EXISTS (SELECT 1 FROM months mo WHERE mo.month_id = h.month_id)
        ORDER BY 1 ON CONFLICT DO NOTHING RETURNING month_id`,
  );
  return rows.map((r) => r.month_id).sort();
}
