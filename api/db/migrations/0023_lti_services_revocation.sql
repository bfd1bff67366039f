CREATE TABLE "lti_line_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"objective_id" uuid NOT NULL,
	"tool_key" text NOT NULL,
	"label" text NOT NULL,
	"score_maximum" double precision NOT NULL,
	"resource_link_id" uuid,
	"resource_id" text,
	"tag" text,
	"start_date_time" timestamp with time zone,
	"end_date_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_results" (
	"line_item_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"objective_id" uuid NOT NULL,
	"objective_workflow_id" uuid,
	"tool_key" text NOT NULL,
	"score_given" double precision,
	"score_maximum" double precision,
	"result_score" double precision,
	"result_maximum" double precision NOT NULL,
	"comment" text,
	"activity_progress" text NOT NULL,
	"grading_progress" text NOT NULL,
	"timestamp" timestamp (3) with time zone NOT NULL,
	"received" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_results_line_item_id_user_id_pk" PRIMARY KEY("line_item_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "certificate_records" ADD COLUMN "revocation_reason" text;--> statement-breakpoint
ALTER TABLE "lti_line_items" ADD CONSTRAINT "lti_line_items_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_results" ADD CONSTRAINT "lti_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_results" ADD CONSTRAINT "lti_results_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lti_line_items_context_idx" ON "lti_line_items" USING btree ("objective_id","tool_key","created_at");