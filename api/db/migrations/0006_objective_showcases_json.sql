ALTER TABLE "objectives" ADD COLUMN "showcases_json" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION objective_showcases_json(objective uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name) ORDER BY s.name, s.id), '[]'::jsonb)
  FROM objective_showcases os JOIN showcases s ON s.id = os.showcase_id
  WHERE os.objective_id = objective
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION objective_showcases_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE objectives SET showcases_json = objective_showcases_json(id) WHERE id IN (SELECT objective_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE objectives SET showcases_json = objective_showcases_json(id) WHERE id IN (SELECT objective_id FROM old_rows);
  ELSE
    UPDATE objectives SET showcases_json = objective_showcases_json(id)
    WHERE id IN (SELECT objective_id FROM new_rows UNION SELECT objective_id FROM old_rows);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER objective_showcases_inserted AFTER INSERT ON objective_showcases REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION objective_showcases_changed();
--> statement-breakpoint
CREATE TRIGGER objective_showcases_deleted AFTER DELETE ON objective_showcases REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION objective_showcases_changed();
--> statement-breakpoint
CREATE TRIGGER objective_showcases_updated AFTER UPDATE ON objective_showcases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION objective_showcases_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION showcases_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE objectives SET showcases_json = objective_showcases_json(id)
  WHERE id IN (SELECT os.objective_id FROM objective_showcases os JOIN new_rows n ON n.id = os.showcase_id JOIN old_rows o ON o.id = n.id WHERE n.name IS DISTINCT FROM o.name);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER showcases_renamed AFTER UPDATE ON showcases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION showcases_renamed();
--> statement-breakpoint
UPDATE objectives SET showcases_json = objective_showcases_json(id) WHERE id IN (SELECT objective_id FROM objective_showcases);
