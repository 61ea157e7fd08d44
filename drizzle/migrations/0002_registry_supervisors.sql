CREATE TABLE "device_identities" (
	"device_id" text NOT NULL,
	"identity" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "device_identities_device_id_identity_pk" PRIMARY KEY("device_id","identity")
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"device_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"role" text,
	"metadata" jsonb NOT NULL,
	"status" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"associated_since" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivation_reason" text,
	"deactivated_by" text,
	"conflict_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "registry_audit" (
	"id" text PRIMARY KEY NOT NULL,
	"device_id" text NOT NULL,
	"action" text NOT NULL,
	"from_user" text,
	"to_user" text,
	"reason" text,
	"by" text,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"metadata" jsonb,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supervisor_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"supervisor_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"hash" text NOT NULL,
	"display_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "supervisor_credentials_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "supervisors" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supervisors_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "supervisor_credentials" ADD CONSTRAINT "supervisor_credentials_supervisor_id_supervisors_id_fk" FOREIGN KEY ("supervisor_id") REFERENCES "public"."supervisors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_identities_last_seen_idx" ON "device_identities" USING btree ("device_id","last_seen");--> statement-breakpoint
CREATE INDEX "registrations_user_idx" ON "registrations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "registrations_role_idx" ON "registrations" USING btree ("role");--> statement-breakpoint
CREATE INDEX "registrations_status_idx" ON "registrations" USING btree ("status");--> statement-breakpoint
CREATE INDEX "registrations_branch_idx" ON "registrations" USING btree (("metadata"->>'branch'));--> statement-breakpoint
CREATE INDEX "registry_audit_device_at_idx" ON "registry_audit" USING btree ("device_id","at");--> statement-breakpoint
CREATE INDEX "supervisor_credentials_supervisor_idx" ON "supervisor_credentials" USING btree ("supervisor_id");