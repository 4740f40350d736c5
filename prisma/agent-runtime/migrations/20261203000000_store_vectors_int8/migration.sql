-- Semantic search by lists at realistic dims (issue 40): a compact int8 copy of each vector, what a
-- search reads for its thousands of candidates. At 1536 dims the float32 copy (6 KB) is stored out
-- of line (TOAST), and reading it for every candidate dominated a search; the int8 copy (a float32
-- scale, big-endian, then one signed byte per dimension: 1.5 KB) stays in the row, so the
-- candidates cost one heap read each. Only the best few are then re-ranked by their float32 copy.
-- Vectors written before this are given theirs by the background upkeep; until then a search
-- scores them by their float32 copy.
ALTER TABLE "store_vectors" ADD COLUMN "embedding_i8" BYTEA;

-- MAIN: kept in the row (uncompressed: int8 noise does not compress), moved out of line only if the
-- row could not fit in a page otherwise, not at the 2 KB at which EXTENDED values are.
ALTER TABLE "store_vectors" ALTER COLUMN "embedding_i8" SET STORAGE MAIN;

-- The vectors still without their copy, for the upkeep to find without reading the table: every
-- vector written before this at first, none once they are filled (a put writes the copy).
CREATE INDEX "store_vectors_unquantized_idx" ON "store_vectors"("namespace", "key", "path", "position")
    WHERE "embedding_i8" IS NULL;
