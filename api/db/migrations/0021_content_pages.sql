CREATE TABLE "content_pages" (
	"activity_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"source" text NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "content_pages_activity_id_page_pk" PRIMARY KEY("activity_id","page")
);
--> statement-breakpoint
ALTER TABLE "content_pages" ADD CONSTRAINT "content_pages_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;