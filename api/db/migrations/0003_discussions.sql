CREATE TABLE "discussion_posts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"activity_part_id" uuid NOT NULL,
	"parent_post_id" uuid,
	"user_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discussion_posts" ADD CONSTRAINT "discussion_posts_activity_part_id_activity_parts_id_fk" FOREIGN KEY ("activity_part_id") REFERENCES "public"."activity_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discussion_posts" ADD CONSTRAINT "discussion_posts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discussion_posts_part_idx" ON "discussion_posts" USING btree ("activity_part_id","parent_post_id","created_at");--> statement-breakpoint
CREATE INDEX "discussion_posts_parent_idx" ON "discussion_posts" USING btree ("parent_post_id");