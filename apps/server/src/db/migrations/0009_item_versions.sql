CREATE TABLE "item_versions" (
	"item_type" text NOT NULL,
	"item_key" text NOT NULL,
	"month_id" text NOT NULL,
	"version" integer NOT NULL,
	"action" text NOT NULL,
	"username" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"content" jsonb NOT NULL,
	"revert_of" integer,
	"tx_id" bigint NOT NULL,
	CONSTRAINT "item_versions_item_type_item_key_month_id_version_pk" PRIMARY KEY("item_type","item_key","month_id","version")
);
--> statement-breakpoint
CREATE INDEX "item_versions_publish_idx" ON "item_versions" USING btree ("item_type","item_key","month_id","version") WHERE "item_versions"."action" = 'publish';--> statement-breakpoint
-- The compact content of one item (docs/versions.md): a module's description and active lines (not the bin),
-- a cluster's description, stores, ADDED modules, LIAs and classifications. Also read by the publish diff.
CREATE FUNCTION item_version_content(p_type text, p_id bigint) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
-- plpgsql, not sql: its statements are planned once per session, not at every call (the bulk record calls it per item).
BEGIN
  IF p_type = 'module' THEN
    RETURN (
      SELECT jsonb_build_object(
        'moduleDescription', m.module_description,
        'lines', COALESCE((SELECT jsonb_agg(jsonb_build_object('upc', s.upc, 'mustHave', s.must_have, 'minValue', s.min_value) ORDER BY s.position, s.upc)
                           FROM module_skus s WHERE s.module_id = m.id AND s.status <> 'REMOVED'), '[]'::jsonb))
      FROM modules m WHERE m.id = p_id);
  END IF;
  RETURN (
    SELECT jsonb_build_object(
      'clusterDescription', c.cluster_description,
      'stores', COALESCE((SELECT jsonb_agg(s.store_jda ORDER BY s.store_jda) FROM cluster_stores s WHERE s.cluster_pk = c.id), '[]'::jsonb),
      'modules', COALESCE((SELECT jsonb_agg(cm.module_name ORDER BY cm.module_name) FROM cluster_modules cm WHERE cm.cluster_pk = c.id AND cm.status = 'ADDED'), '[]'::jsonb),
      'lias', COALESCE((SELECT jsonb_agg(l.lia_code ORDER BY l.lia_code) FROM cluster_lias l WHERE l.cluster_pk = c.id), '[]'::jsonb),
      'classifications', COALESCE((SELECT jsonb_agg(cc.classification_id ORDER BY cc.classification_id) FROM cluster_classifications cc WHERE cc.cluster_pk = c.id), '[]'::jsonb))
    FROM clusters c WHERE c.id = p_id);
END
$$;
--> statement-breakpoint
-- Records a version of a module or cluster at commit (a deferred constraint trigger: the lines are written by
-- then), once per item-month and transaction. The action and user come from the transaction-local settings
-- bo.version_action / bo.version_user / bo.version_revert_of (item-versions.repository.ts `recordVersionsAs`);
-- without them an insert is 'create' and an update 'change' by the row's updated_by. Entering
-- SUBMIT_IN_PROGRESS is always a 'publish'. A 'change' or 'release' that leaves the content as it was adds nothing.
CREATE FUNCTION record_item_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_type text := CASE TG_TABLE_NAME WHEN 'modules' THEN 'module' ELSE 'cluster' END;
  v_tx bigint := txid_current();
  v_publish boolean := TG_OP = 'UPDATE' AND NEW.status = 'SUBMIT_IN_PROGRESS' AND OLD.status IS DISTINCT FROM 'SUBMIT_IN_PROGRESS';
  v_key text;
  v_month text;
  v_by text;
  v_action text := NULLIF(current_setting('bo.version_action', true), '');
  v_user text := NULLIF(current_setting('bo.version_user', true), '');
  v_content jsonb;
  v_last item_versions%ROWTYPE;
BEGIN
  IF v_type = 'module' THEN
    SELECT module_name, month_id, COALESCE(updated_by, created_by) INTO v_key, v_month, v_by FROM modules WHERE id = NEW.id;
  ELSE
    SELECT cluster_id, month_id, COALESCE(updated_by, created_by) INTO v_key, v_month, v_by FROM clusters WHERE id = NEW.id;
  END IF;
  IF v_key IS NULL THEN RETURN NULL; END IF; -- deleted in the same transaction
  SELECT * INTO v_last FROM item_versions
   WHERE item_type = v_type AND item_key = v_key AND month_id = v_month ORDER BY version DESC LIMIT 1;
  IF v_last.tx_id = v_tx THEN
    -- Already recorded by this transaction (at commit, so with the final content): a publish wins.
    IF v_publish AND v_last.action <> 'publish' THEN
      UPDATE item_versions SET action = 'publish', revert_of = NULL
       WHERE item_type = v_type AND item_key = v_key AND month_id = v_month AND version = v_last.version;
    END IF;
    RETURN NULL;
  END IF;
  IF v_publish THEN v_action := 'publish';
  ELSIF v_action IS NULL THEN v_action := CASE TG_OP WHEN 'INSERT' THEN 'create' ELSE 'change' END;
  END IF;
  v_content := item_version_content(v_type, NEW.id);
  IF v_action IN ('change', 'release') AND v_last.content = v_content THEN RETURN NULL; END IF;
  INSERT INTO item_versions (item_type, item_key, month_id, version, action, username, content, revert_of, tx_id)
  VALUES (v_type, v_key, v_month, COALESCE(v_last.version, 0) + 1, v_action, COALESCE(v_user, v_by, 'system'), v_content,
          CASE WHEN v_action = 'revert' THEN NULLIF(current_setting('bo.version_revert_of', true), '')::integer END, v_tx);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A bulk writer (the release loader: its bulk rewrite alters module_skus, which PostgreSQL refuses while
-- trigger events are pending on modules) sets bo.version_bulk = 'on' and records at its end, set-wise, a
-- version of every item it wrote (updated_at = now(), the transaction's time) whose content changed.
CREATE FUNCTION record_written_versions() RETURNS integer LANGUAGE sql AS $$
  WITH items AS (
    SELECT 'module' AS t, id, module_name AS k, month_id, COALESCE(updated_by, created_by) AS by FROM modules WHERE updated_at = now()
    UNION ALL
    SELECT 'cluster', id, cluster_id, month_id, COALESCE(updated_by, created_by) FROM clusters WHERE updated_at = now()
  ), cur AS (
    SELECT i.t, i.k, i.month_id, i.by, item_version_content(i.t, i.id) AS content, l.version AS last_version, l.content AS last_content, l.tx_id AS last_tx
      FROM items i
      LEFT JOIN LATERAL (SELECT v.version, v.content, v.tx_id FROM item_versions v
                          WHERE v.item_type = i.t AND v.item_key = i.k AND v.month_id = i.month_id ORDER BY v.version DESC LIMIT 1) l ON true
  ), added AS (
    INSERT INTO item_versions (item_type, item_key, month_id, version, action, username, content, tx_id)
    SELECT t, k, month_id, COALESCE(last_version, 0) + 1, COALESCE(NULLIF(current_setting('bo.version_action', true), ''), 'change'),
           COALESCE(NULLIF(current_setting('bo.version_user', true), ''), by, 'system'), content, txid_current()
      FROM cur
     WHERE last_version IS NULL OR (last_content IS DISTINCT FROM content AND last_tx IS DISTINCT FROM txid_current())
    RETURNING 1
  )
  SELECT count(*)::integer FROM added
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER modules_version_inserted AFTER INSERT ON modules DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (current_setting('bo.version_bulk', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION record_item_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER modules_version_changed AFTER UPDATE ON modules DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((NEW.version IS DISTINCT FROM OLD.version OR (NEW.status = 'SUBMIT_IN_PROGRESS' AND OLD.status IS DISTINCT FROM 'SUBMIT_IN_PROGRESS'))
            AND current_setting('bo.version_bulk', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION record_item_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER clusters_version_inserted AFTER INSERT ON clusters DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (current_setting('bo.version_bulk', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION record_item_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER clusters_version_changed AFTER UPDATE ON clusters DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN ((NEW.version IS DISTINCT FROM OLD.version OR (NEW.status = 'SUBMIT_IN_PROGRESS' AND OLD.status IS DISTINCT FROM 'SUBMIT_IN_PROGRESS'))
            AND current_setting('bo.version_bulk', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION record_item_version();
--> statement-breakpoint
-- A first version for every item that has none (items written before versions were kept, or loaded with the
-- triggers off, like the demo seed): its content now, as of its last change; a SUBMITTED item's counts as
-- its last publication.
CREATE FUNCTION record_baseline_versions() RETURNS integer LANGUAGE sql AS $$
  WITH items AS (
    SELECT 'module' AS t, id, module_name AS k, month_id, status, updated_at, COALESCE(updated_by, created_by, 'system') AS by FROM modules
    UNION ALL
    SELECT 'cluster', id, cluster_id, month_id, status, updated_at, COALESCE(updated_by, created_by, 'system') FROM clusters
  ), added AS (
    INSERT INTO item_versions (item_type, item_key, month_id, version, action, username, created_at, content, tx_id)
    SELECT DISTINCT ON (i.t, i.k, i.month_id) i.t, i.k, i.month_id, 1, CASE WHEN i.status = 'SUBMITTED' THEN 'publish' ELSE 'change' END,
           i.by, i.updated_at, item_version_content(i.t, i.id), txid_current()
      FROM items i
     WHERE NOT EXISTS (SELECT 1 FROM item_versions v WHERE v.item_type = i.t AND v.item_key = i.k AND v.month_id = i.month_id)
     ORDER BY i.t, i.k, i.month_id, i.id DESC
    RETURNING 1
  )
  SELECT count(*)::integer FROM added
$$;
--> statement-breakpoint
SELECT record_baseline_versions();
