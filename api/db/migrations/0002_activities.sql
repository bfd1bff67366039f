CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"kind" integer NOT NULL,
	"content_type" integer NOT NULL,
	"type" integer DEFAULT 0 NOT NULL,
	"state" integer DEFAULT 2 NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"preferred_width" integer,
	"preferred_height" integer,
	"support_review" boolean DEFAULT true NOT NULL,
	"support_collaborative_mode" boolean DEFAULT false NOT NULL,
	"support_personal_mode" boolean DEFAULT true NOT NULL,
	"support_lti_grading" boolean DEFAULT false NOT NULL,
	"proctored" boolean DEFAULT false NOT NULL,
	"duration" integer,
	"tool_url" text,
	"image_url" text,
	"max_score" double precision,
	"manual_grading" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_parts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"objective_id" uuid NOT NULL,
	"parent_part_id" uuid,
	"activity_id" uuid NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"optional" boolean DEFAULT false NOT NULL,
	"score_weight" double precision DEFAULT 1 NOT NULL,
	"axis" text NOT NULL,
	"constraint" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"activity_workflow_id" uuid NOT NULL,
	"objective_workflow_id" uuid NOT NULL,
	"activity_part_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"score" double precision,
	"max_score" double precision,
	"passed" boolean,
	"finished" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "activity_workflows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"objective_workflow_id" uuid NOT NULL,
	"activity_part_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"started" timestamp with time zone DEFAULT now() NOT NULL,
	"finished" timestamp with time zone,
	"last_proctoring_session_id" uuid,
	"resume" jsonb
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_parts" ADD CONSTRAINT "activity_parts_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_parts" ADD CONSTRAINT "activity_parts_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_activity_workflow_id_activity_workflows_id_fk" FOREIGN KEY ("activity_workflow_id") REFERENCES "public"."activity_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_objective_workflow_id_objective_workflows_id_fk" FOREIGN KEY ("objective_workflow_id") REFERENCES "public"."objective_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_activity_part_id_activity_parts_id_fk" FOREIGN KEY ("activity_part_id") REFERENCES "public"."activity_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_records" ADD CONSTRAINT "activity_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_workflows" ADD CONSTRAINT "activity_workflows_objective_workflow_id_objective_workflows_id_fk" FOREIGN KEY ("objective_workflow_id") REFERENCES "public"."objective_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_workflows" ADD CONSTRAINT "activity_workflows_activity_part_id_activity_parts_id_fk" FOREIGN KEY ("activity_part_id") REFERENCES "public"."activity_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_workflows" ADD CONSTRAINT "activity_workflows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_tenant_idx" ON "activities" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "activity_parts_objective_idx" ON "activity_parts" USING btree ("objective_id","axis");--> statement-breakpoint
CREATE INDEX "activity_parts_parent_idx" ON "activity_parts" USING btree ("parent_part_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_records_workflow_idx" ON "activity_records" USING btree ("activity_workflow_id");--> statement-breakpoint
CREATE INDEX "activity_records_ow_idx" ON "activity_records" USING btree ("objective_workflow_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_workflows_ow_part_idx" ON "activity_workflows" USING btree ("objective_workflow_id","activity_part_id");--> statement-breakpoint
CREATE INDEX "activity_workflows_user_idx" ON "activity_workflows" USING btree ("user_id");