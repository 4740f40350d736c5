-- CreateTable
CREATE TABLE "store_vectors" (
    "namespace" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "embedding" REAL[],

    CONSTRAINT "store_vectors_pkey" PRIMARY KEY ("namespace","key","path","position")
);

-- AddForeignKey
ALTER TABLE "store_vectors" ADD CONSTRAINT "store_vectors_namespace_key_fkey" FOREIGN KEY ("namespace", "key") REFERENCES "store_items"("namespace", "key") ON DELETE CASCADE ON UPDATE CASCADE;
