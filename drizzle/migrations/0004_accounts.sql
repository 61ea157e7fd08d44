CREATE TABLE "account_audit" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_name" text NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
ALTER TABLE "supervisors" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "account_audit_at_idx" ON "account_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "account_audit_subject_idx" ON "account_audit" USING btree ("subject_name","at");