ALTER TABLE "behavior_buckets" ADD COLUMN "first_at" bigint;--> statement-breakpoint
ALTER TABLE "behavior_buckets" ADD COLUMN "last_at" bigint;