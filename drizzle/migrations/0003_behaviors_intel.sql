CREATE TABLE "behavior_buckets" (
	"behavior_id" text NOT NULL,
	"group_key" text NOT NULL,
	"bucket" bigint NOT NULL,
	"count" bigint NOT NULL,
	"sum" double precision NOT NULL,
	"items" text[],
	"hll" "bytea",
	CONSTRAINT "behavior_buckets_behavior_id_group_key_bucket_pk" PRIMARY KEY("behavior_id","group_key","bucket")
);
--> statement-breakpoint
CREATE TABLE "behavior_definitions" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"source" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"bucket_ms" bigint NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"backfill_cursor" text,
	"backfill_done" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "behavior_points" (
	"behavior_id" text NOT NULL,
	"group_key" text NOT NULL,
	"at" bigint NOT NULL,
	"value" double precision,
	"item" text
);
--> statement-breakpoint
CREATE TABLE "intel_links" (
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"linked" text NOT NULL,
	CONSTRAINT "intel_links_kind_value_linked_pk" PRIMARY KEY("kind","value","linked")
);
--> statement-breakpoint
CREATE TABLE "intel_sightings" (
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "intel_sightings_kind_value_pk" PRIMARY KEY("kind","value")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "behavior_definitions_enabled_name_uq" ON "behavior_definitions" USING btree ("name") WHERE "behavior_definitions"."enabled";--> statement-breakpoint
CREATE INDEX "behavior_points_lookup_idx" ON "behavior_points" USING btree ("behavior_id","group_key","at");