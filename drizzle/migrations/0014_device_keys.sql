CREATE TABLE "device_keys" (
	"device_id" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"attestation" text NOT NULL,
	"attestation_problem" text,
	"chain" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
