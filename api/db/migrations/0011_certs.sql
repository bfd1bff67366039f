CREATE SEQUENCE "public"."certificate_status_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "reinforcement_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"activity_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question" text NOT NULL,
	"options" jsonb NOT NULL,
	"correct_answer" text NOT NULL,
	"feedback" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reinforcement_workflows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"objective_id" uuid NOT NULL,
	"activity_id" uuid NOT NULL,
	"objective_workflow_id" uuid,
	"question_id" uuid,
	"question" text NOT NULL,
	"options" jsonb NOT NULL,
	"correct_answer" text NOT NULL,
	"feedback" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"answer" text,
	"answer_text" text,
	"normalized_score" double precision,
	"answered_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificate_records" ADD COLUMN "pdf_path" text;--> statement-breakpoint
ALTER TABLE "certificate_records" ADD COLUMN "png_path" text;--> statement-breakpoint
ALTER TABLE "certificate_records" ADD COLUMN "status_list_index" integer DEFAULT nextval('certificate_status_index_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "certificate_records" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reinforcement_questions" ADD CONSTRAINT "reinforcement_questions_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinforcement_workflows" ADD CONSTRAINT "reinforcement_workflows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinforcement_workflows" ADD CONSTRAINT "reinforcement_workflows_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinforcement_workflows" ADD CONSTRAINT "reinforcement_workflows_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinforcement_workflows" ADD CONSTRAINT "reinforcement_workflows_objective_workflow_id_objective_workflows_id_fk" FOREIGN KEY ("objective_workflow_id") REFERENCES "public"."objective_workflows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reinforcement_workflows" ADD CONSTRAINT "reinforcement_workflows_question_id_reinforcement_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."reinforcement_questions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reinforcement_questions_activity_idx" ON "reinforcement_questions" USING btree ("activity_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "reinforcement_workflows_user_question_idx" ON "reinforcement_workflows" USING btree ("user_id","question_id");--> statement-breakpoint
CREATE INDEX "reinforcement_workflows_user_due_idx" ON "reinforcement_workflows" USING btree ("user_id","due_at");--> statement-breakpoint
CREATE INDEX "reinforcement_workflows_unsent_idx" ON "reinforcement_workflows" USING btree ("due_at") WHERE "reinforcement_workflows"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "group_members_user_idx" ON "group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "groups_tenant_idx" ON "groups" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_records_status_index_idx" ON "certificate_records" USING btree ("status_list_index");--> statement-breakpoint
CREATE INDEX "certificate_records_files_pending_idx" ON "certificate_records" USING btree ("created") WHERE "certificate_records"."pdf_path" is null;