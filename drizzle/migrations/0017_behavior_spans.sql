-- Spans: the sums of 8 consecutive behavior buckets, a cache the window reads build (server/src/behaviors/store.ts).
-- A full window's body was one bucket row per bucket, each on its own heap page once a store has some history; with
-- spans it is a few span rows and the buckets at its two ends. Empty at first: the reads build them as they go.
CREATE TABLE "behavior_spans" (
	"behavior_id" text NOT NULL,
	"group_key" text NOT NULL,
	"span" bigint NOT NULL,
	"count" bigint NOT NULL,
	"sum" double precision NOT NULL,
	"items" text[],
	CONSTRAINT "behavior_spans_behavior_id_group_key_span_pk" PRIMARY KEY("behavior_id","group_key","span")
);
--> statement-breakpoint
CREATE INDEX "behavior_spans_age_idx" ON "behavior_spans" USING btree ("behavior_id","span");