-- The month of each cluster_modules row, its cluster's (issue 35; docs/performance.md "The clusters of a module by
-- month"). A module's clusters were found by its name through every month's cluster_modules rows (192 for a module of
-- 24 months with 8 clusters each), each a probe of clusters to keep the 8 of the module's month: 1,153 of the 1,421
-- buffers a save's read touched, and as many at each module open. With the month beside the name, an index finds the 8.
-- The month is the cluster's by a foreign key on (cluster_pk, month_id), updated with it: it can never disagree. An
-- insert that leaves it out has it filled from the cluster (a trigger, which replica mode does not leave out).
ALTER TABLE cluster_modules ADD COLUMN month_id text;
UPDATE cluster_modules cm SET month_id = c.month_id FROM clusters c WHERE c.id = cm.cluster_pk;
ALTER TABLE cluster_modules ALTER COLUMN month_id SET NOT NULL;
ALTER TABLE clusters ADD CONSTRAINT clusters_id_month_id_unique UNIQUE (id, month_id);
ALTER TABLE cluster_modules DROP CONSTRAINT cluster_modules_cluster_pk_clusters_id_fk;
ALTER TABLE cluster_modules ADD CONSTRAINT cluster_modules_cluster_month_fk FOREIGN KEY (cluster_pk, month_id)
  REFERENCES clusters (id, month_id) ON DELETE CASCADE ON UPDATE CASCADE;
DROP INDEX cluster_modules_module_idx;
CREATE INDEX cluster_modules_module_month_idx ON cluster_modules (module_name, month_id) INCLUDE (status);

CREATE OR REPLACE FUNCTION cluster_modules_month() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c.month_id INTO NEW.month_id FROM clusters c WHERE c.id = NEW.cluster_pk;
  RETURN NEW;
END $$;
CREATE TRIGGER cluster_modules_month BEFORE INSERT ON cluster_modules
  FOR EACH ROW WHEN (NEW.month_id IS NULL) EXECUTE FUNCTION cluster_modules_month();
ALTER TABLE cluster_modules ENABLE ALWAYS TRIGGER cluster_modules_month;
