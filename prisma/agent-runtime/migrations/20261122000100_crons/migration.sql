-- CreateTable
CREATE TABLE "crons" (
    "cron_id" UUID NOT NULL,
    "assistant_id" UUID NOT NULL,
    "thread_id" UUID,
    "user_id" TEXT,
    "schedule" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "on_run_completed" TEXT,
    "end_time" TIMESTAMPTZ(3),
    "next_run_date" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crons_pkey" PRIMARY KEY ("cron_id")
);

-- CreateIndex
CREATE INDEX "crons_assistant_id_idx" ON "crons"("assistant_id");

-- CreateIndex
CREATE INDEX "crons_thread_id_idx" ON "crons"("thread_id");
