-- Each e-mail's and phone's link count, kept beside its first sighting. `devices_seen` and `identities_seen` were
-- counted from intel_links on every event that carried the value: a value seen with 100,000 devices (a shared or
-- invented address) cost each of its events 100,000 index entries, and a client repeating one address with new
-- devices made every next event dearer. The count is now kept by the same statement that adds the links (one row
-- read per value), and set here once from the links stored so far.
ALTER TABLE "intel_sightings" ADD COLUMN "links" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "intel_sightings" s SET "links" = c.n
  FROM (SELECT kind, value, count(*)::int AS n FROM "intel_links" GROUP BY kind, value) c
  WHERE s.kind = c.kind AND s.value = c.value;
