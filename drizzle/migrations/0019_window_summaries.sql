-- Window summaries (server/src/behaviors/store.ts): the last bucket of a window keeps the sums of the window's body
-- (the buckets before it), written by the first event that reads the body there, so the later events landing in
-- the same bucket read one row instead of the body's spans and buckets. A write to an earlier bucket clears the
-- summaries of the later buckets whose windows hold it. Null until then: existing buckets have none.
ALTER TABLE "behavior_buckets" ADD COLUMN "body_from" bigint;--> statement-breakpoint
ALTER TABLE "behavior_buckets" ADD COLUMN "body_count" bigint;--> statement-breakpoint
ALTER TABLE "behavior_buckets" ADD COLUMN "body_sum" double precision;--> statement-breakpoint
ALTER TABLE "behavior_buckets" ADD COLUMN "body_items" text[];