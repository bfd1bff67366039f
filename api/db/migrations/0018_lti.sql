CREATE TABLE "lti_one_time_values" (
	"kind" text NOT NULL,
	"client_id" text NOT NULL,
	"value" text NOT NULL,
	"used" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_one_time_values_kind_client_id_value_pk" PRIMARY KEY("kind","client_id","value")
);
--> statement-breakpoint
CREATE INDEX "lti_one_time_values_used_idx" ON "lti_one_time_values" USING btree ("used");