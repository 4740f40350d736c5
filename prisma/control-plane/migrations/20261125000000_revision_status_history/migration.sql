-- A revision's status history: `[{status, at, message}]`, one entry per status change after its
-- creation, appended by the same guarded UPDATE that changes the status. Revisions made before
-- this keep `[]`; the API answers their creation and, if they moved since, their current status.
ALTER TABLE "revisions" ADD COLUMN "status_history" JSONB NOT NULL DEFAULT '[]';
