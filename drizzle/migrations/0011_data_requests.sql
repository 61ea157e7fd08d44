CREATE TABLE "data_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"subject_hash" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
CREATE INDEX "data_requests_subject_idx" ON "data_requests" USING btree ("subject_hash","at");