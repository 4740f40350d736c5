-- CreateTable
CREATE TABLE "a2a_tasks" (
    "task_id" TEXT NOT NULL,
    "assistant_id" TEXT NOT NULL,
    "task" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_tasks_pkey" PRIMARY KEY ("task_id")
);
