CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	"trigger" text DEFAULT 'auto' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_status" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret" text NOT NULL,
	"event_types" text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"score_threshold" double precision,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_attempts_message_idx" ON "webhook_attempts" USING btree ("message_id","at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_subscription_idx" ON "webhook_attempts" USING btree ("subscription_id","at");--> statement-breakpoint
CREATE INDEX "webhook_messages_due_idx" ON "webhook_messages" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_messages_subscription_idx" ON "webhook_messages" USING btree ("subscription_id","created_at");--> statement-breakpoint
-- Every process keeps the enabled subscriptions in memory for ingestion: any change tells them to reload.
CREATE FUNCTION vigil_webhook_subscriptions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_webhooks', 'subscriptions');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_subscriptions_notify AFTER INSERT OR UPDATE OR DELETE ON webhook_subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_webhook_subscriptions_notify();
--> statement-breakpoint
-- Wakes the delivering processes when a message is committed, so delivery does not wait for their next poll.
CREATE FUNCTION vigil_webhook_messages_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_webhooks', 'message');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_messages_notify AFTER INSERT ON webhook_messages
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_webhook_messages_notify();
