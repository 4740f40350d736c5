-- How many threads hold each status, kept by triggers beside the unfiltered count (row_counts,
-- relation 'threads:status:<status>', 16 shards like the others), so that a count or a search's
-- X-Pagination-Total filtered by status alone (a console's "busy threads") reads 16 rows instead of
-- counting a third of a million threads. Exact: a count changes in the transaction that changes
-- the rows. Expand-only: new rows, functions and triggers; the older triggers are left as they are.
--
-- Lock order: a statement takes its counter rows in relation order ('threads' first, by the older
-- triggers, whose names sort first; then the statuses, sorted), so two of the runtime's writes
-- sharing a shard (two connections whose pid is the same modulo 16; each write is one statement)
-- queue on one another, never deadlock. (An UPDATE changing the status of many rows takes each
-- row's pair in turn, not sorted across rows: the runtime makes none; a script doing so may meet a
-- deadlock error, which PostgreSQL resolves by failing one of them.)
-- A status is any text (the column has no check): a status seen for the first time makes its rows.

CREATE FUNCTION "thread_status_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT 'threads:status:' || status, chosen, count(*) FROM inserted GROUP BY status ORDER BY 1
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE FUNCTION "thread_status_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT 'threads:status:' || status, chosen, -count(*) FROM deleted GROUP BY status ORDER BY 1
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

-- Per row, and only for a row whose status changed (the WHEN is checked without calling the
-- function): most thread updates (metadata, state, expiry, a run's start on a busy thread) cost
-- nothing; a change costs one statement on two counter rows. A statement-level trigger would need
-- transition tables, which PostgreSQL refuses with `UPDATE OF status`: it would run on every update.
CREATE FUNCTION "thread_status_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT relation, chosen, delta
  FROM (VALUES ('threads:status:' || OLD.status, -1), ('threads:status:' || NEW.status, 1)) AS change (relation, delta)
  ORDER BY relation
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE FUNCTION "thread_status_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET count = 0 WHERE relation LIKE 'threads:status:%';
  RETURN NULL;
END $$;

-- Creating the triggers locks out writes to threads until this migration commits (a release still
-- serving waits, then its writes are counted), so the counts below miss none and count none twice.
CREATE TRIGGER "threads_status_counted_insert" AFTER INSERT ON "threads"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "thread_status_counts_inserted"();
CREATE TRIGGER "threads_status_counted_delete" AFTER DELETE ON "threads"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "thread_status_counts_deleted"();
CREATE TRIGGER "threads_status_counted_update" AFTER UPDATE OF "status" ON "threads"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "thread_status_counts_updated"();
CREATE TRIGGER "threads_status_counted_truncate" AFTER TRUNCATE ON "threads"
  FOR EACH STATEMENT EXECUTE FUNCTION "thread_status_counts_truncated"();

-- The four statuses the runtime sets, on every shard (a trigger then only ever updates them), and
-- the threads there are now, on shard 0.
INSERT INTO "row_counts" ("relation", "shard", "count")
SELECT 'threads:status:' || status, shard, 0
FROM unnest(ARRAY['busy', 'error', 'idle', 'interrupted']) AS status, generate_series(0, 15) AS shard;
INSERT INTO "row_counts" ("relation", "shard", "count")
SELECT 'threads:status:' || "status", 0, count(*) FROM "threads" GROUP BY "status"
ON CONFLICT ("relation", "shard") DO UPDATE SET "count" = EXCLUDED."count";
