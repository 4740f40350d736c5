-- A thread's runs in id order: the runs list (newest first, a page at a time), a thread stream's
-- latest run and its wait for the thread's next run (every 250 ms while it waits) ask for them.
-- The index by thread and date gave no order (nothing orders runs by date), so each of those read
-- and sorted the thread's whole history; the index by thread and id reads only what they return.
DROP INDEX "runs_thread_id_created_at_idx";
CREATE INDEX "runs_thread_id_run_id_idx" ON "runs"("thread_id", "run_id");

-- The active runs' lookups (creating, claiming, finishing a run) ask for a thread's first active
-- run in id order so that the planner takes the partial index of active runs: on statistics taken
-- while most runs waited, it looks as big as any index of the thread's runs, and a lookup through
-- one of those reads the thread's history. With the index above also giving a thread's runs in id
-- order, both would serve that; keyed by the id's text (the same order: lowercase hex at fixed
-- places, compared bytewise), the partial index is the only one that gives the lookups' order.
DROP INDEX "runs_active_thread_idx";
CREATE INDEX "runs_active_thread_idx" ON "runs"("thread_id", ("run_id"::text) COLLATE "C") WHERE "status" IN ('pending', 'running');
