-- Semantic search by lists at realistic dims (issue 40): a search reads the int8 copies of its
-- candidates, thousands of rows scattered over store_vectors (at 100k vectors of 1536 dims, a
-- 5,000-vector search visited 4,400 heap pages, most not in shared buffers). This index holds each
-- vector's copy with its namespace and key, ordered by list: a list's copies are read together
-- from its leaf pages by an index-only scan (1,300 pages for the same search).
--
-- A btree entry holds at most 2,704 bytes: vectors whose namespace, key and copy are longer
-- together (over about 2,590 dims, or a long namespace and key) are left out of it, and listed in
-- the second index instead, with those without a copy yet; a search reads those from the table.
-- Expand-only: store_vectors_list_idx stays (the upkeep's reads use it).
CREATE INDEX "store_vectors_list_codes_idx" ON "store_vectors"("list_generation", "list")
    INCLUDE ("namespace", "key", "embedding_i8")
    WHERE octet_length("namespace") + octet_length("key") + octet_length("embedding_i8") < 2600;

CREATE INDEX "store_vectors_list_uncovered_idx" ON "store_vectors"("list_generation", "list")
    WHERE "embedding_i8" IS NULL
       OR octet_length("namespace") + octet_length("key") + octet_length("embedding_i8") >= 2600;
