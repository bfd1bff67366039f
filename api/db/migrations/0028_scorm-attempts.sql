CREATE TABLE "scorm_shared_data" (
	"user_id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"target_id" text NOT NULL,
	"store" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scorm_shared_data_user_id_package_id_target_id_pk" PRIMARY KEY("user_id","package_id","target_id")
);
--> statement-breakpoint
ALTER TABLE "scorm_attempts" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "scorm_attempts" ADD COLUMN "state" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "scorm_attempts" ADD COLUMN "total_centis" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scorm_attempts" ADD COLUMN "suspended_all_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scorm_shared_data" ADD CONSTRAINT "scorm_shared_data_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scorm_shared_data" ADD CONSTRAINT "scorm_shared_data_package_id_scorm_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."scorm_packages"("id") ON DELETE cascade ON UPDATE no action;