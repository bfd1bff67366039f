CREATE TABLE "app_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"impersonated_by" text,
	"tokens" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "impersonations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_user_id" uuid NOT NULL,
	"target_user_id" uuid NOT NULL,
	"ticket_hash" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"grant_id" text,
	CONSTRAINT "impersonations_ticket_hash_unique" UNIQUE("ticket_hash")
);
--> statement-breakpoint
CREATE TABLE "oidc_models" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"account_id" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_models_model_id_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "pending_registrations" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "impersonations" ADD CONSTRAINT "impersonations_admin_user_id_users_id_fk" FOREIGN KEY ("admin_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impersonations" ADD CONSTRAINT "impersonations_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_registrations" ADD CONSTRAINT "pending_registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_sessions_subject_idx" ON "app_sessions" USING btree ("subject");--> statement-breakpoint
CREATE INDEX "app_sessions_email_idx" ON "app_sessions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "app_sessions_expires_idx" ON "app_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "impersonations_grant_idx" ON "impersonations" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "impersonations_admin_idx" ON "impersonations" USING btree ("admin_user_id");--> statement-breakpoint
CREATE INDEX "oidc_models_grant_idx" ON "oidc_models" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oidc_models_user_code_idx" ON "oidc_models" USING btree ("model","user_code");--> statement-breakpoint
CREATE INDEX "oidc_models_uid_idx" ON "oidc_models" USING btree ("model","uid");--> statement-breakpoint
CREATE INDEX "oidc_models_account_idx" ON "oidc_models" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "oidc_models_expires_idx" ON "oidc_models" USING btree ("expires_at");