-- Page locality of the window reads (bench `history`). Rows read per event no longer grow with history (0006),
-- but the pages holding them did: buckets were keyed behavior, group, bucket, so each group's recent keys sat
-- next to its whole history and every write or window read landed on a leaf anywhere in the key. Now the key
-- leads with the epoch (64 buckets, two windows): what a window reads or writes lies in at most two epochs at the
-- recent end of the key, whatever the history behind it. (Carrying count and sum in the key, INCLUDE, made more
-- page reads, not fewer: every bucket update then changes an indexed column and can no longer be a HOT update.)
-- The points index carries `value`, so count and sum windows count their edge points from the index alone.
ALTER TABLE "behavior_buckets" ADD COLUMN "epoch" bigint GENERATED ALWAYS AS ("bucket" / 64) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "behavior_buckets" DROP CONSTRAINT "behavior_buckets_behavior_id_group_key_bucket_pk";--> statement-breakpoint
ALTER TABLE "behavior_buckets" ADD CONSTRAINT "behavior_buckets_behavior_id_epoch_group_key_bucket_pk" PRIMARY KEY ("behavior_id","epoch","group_key","bucket");--> statement-breakpoint
DROP INDEX "behavior_points_lookup_idx";--> statement-breakpoint
CREATE INDEX "behavior_points_lookup_idx" ON "behavior_points" USING btree ("behavior_id","group_key","at") INCLUDE ("value");
