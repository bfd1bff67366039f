CREATE TABLE "lti_tools" (
	"key" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"client_id" text,
	"consumer_key" text,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_tools_client_id_idx" ON "lti_tools" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_tools_consumer_key_idx" ON "lti_tools" USING btree ("consumer_key");