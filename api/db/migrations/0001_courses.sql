CREATE TABLE "filter_attributes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category_id" uuid NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "filter_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"grading_scale_id" uuid NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"normalized_min_score" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grading_scales" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"max_score" double precision NOT NULL,
	"normalized_passing_score" double precision NOT NULL,
	"passing_grade_id" uuid
);
--> statement-breakpoint
CREATE TABLE "objective_accesses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"objective_id" uuid NOT NULL,
	"user_id" uuid,
	"term_id" uuid,
	"is_mandatory" boolean DEFAULT false NOT NULL,
	"retake" boolean DEFAULT false NOT NULL,
	"due_date" timestamp with time zone,
	"availability_date" timestamp with time zone,
	"availability_end_date" timestamp with time zone,
	"grade_reveal_policy" text DEFAULT 'none' NOT NULL,
	"grade_reveal_date" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "objective_attributes" (
	"objective_id" uuid NOT NULL,
	"attribute_id" uuid NOT NULL,
	CONSTRAINT "objective_attributes_objective_id_attribute_id_pk" PRIMARY KEY("objective_id","attribute_id")
);
--> statement-breakpoint
CREATE TABLE "objective_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"aggregate_id" uuid NOT NULL,
	"workflow_id" uuid,
	"user_id" uuid NOT NULL,
	"objective_id" uuid NOT NULL,
	"score" double precision,
	"max_score" double precision,
	"normalized_score" double precision,
	"grade_id" uuid,
	"passed" boolean,
	"finished" timestamp with time zone,
	"progress" double precision DEFAULT 0 NOT NULL,
	"protect_results" boolean DEFAULT false NOT NULL,
	"imported" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "objective_showcases" (
	"objective_id" uuid NOT NULL,
	"showcase_id" uuid NOT NULL,
	CONSTRAINT "objective_showcases_objective_id_showcase_id_pk" PRIMARY KEY("objective_id","showcase_id")
);
--> statement-breakpoint
CREATE TABLE "objective_workflow_aggregates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"objective_id" uuid NOT NULL,
	"objective_access_id" uuid,
	"term_id" uuid,
	"is_mandatory" boolean DEFAULT false NOT NULL,
	"is_self_enrolled" boolean DEFAULT false NOT NULL,
	"retake" boolean DEFAULT false NOT NULL,
	"due_date" timestamp with time zone,
	"availability_date" timestamp with time zone,
	"availability_end_date" timestamp with time zone,
	"grade_reveal_policy" text DEFAULT 'none' NOT NULL,
	"grade_reveal_date" timestamp with time zone,
	"last_workflow_id" uuid,
	"last_record_id" uuid,
	"last_workflow_state" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "objective_workflows" (
	"id" uuid PRIMARY KEY NOT NULL,
	"aggregate_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"objective_id" uuid NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"state" integer NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"started" timestamp with time zone,
	"submitted" timestamp with time zone,
	"finished" timestamp with time zone,
	"objective_record_id" uuid,
	"protect_results" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "objectives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"about" text DEFAULT '' NOT NULL,
	"image_url" text,
	"state" integer DEFAULT 2 NOT NULL,
	"type" integer DEFAULT 0 NOT NULL,
	"activity_kind" integer DEFAULT 3 NOT NULL,
	"activity_state" integer DEFAULT 2 NOT NULL,
	"children_count" integer DEFAULT 0 NOT NULL,
	"presentation_mode" integer DEFAULT 0 NOT NULL,
	"display_mode" integer DEFAULT 2 NOT NULL,
	"proctored" boolean DEFAULT false NOT NULL,
	"support_mobile_view" boolean DEFAULT true NOT NULL,
	"support_fullscreen_view" boolean DEFAULT true NOT NULL,
	"support_lti_authoring" boolean DEFAULT false NOT NULL,
	"support_review" boolean DEFAULT true NOT NULL,
	"enable_ai_tutor" boolean DEFAULT false NOT NULL,
	"access_new_content_after_completion" boolean DEFAULT false NOT NULL,
	"announcement_channel_id" uuid,
	"grading_scale_id" uuid,
	"in_catalog" boolean DEFAULT true NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"allow_self_enrollment" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "self_enrollments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"objective_access_id" uuid NOT NULL,
	"aggregate_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "showcases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "filter_attributes" ADD CONSTRAINT "filter_attributes_category_id_filter_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."filter_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filter_categories" ADD CONSTRAINT "filter_categories_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grades" ADD CONSTRAINT "grades_grading_scale_id_grading_scales_id_fk" FOREIGN KEY ("grading_scale_id") REFERENCES "public"."grading_scales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grading_scales" ADD CONSTRAINT "grading_scales_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_accesses" ADD CONSTRAINT "objective_accesses_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_accesses" ADD CONSTRAINT "objective_accesses_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_accesses" ADD CONSTRAINT "objective_accesses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_accesses" ADD CONSTRAINT "objective_accesses_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_attributes" ADD CONSTRAINT "objective_attributes_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_attributes" ADD CONSTRAINT "objective_attributes_attribute_id_filter_attributes_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."filter_attributes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_records" ADD CONSTRAINT "objective_records_aggregate_id_objective_workflow_aggregates_id_fk" FOREIGN KEY ("aggregate_id") REFERENCES "public"."objective_workflow_aggregates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_records" ADD CONSTRAINT "objective_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_records" ADD CONSTRAINT "objective_records_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_showcases" ADD CONSTRAINT "objective_showcases_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_showcases" ADD CONSTRAINT "objective_showcases_showcase_id_showcases_id_fk" FOREIGN KEY ("showcase_id") REFERENCES "public"."showcases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflow_aggregates" ADD CONSTRAINT "objective_workflow_aggregates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflow_aggregates" ADD CONSTRAINT "objective_workflow_aggregates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflow_aggregates" ADD CONSTRAINT "objective_workflow_aggregates_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflow_aggregates" ADD CONSTRAINT "objective_workflow_aggregates_objective_access_id_objective_accesses_id_fk" FOREIGN KEY ("objective_access_id") REFERENCES "public"."objective_accesses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflow_aggregates" ADD CONSTRAINT "objective_workflow_aggregates_term_id_terms_id_fk" FOREIGN KEY ("term_id") REFERENCES "public"."terms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflows" ADD CONSTRAINT "objective_workflows_aggregate_id_objective_workflow_aggregates_id_fk" FOREIGN KEY ("aggregate_id") REFERENCES "public"."objective_workflow_aggregates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflows" ADD CONSTRAINT "objective_workflows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objective_workflows" ADD CONSTRAINT "objective_workflows_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objectives" ADD CONSTRAINT "objectives_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objectives" ADD CONSTRAINT "objectives_grading_scale_id_grading_scales_id_fk" FOREIGN KEY ("grading_scale_id") REFERENCES "public"."grading_scales"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "self_enrollments" ADD CONSTRAINT "self_enrollments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "self_enrollments" ADD CONSTRAINT "self_enrollments_objective_access_id_objective_accesses_id_fk" FOREIGN KEY ("objective_access_id") REFERENCES "public"."objective_accesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "self_enrollments" ADD CONSTRAINT "self_enrollments_aggregate_id_objective_workflow_aggregates_id_fk" FOREIGN KEY ("aggregate_id") REFERENCES "public"."objective_workflow_aggregates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "showcases" ADD CONSTRAINT "showcases_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terms" ADD CONSTRAINT "terms_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filter_attributes_category_idx" ON "filter_attributes" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "filter_categories_tenant_idx" ON "filter_categories" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "grades_scale_idx" ON "grades" USING btree ("grading_scale_id");--> statement-breakpoint
CREATE INDEX "objective_accesses_objective_idx" ON "objective_accesses" USING btree ("objective_id");--> statement-breakpoint
CREATE INDEX "objective_accesses_user_idx" ON "objective_accesses" USING btree ("user_id","objective_id");--> statement-breakpoint
CREATE INDEX "objective_attributes_attribute_idx" ON "objective_attributes" USING btree ("attribute_id","objective_id");--> statement-breakpoint
CREATE INDEX "objective_records_aggregate_idx" ON "objective_records" USING btree ("aggregate_id");--> statement-breakpoint
CREATE INDEX "objective_records_user_idx" ON "objective_records" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "objective_showcases_showcase_idx" ON "objective_showcases" USING btree ("showcase_id","objective_id");--> statement-breakpoint
CREATE UNIQUE INDEX "owa_user_objective_idx" ON "objective_workflow_aggregates" USING btree ("user_id","objective_id");--> statement-breakpoint
CREATE INDEX "owa_user_state_idx" ON "objective_workflow_aggregates" USING btree ("user_id","last_workflow_state");--> statement-breakpoint
CREATE INDEX "owa_user_term_idx" ON "objective_workflow_aggregates" USING btree ("user_id","term_id");--> statement-breakpoint
CREATE INDEX "objective_workflows_aggregate_idx" ON "objective_workflows" USING btree ("aggregate_id","attempt");--> statement-breakpoint
CREATE INDEX "objective_workflows_user_idx" ON "objective_workflows" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "objectives_tenant_name_idx" ON "objectives" USING btree ("tenant_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "objectives_catalog_idx" ON "objectives" USING btree ("tenant_id","in_catalog","state");--> statement-breakpoint
CREATE INDEX "objectives_public_idx" ON "objectives" USING btree ("tenant_id","is_public","state");--> statement-breakpoint
CREATE UNIQUE INDEX "self_enrollments_user_access_idx" ON "self_enrollments" USING btree ("user_id","objective_access_id");--> statement-breakpoint
CREATE INDEX "showcases_tenant_idx" ON "showcases" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "terms_tenant_idx" ON "terms" USING btree ("tenant_id");