-- (received_at, id) serves every read the single-column index served, and received-order keysets too.
DROP INDEX IF EXISTS "events_received_idx";--> statement-breakpoint
CREATE INDEX "events_received_id_idx" ON "events" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "events_registered_user_idx" ON "events" USING btree (("response"->'device'->>'registered_to'),"occurred_at");--> statement-breakpoint
CREATE INDEX "events_registered_branch_idx" ON "events" USING btree (("response"->'device'->'metadata'->>'branch'),"occurred_at");