-- A module's MH / EL lines not in the bin (module_skus, status <> 'REMOVED'), kept on the module: the home search
-- lists thousands of modules with them, and counting each module's lines at every search was most of its SQL
-- (docs/performance.md, section 1 "Line counts kept on the module").
ALTER TABLE "modules" ADD COLUMN "mh_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "el_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The modules written before this migration. (An UPDATE that leaves version alone records no version, 0009.)
UPDATE modules m SET mh_count = c.mh, el_count = c.el
  FROM (SELECT module_id, count(*) FILTER (WHERE must_have)::integer AS mh, count(*) FILTER (WHERE NOT must_have)::integer AS el
          FROM module_skus WHERE status <> 'REMOVED' GROUP BY module_id) c
 WHERE m.id = c.module_id;
--> statement-breakpoint
-- The one rule, for every writer of module_skus (module saves, massive edits, imports, copies, reverts, the
-- release loader, the demo seed, deletions): after each statement, the counts of the modules whose lines it
-- inserted, updated or deleted are adjusted, set-wise, by what the statement changed (its transition tables:
-- +1 per line it wrote not in the bin, -1 per such line it deleted or overwrote, by module and class).
--  * Adjusted, not counted again from module_skus: the cost follows the statement's size, not the table's, and
--    needs none of module_skus's indexes (the release loader's bulk rewrite drops them, bulk-rewrite.ts); under
--    READ COMMITTED a concurrent writer of the same module waits for the row and then adds to what the first
--    one committed (the UPDATE re-reads the row), so no adjustment is lost.
--  * Dynamic SQL, planned at each call: a plan kept by the session would be the one made for the first
--    statement's size (one module's lines, or a million from the release loader) and reused for the other.
--  * Only the counts are written, and only where they change: version, updated_at and updated_by stay as they
--    are, so no version is recorded (the version triggers of 0009 look at version and status).
--  * So a module row is written without counts (the default 0) and its lines after it: nothing but these
--    triggers writes mh_count / el_count.
-- Statement-level triggers run when their statement ends: no trigger event is left pending for the release
-- loader's ALTER TABLE of module_skus.
CREATE FUNCTION count_module_lines() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_changes text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM new_lines LIMIT 1;
    v_changes := 'SELECT module_id, must_have, 1 AS n FROM new_lines WHERE status <> ''REMOVED''';
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM 1 FROM old_lines LIMIT 1;
    v_changes := 'SELECT module_id, must_have, -1 AS n FROM old_lines WHERE status <> ''REMOVED''';
  ELSE
    PERFORM 1 FROM new_lines LIMIT 1;
    v_changes := 'SELECT module_id, must_have, 1 AS n FROM new_lines WHERE status <> ''REMOVED''
                  UNION ALL SELECT module_id, must_have, -1 FROM old_lines WHERE status <> ''REMOVED''';
  END IF;
  IF NOT FOUND THEN RETURN NULL; END IF; -- the statement wrote no line
  EXECUTE 'UPDATE modules m SET mh_count = m.mh_count + d.mh, el_count = m.el_count + d.el
             FROM (SELECT module_id, COALESCE(sum(n) FILTER (WHERE must_have), 0)::integer AS mh,
                          COALESCE(sum(n) FILTER (WHERE NOT must_have), 0)::integer AS el
                     FROM (' || v_changes || ') changed GROUP BY module_id) d
            WHERE m.id = d.module_id AND (d.mh <> 0 OR d.el <> 0)';
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- TRUNCATE has no transition table: every module is left without lines (when modules is truncated in the same
-- statement, as the tests' reset does, there is nothing left to update).
CREATE FUNCTION clear_module_line_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE modules SET mh_count = 0, el_count = 0 WHERE mh_count <> 0 OR el_count <> 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER module_skus_counted_insert AFTER INSERT ON module_skus REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION count_module_lines();
--> statement-breakpoint
CREATE TRIGGER module_skus_counted_update AFTER UPDATE ON module_skus REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION count_module_lines();
--> statement-breakpoint
CREATE TRIGGER module_skus_counted_delete AFTER DELETE ON module_skus REFERENCING OLD TABLE AS old_lines
  FOR EACH STATEMENT EXECUTE FUNCTION count_module_lines();
--> statement-breakpoint
CREATE TRIGGER module_skus_counted_truncate AFTER TRUNCATE ON module_skus
  FOR EACH STATEMENT EXECUTE FUNCTION clear_module_line_counts();
--> statement-breakpoint
-- Also when a bulk load runs with session_replication_role = replica (the demo seed, foreign-keys.ts), which
-- leaves ordinary triggers out.
-- (A copy of whole tables put back in replica mode, as route-rights.world.ts does, stays true too: it inserts in
-- table name order, module_skus before modules, so the lines adjust nothing and the module rows bring their counts.)
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_insert;--> statement-breakpoint
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_update;--> statement-breakpoint
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_delete;--> statement-breakpoint
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_truncate;
