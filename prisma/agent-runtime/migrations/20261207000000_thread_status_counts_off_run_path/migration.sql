-- Threads per status without a counter write on every run. Every run moves its thread from idle to
-- busy and back, and the counters of thread_status_counts made each move cost a trigger call and
-- a statement on two counter rows (about 0.1 ms of PostgreSQL's CPU per run, measured: 2.5% of a
-- whole run's cost in the bench's ceiling). Now those two statuses are not kept: busy threads (one
-- per run in flight or queued, however many threads there are) are counted by the status index,
-- and idle ones are the kept total less the busy ones and the kept others (error, interrupted and
-- any other status, which runs leave or enter far less often). The runtime reads it so from this
-- migration on (threads/count and a search's total filtered by status alone).
-- Replaces what thread_status_counts made, which no release has shipped (expand-only holds for it).

CREATE OR REPLACE FUNCTION "thread_status_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT 'threads:status:' || status, chosen, count(*) FROM inserted
  WHERE status NOT IN ('idle', 'busy') GROUP BY status ORDER BY 1
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "thread_status_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT 'threads:status:' || status, chosen, -count(*) FROM deleted
  WHERE status NOT IN ('idle', 'busy') GROUP BY status ORDER BY 1
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

-- Called only when a kept status is left or entered (the trigger's WHEN, below).
CREATE OR REPLACE FUNCTION "thread_status_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT 'threads:status:' || status, chosen, delta
  FROM (VALUES (OLD.status, -1), (NEW.status, 1)) AS change (status, delta)
  WHERE status NOT IN ('idle', 'busy')
  ORDER BY 1
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

-- Between idle and busy the trigger is not even called. Dropped and made again in this migration's
-- transaction: no write goes uncounted between the two.
DROP TRIGGER "threads_status_counted_update" ON "threads";
CREATE TRIGGER "threads_status_counted_update" AFTER UPDATE OF "status" ON "threads"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status"
                     AND NOT (OLD."status" IN ('idle', 'busy') AND NEW."status" IN ('idle', 'busy')))
  EXECUTE FUNCTION "thread_status_counts_updated"();

-- Their counters are read no more.
DELETE FROM "row_counts" WHERE "relation" IN ('threads:status:idle', 'threads:status:busy');
