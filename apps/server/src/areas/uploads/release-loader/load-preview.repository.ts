/**
 * What a load would do to modules and clusters (Upload Files preview, docs/RELEASE-FILES.md "Preview"):
 * read from the staged files before the merge. An item is `created` when no live item has its key,
 * `changed` when its fields, stars zones or composition differ from the live one, `unchanged` otherwise;
 * a `massive` load names the live items of the release's months that the files leave out (removed).
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../../db/client.js';
import type { LoadType } from './formats.js';

export interface ItemCounts {
  created: number;
  changed: number;
  unchanged: number;
}

export interface ItemPreview {
  modules: ItemCounts;
  clusters: ItemCounts;
  /** Live items a massive load removes, as `name (monthId)`, at most MAX_NAMED each (the counts are whole). */
  removedModules: { count: number; names: string[] };
  removedClusters: { count: number; names: string[] };
}

/** Removed items named in a preview. */
export const MAX_NAMED = 200;

const SEP = sql.raw(`E'\\x1f'`);

/** A module's content as one text (fields, sorted zones, lines by UPC), from the staged files and from the database. */
const STAGED_MODULES = sql`SELECT h.module_name AS name, h.month_id, concat_ws(${SEP}, h.module_label, h.module_description, h.macro_family, h.brand_code, h.collection,
      h.planning_channel_id, h.new_module::text, h.initial_size::text,
      (SELECT string_agg(z, '|' ORDER BY z) FROM unnest(string_to_array(nullif(h.stars_zones, ''), '|')) z),
      (SELECT string_agg(concat_ws(',', s.upc, s.must_have::text, s.status, s.previous_status, s.previous_must_have::text, s.min_value::float8::text, s.position::text), ';' ORDER BY s.upc)
         FROM rl_module s WHERE s.module_name = h.module_name AND s.month_id = h.month_id AND s.upc IS NOT NULL)) AS body
    FROM rl_module_head h`;
const LIVE_MODULES = sql`SELECT m.module_name AS name, m.month_id, concat_ws(${SEP}, m.module_label, m.module_description, m.macro_family, m.brand_code, m.collection,
      m.planning_channel_id, m.new_module::text, m.initial_size::text,
      (SELECT string_agg(z.stars_zone, '|' ORDER BY z.stars_zone) FROM module_stars_zones z WHERE z.module_id = m.id),
      (SELECT string_agg(concat_ws(',', s.upc, s.must_have::text, s.status, s.previous_status, s.previous_must_have::text, s.min_value::float8::text, s.position::text), ';' ORDER BY s.upc)
         FROM module_skus s WHERE s.module_id = m.id)) AS body
    FROM modules m JOIN rl_module_head k ON k.module_name = m.module_name AND k.month_id = m.month_id WHERE m.deletion_status IS NULL`;

const STAGED_CLUSTERS = sql`SELECT h.cluster_id AS name, h.month_id, concat_ws(${SEP}, h.cluster_label, h.cluster_description, h.brand_code, h.collection,
      h.planning_channel_id, h.range_facing,
      (SELECT string_agg(x.kind || ':' || x.value || ':' || CASE WHEN x.kind = 'MODULE' THEN coalesce(x.module_status, 'ADDED') ELSE '' END, ';' ORDER BY x.kind, x.value)
         FROM rl_cluster x WHERE x.cluster_id = h.cluster_id AND x.month_id = h.month_id AND x.kind <> 'CLUSTER')) AS body
    FROM rl_cluster_head h`;
const LIVE_CLUSTERS = sql`SELECT c.cluster_id AS name, c.month_id, concat_ws(${SEP}, c.cluster_label, c.cluster_description, c.brand_code, c.collection,
      c.planning_channel_id, c.range_facing,
      (SELECT string_agg(l.kind || ':' || l.value || ':' || l.st, ';' ORDER BY l.kind, l.value) FROM (
          SELECT 'COUNTRY' AS kind, x.country_code AS value, '' AS st FROM cluster_countries x WHERE x.cluster_pk = c.id
          UNION ALL SELECT 'ZONE', x.stars_zone, '' FROM cluster_stars_zones x WHERE x.cluster_pk = c.id
          UNION ALL SELECT 'LIA', x.lia_code, '' FROM cluster_lias x WHERE x.cluster_pk = c.id
          UNION ALL SELECT 'CLASSIFICATION', cc.classification_label, '' FROM cluster_classifications x
            JOIN client_classifications cc ON cc.classification_id = x.classification_id WHERE x.cluster_pk = c.id
          UNION ALL SELECT 'STORE', x.store_jda, '' FROM cluster_stores x WHERE x.cluster_pk = c.id
          UNION ALL SELECT 'MODULE', x.module_name, x.status FROM cluster_modules x WHERE x.cluster_pk = c.id) l)) AS body
    FROM clusters c JOIN rl_cluster_head k ON k.cluster_id = c.cluster_id AND k.month_id = c.month_id WHERE c.deletion_status IS NULL`;

async function countItems(db: Queryable, staged: SQL, live: SQL): Promise<ItemCounts> {
  const [row] = await queryRows<{ created: string | number; changed: string | number; unchanged: string | number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE l.name IS NULL) AS created,
          count(*) FILTER (WHERE l.name IS NOT NULL AND l.body IS DISTINCT FROM s.body) AS changed,
          count(*) FILTER (WHERE l.name IS NOT NULL AND l.body IS NOT DISTINCT FROM s.body) AS unchanged
        FROM (${staged}) s LEFT JOIN (${live}) l ON l.name = s.name AND l.month_id = s.month_id`,
  );
  return { created: Number(row?.created ?? 0), changed: Number(row?.changed ?? 0), unchanged: Number(row?.unchanged ?? 0) };
}

async function removed(db: Queryable, releaseId: string, table: 'modules' | 'clusters'): Promise<{ count: number; names: string[] }> {
  const [key, head] = table === 'modules' ? ['module_name', 'rl_module_head'] : ['cluster_id', 'rl_cluster_head'];
  const rows = await queryRows<{ name: string; total: string | number }>(
    db,
    sql`SELECT i.${sql.raw(`"${key}"`)} || ' (' || i.month_id || ')' AS name, count(*) OVER () AS total
        FROM ${sql.raw(table)} i JOIN months mo ON mo.month_id = i.month_id
        WHERE mo.release_id = ${releaseId} AND i.deletion_status IS NULL
          AND NOT EXISTS (SELECT 1 FROM ${sql.raw(head)} h WHERE h.${sql.raw(`"${key}"`)} = i.${sql.raw(`"${key}"`)} AND h.month_id = i.month_id)
        ORDER BY i.${sql.raw(`"${key}"`)} COLLATE "C", i.month_id LIMIT ${MAX_NAMED}`,
  );
  return { count: Number(rows[0]?.total ?? 0), names: rows.map((r) => r.name) };
}

/** The preview of the items, read from the staged files (call after the checks, before the merge). */
export async function previewItems(db: Queryable, releaseId: string, type: LoadType): Promise<ItemPreview> {
  const none = { count: 0, names: [] };
  return {
    modules: await countItems(db, STAGED_MODULES, LIVE_MODULES),
    clusters: await countItems(db, STAGED_CLUSTERS, LIVE_CLUSTERS),
    removedModules: type === 'massive' ? await removed(db, releaseId, 'modules') : none,
    removedClusters: type === 'massive' ? await removed(db, releaseId, 'clusters') : none,
  };
}
