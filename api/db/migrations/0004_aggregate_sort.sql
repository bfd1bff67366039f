ALTER TABLE "objective_workflow_aggregates" ADD COLUMN "sort_name" text;--> statement-breakpoint
ALTER TABLE "objective_workflow_aggregates" ADD COLUMN "objective_activity_state" integer;--> statement-breakpoint
CREATE INDEX "owa_user_sort_idx" ON "objective_workflow_aggregates" USING btree ("user_id","sort_name","id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION owa_copy_objective() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT lower(o.name), o.activity_state INTO NEW.sort_name, NEW.objective_activity_state FROM objectives o WHERE o.id = NEW.objective_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER owa_copy_objective BEFORE INSERT OR UPDATE OF objective_id ON objective_workflow_aggregates FOR EACH ROW EXECUTE FUNCTION owa_copy_objective();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION objectives_propagate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name IS DISTINCT FROM OLD.name OR NEW.activity_state IS DISTINCT FROM OLD.activity_state THEN
    UPDATE objective_workflow_aggregates SET sort_name = lower(NEW.name), objective_activity_state = NEW.activity_state WHERE objective_id = NEW.id;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER objectives_propagate AFTER UPDATE OF name, activity_state ON objectives FOR EACH ROW EXECUTE FUNCTION objectives_propagate();
--> statement-breakpoint
UPDATE objective_workflow_aggregates a SET sort_name = lower(o.name), objective_activity_state = o.activity_state FROM objectives o WHERE o.id = a.objective_id;
