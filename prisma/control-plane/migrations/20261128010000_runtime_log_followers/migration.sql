-- Which control plane follows a deployment's pod logs (kubernetes deployer), by lease.
CREATE TABLE "runtime_log_followers" (
    "deployment_id" UUID NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "runtime_log_followers_pkey" PRIMARY KEY ("deployment_id")
);

ALTER TABLE "runtime_log_followers" ADD CONSTRAINT "runtime_log_followers_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
