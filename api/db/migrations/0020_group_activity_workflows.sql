CREATE TABLE "group_activity_workflows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"group_id" uuid NOT NULL,
	"activity_part_id" uuid NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"started" timestamp with time zone NOT NULL,
	"started_by" uuid,
	"finished" timestamp with time zone,
	"finished_by" uuid,
	"work" jsonb DEFAULT '{"text":""}'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" uuid,
	"score" double precision,
	"max_score" double precision,
	"passed" boolean
);
--> statement-breakpoint
CREATE TABLE "group_contributions" (
	"group_activity_workflow_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"contributions" integer DEFAULT 0 NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"last_kind" text NOT NULL,
	CONSTRAINT "group_contributions_group_activity_workflow_id_user_id_pk" PRIMARY KEY("group_activity_workflow_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "activity_workflows" ADD COLUMN "group_activity_workflow_id" uuid;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "objective_id" uuid;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "activity_part_id" uuid;--> statement-breakpoint
ALTER TABLE "group_activity_workflows" ADD CONSTRAINT "group_activity_workflows_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_activity_workflows" ADD CONSTRAINT "group_activity_workflows_activity_part_id_activity_parts_id_fk" FOREIGN KEY ("activity_part_id") REFERENCES "public"."activity_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_activity_workflows" ADD CONSTRAINT "group_activity_workflows_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_activity_workflows" ADD CONSTRAINT "group_activity_workflows_finished_by_users_id_fk" FOREIGN KEY ("finished_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_activity_workflows" ADD CONSTRAINT "group_activity_workflows_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_contributions" ADD CONSTRAINT "group_contributions_group_activity_workflow_id_group_activity_workflows_id_fk" FOREIGN KEY ("group_activity_workflow_id") REFERENCES "public"."group_activity_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_contributions" ADD CONSTRAINT "group_contributions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "group_activity_workflows_group_part_idx" ON "group_activity_workflows" USING btree ("group_id","activity_part_id");--> statement-breakpoint
ALTER TABLE "activity_workflows" ADD CONSTRAINT "activity_workflows_group_activity_workflow_id_group_activity_workflows_id_fk" FOREIGN KEY ("group_activity_workflow_id") REFERENCES "public"."group_activity_workflows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_activity_part_id_activity_parts_id_fk" FOREIGN KEY ("activity_part_id") REFERENCES "public"."activity_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_workflows_gaw_idx" ON "activity_workflows" USING btree ("group_activity_workflow_id");--> statement-breakpoint
CREATE INDEX "groups_objective_idx" ON "groups" USING btree ("objective_id");