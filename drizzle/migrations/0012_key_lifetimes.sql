ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "replaced_by" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expiry_noted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "supervisor_credentials" ADD COLUMN "replaced_by" text;--> statement-breakpoint
ALTER TABLE "supervisor_credentials" ADD COLUMN "expiry_noted_at" timestamp with time zone;