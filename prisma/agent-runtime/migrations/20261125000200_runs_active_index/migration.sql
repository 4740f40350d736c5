-- A thread's active runs (pending or running) are what creating, claiming and finishing a run
-- look up, and what the sweeps scan. A partial index holds only those, so each lookup reads the
-- same few rows however many runs the thread has finished and however many other threads have
-- runs waiting; by thread and date, or by status, a run read the thread's whole history, or the
-- whole backlog. The index by status goes: every query of it was for active runs, which the new
-- one serves, and each status change wrote to it.
-- Prisma's schema cannot state a partial index: it lives here only (see runs.prisma).
CREATE INDEX "runs_active_thread_idx" ON "runs"("thread_id", "run_id") WHERE "status" IN ('pending', 'running');

DROP INDEX "runs_status_idx";
