CREATE TABLE "browser_token_uses" (
	"jti" text PRIMARY KEY NOT NULL,
	"uses" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "generated_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handprint_profile_devices" (
	"handprint_id" text NOT NULL,
	"device_id" text NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"device_signals" jsonb,
	CONSTRAINT "handprint_profile_devices_handprint_id_device_id_pk" PRIMARY KEY("handprint_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "handprint_profile_keys" (
	"key" text NOT NULL,
	"handprint_id" text NOT NULL,
	CONSTRAINT "handprint_profile_keys_key_handprint_id_pk" PRIMARY KEY("key","handprint_id")
);
--> statement-breakpoint
CREATE TABLE "handprint_profiles" (
	"handprint_id" text PRIMARY KEY NOT NULL,
	"features" jsonb NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "handprint_profile_devices" ADD CONSTRAINT "handprint_profile_devices_handprint_id_handprint_profiles_handprint_id_fk" FOREIGN KEY ("handprint_id") REFERENCES "public"."handprint_profiles"("handprint_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handprint_profile_keys" ADD CONSTRAINT "handprint_profile_keys_handprint_id_handprint_profiles_handprint_id_fk" FOREIGN KEY ("handprint_id") REFERENCES "public"."handprint_profiles"("handprint_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "browser_token_uses_expires_idx" ON "browser_token_uses" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "handprint_profile_devices_device_idx" ON "handprint_profile_devices" USING btree ("device_id","last_seen");--> statement-breakpoint
CREATE INDEX "handprint_profile_keys_handprint_idx" ON "handprint_profile_keys" USING btree ("handprint_id");--> statement-breakpoint
CREATE INDEX "handprint_profiles_last_seen_idx" ON "handprint_profiles" USING btree ("last_seen");