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
-- inserted, updated or deleted are counted again, set-wise, from the statement's transition tables.
--  * Counted again rather than adjusted by the statement's difference: the counts are true after any
--    statement whatever they were before (a module row written with counts, rows restored in any order).
--  * The modules are locked first (FOR NO KEY UPDATE, in id order: no conflict with the foreign keys' KEY SHARE),
--    and counted by a later statement: under READ COMMITTED it sees what a concurrent writer of the same
--    module committed meanwhile, so two writers cannot leave a count that misses one of them.
--  * Dynamic SQL, planned at each call: a plan kept by the session would be the one made for the first
--    statement's size (one module's lines, or a million from the release loader) and reused for the other.
--  * Only the counts are written, and only when they changed: version, updated_at and updated_by stay as
--    they are, so no version is recorded (the version triggers of 0009 look at version and status).
-- The release loader's bulk rewrite (bulk-rewrite.ts) drops module_skus's keys and indexes inside its
-- transaction: statement-level triggers have run when each statement ends, so no trigger event is pending.
CREATE FUNCTION count_module_lines() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_ids bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT module_id ORDER BY module_id) INTO v_ids FROM new_lines;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT module_id ORDER BY module_id) INTO v_ids FROM old_lines;
  ELSE
    SELECT array_agg(module_id ORDER BY module_id) INTO v_ids
      FROM (SELECT module_id FROM new_lines UNION SELECT module_id FROM old_lines) touched;
  END IF;
  IF v_ids IS NULL THEN RETURN NULL; END IF;
  EXECUTE 'SELECT count(*) FROM (SELECT 1 FROM modules WHERE id = ANY ($1) ORDER BY id FOR NO KEY UPDATE) locked' USING v_ids;
  EXECUTE 'UPDATE modules m SET mh_count = c.mh, el_count = c.el
             FROM (SELECT t.id, count(s.module_id) FILTER (WHERE s.must_have)::integer AS mh,
                          count(s.module_id) FILTER (WHERE NOT s.must_have)::integer AS el
                     FROM unnest($1) AS t(id)
                     LEFT JOIN module_skus s ON s.module_id = t.id AND s.status <> ''REMOVED''
                    GROUP BY t.id) c
            WHERE m.id = c.id AND (m.mh_count <> c.mh OR m.el_count <> c.el)' USING v_ids;
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
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_insert;--> statement-breakpoint
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_update;--> statement-breakpoint
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_delete;--> statement-breakpoint
ALTER TABLE module_skus ENABLE ALWAYS TRIGGER module_skus_counted_truncate;
