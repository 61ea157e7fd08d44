CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"handprint_id" text,
	"model" text,
	"os_version" text,
	CONSTRAINT "devices_device_id_unique" UNIQUE("device_id")
);
--> statement-breakpoint
CREATE TABLE "handprints" (
	"handprint_id" text PRIMARY KEY NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
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
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"hash" text NOT NULL,
	"display_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_last_seen_idx" ON "devices" USING btree ("last_seen");--> statement-breakpoint
CREATE UNIQUE INDEX "events_key_idempotency_uq" ON "events" USING btree ("key_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "events_device_occurred_idx" ON "events" USING btree ("device_id","occurred_at");--> statement-breakpoint
CREATE INDEX "events_identity_occurred_idx" ON "events" USING btree ("identity","occurred_at");--> statement-breakpoint
CREATE INDEX "events_handprint_occurred_idx" ON "events" USING btree ("handprint_id","occurred_at");--> statement-breakpoint
CREATE INDEX "events_received_idx" ON "events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "api_keys_kind_idx" ON "api_keys" USING btree ("kind");