CREATE TABLE "assessment_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"attempt_id" uuid NOT NULL,
	"item_ref" text NOT NULL,
	"response" text NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"kind" text NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_files" ADD CONSTRAINT "assessment_files_attempt_id_assessment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."assessment_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_files_answer_idx" ON "assessment_files" USING btree ("attempt_id","item_ref","response");