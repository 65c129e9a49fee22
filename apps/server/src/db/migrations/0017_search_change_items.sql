-- Kept answers refreshed item by item (lib/kept-answers.ts; docs/performance.md "Kept answers refreshed item by item").
-- The change log of 0015 says which (month, brand) scopes a transaction changed; it now also says, where it can, which
-- items: a row (month, brand, item_type, item_id) for a module or cluster that changed alone, a row with no item for a
-- scope changed as a whole, as before. A kept answer whose scope changed only item by item is brought up to date by
-- reading those items again, not the whole list.
--  * item_type 'module' / 'cluster' and item_id (the row's id) name one item: its row, its zones, its countries, stores,
--    classifications or modules, its lock. Everything else — a month's row, a LEGO month, reference data, releases,
--    grants, a statement naming more than 50 items of one scope, a transaction that already named many — is noted as
--    the scope (or '*') with no item, as in 0015: the answers of that scope are computed afresh.
--  * xid: the transaction that noted the row. A server keeps, with each answer, the snapshot of the statement that read
--    its version (pg_current_snapshot()); the rows not visible in that snapshot are exactly the changes since. Their
--    number is the version's count difference unless some were folded into the totals meanwhile: then the answer is
--    computed afresh (the server checks the count).
--  * noted_at: compact_search_changes(p_keep_seconds) folds only the rows older than that, so that the changes of the
--    last minutes can still be read item by item.
ALTER TABLE "search_changes" ADD COLUMN "item_type" text;--> statement-breakpoint
ALTER TABLE "search_changes" ADD COLUMN "item_id" bigint;--> statement-breakpoint
ALTER TABLE "search_changes" ADD COLUMN "xid" xid8 NOT NULL DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "search_changes" ADD COLUMN "noted_at" timestamptz NOT NULL DEFAULT now();--> statement-breakpoint
-- Notes the scopes (p_months[i], p_brands[i]) changed by this transaction and, where p_types[i] and p_ids[i] are given,
-- the item of that scope that changed; a NULL month or brand stands for every one ('*'). Each scope or item once per
-- transaction (the setting bo.search_changes lists what it noted: '|month brand|' for a scope, '|month brand type:id|'
-- for an item). A scope with more than 50 items in one call, or any item once the transaction has noted more than
-- 4000 characters' worth, is noted as a whole. Once ('*', '*') is noted, nothing more is.
CREATE FUNCTION note_search_changes(p_months text[], p_brands text[], p_types text[], p_ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_noted text := COALESCE(current_setting('bo.search_changes', true), '');
  v_new text;
BEGIN
  IF strpos(v_noted, '|* *|') > 0 OR p_months IS NULL OR cardinality(p_months) = 0 THEN RETURN; END IF;
  WITH given AS (
         SELECT COALESCE(u.m, '*') AS m, COALESCE(u.b, '*') AS b, u.t, u.i
           FROM unnest(p_months, p_brands, COALESCE(p_types, '{}'::text[]), COALESCE(p_ids, '{}'::bigint[])) AS u(m, b, t, i)
       ),
       scopes AS (
         SELECT g.m, g.b,
                bool_or(g.t IS NULL OR g.i IS NULL) OR g.m = '*' OR g.b = '*' OR count(DISTINCT (g.t, g.i)) > 50 OR length(v_noted) > 4000 AS whole
           FROM given g GROUP BY g.m, g.b
       ),
       entries AS (
         SELECT s.m, s.b, NULL::text AS t, NULL::bigint AS i FROM scopes s WHERE s.whole
         UNION
         SELECT g.m, g.b, g.t, g.i FROM given g JOIN scopes s ON s.m = g.m AND s.b = g.b WHERE NOT s.whole
       ),
       added AS (
         INSERT INTO search_changes (month_id, brand_code, item_type, item_id)
         SELECT e.m, e.b, e.t, e.i FROM entries e
          WHERE strpos(v_noted, '|' || e.m || ' ' || e.b || '|') = 0 AND strpos(v_noted, '|' || e.m || ' *|') = 0
            AND (e.t IS NULL OR strpos(v_noted, '|' || e.m || ' ' || e.b || ' ' || e.t || ':' || e.i || '|') = 0)
          ORDER BY e.m, e.b, e.t, e.i
         RETURNING month_id, brand_code, item_type, item_id
       )
  SELECT string_agg(month_id || ' ' || brand_code || COALESCE(' ' || item_type || ':' || item_id, '') || '|', '') INTO v_new FROM added;
  IF v_new IS NOT NULL THEN
    PERFORM set_config('bo.search_changes', CASE WHEN v_noted = '' THEN '|' ELSE v_noted END || v_new, true);
  END IF;
END
$$;
--> statement-breakpoint
-- The scopes alone (0015's callers: LEGO months, months, everything).
CREATE OR REPLACE FUNCTION note_search_changes(p_months text[], p_brands text[]) RETURNS void LANGUAGE sql AS $$
  SELECT note_search_changes(p_months, p_brands, NULL::text[], NULL::bigint[]);
$$;
--> statement-breakpoint
-- Modules and clusters (TG_ARGV[0]: 'module' or 'cluster'): each row written, overwritten or deleted, by its scope and id
-- (an item moved to another month or brand is noted in both); more than 50 of one scope: that scope as a whole.
CREATE FUNCTION search_changed_item_ids() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
  v_ids bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(month_id), array_agg(brand_code), array_agg(item_id) INTO v_months, v_brands, v_ids
      FROM (SELECT DISTINCT month_id, brand_code, CASE WHEN count(*) OVER (PARTITION BY month_id, brand_code) > 50 THEN NULL ELSE id END AS item_id
              FROM (SELECT DISTINCT month_id, brand_code, id FROM new_rows) r) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(month_id), array_agg(brand_code), array_agg(item_id) INTO v_months, v_brands, v_ids
      FROM (SELECT DISTINCT month_id, brand_code, CASE WHEN count(*) OVER (PARTITION BY month_id, brand_code) > 50 THEN NULL ELSE id END AS item_id
              FROM (SELECT DISTINCT month_id, brand_code, id FROM old_rows) r) s;
  ELSE
    SELECT array_agg(month_id), array_agg(brand_code), array_agg(item_id) INTO v_months, v_brands, v_ids
      FROM (SELECT DISTINCT month_id, brand_code, CASE WHEN count(*) OVER (PARTITION BY month_id, brand_code) > 50 THEN NULL ELSE id END AS item_id
              FROM (SELECT month_id, brand_code, id FROM new_rows UNION SELECT month_id, brand_code, id FROM old_rows) r) s;
  END IF;
  IF v_months IS NULL THEN RETURN NULL; END IF;
  PERFORM note_search_changes(v_months, v_brands, array_fill(TG_ARGV[0], ARRAY[cardinality(v_months)]), v_ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Rows of an item (as 0015: TG_ARGV the items' table and the column naming the item): the items, by scope and id.
CREATE OR REPLACE FUNCTION search_changed_item_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
  v_ids bigint[];
  v_rows text;
BEGIN
  v_rows := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %I FROM new_rows', TG_ARGV[1])
    WHEN 'DELETE' THEN format('SELECT %I FROM old_rows', TG_ARGV[1])
    ELSE format('SELECT %I FROM new_rows UNION SELECT %I FROM old_rows', TG_ARGV[1], TG_ARGV[1]) END;
  EXECUTE format('SELECT array_agg(month_id), array_agg(brand_code), array_agg(item_id)
                    FROM (SELECT DISTINCT month_id, brand_code, CASE WHEN count(*) OVER (PARTITION BY month_id, brand_code) > 50 THEN NULL ELSE id END AS item_id
                            FROM (SELECT DISTINCT i.month_id, i.brand_code, i.id FROM %I i WHERE i.id IN (%s)) r) s',
                 TG_ARGV[0], v_rows)
    INTO v_months, v_brands, v_ids;
  IF v_months IS NULL THEN RETURN NULL; END IF;
  PERFORM note_search_changes(v_months, v_brands,
                              array_fill(CASE TG_ARGV[0] WHEN 'modules' THEN 'module' ELSE 'cluster' END, ARRAY[cardinality(v_months)]), v_ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Locks of modules and clusters: the locked item, by scope and id; its whole month when no such item is found.
CREATE OR REPLACE FUNCTION search_changed_locks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
  v_types text[];
  v_ids bigint[];
  v_rows text;
BEGIN
  v_rows := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT item_type, item_key, month_id FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT item_type, item_key, month_id FROM old_rows'
    ELSE 'SELECT item_type, item_key, month_id FROM new_rows UNION SELECT item_type, item_key, month_id FROM old_rows' END;
  EXECUTE 'SELECT array_agg(month_id), array_agg(brand_code), array_agg(item_type), array_agg(item_id) FROM (
             SELECT DISTINCT l.month_id, COALESCE(x.brand_code, ''*'') AS brand_code, l.item_type, x.id AS item_id
               FROM (' || v_rows || ') l
               LEFT JOIN LATERAL (
                 SELECT m.brand_code, m.id FROM modules m WHERE l.item_type = ''module'' AND m.module_name = l.item_key AND m.month_id = l.month_id
                 UNION ALL
                 SELECT c.brand_code, c.id FROM clusters c WHERE l.item_type = ''cluster'' AND c.cluster_id = l.item_key AND c.month_id = l.month_id
               ) x ON TRUE
              WHERE l.item_type IN (''module'', ''cluster'')) s'
    INTO v_months, v_brands, v_types, v_ids;
  PERFORM note_search_changes(v_months, v_brands, v_types, v_ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Folds the log's rows older than p_keep_seconds into the totals (0 — the default — all of them), as 0015's did.
DROP FUNCTION compact_search_changes();--> statement-breakpoint
CREATE FUNCTION compact_search_changes(p_keep_seconds integer DEFAULT 0) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_moved bigint;
BEGIN
  PERFORM set_config('bo.search_compacting', 'on', true);
  WITH gone AS (
         DELETE FROM search_changes
          WHERE p_keep_seconds <= 0 OR noted_at < now() - make_interval(secs => p_keep_seconds)
         RETURNING month_id, brand_code, id
       ),
       sums AS (SELECT month_id, brand_code, count(*) AS n, max(id) AS last_id FROM gone GROUP BY month_id, brand_code),
       kept AS (
         INSERT INTO search_change_totals AS t (month_id, brand_code, n, last_id)
         SELECT month_id, brand_code, n, last_id FROM sums ORDER BY month_id, brand_code
         ON CONFLICT (month_id, brand_code) DO UPDATE SET n = t.n + excluded.n, last_id = greatest(t.last_id, excluded.last_id)
         RETURNING 1
       )
  SELECT COALESCE(sum(n), 0) INTO v_moved FROM sums;
  PERFORM set_config('bo.search_compacting', 'off', true);
  RETURN v_moved;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
  kind text;
BEGIN
  FOR t, kind IN VALUES ('modules', 'module'), ('clusters', 'cluster') LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_search_insert', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_search_update', t);
    EXECUTE format('DROP TRIGGER %I ON %I', t || '_search_delete', t);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changed_item_ids(%L)',
                   t || '_search_insert', t, kind);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changed_item_ids(%L)',
                   t || '_search_update', t, kind);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changed_item_ids(%L)',
                   t || '_search_delete', t, kind);
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_search_insert');
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_search_update');
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_search_delete');
  END LOOP;
END
$$;
