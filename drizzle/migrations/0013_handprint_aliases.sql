CREATE TABLE "handprint_aliases" (
	"legacy_id" text PRIMARY KEY NOT NULL,
	"handprint_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "handprint_aliases_handprint_id_idx" ON "handprint_aliases" USING btree ("handprint_id");
--> statement-breakpoint
CREATE INDEX "handprints_legacy_id_idx" ON "handprints" USING btree ("handprint_id") WHERE length("handprints"."handprint_id") = 25;
