-- Decision 027: every node hears of a chat message at once (server-sent events on each node), through
-- the change channel of decision 019: payload "chat:<channel id>", sent on commit, one per channel the
-- statement touched (identical notices of one transaction merge).
CREATE OR REPLACE FUNCTION chat_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('learner_changes', 'chat:' || c) FROM (SELECT DISTINCT channel_id::text AS c FROM new_rows) t;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER chat_messages_changes_inserted AFTER INSERT ON chat_messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_changes();
--> statement-breakpoint
CREATE TRIGGER chat_messages_changes_updated AFTER UPDATE ON chat_messages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_changes();
