-- The reporting filters (userId, branch) compare with =, which never matches NULL: events from unregistered devices
-- (most of them) need no entry, and each entry skipped is index work saved on every insert.
DROP INDEX "events_registered_user_idx";--> statement-breakpoint
DROP INDEX "events_registered_branch_idx";--> statement-breakpoint
CREATE INDEX "events_registered_user_idx" ON "events" USING btree (("response"->'device'->>'registered_to'),"occurred_at") WHERE ("events"."response"->'device'->>'registered_to') IS NOT NULL;--> statement-breakpoint
CREATE INDEX "events_registered_branch_idx" ON "events" USING btree (("response"->'device'->'metadata'->>'branch'),"occurred_at") WHERE ("events"."response"->'device'->'metadata'->>'branch') IS NOT NULL;