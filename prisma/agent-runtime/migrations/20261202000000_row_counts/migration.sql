-- How many threads and assistants there are, kept by triggers, so that an unfiltered search or
-- count (a console's list of every thread: X-Pagination-Total) reads 16 rows instead of counting a
-- million. Sharded by connection: concurrent creates add to different rows instead of queueing on one.
-- The triggers are per statement (a sweep deleting a thousand threads updates one shard once).
-- Exact: a count changes in the transaction that creates or deletes the rows.
CREATE TABLE "row_counts" (
    "relation" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "row_counts_pkey" PRIMARY KEY ("relation","shard")
);

CREATE FUNCTION "row_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- The connection's own shard: every statement of a transaction takes the same row's lock (two
  -- transactions each holding one shard and waiting for the other's cannot happen), and
  -- connections working at once mostly take different rows.
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  UPDATE row_counts SET count = count + (SELECT count(*) FROM inserted)
  WHERE relation = TG_TABLE_NAME AND shard = chosen;
  RETURN NULL;
END $$;

CREATE FUNCTION "row_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  UPDATE row_counts SET count = count - (SELECT count(*) FROM deleted)
  WHERE relation = TG_TABLE_NAME AND shard = chosen;
  RETURN NULL;
END $$;

CREATE FUNCTION "row_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET count = 0 WHERE relation = TG_TABLE_NAME;
  RETURN NULL;
END $$;

-- Creating the triggers locks out writes to each table until this migration commits (a release
-- still serving waits, then its creates are counted), so the counts below miss none and count none
-- twice.
CREATE TRIGGER "threads_counted_insert" AFTER INSERT ON "threads"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_inserted"();
CREATE TRIGGER "threads_counted_delete" AFTER DELETE ON "threads"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_deleted"();
CREATE TRIGGER "threads_counted_truncate" AFTER TRUNCATE ON "threads"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncated"();
CREATE TRIGGER "assistants_counted_insert" AFTER INSERT ON "assistants"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_inserted"();
CREATE TRIGGER "assistants_counted_delete" AFTER DELETE ON "assistants"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_deleted"();
CREATE TRIGGER "assistants_counted_truncate" AFTER TRUNCATE ON "assistants"
  FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncated"();

INSERT INTO "row_counts" ("relation", "shard", "count")
SELECT relation, shard, 0 FROM unnest(ARRAY['threads', 'assistants']) AS relation, generate_series(0, 15) AS shard;
UPDATE "row_counts" SET "count" = (SELECT count(*) FROM "threads") WHERE "relation" = 'threads' AND "shard" = 0;
UPDATE "row_counts" SET "count" = (SELECT count(*) FROM "assistants") WHERE "relation" = 'assistants' AND "shard" = 0;
