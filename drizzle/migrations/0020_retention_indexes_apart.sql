-- The retention indexes (0016) on an expression only retention asks for (server/src/retention/deletes.ts). On the
-- plain columns, a planner without statistics (PGlite's always: it has no autovacuum) took them for a window's read
-- of one group's buckets and spans: a range over every group's, growing with the groups.
DROP INDEX "behavior_buckets_age_idx";--> statement-breakpoint
DROP INDEX "behavior_spans_age_idx";--> statement-breakpoint
CREATE INDEX "behavior_buckets_age_idx" ON "behavior_buckets" USING btree ("behavior_id",("bucket" + 0));--> statement-breakpoint
CREATE INDEX "behavior_spans_age_idx" ON "behavior_spans" USING btree ("behavior_id",("span" + 0));