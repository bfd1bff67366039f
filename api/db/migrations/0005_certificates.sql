CREATE SEQUENCE "public"."certificate_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "certificate_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"certificate_number" text NOT NULL,
	"certificate_template_id" uuid,
	"template_name" text NOT NULL,
	"objective_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"objective_record_id" uuid NOT NULL,
	"normalized_passing_score" double precision,
	"expiration_date" timestamp with time zone,
	"external_url" text,
	"certificate_pdf_url" text,
	"certificate_png_url" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificate_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"validity_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proctoring_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"activity_workflow_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"completed" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "objectives" ADD COLUMN "certificate_template_id" uuid;--> statement-breakpoint
ALTER TABLE "certificate_records" ADD CONSTRAINT "certificate_records_certificate_template_id_certificate_templates_id_fk" FOREIGN KEY ("certificate_template_id") REFERENCES "public"."certificate_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_records" ADD CONSTRAINT "certificate_records_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_records" ADD CONSTRAINT "certificate_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_records" ADD CONSTRAINT "certificate_records_objective_record_id_objective_records_id_fk" FOREIGN KEY ("objective_record_id") REFERENCES "public"."objective_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_templates" ADD CONSTRAINT "certificate_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proctoring_sessions" ADD CONSTRAINT "proctoring_sessions_activity_workflow_id_activity_workflows_id_fk" FOREIGN KEY ("activity_workflow_id") REFERENCES "public"."activity_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proctoring_sessions" ADD CONSTRAINT "proctoring_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_records_number_idx" ON "certificate_records" USING btree ("certificate_number");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_records_record_idx" ON "certificate_records" USING btree ("objective_record_id");--> statement-breakpoint
CREATE INDEX "certificate_records_user_objective_idx" ON "certificate_records" USING btree ("user_id","objective_id","created" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "certificate_templates_tenant_idx" ON "certificate_templates" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "proctoring_sessions_aw_idx" ON "proctoring_sessions" USING btree ("activity_workflow_id","created");--> statement-breakpoint
ALTER TABLE "activity_workflows" ADD CONSTRAINT "activity_workflows_last_proctoring_session_id_proctoring_sessions_id_fk" FOREIGN KEY ("last_proctoring_session_id") REFERENCES "public"."proctoring_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objectives" ADD CONSTRAINT "objectives_certificate_template_id_certificate_templates_id_fk" FOREIGN KEY ("certificate_template_id") REFERENCES "public"."certificate_templates"("id") ON DELETE set null ON UPDATE no action;