-- How many assistants each graph has, kept by triggers beside the unfiltered count (row_counts,
-- 16 shards like the others), so that a count or a search's X-Pagination-Total filtered by graph_id
-- alone (a console's assistants of a graph) reads 16 rows instead of counting the graph's
-- assistants: a million when most are one graph's. Exact: a count changes in the transaction that
-- changes the rows. Expand-only: new rows, functions and triggers; the older ones are left as they are.
--
-- A graph's rows are named by assistants_graph_relation: 'assistants:graph:<graph_id>', or for a
-- graph id over 1 kB 'assistants:graph#<sha256 of it>' (the primary key of row_counts is a btree,
-- whose entries may not pass 2,704 bytes; assistants_graph_id_idx already refuses ids about that
-- long, and the prefix must not refuse ids it takes). ':' and '#' keep the two forms apart.
-- The runtime reads the count through the same function, so the naming is in one place.
--
-- Lock order: a statement takes its counter rows in relation order ('assistants' first, by the
-- older triggers, whose names sort first; then the graphs', sorted), so two of the runtime's writes
-- sharing a shard queue on one another, never deadlock. (An UPDATE moving many assistants between
-- graphs takes each row's pair in turn: the runtime makes none; a script doing so may meet a
-- deadlock error, which PostgreSQL resolves by failing one of them.)

CREATE FUNCTION "assistants_graph_relation"(graph_id TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN octet_length(graph_id) <= 1024 THEN 'assistants:graph:' || graph_id
              ELSE 'assistants:graph#' || encode(sha256(convert_to(graph_id, 'UTF8')), 'hex') END
$$;

CREATE FUNCTION "assistant_graph_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT assistants_graph_relation(graph_id), chosen, count(*) FROM inserted GROUP BY 1 ORDER BY 1
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE FUNCTION "assistant_graph_counts_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT assistants_graph_relation(graph_id), chosen, -count(*) FROM deleted GROUP BY 1 ORDER BY 1
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

-- Per row, and only for a row whose graph changed (an update naming another graph_id, or making a
-- version of another graph the latest; the WHEN is checked without calling the function): every
-- other update (name, config, metadata, a version of the same graph) costs nothing. A
-- statement-level trigger would need transition tables, which PostgreSQL refuses with `UPDATE OF`.
CREATE FUNCTION "assistant_graph_counts_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  chosen INTEGER := pg_backend_pid() % 16;
BEGIN
  INSERT INTO row_counts (relation, shard, count)
  SELECT relation, chosen, delta
  FROM (VALUES (assistants_graph_relation(OLD.graph_id), -1), (assistants_graph_relation(NEW.graph_id), 1))
    AS change (relation, delta)
  ORDER BY relation
  ON CONFLICT (relation, shard) DO UPDATE SET count = row_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE FUNCTION "assistant_graph_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET count = 0 WHERE relation LIKE 'assistants:graph:%' OR relation LIKE 'assistants:graph#%';
  RETURN NULL;
END $$;

-- Creating the triggers locks out writes to assistants until this migration commits (a release
-- still serving waits, then its writes are counted), so the counts below miss none and count none twice.
CREATE TRIGGER "assistants_graph_counted_insert" AFTER INSERT ON "assistants"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "assistant_graph_counts_inserted"();
CREATE TRIGGER "assistants_graph_counted_delete" AFTER DELETE ON "assistants"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "assistant_graph_counts_deleted"();
CREATE TRIGGER "assistants_graph_counted_update" AFTER UPDATE OF "graph_id" ON "assistants"
  FOR EACH ROW WHEN (OLD."graph_id" IS DISTINCT FROM NEW."graph_id") EXECUTE FUNCTION "assistant_graph_counts_updated"();
CREATE TRIGGER "assistants_graph_counted_truncate" AFTER TRUNCATE ON "assistants"
  FOR EACH STATEMENT EXECUTE FUNCTION "assistant_graph_counts_truncated"();

-- The graphs there are now (a graph's default assistant among them), on every shard (a trigger
-- then mostly updates them; a graph seen later makes its rows), their assistants on shard 0.
INSERT INTO "row_counts" ("relation", "shard", "count")
SELECT graph.relation, shard, CASE WHEN shard = 0 THEN graph.n ELSE 0 END
FROM (SELECT assistants_graph_relation("graph_id") AS relation, count(*) AS n FROM "assistants" GROUP BY 1) AS graph,
  generate_series(0, 15) AS shard;
