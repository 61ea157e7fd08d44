-- The daily retention run deletes by age (server/src/retention/run.ts); without these it read whole tables to find
-- nothing, once a day and at every start: the buckets table and the default partitions grow with history.
-- Buckets: a behavior's buckets older than its window are one range of this index.
CREATE INDEX "behavior_buckets_age_idx" ON "behavior_buckets" USING btree ("behavior_id","bucket");--> statement-breakpoint
-- The default partitions hold only rows whose period has no partition (late offline events, far-past times), so an
-- index of their time costs ingestion almost nothing; retention deletes their old rows, and a new partition moves
-- its range out of them, as index ranges. Not on the parents: every partition is dropped whole, by its bounds, and
-- an index there would be written by every event. drizzle-kit knows no partitions, so these are not in its snapshot.
CREATE INDEX "behavior_points_default_at_idx" ON "behavior_points_default" USING btree ("at");--> statement-breakpoint
CREATE INDEX "events_default_occurred_idx" ON "events_default" USING btree ("occurred_at");
