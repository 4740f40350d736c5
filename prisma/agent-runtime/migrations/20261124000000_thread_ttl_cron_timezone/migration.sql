-- AlterTable
ALTER TABLE "crons" ADD COLUMN "timezone" TEXT;

-- AlterTable
ALTER TABLE "threads" ADD COLUMN "expires_at" TIMESTAMPTZ(3),
ADD COLUMN "ttl_strategy" TEXT;

-- CreateIndex
CREATE INDEX "threads_expires_at_idx" ON "threads"("expires_at");
