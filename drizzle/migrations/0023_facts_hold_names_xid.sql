-- A write whose cached facts proved stale (or whose proof failed) is undone by this function's exception. It now
-- names the transaction id the undone write had taken, if any: that id then lies between the process's group commits
-- like any other, and without it the process would take it for another writer's, end its chain of proofs, and compare
-- every cached fact again (server/src/pipeline/fact-cache.ts). `_if_assigned`: asking takes no id where none was.
CREATE OR REPLACE FUNCTION vigil_facts_hold(stale boolean) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF stale THEN
    RAISE EXCEPTION 'cached facts are stale' USING ERRCODE = 'VGS01', DETAIL = coalesce(pg_current_xact_id_if_assigned()::text, '');
  END IF;
  RETURN true;
END $$;
