ALTER TABLE "users" ADD COLUMN "browser_locale" text;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "completion" text;--> statement-breakpoint
-- Until now every sign-in saved the language it negotiated as the learner's choice, so no stored value can
-- be told from a choice: each becomes her e-mails' language, and a language chosen on a browser is saved
-- again as her choice at her next sign-in there (its `lng` cookie).
UPDATE "users" SET "browser_locale" = "locale", "locale" = NULL WHERE "locale" IS NOT NULL;
