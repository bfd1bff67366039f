ALTER TABLE "assessment_answers" ADD COLUMN "graded_by" uuid;--> statement-breakpoint
ALTER TABLE "assessment_answers" ADD COLUMN "graded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assessment_answers" ADD CONSTRAINT "assessment_answers_graded_by_users_id_fk" FOREIGN KEY ("graded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;