-- When a run's first attempt started and when it was due (its creation, or after_seconds later):
-- queue wait and run duration (metrics, the console's monitoring view, which so reads neither
-- from the run's kwargs), and an index for reading the runs of a time window.
ALTER TABLE "runs" ADD COLUMN "started_at" TIMESTAMPTZ(3);
ALTER TABLE "runs" ADD COLUMN "due_at" TIMESTAMPTZ(3);
CREATE INDEX "runs_created_at_idx" ON "runs"("created_at");
