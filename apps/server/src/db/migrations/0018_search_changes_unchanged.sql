-- Kept answers that survive a release load (issue 35 target 3; docs/performance.md "A release load keeps the answers").
-- Two kinds of change noted by 0015 as ('*', '*') — every kept answer computed afresh — are narrowed:
--  * A statement on a table of reference data, releases, grants or users that changed no row: no row inserted or
--    deleted, or an UPDATE whose rows are the same after as before (compared as a whole, `to_jsonb`, as multisets).
--    A statement trigger fires even for such statements: the release loader upserts stores, stars customers and
--    segmentations as the files give them, most of them unchanged, and the reference rows with a WHERE that writes
--    none; each such statement made every answer stale at the load's commit. Nothing a list reads changed then.
--  * A release's row: it is read by the lists only through the months that name it (`mo.release_id`), so the scopes
--    changed are those months, every brand ((month_id, '*'), as a month's own row). A release opened or closed no
--    longer changes the answers of the other releases' months. A month moved to another release is its own row's
--    change (months' triggers); a release's TRUNCATE still changes everything.
CREATE OR REPLACE FUNCTION search_changed_everything() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN RETURN NULL; END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT to_jsonb(n) FROM new_rows n EXCEPT ALL SELECT to_jsonb(o) FROM old_rows o) THEN RETURN NULL; END IF;
  END IF;
  PERFORM note_search_changes(ARRAY['*'], ARRAY['*']);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION search_changed_releases() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_months text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(mo.month_id ORDER BY mo.month_id) INTO v_months FROM months mo WHERE mo.release_id IN (SELECT release_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(mo.month_id ORDER BY mo.month_id) INTO v_months FROM months mo WHERE mo.release_id IN (SELECT release_id FROM old_rows);
  ELSE
    -- The releases whose row is not the same after as before (a row changed, its old and its new release_id).
    SELECT array_agg(mo.month_id ORDER BY mo.month_id) INTO v_months FROM months mo
     WHERE mo.release_id IN (
       SELECT d.r ->> 'release_id' FROM (
         (SELECT to_jsonb(n) AS r FROM new_rows n EXCEPT SELECT to_jsonb(o) FROM old_rows o)
         UNION
         (SELECT to_jsonb(o) FROM old_rows o EXCEPT SELECT to_jsonb(n) FROM new_rows n)) d);
  END IF;
  IF v_months IS NULL THEN RETURN NULL; END IF;
  PERFORM note_search_changes(v_months, array_fill('*'::text, ARRAY[cardinality(v_months)]));
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER releases_search_insert ON releases;--> statement-breakpoint
DROP TRIGGER releases_search_update ON releases;--> statement-breakpoint
DROP TRIGGER releases_search_delete ON releases;--> statement-breakpoint
CREATE TRIGGER releases_search_insert AFTER INSERT ON releases REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changed_releases();--> statement-breakpoint
CREATE TRIGGER releases_search_update AFTER UPDATE ON releases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changed_releases();--> statement-breakpoint
CREATE TRIGGER releases_search_delete AFTER DELETE ON releases REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_changed_releases();--> statement-breakpoint
-- Also when a bulk load runs with session_replication_role = replica (as 0015).
ALTER TABLE releases ENABLE ALWAYS TRIGGER releases_search_insert;--> statement-breakpoint
ALTER TABLE releases ENABLE ALWAYS TRIGGER releases_search_update;--> statement-breakpoint
ALTER TABLE releases ENABLE ALWAYS TRIGGER releases_search_delete;
