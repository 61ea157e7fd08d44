CREATE TABLE "handprint_aliases" (
	"legacy_id" text PRIMARY KEY NOT NULL,
	"handprint_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "handprint_aliases_handprint_id_idx" ON "handprint_aliases" USING btree ("handprint_id");
