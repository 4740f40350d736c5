# syntax=docker/dockerfile:1.7
# The control plane image. Build from the repository root:
#   docker build -f docker/control-plane.Dockerfile -t langgraph-platform/control-plane .
# Runs the TypeScript sources with tsx (no separate compile step); applies its database migrations
# at start-up; serves on PORT (8100).
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Dependencies, from the lockfile only (cached until a package.json or the lockfile changes).
#    Install scripts are skipped, as in development: nothing the services need runs one.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/console/package.json packages/console/
COPY packages/contracts/package.json packages/contracts/
COPY packages/server-kit/package.json packages/server-kit/
COPY services/control-plane/package.json services/control-plane/
COPY services/agent-runtime/package.json services/agent-runtime/
RUN npm ci --ignore-scripts --no-audit --no-fund

# 2. Build: the OpenAPI bundles and types from the contract fragments, the Prisma clients, and the
#    web console's static files (served under /console).
FROM deps AS build
COPY tsconfig.base.json tsconfig.json ./
COPY scripts/ scripts/
COPY packages/ packages/
COPY prisma/ prisma/
COPY services/control-plane/ services/control-plane/
COPY services/agent-runtime/ services/agent-runtime/
RUN npm run generate -w packages/contracts && npx tsx scripts/prisma-generate.ts \
  && npm run build -w packages/console

# 3. Production dependencies only.
FROM deps AS prod-deps
RUN npm ci --ignore-scripts --omit=dev --no-audit --no-fund

# 4. Runtime: production node_modules, the sources with their generated code, the migrations.
#    The agent runtime and git come along for the `local` deployer (DEPLOYER=local, the default),
#    which checks source revisions out and runs each in an agent runtime process inside this
#    container, under /app/.data/deployments (mount a volume at /app/.data). Being under /app, the
#    deployments' graphs resolve the runtime's packages from /app/node_modules.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=8100 \
    HOST=0.0.0.0
WORKDIR /app
RUN mkdir -p /app/.data/deployments && chown -R node:node /app/.data
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/tsconfig.base.json /app/tsconfig.json ./
COPY --from=build /app/packages ./packages
COPY --from=build /app/services/control-plane ./services/control-plane
COPY --from=build /app/services/agent-runtime ./services/agent-runtime
COPY --from=build /app/prisma/control-plane/migrations ./prisma/control-plane/migrations
COPY --from=build /app/prisma/agent-runtime/migrations ./prisma/agent-runtime/migrations
COPY --from=build /app/scripts/migrate.ts ./scripts/migrate.ts
# The image's files stay root-owned and read-only to the service (but /app/.data); tsx caches in /tmp.
# Numeric, so Kubernetes can verify runAsNonRoot (the node image's `node` user).
USER 1000:1000
EXPOSE 8100
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8100) + '/ok').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "services/control-plane/src/main.ts"]
