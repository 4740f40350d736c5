-- assistants/search by graph_id, newest first (its default order): with only the graph's own
-- index and the date's, a page of a graph holding a small share of a million assistants either
-- sorts all of the graph's rows or walks the date index past everyone else's (a graph of 1 in
-- 100 reads about 100 rows per row answered). On (graph_id, created_at) the page reads what it
-- answers. Expand-only: assistants_graph_id_idx stays (its prefix, now redundant) until a
-- contract release drops it.
CREATE INDEX "assistants_graph_id_created_at_idx" ON "assistants"("graph_id", "created_at", "assistant_id");
