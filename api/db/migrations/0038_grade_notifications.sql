CREATE TABLE "learner_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"item_key" text NOT NULL,
	"objective_id" uuid NOT NULL,
	"activity_part_id" uuid NOT NULL,
	"score" double precision,
	"max_score" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_preferences" ADD COLUMN "grades" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "learner_notifications" ADD CONSTRAINT "learner_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_notifications" ADD CONSTRAINT "learner_notifications_objective_id_objectives_id_fk" FOREIGN KEY ("objective_id") REFERENCES "public"."objectives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learner_notifications" ADD CONSTRAINT "learner_notifications_activity_part_id_activity_parts_id_fk" FOREIGN KEY ("activity_part_id") REFERENCES "public"."activity_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "learner_notifications_item_idx" ON "learner_notifications" USING btree ("user_id","kind","item_key");--> statement-breakpoint
CREATE INDEX "learner_notifications_user_idx" ON "learner_notifications" USING btree ("user_id","read_at");