CREATE TABLE "assessment_answers" (
	"attempt_id" uuid NOT NULL,
	"item_ref" text NOT NULL,
	"response" jsonb NOT NULL,
	"saved" timestamp with time zone NOT NULL,
	"score" double precision,
	"max_score" double precision,
	"outcomes" jsonb,
	"graded_score" double precision,
	CONSTRAINT "assessment_answers_attempt_id_item_ref_pk" PRIMARY KEY("attempt_id","item_ref")
);
--> statement-breakpoint
CREATE TABLE "assessment_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"package_id" uuid NOT NULL,
	"activity_workflow_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"seed" text NOT NULL,
	"plan" jsonb NOT NULL,
	"page" integer DEFAULT 0 NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"started" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone,
	"submitted" timestamp with time zone,
	"ended" text,
	"score" double precision,
	"max_score" double precision,
	"passed" boolean
);
--> statement-breakpoint
CREATE TABLE "qti_items" (
	"package_id" uuid NOT NULL,
	"href" text NOT NULL,
	"item" jsonb NOT NULL,
	"max_score" double precision NOT NULL,
	CONSTRAINT "qti_items_package_id_href_pk" PRIMARY KEY("package_id","href")
);
--> statement-breakpoint
CREATE TABLE "qti_packages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"activity_id" uuid NOT NULL,
	"title" text NOT NULL,
	"test" jsonb NOT NULL,
	"cut_value" double precision,
	"survey" boolean DEFAULT false NOT NULL,
	"anonymous" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"package_id" uuid NOT NULL,
	"item_ref" text NOT NULL,
	"response" jsonb NOT NULL,
	"day" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_answers" ADD CONSTRAINT "assessment_answers_attempt_id_assessment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."assessment_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_attempts" ADD CONSTRAINT "assessment_attempts_package_id_qti_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."qti_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_attempts" ADD CONSTRAINT "assessment_attempts_activity_workflow_id_activity_workflows_id_fk" FOREIGN KEY ("activity_workflow_id") REFERENCES "public"."activity_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_attempts" ADD CONSTRAINT "assessment_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qti_items" ADD CONSTRAINT "qti_items_package_id_qti_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."qti_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qti_packages" ADD CONSTRAINT "qti_packages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qti_packages" ADD CONSTRAINT "qti_packages_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_answers" ADD CONSTRAINT "survey_answers_package_id_qti_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."qti_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_attempts_aw_idx" ON "assessment_attempts" USING btree ("activity_workflow_id");--> statement-breakpoint
CREATE INDEX "qti_packages_activity_idx" ON "qti_packages" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "survey_answers_package_idx" ON "survey_answers" USING btree ("package_id","item_ref");