-- Events and behavior points become range-partitioned by their own time, so retention drops whole partitions
-- (server/src/retention). drizzle-kit cannot express partitioning: this file is written by hand, and its snapshot
-- describes the same columns, keys and indexes. Existing rows are carried over: each month (events) or day
-- (points) that holds rows gets its partition, so nothing lands in a default partition it could only leave row
-- by row. The partitions ahead are those the daily run keeps (server/src/retention/partitions.ts).

-- Idempotency moves out of events: a unique index on a partitioned table must contain the partition key, and a
-- retry without a timestamp carries another occurred_at.
CREATE TABLE "event_keys" (
	"key_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"event_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_keys_pkey" PRIMARY KEY("key_id","idempotency_key")
);
--> statement-breakpoint
CREATE INDEX "event_keys_occurred_idx" ON "event_keys" USING btree ("occurred_at");
--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_unpartitioned";
--> statement-breakpoint
ALTER TABLE "events_unpartitioned" RENAME CONSTRAINT "events_pkey" TO "events_unpartitioned_pkey";
--> statement-breakpoint
ALTER TABLE "events_unpartitioned" DROP CONSTRAINT "events_key_id_api_keys_id_fk";
--> statement-breakpoint
DROP INDEX "events_key_idempotency_uq";
--> statement-breakpoint
DROP INDEX "events_device_occurred_idx";
--> statement-breakpoint
DROP INDEX "events_identity_occurred_idx";
--> statement-breakpoint
DROP INDEX "events_handprint_occurred_idx";
--> statement-breakpoint
DROP INDEX "events_received_idx";
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text NOT NULL,
	"key_id" text NOT NULL,
	"idempotency_key" text,
	"name" text NOT NULL,
	"identity" text,
	"device_id" text,
	"handprint_id" text NOT NULL,
	"session_id" text,
	"ip" text,
	"user_agent" text,
	"properties" jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"risk_score" double precision NOT NULL,
	"response" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "events_pkey" PRIMARY KEY("id","occurred_at")
) PARTITION BY RANGE ("occurred_at");
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "events_device_occurred_idx" ON "events" USING btree ("device_id","occurred_at");
--> statement-breakpoint
CREATE INDEX "events_identity_occurred_idx" ON "events" USING btree ("identity","occurred_at");
--> statement-breakpoint
CREATE INDEX "events_handprint_occurred_idx" ON "events" USING btree ("handprint_id","occurred_at");
--> statement-breakpoint
CREATE INDEX "events_received_idx" ON "events" USING btree ("received_at");
--> statement-breakpoint
-- Events whose month has no partition (late offline events, far-past timestamps) are stored here; retention deletes
-- them row by row once older than the policy.
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
DO $$
DECLARE m timestamp;
BEGIN
  FOR m IN
    SELECT DISTINCT date_trunc('month', occurred_at AT TIME ZONE 'UTC') FROM events_unpartitioned
    UNION SELECT date_trunc('month', now() AT TIME ZONE 'UTC') + s * interval '1 month' FROM generate_series(0, 2) AS s
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)',
      'events_p' || to_char(m, 'YYYYMM'), (m AT TIME ZONE 'UTC'), ((m + interval '1 month') AT TIME ZONE 'UTC'));
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "events" SELECT "id", "key_id", "idempotency_key", "name", "identity", "device_id", "handprint_id",
	"session_id", "ip", "user_agent", "properties", "tags", "risk_score", "response", "occurred_at", "received_at"
	FROM "events_unpartitioned";
--> statement-breakpoint
INSERT INTO "event_keys" SELECT "key_id", "idempotency_key", "id", "occurred_at"
	FROM "events_unpartitioned" WHERE "idempotency_key" IS NOT NULL;
--> statement-breakpoint
DROP TABLE "events_unpartitioned";
--> statement-breakpoint
ALTER TABLE "behavior_points" RENAME TO "behavior_points_unpartitioned";
--> statement-breakpoint
DROP INDEX "behavior_points_lookup_idx";
--> statement-breakpoint
CREATE TABLE "behavior_points" (
	"behavior_id" text NOT NULL,
	"group_key" text NOT NULL,
	"at" bigint NOT NULL,
	"value" double precision,
	"item" text
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE INDEX "behavior_points_lookup_idx" ON "behavior_points" USING btree ("behavior_id","group_key","at");
--> statement-breakpoint
CREATE TABLE "behavior_points_default" PARTITION OF "behavior_points" DEFAULT;
--> statement-breakpoint
DO $$
DECLARE d bigint;
BEGIN
  FOR d IN
    SELECT DISTINCT floor(at / 86400000.0)::bigint FROM behavior_points_unpartitioned
    UNION SELECT floor(extract(epoch from now()) / 86400)::bigint + s FROM generate_series(0, 7) AS s
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF behavior_points FOR VALUES FROM (%s) TO (%s)',
      'behavior_points_p' || to_char(to_timestamp(d * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD'), d * 86400000, (d + 1) * 86400000);
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "behavior_points" SELECT "behavior_id", "group_key", "at", "value", "item" FROM "behavior_points_unpartitioned";
--> statement-breakpoint
DROP TABLE "behavior_points_unpartitioned";
