-- The agent runtimes' own log lines, collected into their revision's deploy log: their structured
-- fields, and an index for the retention sweep (by age).
ALTER TABLE "revision_logs" ADD COLUMN "fields" JSONB;
CREATE INDEX "revision_logs_timestamp_idx" ON "revision_logs"("timestamp");
