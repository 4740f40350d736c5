-- Listeners (issue 38): a tenant's Kubernetes cluster and the namespaces its deployments may be
-- placed in. A deployment placed on one references it; deployments made before listeners existed
-- reference none (a listener_id they carry in source_config named nothing here).
CREATE TABLE "listeners" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "compute_type" TEXT NOT NULL,
    "compute_id" TEXT NOT NULL,
    "k8s_namespaces" TEXT[],
    "version" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "listeners_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "listeners_tenant_id_compute_id_key" ON "listeners"("tenant_id", "compute_id");
CREATE UNIQUE INDEX "listeners_tenant_id_seq_key" ON "listeners"("tenant_id", "seq");

ALTER TABLE "listeners" ADD CONSTRAINT "listeners_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- NO ACTION (checked at the end of the statement): a listener in use cannot be deleted, and
-- deleting a tenant still removes its deployments and listeners together.
ALTER TABLE "deployments" ADD COLUMN "listener_id" UUID;
CREATE INDEX "deployments_listener_id_idx" ON "deployments"("listener_id");
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_listener_id_fkey" FOREIGN KEY ("listener_id") REFERENCES "listeners"("id") ON DELETE NO ACTION ON UPDATE CASCADE;
