-- How many threads there are, kept by triggers, so that an unfiltered threads/search or count (a
-- console's list of every thread: X-Pagination-Total) reads 16 rows instead of counting a million.
-- Sharded: concurrent creates each add to a random shard instead of queueing on one row. The
-- triggers are per statement (a sweep deleting a thousand threads updates one shard once). Exact:
-- a count changes in the transaction that creates or deletes the threads.
CREATE TABLE "thread_counts" (
    "shard" INTEGER NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "thread_counts_pkey" PRIMARY KEY ("shard")
);

CREATE FUNCTION "thread_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- Drawn once: random() in the WHERE clause would be drawn again for every row it compares.
  chosen INTEGER := floor(random() * 16)::int;
BEGIN
  UPDATE thread_counts SET count = count + (SELECT count(*) FROM inserted) WHERE shard = chosen;
  RETURN NULL;
END $$;

CREATE FUNCTION "thread_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- Drawn once: random() in the WHERE clause would be drawn again for every row it compares.
  chosen INTEGER := floor(random() * 16)::int;
BEGIN
  UPDATE thread_counts SET count = count - (SELECT count(*) FROM deleted) WHERE shard = chosen;
  RETURN NULL;
END $$;

CREATE FUNCTION "thread_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE thread_counts SET count = 0;
  RETURN NULL;
END $$;

-- Creating the triggers locks out writes to threads until this migration commits (a release still
-- serving waits, then its creates are counted), so the count below misses none and counts none twice.
CREATE TRIGGER "threads_counted_insert" AFTER INSERT ON "threads"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "thread_counts_inserted"();
CREATE TRIGGER "threads_counted_delete" AFTER DELETE ON "threads"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "thread_counts_deleted"();
CREATE TRIGGER "threads_counted_truncate" AFTER TRUNCATE ON "threads"
  FOR EACH STATEMENT EXECUTE FUNCTION "thread_counts_truncated"();

INSERT INTO "thread_counts" ("shard", "count") SELECT shard, 0 FROM generate_series(0, 15) AS shard;
UPDATE "thread_counts" SET "count" = (SELECT count(*) FROM "threads") WHERE "shard" = 0;
