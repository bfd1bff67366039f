-- Decision 019 (with the dashboard, decision 022): the dashboard is remembered per learner like the
-- shell, so the learner's rows it shows also tell every node when they change (same functions as
-- migration 0010): activity progress (continue learning), certificates, reinforcement questions
-- (due questions) and the calendar feed.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('activity_workflows', 'user_id'),
    ('certificate_records', 'user_id'),
    ('reinforcement_workflows', 'user_id'),
    ('calendar_feeds', 'user_id')
  ) AS v(tbl, col) LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_users(%L)', t.tbl || '_changes_inserted', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_users(%L)', t.tbl || '_changes_updated', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_users(%L)', t.tbl || '_changes_deleted', t.tbl, t.col);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION learner_changes_of_all()', t.tbl || '_changes_truncated', t.tbl);
  END LOOP;
END $$;
