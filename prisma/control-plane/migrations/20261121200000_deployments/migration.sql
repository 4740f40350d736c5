-- CreateTable
CREATE TABLE "deployments" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'AWAITING_DATABASE',
    "source_config" JSONB NOT NULL,
    "source_revision_config" JSONB NOT NULL,
    "secrets" JSONB NOT NULL DEFAULT '[]',
    "secret_references" JSONB NOT NULL DEFAULT '[]',
    "deployment_type" TEXT,
    "remote_reconciled" BOOLEAN NOT NULL DEFAULT false,
    "image_version" TEXT,
    "tag_value_ids" JSONB NOT NULL DEFAULT '[]',
    "latest_revision_id" UUID,
    "active_revision_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deployments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revisions" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "deployment_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'CREATING',
    "status_message" TEXT,
    "source" TEXT NOT NULL,
    "source_revision_config" JSONB NOT NULL,
    "resource_spec" JSONB,
    "secrets" JSONB NOT NULL DEFAULT '[]',
    "repo_commit_sha" TEXT,
    "artifact" TEXT,
    "url" TEXT,
    "interruptions" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revision_logs" (
    "id" BIGSERIAL NOT NULL,
    "revision_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revision_logs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "deployments_tenant_id_name_key" ON "deployments"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "deployments_tenant_id_seq_key" ON "deployments"("tenant_id", "seq");

-- CreateIndex
CREATE INDEX "revisions_status_idx" ON "revisions"("status");

-- CreateIndex
CREATE UNIQUE INDEX "revisions_deployment_id_seq_key" ON "revisions"("deployment_id", "seq");

-- CreateIndex
CREATE INDEX "revision_logs_revision_id_kind_id_idx" ON "revision_logs"("revision_id", "kind", "id");

-- AddForeignKey
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revision_logs" ADD CONSTRAINT "revision_logs_revision_id_fkey" FOREIGN KEY ("revision_id") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
