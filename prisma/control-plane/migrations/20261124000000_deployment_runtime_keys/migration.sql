-- The key of a deployment's agent runtime (issue 13): only its hash (`sha256:<hex>`, the form the
-- runtime's API_KEY_HASHES takes) and its first characters, to tell keys apart; the key itself is
-- shown once. Deployments made before this have none (their runtimes stay open) until rotated.
ALTER TABLE "deployments" ADD COLUMN "runtime_key_hash" TEXT;
ALTER TABLE "deployments" ADD COLUMN "runtime_key_prefix" TEXT;
