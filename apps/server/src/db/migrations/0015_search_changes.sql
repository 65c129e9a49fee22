-- What the home search's kept answers are checked against (lib/kept-answers.ts; docs/performance.md "Kept answers
-- that survive writes"; docs/DECISIONS.md). Every statement that changes a table a result list reads notes the scopes
-- it changed in search_changes, in its own transaction: (month_id, brand_code) for an item of that month and brand,
-- (month_id, '*') for a month's own row, ('*', '*') for what any list may show (reference data, releases, grants,
-- users, a TRUNCATE). A kept answer is valid while the changes of the scopes it covers are the same: their number and
-- highest id, read in one statement before the answer is computed.
--  * Written by triggers on every such table (statement-level, transition tables), as the line counts of 0010 are:
--    nothing a writer must remember, whatever writes (a save, a job, an import, plain SQL).
--  * Append-only: a writer inserts rows and never updates one, so two planners saving modules of one brand-month never
--    wait for each other (a version row bumped by both would hold the second until the first commits). A transaction
--    notes each scope once (the setting bo.search_changes, local to the transaction, lists what it noted).
--  * The ids come from a sequence of their own, owned by no column: a TRUNCATE ... RESTART IDENTITY (the tests' reset,
--    the demo seed) never hands out an id again.
--  * compact_search_changes() folds the rows into search_change_totals (per scope: how many, highest id) in one
--    statement, so the number and the highest id of every scope stay what they were; the servers call it now and then.
--  * Emptied any other way (TRUNCATE, DELETE: a test's reset or restore), the log gets a new ('*', '*') row at once, with
--    an id higher than any before, so no answer kept before is taken for one of the new data.
CREATE SEQUENCE "search_change_ids";--> statement-breakpoint
CREATE TABLE "search_changes" (
  "id" bigint PRIMARY KEY DEFAULT nextval('search_change_ids'),
  "month_id" text NOT NULL,
  "brand_code" text NOT NULL
);--> statement-breakpoint
CREATE INDEX "search_changes_scope_idx" ON "search_changes" ("month_id", "brand_code");--> statement-breakpoint
CREATE TABLE "search_change_totals" (
  "month_id" text NOT NULL,
  "brand_code" text NOT NULL,
  "n" bigint NOT NULL,
  "last_id" bigint NOT NULL,
  PRIMARY KEY ("month_id", "brand_code")
);--> statement-breakpoint
-- Notes the scopes (p_months[i], p_brands[i]) changed by this transaction, each once; a NULL month or brand stands for
-- every one ('*'). Once ('*', '*') is noted, nothing more is: that row already changes every answer's version.
CREATE FUNCTION note_search_changes(p_months text[], p_brands text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_noted text := COALESCE(current_setting('bo.search_changes', true), '');
  v_new text;
BEGIN
  IF strpos(v_noted, '|* *|') > 0 OR p_months IS NULL OR cardinality(p_months) = 0 THEN RETURN; END IF;
  WITH scopes AS (
         SELECT DISTINCT COALESCE(u.m, '*') AS m, COALESCE(u.b, '*') AS b FROM unnest(p_months, p_brands) AS u(m, b)
       ),
       added AS (
         INSERT INTO search_changes (month_id, brand_code)
         SELECT s.m, s.b FROM scopes s
          WHERE strpos(v_noted, '|' || s.m || ' ' || s.b || '|') = 0 AND strpos(v_noted, '|' || s.m || ' *|') = 0
         RETURNING month_id, brand_code
       )
  SELECT string_agg(month_id || ' ' || brand_code || '|', '') INTO v_new FROM added;
  IF v_new IS NOT NULL THEN
    PERFORM set_config('bo.search_changes', CASE WHEN v_noted = '' THEN '|' ELSE v_noted END || v_new, true);
  END IF;
END
$$;
--> statement-breakpoint
-- Items with their own month_id and brand_code (modules, clusters, lego_months): the scopes of the rows the statement
-- wrote and of the rows it overwrote or deleted (an item moved to another month or brand changes both).
CREATE FUNCTION search_changed_items() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(month_id), array_agg(brand_code) INTO v_months, v_brands FROM (SELECT DISTINCT month_id, brand_code FROM new_rows) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(month_id), array_agg(brand_code) INTO v_months, v_brands FROM (SELECT DISTINCT month_id, brand_code FROM old_rows) s;
  ELSE
    SELECT array_agg(month_id), array_agg(brand_code) INTO v_months, v_brands
      FROM (SELECT month_id, brand_code FROM new_rows UNION SELECT month_id, brand_code FROM old_rows) s;
  END IF;
  PERFORM note_search_changes(v_months, v_brands);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Rows of an item (module_stars_zones by module_id; cluster_countries, cluster_stars_zones, cluster_stores,
-- cluster_classifications, cluster_modules by cluster_pk): the scopes of their items (TG_ARGV: the items' table, the
-- column naming the item). A row whose item is gone was deleted with it, and the item's own trigger noted that.
-- Dynamic SQL, planned at each call: a plan kept by the session would be the one made for a save's few rows and reused
-- for a release load's hundreds of thousands (as 0010).
CREATE FUNCTION search_changed_item_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
  v_ids text;
BEGIN
  v_ids := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %I FROM new_rows', TG_ARGV[1])
    WHEN 'DELETE' THEN format('SELECT %I FROM old_rows', TG_ARGV[1])
    ELSE format('SELECT %I FROM new_rows UNION SELECT %I FROM old_rows', TG_ARGV[1], TG_ARGV[1]) END;
  EXECUTE format('SELECT array_agg(month_id), array_agg(brand_code) FROM (SELECT DISTINCT i.month_id, i.brand_code FROM %I i WHERE i.id IN (%s)) s',
                 TG_ARGV[0], v_ids)
    INTO v_months, v_brands;
  PERFORM note_search_changes(v_months, v_brands);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Locks of modules and clusters (other kinds are in no list): the scope of the locked item, or its whole month when no
-- such item is found.
CREATE FUNCTION search_changed_locks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
  v_rows text;
BEGIN
  v_rows := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT item_type, item_key, month_id FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT item_type, item_key, month_id FROM old_rows'
    ELSE 'SELECT item_type, item_key, month_id FROM new_rows UNION SELECT item_type, item_key, month_id FROM old_rows' END;
  EXECUTE 'SELECT array_agg(month_id), array_agg(brand_code) FROM (
             SELECT DISTINCT l.month_id, COALESCE(x.brand_code, ''*'') AS brand_code
               FROM (' || v_rows || ') l
               LEFT JOIN LATERAL (
                 SELECT m.brand_code FROM modules m WHERE l.item_type = ''module'' AND m.module_name = l.item_key AND m.month_id = l.month_id
                 UNION ALL
                 SELECT c.brand_code FROM clusters c WHERE l.item_type = ''cluster'' AND c.cluster_id = l.item_key AND c.month_id = l.month_id
               ) x ON TRUE
              WHERE l.item_type IN (''module'', ''cluster'')) s'
    INTO v_months, v_brands;
  PERFORM note_search_changes(v_months, v_brands);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A month's own row (open, its release): every brand of that month.
CREATE FUNCTION search_changed_months() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT month_id) INTO v_months FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT month_id) INTO v_months FROM old_rows;
  ELSE
    SELECT array_agg(month_id) INTO v_months FROM (SELECT month_id FROM new_rows UNION SELECT month_id FROM old_rows) s;
  END IF;
  IF v_months IS NULL THEN RETURN NULL; END IF;
  PERFORM note_search_changes(v_months, array_fill('*'::text, ARRAY[cardinality(v_months)]));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Everything else a list may show or be narrowed by, and any TRUNCATE: every answer.
CREATE FUNCTION search_changed_everything() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM note_search_changes(ARRAY['*'], ARRAY['*']);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The log emptied otherwise than by compact_search_changes(): a new ('*', '*') row, noted as the transaction's, so that
-- the versions never come back to a value they had (see the head of this file).
CREATE FUNCTION search_changes_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF COALESCE(current_setting('bo.search_compacting', true), '') = 'on' THEN RETURN NULL; END IF;
  INSERT INTO search_changes (month_id, brand_code) VALUES ('*', '*');
  PERFORM set_config('bo.search_changes', '|* *|', true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Moves the log's rows into the totals (per scope: how many, highest id) in one statement; answers how many it moved.
-- Concurrent calls are safe: a row is counted by the call that deleted it, and the totals are written in scope order,
-- so two calls never wait for each other's totals rows in opposite orders (a deadlock).
CREATE FUNCTION compact_search_changes() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_moved bigint;
BEGIN
  PERFORM set_config('bo.search_compacting', 'on', true);
  WITH gone AS (DELETE FROM search_changes RETURNING month_id, brand_code, id),
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
  kinds jsonb := jsonb_build_object(
    'modules', 'items', 'clusters', 'items', 'lego_months', 'items',
    'module_stars_zones', 'modules module_id',
    'cluster_countries', 'clusters cluster_pk', 'cluster_stars_zones', 'clusters cluster_pk', 'cluster_stores', 'clusters cluster_pk',
    'cluster_classifications', 'clusters cluster_pk', 'cluster_modules', 'clusters cluster_pk',
    'locks', 'locks', 'months', 'months',
    'releases', 'everything', 'macro_families', 'everything', 'countries', 'everything', 'stores', 'everything',
    'client_classifications', 'everything', 'brands', 'everything', 'collections', 'everything',
    'planning_channels', 'everything', 'stars_zones', 'everything', 'stars_customers', 'everything',
    'customer_segmentations', 'everything', 'users', 'everything', 'user_grants', 'everything');
  kind text;
  fn text;
  args text;
BEGIN
  FOR t, kind IN SELECT key, value #>> '{}' FROM jsonb_each(kinds) LOOP
    args := '';
    IF kind = 'items' THEN fn := 'search_changed_items';
    ELSIF kind = 'locks' THEN fn := 'search_changed_locks';
    ELSIF kind = 'months' THEN fn := 'search_changed_months';
    ELSIF kind = 'everything' THEN fn := 'search_changed_everything';
    ELSE
      fn := 'search_changed_item_rows';
      args := format('%L, %L', split_part(kind, ' ', 1), split_part(kind, ' ', 2));
    END IF;
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I(%s)',
                   t || '_search_insert', t, fn, args);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I(%s)',
                   t || '_search_update', t, fn, args);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I(%s)',
                   t || '_search_delete', t, fn, args);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION search_changed_everything()', t || '_search_truncate', t);
    -- Also when a bulk load runs with session_replication_role = replica (the demo seed, foreign-keys.ts; as 0010).
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_search_insert');
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_search_update');
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_search_delete');
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_search_truncate');
  END LOOP;
  FOREACH t IN ARRAY ARRAY['search_changes', 'search_change_totals'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I FOR EACH STATEMENT EXECUTE FUNCTION search_changes_emptied()', t || '_emptied_delete', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION search_changes_emptied()', t || '_emptied_truncate', t);
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_emptied_delete');
    EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_emptied_truncate');
  END LOOP;
END
$$;
--> statement-breakpoint
INSERT INTO search_changes (month_id, brand_code) VALUES ('*', '*');
