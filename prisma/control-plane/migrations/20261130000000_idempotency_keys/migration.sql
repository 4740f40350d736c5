-- Idempotency keys (issue 39): one row per key a client sent on a create (`Idempotency-Key`),
-- within its scope (a tenant, a user or an API key), holding what a repeat of that request is
-- answered: the first answer, or the resource a stream or wait created. Rows expire after
-- IDEMPOTENCY_KEY_TTL_SECONDS and are swept (packages/server-kit/src/idempotency).
CREATE TABLE "idempotency_keys" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "token" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "resource" JSONB,
    "status" INTEGER,
    "headers" JSONB,
    "body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("scope", "key")
);

CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");
