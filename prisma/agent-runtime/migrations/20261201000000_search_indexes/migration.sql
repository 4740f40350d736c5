-- Indexes for the searches and lists (issue 40): at a million threads, assistants or store items
-- each read through one of these instead of the whole table (EXPLAINed in
-- test/threads/search-plans.test.ts). Metadata filters are JSON containment (`@>`), which a GIN
-- index with jsonb_path_ops serves; sorts by date walk a date index and stop at the page.
-- Plain CREATE INDEX: each migration runs in a transaction, where CONCURRENTLY cannot.
CREATE INDEX "threads_metadata_idx" ON "threads" USING GIN ("metadata" jsonb_path_ops);
CREATE INDEX "threads_updated_at_idx" ON "threads"("updated_at");
CREATE INDEX "threads_status_updated_at_idx" ON "threads"("status", "updated_at");

CREATE INDEX "assistants_metadata_idx" ON "assistants" USING GIN ("metadata" jsonb_path_ops);
CREATE INDEX "assistants_created_at_idx" ON "assistants"("created_at");
CREATE INDEX "assistants_updated_at_idx" ON "assistants"("updated_at");
CREATE INDEX "assistants_name_idx" ON "assistants"("name");

-- A store search's filter on a field's value also asks for the value's containment of it (see
-- store/repository.ts), which this index serves; the newest items first walk the date index.
CREATE INDEX "store_items_value_idx" ON "store_items" USING GIN ("value" jsonb_path_ops);
CREATE INDEX "store_items_updated_at_idx" ON "store_items"("updated_at");
-- A namespace prefix (`starts_with(namespace, ...)`) reads a range of this index: byte order, which
-- the table's key has only where the database's collation is C.
CREATE INDEX "store_items_namespace_prefix_idx" ON "store_items"("namespace" COLLATE "C");
