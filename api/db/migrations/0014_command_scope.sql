DROP INDEX "commands_user_idx";--> statement-breakpoint
ALTER TABLE "commands" DROP CONSTRAINT "commands_pkey";--> statement-breakpoint
ALTER TABLE "self_enrollments" DROP CONSTRAINT "self_enrollments_pkey";--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_user_id_id_pk" PRIMARY KEY("user_id","id");--> statement-breakpoint
ALTER TABLE "self_enrollments" ADD CONSTRAINT "self_enrollments_user_id_id_pk" PRIMARY KEY("user_id","id");--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "fingerprint" text;
