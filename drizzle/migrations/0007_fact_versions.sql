ALTER TABLE "registrations" ADD COLUMN "version" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Every change of a registration bumps its version, whoever writes it: ingestion's per-process cache of
-- registrations is checked against it inside each write statement.
CREATE FUNCTION vigil_registration_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER registrations_version BEFORE UPDATE ON registrations
  FOR EACH ROW EXECUTE FUNCTION vigil_registration_version();
--> statement-breakpoint
-- Tells every process which registration changed, so caches drop it at once. Only a hint: a missed
-- notification costs a failed check and a re-read, never a stale answer.
CREATE FUNCTION vigil_registration_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_facts', 'registration ' || COALESCE(NEW.device_id, OLD.device_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER registrations_notify AFTER INSERT OR UPDATE OR DELETE ON registrations
  FOR EACH ROW EXECUTE FUNCTION vigil_registration_notify();
--> statement-breakpoint
-- Raises when facts a write relied on have changed since they were cached: the whole statement (the batch's
-- events and every other write) is undone, and the batch is read afresh and written again.
CREATE FUNCTION vigil_facts_hold(stale boolean) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF stale THEN
    RAISE EXCEPTION 'cached facts are stale' USING ERRCODE = 'VGS01';
  END IF;
  RETURN true;
END $$;
--> statement-breakpoint
-- Keys are never deleted (revoking keeps the row), so the foreign key guarded nothing, while its check share-locked
-- the one api_keys row that every concurrent commit, of every process, writes events for.
ALTER TABLE "events" DROP CONSTRAINT IF EXISTS "events_key_id_api_keys_id_fk";
