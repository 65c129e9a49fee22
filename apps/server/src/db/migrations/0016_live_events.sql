-- Live events (issue 36; docs/LIVE.md): who has an item open (live_tabs, presence), locks leased by the pages that hold
-- them (locks.lease_seconds), and a NOTIFY on the channel live_channel() for every change a stream may show.
--  * Statement-level triggers with transition tables, as 0010 and 0015: nothing a writer must remember.
--  * NOTIFY is delivered at commit only, and PostgreSQL folds identical payloads of one transaction into one.
--  * Payloads stay small (< 8000 bytes, the server's limit): a statement touching at most 50 item-months names them
--    ({"i": [[kind, name, month], ...]}); a larger one (a release load, an import) names its (month, brand) scopes
--    ({"s": [[month, brand], ...]}), or every scope ('*') when even those would not fit.
--  * The channel is 'bo_live' in the public schema, 'bo_live_<schema>' in another one (each test worker has its own
--    schema on one PostgreSQL database, and a channel is database-wide).

-- One browser tab (its id made by the browser): who it belongs to, so that no other user may change its presence.
CREATE TABLE "live_tabs" (
  "tab_id" uuid PRIMARY KEY,
  "username" text NOT NULL,
  "opened_at" timestamptz NOT NULL DEFAULT now(),
  "seen_at" timestamptz NOT NULL DEFAULT now()
);--> statement-breakpoint
CREATE INDEX "live_tabs_seen_idx" ON "live_tabs" ("seen_at");--> statement-breakpoint
-- What one tab has open: kept by PUT /api/presence, removed with the tab's stream or when not renewed in time.
CREATE TABLE "presence" (
  "tab_id" uuid NOT NULL REFERENCES "live_tabs" ("tab_id") ON DELETE CASCADE,
  "username" text NOT NULL,
  "item_type" text NOT NULL,
  "item_key" text NOT NULL,
  "month_id" text NOT NULL,
  "mode" text NOT NULL,
  "since" timestamptz NOT NULL DEFAULT now(),
  "seen_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("tab_id", "item_type", "item_key", "month_id")
);--> statement-breakpoint
CREATE INDEX "presence_item_idx" ON "presence" ("item_type", "item_key", "month_id");--> statement-breakpoint
CREATE INDEX "presence_seen_idx" ON "presence" ("seen_at");--> statement-breakpoint
-- A lock renewed by an open page lives lease_seconds after renewed_at; NULL: the LOCK_TTL_MINUTES rule
-- (locks.repository.ts liveLock).
ALTER TABLE "locks" ADD COLUMN "lease_seconds" integer;--> statement-breakpoint
CREATE INDEX "locks_leased_idx" ON "locks" ("renewed_at") WHERE "lease_seconds" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION live_channel() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN current_schema() = 'public' THEN 'bo_live' ELSE left('bo_live_' || current_schema(), 63) END
$$;
--> statement-breakpoint
-- Sends the item-months (p_types[i], p_keys[i], p_months[i]) as one notification of `p_tag` ('i' changed, 'p' presence);
-- past 50 of them, the scopes (p_scope_months, p_scope_brands) instead.
CREATE FUNCTION live_notify_items(p_tag text, p_types text[], p_keys text[], p_months text[], p_scope_months text[], p_scope_brands text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_payload text;
BEGIN
  IF p_types IS NULL OR cardinality(p_types) = 0 THEN RETURN; END IF;
  IF cardinality(p_types) <= 50 THEN
    v_payload := json_build_object(p_tag, (SELECT json_agg(json_build_array(t, k, m)) FROM unnest(p_types, p_keys, p_months) AS u(t, k, m)))::text;
  END IF;
  IF v_payload IS NULL OR octet_length(v_payload) > 7900 THEN
    v_payload := json_build_object('s', (SELECT json_agg(json_build_array(m, b)) FROM (SELECT DISTINCT COALESCE(m, '*') AS m, COALESCE(b, '*') AS b FROM unnest(p_scope_months, p_scope_brands) AS u(m, b)) s))::text;
    IF v_payload IS NULL OR octet_length(v_payload) > 7900 THEN v_payload := '{"s":[["*","*"]]}'; END IF;
  END IF;
  PERFORM pg_notify(live_channel(), v_payload);
END
$$;
--> statement-breakpoint
-- modules and clusters: the item-months the statement wrote, overwrote or deleted (TG_ARGV[0] the kind, [1] the key column).
CREATE FUNCTION live_changed_items() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_rows text;
  v_keys text[];
  v_months text[];
  v_brands text[];
BEGIN
  v_rows := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %I AS k, month_id, brand_code FROM new_rows', TG_ARGV[1])
    WHEN 'DELETE' THEN format('SELECT %I AS k, month_id, brand_code FROM old_rows', TG_ARGV[1])
    ELSE format('SELECT %I AS k, month_id, brand_code FROM new_rows UNION SELECT %I, month_id, brand_code FROM old_rows', TG_ARGV[1], TG_ARGV[1]) END;
  EXECUTE 'SELECT array_agg(k), array_agg(month_id), array_agg(brand_code) FROM (SELECT DISTINCT * FROM (' || v_rows || ') r) s'
    INTO v_keys, v_months, v_brands;
  PERFORM live_notify_items('i', array_fill(TG_ARGV[0], ARRAY[COALESCE(cardinality(v_keys), 0)]), v_keys, v_months, v_months, v_brands);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- item_versions: a saved version (its savedAt) of a module or a cluster.
CREATE FUNCTION live_saved_versions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_types text[];
  v_keys text[];
  v_months text[];
  v_brands text[];
BEGIN
  SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO v_types, v_keys, v_months
    FROM (SELECT DISTINCT item_type, item_key, month_id FROM new_rows WHERE item_type IN ('module', 'cluster')) s;
  IF cardinality(v_types) > 50 THEN
    -- Too many to name: their scopes (the brand of each item, '*' when not found).
    SELECT array_agg(month_id), array_agg(brand_code) INTO v_months, v_brands FROM (
      SELECT DISTINCT v.month_id, COALESCE(m.brand_code, c.brand_code, '*') AS brand_code
        FROM new_rows v
        LEFT JOIN modules m ON v.item_type = 'module' AND m.module_name = v.item_key AND m.month_id = v.month_id
        LEFT JOIN clusters c ON v.item_type = 'cluster' AND c.cluster_id = v.item_key AND c.month_id = v.month_id) s;
    PERFORM live_notify_items('i', v_types, v_keys, v_months, v_months, v_brands);
  ELSE
    PERFORM live_notify_items('i', v_types, v_keys, v_months, NULL, NULL);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- locks of modules and clusters: the item-months whose holder changed (a renewal by the same holder is no change),
-- and the holders who lost a lock to someone else: forced (the releasing transaction set bo.lock_release to
-- 'forced:<by>', lifecycle/item-locks.ts), lapsed (the lease sweeper set 'lapsed'; or the lock was taken over
-- after its time to live).
CREATE FUNCTION live_changed_locks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_release text := COALESCE(current_setting('bo.lock_release', true), '');
  v_types text[];
  v_keys text[];
  v_months text[];
  v_brands text[];
  v_lost json;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO v_types, v_keys, v_months
      FROM (SELECT DISTINCT item_type, item_key, month_id FROM new_rows WHERE item_type IN ('module', 'cluster')) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO v_types, v_keys, v_months
      FROM (SELECT DISTINCT item_type, item_key, month_id FROM old_rows WHERE item_type IN ('module', 'cluster')) s;
    IF v_release <> '' AND cardinality(v_types) <= 50 THEN
      SELECT json_agg(json_build_array(o.item_type, o.item_key, o.month_id, o.owner,
                                       CASE WHEN v_release = 'lapsed' THEN 'lapsed' ELSE 'forced' END,
                                       CASE WHEN v_release LIKE 'forced:%' THEN substr(v_release, 8) END))
        INTO v_lost
        FROM old_rows o
       WHERE o.item_type IN ('module', 'cluster')
         AND (v_release = 'lapsed' OR lower(o.owner) <> lower(substr(v_release, 8)));
    END IF;
  ELSE
    SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO v_types, v_keys, v_months
      FROM (SELECT DISTINCT n.item_type, n.item_key, n.month_id FROM new_rows n
             WHERE n.item_type IN ('module', 'cluster')
               AND NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.item_type = n.item_type AND o.item_key = n.item_key
                                                          AND o.month_id = n.month_id AND o.owner = n.owner)) s;
    IF cardinality(v_types) <= 50 THEN
      SELECT json_agg(json_build_array(o.item_type, o.item_key, o.month_id, o.owner, 'lapsed', n.owner))
        INTO v_lost
        FROM old_rows o JOIN new_rows n ON n.item_type = o.item_type AND n.item_key = o.item_key AND n.month_id = o.month_id
       WHERE o.item_type IN ('module', 'cluster') AND lower(o.owner) <> lower(n.owner);
    END IF;
  END IF;
  IF v_types IS NULL THEN RETURN NULL; END IF;
  IF cardinality(v_types) > 50 THEN
    SELECT array_agg(month_id), array_agg(brand_code) INTO v_months, v_brands FROM (
      SELECT DISTINCT l.m AS month_id, COALESCE(m.brand_code, c.brand_code, '*') AS brand_code
        FROM unnest(v_types, v_keys, v_months) AS l(t, k, m)
        LEFT JOIN modules m ON l.t = 'module' AND m.module_name = l.k AND m.month_id = l.m
        LEFT JOIN clusters c ON l.t = 'cluster' AND c.cluster_id = l.k AND c.month_id = l.m) s;
    PERFORM live_notify_items('i', v_types, v_keys, v_months, v_months, v_brands);
  ELSE
    PERFORM live_notify_items('i', v_types, v_keys, v_months, NULL, NULL);
  END IF;
  IF v_lost IS NOT NULL AND octet_length(v_lost::text) <= 7900 THEN
    PERFORM pg_notify(live_channel(), json_build_object('l', v_lost)::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- presence: the item-months someone arrived at or left (a renewal, seen_at only, is no change).
CREATE FUNCTION live_changed_presence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_types text[];
  v_keys text[];
  v_months text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO v_types, v_keys, v_months
      FROM (SELECT DISTINCT item_type, item_key, month_id FROM new_rows) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO v_types, v_keys, v_months
      FROM (SELECT DISTINCT item_type, item_key, month_id FROM old_rows) s;
  ELSE
    SELECT array_agg(item_type), array_agg(item_key), array_agg(month_id) INTO v_types, v_keys, v_months
      FROM (SELECT DISTINCT n.item_type, n.item_key, n.month_id FROM new_rows n
             WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.tab_id = n.tab_id AND o.item_type = n.item_type AND o.item_key = n.item_key
                                                          AND o.month_id = n.month_id AND o.mode = n.mode)) s;
  END IF;
  -- Presence is never summed up as scopes: past 50, every scope (lists refetch, viewers are read again on hello).
  PERFORM live_notify_items('p', v_types, v_keys, v_months, ARRAY['*'], ARRAY['*']);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- jobs: one that ended (DONE or FAILED), for its owner.
CREATE FUNCTION live_ended_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT n.id, n.created_by FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE n.status IN ('DONE', 'FAILED') AND o.status IS DISTINCT FROM n.status LIMIT 50 LOOP
    PERFORM pg_notify(live_channel(), json_build_object('j', json_build_array(r.id, left(r.created_by, 200)))::text);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- months: every brand of the month (opened, closed, its release).
CREATE FUNCTION live_changed_months() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_payload text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT json_build_object('s', json_agg(json_build_array(month_id, '*')))::text INTO v_payload FROM (SELECT DISTINCT month_id FROM old_rows) s;
  ELSE
    SELECT json_build_object('s', json_agg(json_build_array(month_id, '*')))::text INTO v_payload FROM (SELECT DISTINCT month_id FROM new_rows) s;
  END IF;
  IF v_payload IS NULL OR octet_length(v_payload) > 7900 THEN v_payload := '{"s":[["*","*"]]}'; END IF;
  PERFORM pg_notify(live_channel(), v_payload);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A renewal (same holder) is no change of any list: 0015's lock trigger now notes only the locks whose holder changed.
CREATE OR REPLACE FUNCTION search_changed_locks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
  v_brands text[];
  v_rows text;
BEGIN
  v_rows := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT item_type, item_key, month_id FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT item_type, item_key, month_id FROM old_rows'
    ELSE 'SELECT n.item_type, n.item_key, n.month_id FROM new_rows n
           WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.item_type = n.item_type AND o.item_key = n.item_key AND o.month_id = n.month_id AND o.owner = n.owner)
          UNION SELECT o.item_type, o.item_key, o.month_id FROM old_rows o
           WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE o.item_type = n.item_type AND o.item_key = n.item_key AND o.month_id = n.month_id AND o.owner = n.owner)' END;
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
DO $$
DECLARE
  t text;
  fn text;
  args text;
  ops text[];
  op text;
  specs text[][] := ARRAY[
    ARRAY['modules', 'live_changed_items', '''module'', ''module_name''', 'INSERT UPDATE DELETE'],
    ARRAY['clusters', 'live_changed_items', '''cluster'', ''cluster_id''', 'INSERT UPDATE DELETE'],
    ARRAY['item_versions', 'live_saved_versions', '', 'INSERT'],
    ARRAY['locks', 'live_changed_locks', '', 'INSERT UPDATE DELETE'],
    ARRAY['presence', 'live_changed_presence', '', 'INSERT UPDATE DELETE'],
    ARRAY['jobs', 'live_ended_jobs', '', 'UPDATE'],
    ARRAY['months', 'live_changed_months', '', 'INSERT UPDATE DELETE']];
  i int;
BEGIN
  FOR i IN 1 .. array_length(specs, 1) LOOP
    t := specs[i][1];
    fn := specs[i][2];
    args := specs[i][3];
    ops := string_to_array(specs[i][4], ' ');
    FOREACH op IN ARRAY ops LOOP
      EXECUTE format('CREATE TRIGGER %I AFTER %s ON %I REFERENCING %s FOR EACH STATEMENT EXECUTE FUNCTION %I(%s)',
                     t || '_live_' || lower(op), op, t,
                     CASE op WHEN 'INSERT' THEN 'NEW TABLE AS new_rows' WHEN 'DELETE' THEN 'OLD TABLE AS old_rows' ELSE 'OLD TABLE AS old_rows NEW TABLE AS new_rows' END,
                     fn, args);
      -- Also when a bulk load runs with session_replication_role = replica (the demo seed; as 0010 and 0015).
      EXECUTE format('ALTER TABLE %I ENABLE ALWAYS TRIGGER %I', t, t || '_live_' || lower(op));
    END LOOP;
  END LOOP;
END
$$;
