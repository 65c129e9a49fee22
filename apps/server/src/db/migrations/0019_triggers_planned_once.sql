-- Triggers of every lock and every save planned once per connection (issue 35 target 1; docs/performance.md
-- "Triggers planned once"). Three statement triggers ran dynamic SQL (EXECUTE), planned again at each call:
--  * search_changed_locks (0017), at each lock taken, renewed or released: ~1 ms for one lock, and ~0.6 ms more for the
--    UPDATE trigger that an INSERT … ON CONFLICT fires with no row at all;
--  * count_module_lines (0010), at each save that changes lines;
--  * live_changed_items (0016), at each write of a module or cluster row (twice per save: the row, then its counts).
-- They now run static statements, which PL/pgSQL plans once per connection and keeps:
--  * search_changed_locks and count_module_lines join the rows written to modules (and clusters). A plan kept is the one
--    made for the first statement's size, so their static statements serve only statements of at most 50 rows (a lock,
--    a page's locks, a save); past 50 (a release load's million lines, a logout's locks) the dynamic statements of
--    before run, planned for their size: a plan made for one row never serves a million, nor the reverse.
--  * live_changed_items reads only the rows written (no join): static whatever their number.
-- What each trigger notes is unchanged. A statement that wrote no row notes nothing, as before (note_search_changes and
-- live_notify_items return at once on empty arrays), now without reading anything.
CREATE OR REPLACE FUNCTION search_changed_locks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
  v_types text[];
  v_ids bigint[];
  v_rows text;
  v_count integer;
  w_types text[];
  w_keys text[];
  w_months text[];
BEGIN
  -- The rows written, counted up to 51 (an UPDATE has as many old rows as new ones).
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO v_count FROM (SELECT 1 FROM old_rows LIMIT 51) r;
  ELSE
    SELECT count(*) INTO v_count FROM (SELECT 1 FROM new_rows LIMIT 51) r;
  END IF;
  IF v_count = 0 THEN RETURN NULL; END IF;
  IF v_count <= 50 THEN
    -- The item-months written, then their items' scopes and ids: a lookup by key for each.
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO w_types, w_keys, w_months FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO w_types, w_keys, w_months FROM old_rows;
    ELSE
      SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO w_types, w_keys, w_months
        FROM (SELECT item_type, item_key, month_id FROM new_rows UNION SELECT item_type, item_key, month_id FROM old_rows) r;
    END IF;
    SELECT array_agg(month_id), array_agg(brand_code), array_agg(item_type), array_agg(item_id) INTO v_months, v_brands, v_types, v_ids
      FROM (SELECT DISTINCT l.month_id, COALESCE(x.brand_code, '*') AS brand_code, l.item_type, x.id AS item_id
              FROM unnest(w_types, w_keys, w_months) AS l(item_type, item_key, month_id)
              LEFT JOIN LATERAL (
                SELECT m.brand_code, m.id FROM modules m WHERE l.item_type = 'module' AND m.module_name = l.item_key AND m.month_id = l.month_id
                UNION ALL
                SELECT c.brand_code, c.id FROM clusters c WHERE l.item_type = 'cluster' AND c.cluster_id = l.item_key AND c.month_id = l.month_id
              ) x ON TRUE
             WHERE l.item_type IN ('module', 'cluster')) s;
  ELSE
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
  END IF;
  PERFORM note_search_changes(v_months, v_brands, v_types, v_ids);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_module_lines() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_changes text;
  v_count integer;
  w_ids bigint[];
  w_must_have boolean[];
  w_n integer[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO v_count FROM (SELECT 1 FROM old_lines LIMIT 51) r;
  ELSE
    SELECT count(*) INTO v_count FROM (SELECT 1 FROM new_lines LIMIT 51) r;
  END IF;
  IF v_count = 0 THEN RETURN NULL; END IF; -- the statement wrote no line
  IF v_count <= 50 THEN
    -- The lines counted (+1 written, -1 overwritten or deleted), then each module's counts moved: a lookup by id for each.
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(module_id), array_agg(must_have), array_agg(1) INTO w_ids, w_must_have, w_n FROM new_lines WHERE status <> 'REMOVED';
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(module_id), array_agg(must_have), array_agg(-1) INTO w_ids, w_must_have, w_n FROM old_lines WHERE status <> 'REMOVED';
    ELSE
      SELECT array_agg(module_id), array_agg(must_have), array_agg(n) INTO w_ids, w_must_have, w_n
        FROM (SELECT module_id, must_have, 1 AS n FROM new_lines WHERE status <> 'REMOVED'
              UNION ALL SELECT module_id, must_have, -1 FROM old_lines WHERE status <> 'REMOVED') changed;
    END IF;
    IF w_ids IS NULL THEN RETURN NULL; END IF;
    UPDATE modules m SET mh_count = m.mh_count + d.mh, el_count = m.el_count + d.el
      FROM (SELECT module_id, COALESCE(sum(n) FILTER (WHERE must_have), 0)::integer AS mh,
                   COALESCE(sum(n) FILTER (WHERE NOT must_have), 0)::integer AS el
              FROM unnest(w_ids, w_must_have, w_n) AS changed(module_id, must_have, n) GROUP BY module_id) d
     WHERE m.id = d.module_id AND (d.mh <> 0 OR d.el <> 0);
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    v_changes := 'SELECT module_id, must_have, 1 AS n FROM new_lines WHERE status <> ''REMOVED''';
  ELSIF TG_OP = 'DELETE' THEN
    v_changes := 'SELECT module_id, must_have, -1 AS n FROM old_lines WHERE status <> ''REMOVED''';
  ELSE
    v_changes := 'SELECT module_id, must_have, 1 AS n FROM new_lines WHERE status <> ''REMOVED''
                  UNION ALL SELECT module_id, must_have, -1 FROM old_lines WHERE status <> ''REMOVED''';
  END IF;
  EXECUTE 'UPDATE modules m SET mh_count = m.mh_count + d.mh, el_count = m.el_count + d.el
             FROM (SELECT module_id, COALESCE(sum(n) FILTER (WHERE must_have), 0)::integer AS mh,
                          COALESCE(sum(n) FILTER (WHERE NOT must_have), 0)::integer AS el
                     FROM (' || v_changes || ') changed GROUP BY module_id) d
            WHERE m.id = d.module_id AND (d.mh <> 0 OR d.el <> 0)';
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- modules and clusters (TG_ARGV[0] the kind: 'module' keyed by module_name, 'cluster' by cluster_id).
CREATE OR REPLACE FUNCTION live_changed_items() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_keys text[];
  v_months text[];
  v_brands text[];
BEGIN
  IF TG_ARGV[0] = 'module' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(k), array_agg(month_id), array_agg(brand_code) INTO v_keys, v_months, v_brands
        FROM (SELECT DISTINCT module_name AS k, month_id, brand_code FROM new_rows) r;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(k), array_agg(month_id), array_agg(brand_code) INTO v_keys, v_months, v_brands
        FROM (SELECT DISTINCT module_name AS k, month_id, brand_code FROM old_rows) r;
    ELSE
      SELECT array_agg(k), array_agg(month_id), array_agg(brand_code) INTO v_keys, v_months, v_brands
        FROM (SELECT module_name AS k, month_id, brand_code FROM new_rows UNION SELECT module_name, month_id, brand_code FROM old_rows) r;
    END IF;
  ELSE
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(k), array_agg(month_id), array_agg(brand_code) INTO v_keys, v_months, v_brands
        FROM (SELECT DISTINCT cluster_id AS k, month_id, brand_code FROM new_rows) r;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(k), array_agg(month_id), array_agg(brand_code) INTO v_keys, v_months, v_brands
        FROM (SELECT DISTINCT cluster_id AS k, month_id, brand_code FROM old_rows) r;
    ELSE
      SELECT array_agg(k), array_agg(month_id), array_agg(brand_code) INTO v_keys, v_months, v_brands
        FROM (SELECT cluster_id AS k, month_id, brand_code FROM new_rows UNION SELECT cluster_id, month_id, brand_code FROM old_rows) r;
    END IF;
  END IF;
  PERFORM live_notify_items('i', array_fill(TG_ARGV[0], ARRAY[COALESCE(cardinality(v_keys), 0)]), v_keys, v_months, v_months, v_brands);
  RETURN NULL;
END
$$;
