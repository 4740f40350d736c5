-- Semantic search by lists (issue 40): an IVF index in plain PostgreSQL (no pgvector). Centroids
-- trained by k-means on a sample of the vectors (store/vector-lists.ts) split the vectors into
-- lists; each vector is put in its nearest list when written, and a search reads only the vectors
-- of the query's nearest lists. A training is a generation: vectors of an older one are moved to
-- the newest in the background, and searched by their own generation's lists meanwhile.

-- The vector as float32 (big-endian, as float4send writes it): what a search reads and scores in
-- Node, a quarter of real[]'s text. And the list it was put in, under which generation.
ALTER TABLE "store_vectors" ADD COLUMN "embedding_f32" BYTEA,
    ADD COLUMN "list_generation" INTEGER,
    ADD COLUMN "list" INTEGER;

CREATE INDEX "store_vectors_list_idx" ON "store_vectors"("list_generation", "list");

-- CreateTable
CREATE TABLE "store_vector_trainings" (
    "generation" SERIAL NOT NULL,
    "dims" INTEGER NOT NULL,
    "lists" INTEGER NOT NULL,
    "vectors" INTEGER NOT NULL,
    "trained_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "store_vector_trainings_pkey" PRIMARY KEY ("generation")
);

-- CreateTable
CREATE TABLE "store_vector_lists" (
    "generation" INTEGER NOT NULL,
    "list" INTEGER NOT NULL,
    "centroid" BYTEA NOT NULL,

    CONSTRAINT "store_vector_lists_pkey" PRIMARY KEY ("generation","list")
);
