-- When a run's first attempt started: queue wait and run duration (metrics, the console's
-- monitoring view), and an index for reading the runs of a time window.
ALTER TABLE "runs" ADD COLUMN "started_at" TIMESTAMPTZ(3);
CREATE INDEX "runs_created_at_idx" ON "runs"("created_at");
