-- An event's row passes PostgreSQL's TOAST threshold (about 2 kB) when its answer is large: a `unique` behavior that
-- returns its values over a full window (the `history` bench's transfers answer ~67 of them, 2.3 kB of `response`).
-- The row is then compressed on insert, with pglz by default, and the partial indexes on `response` read it back. On
-- this project's 2-vCPU machine pglz cost ~9.5 µs of PostgreSQL CPU per such event, lz4 ~4 µs (rows 2.02 kB and
-- 2.21 kB). lz4 only where the server is built with it (Debian's is; PGlite is not, and keeps pglz). A partitioned
-- table's setting is not passed to its existing partitions, so each is set; partitions made later copy it
-- (server/src/retention/partitions.ts creates them LIKE the parent, INCLUDING COMPRESSION).
DO $$
DECLARE
  t regclass;
BEGIN
  IF (SELECT 'lz4' = ANY (enumvals) FROM pg_settings WHERE name = 'default_toast_compression') THEN
    FOR t IN SELECT 'events'::regclass UNION ALL SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'events'::regclass LOOP
      EXECUTE format('ALTER TABLE %s ALTER COLUMN response SET COMPRESSION lz4, ALTER COLUMN properties SET COMPRESSION lz4', t);
    END LOOP;
  END IF;
END $$;
