CREATE TABLE "hand_in_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hand_in_id" uuid NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"kind" text NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hand_in_grading_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hand_in_id" uuid NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hand_ins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"objective_id" uuid NOT NULL,
	"activity_part_id" uuid NOT NULL,
	"objective_workflow_id" uuid NOT NULL,
	"activity_workflow_id" uuid NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"submitted_at" timestamp with time zone,
	"late" boolean DEFAULT false NOT NULL,
	"submissions" integer DEFAULT 0 NOT NULL,
	"score" double precision,
	"comment" text DEFAULT '' NOT NULL,
	"grading_version" integer DEFAULT 0 NOT NULL,
	"grader_id" uuid,
	"graded_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"released_by" uuid,
	"approved_at" timestamp with time zone,
	"approved_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hand_ins_activity_workflow_idx" UNIQUE("activity_workflow_id")
);
--> statement-breakpoint
ALTER TABLE "objectives" ADD COLUMN "grading_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "hand_in_files" ADD CONSTRAINT "hand_in_files_hand_in_id_hand_ins_id_fk" FOREIGN KEY ("hand_in_id") REFERENCES "public"."hand_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_in_grading_events" ADD CONSTRAINT "hand_in_grading_events_hand_in_id_hand_ins_id_fk" FOREIGN KEY ("hand_in_id") REFERENCES "public"."hand_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_in_grading_events" ADD CONSTRAINT "hand_in_grading_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_activity_part_id_activity_parts_id_fk" FOREIGN KEY ("activity_part_id") REFERENCES "public"."activity_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_objective_workflow_id_objective_workflows_id_fk" FOREIGN KEY ("objective_workflow_id") REFERENCES "public"."objective_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_activity_workflow_id_activity_workflows_id_fk" FOREIGN KEY ("activity_workflow_id") REFERENCES "public"."activity_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_grader_id_users_id_fk" FOREIGN KEY ("grader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hand_in_files_hand_in_idx" ON "hand_in_files" USING btree ("hand_in_id","role","created_at");--> statement-breakpoint
CREATE INDEX "hand_in_grading_events_hand_in_idx" ON "hand_in_grading_events" USING btree ("hand_in_id","at");--> statement-breakpoint
CREATE INDEX "hand_ins_queue_idx" ON "hand_ins" USING btree ("tenant_id","state","submitted_at");--> statement-breakpoint
CREATE INDEX "hand_ins_user_part_idx" ON "hand_ins" USING btree ("user_id","activity_part_id");