-- CreateTable
CREATE TABLE "oauth_providers" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_encrypted" TEXT,
    "auth_url" TEXT NOT NULL,
    "token_url" TEXT NOT NULL,
    "issuer" TEXT,
    "uses_pkce" BOOLEAN NOT NULL DEFAULT false,
    "code_challenge_method" TEXT NOT NULL DEFAULT 'S256',
    "token_endpoint_auth_method" TEXT NOT NULL DEFAULT 'client_secret_post',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_authorizations" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "user_id" TEXT,
    "scopes" TEXT[],
    "state_hash" TEXT NOT NULL,
    "code_verifier_encrypted" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "error_description" TEXT,
    "token_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "state_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth_authorizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_tokens" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "user_id" TEXT,
    "scopes" TEXT[],
    "token_type" TEXT NOT NULL,
    "access_token_encrypted" TEXT NOT NULL,
    "refresh_token_encrypted" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_providers_tenant_id_provider_id_key" ON "oauth_providers"("tenant_id", "provider_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_authorizations_state_hash_key" ON "oauth_authorizations"("state_hash");

-- CreateIndex
CREATE INDEX "oauth_authorizations_tenant_id_idx" ON "oauth_authorizations"("tenant_id");

-- CreateIndex
CREATE INDEX "oauth_authorizations_provider_id_idx" ON "oauth_authorizations"("provider_id");

-- CreateIndex
CREATE INDEX "oauth_authorizations_token_id_idx" ON "oauth_authorizations"("token_id");

-- CreateIndex
CREATE INDEX "oauth_tokens_tenant_id_provider_id_user_id_idx" ON "oauth_tokens"("tenant_id", "provider_id", "user_id");

-- CreateIndex
CREATE INDEX "oauth_tokens_provider_id_idx" ON "oauth_tokens"("provider_id");

-- AddForeignKey
ALTER TABLE "oauth_providers" ADD CONSTRAINT "oauth_providers_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_authorizations" ADD CONSTRAINT "oauth_authorizations_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_authorizations" ADD CONSTRAINT "oauth_authorizations_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "oauth_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_authorizations" ADD CONSTRAINT "oauth_authorizations_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "oauth_tokens"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "oauth_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
