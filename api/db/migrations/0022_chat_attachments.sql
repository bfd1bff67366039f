CREATE TABLE "chat_attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"message_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"kind" text NOT NULL,
	"path" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_attachments" ADD CONSTRAINT "chat_attachments_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_attachments_message_position_idx" ON "chat_attachments" USING btree ("message_id","position");