-- AddForeignKey
ALTER TABLE "crons" ADD CONSTRAINT "crons_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("thread_id") ON DELETE CASCADE ON UPDATE CASCADE;
