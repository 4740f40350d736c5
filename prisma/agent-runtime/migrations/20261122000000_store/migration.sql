-- CreateTable
CREATE TABLE "store_items" (
    "namespace" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "ttl_minutes" DOUBLE PRECISION,

    CONSTRAINT "store_items_pkey" PRIMARY KEY ("namespace","key")
);

-- CreateIndex
CREATE INDEX "store_items_expires_at_idx" ON "store_items"("expires_at");
