-- Decision 019: every node remembers the shell and a learner's filter lists for a while; these
-- triggers tell all nodes when such data changes, on PostgreSQL's channel learner_changes
-- (LISTEN/NOTIFY: delivered on commit only, identical notices of one transaction merged).
-- Payload "user:<id>" for one user's data, "all" for data every user sees (domain/contract/changes.ts).

-- A user's own rows: one notice per user the statement touched; a row without a user (a course
-- access for the whole tenant) or a bulk write of many users is "all".
-- Static statements (plans kept per session): the key column is "id" for users, "user_id" elsewhere.
-- (A generic version with EXECUTE format(...) cost 1–4 ms more per write statement on PGlite.)
CREATE OR REPLACE FUNCTION learner_changes_of_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_ARGV[0] = 'id' THEN
    IF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT id::text) INTO ids FROM old_rows;
    ELSE
      SELECT array_agg(DISTINCT id::text) INTO ids FROM new_rows;
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT user_id::text) INTO ids FROM old_rows;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT user_id::text) INTO ids FROM new_rows;
  ELSE
    SELECT array_agg(DISTINCT c::text) INTO ids FROM (SELECT user_id AS c FROM new_rows UNION SELECT user_id FROM old_rows) t;
  END IF;
  IF ids IS NULL THEN
    RETURN NULL;
  ELSIF cardinality(ids) > 100 OR array_position(ids, NULL) IS NOT NULL THEN
    PERFORM pg_notify('learner_changes', 'all');
  ELSE
    PERFORM pg_notify('learner_changes', 'user:' || id) FROM unnest(ids) AS id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION learner_changes_of_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('learner_changes', 'all');
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('users', 'id'),
    ('user_roles', 'user_id'),
    ('user_permissions', 'user_id'),
    ('licences', 'user_id'),
    ('user_units', 'user_id'),
    ('objective_workflow_aggregates', 'user_id'),
    ('objective_accesses', 'user_id')
  ) AS v(tbl, col) LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_users(%L)', t.tbl || '_changes_inserted', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_users(%L)', t.tbl || '_changes_updated', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_users(%L)', t.tbl || '_changes_deleted', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_all()', t.tbl || '_changes_truncated', t.tbl);
  END LOOP;
  FOR t IN SELECT * FROM (VALUES
    ('settings'), ('features'), ('role_permissions'), ('units'), ('terms'), ('showcases'),
    ('objective_showcases'), ('filter_categories'), ('filter_attributes'), ('objective_attributes'), ('objectives')
  ) AS v(tbl) LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_all()', t.tbl || '_changes', t.tbl);
  END LOOP;
END $$;
