# syntax=docker/dockerfile:1.7
# The agent runtime image: serves the graphs of one LangGraph project. Build from the repository root:
#   docker build -f docker/agent-runtime.Dockerfile -t langgraph-platform/agent-runtime .
# The project it serves is named by LANGGRAPH_JSON (default: the bundled examples at
# /app/examples/langgraph.json). To serve your own, mount or copy it at /project and set
# LANGGRAPH_JSON=/project/langgraph.json; its graph files are loaded with tsx, and packages it does
# not install itself resolve from the runtime's own node_modules (NODE_PATH).
# The API process (this CMD) and queue workers (`node --import tsx services/agent-runtime/src/worker.ts`)
# share the image. Database migrations are applied at start-up; serves on PORT (8123).
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Dependencies, from the lockfile only. Install scripts are skipped, as in development.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/console/package.json packages/console/
COPY packages/contracts/package.json packages/contracts/
COPY packages/server-kit/package.json packages/server-kit/
COPY services/control-plane/package.json services/control-plane/
COPY services/agent-runtime/package.json services/agent-runtime/
RUN npm ci --ignore-scripts --no-audit --no-fund

# 2. Build: the OpenAPI bundles and types, and the Prisma clients.
FROM deps AS build
COPY tsconfig.base.json tsconfig.json ./
COPY scripts/ scripts/
COPY packages/ packages/
COPY prisma/ prisma/
COPY services/control-plane/ services/control-plane/
COPY services/agent-runtime/ services/agent-runtime/
RUN npm run generate -w packages/contracts && npx tsx scripts/prisma-generate.ts

# 3. Production dependencies only (typescript among them: the schemas of Annotation graphs are read
#    from their TypeScript source at run time).
FROM deps AS prod-deps
RUN npm ci --ignore-scripts --omit=dev --no-audit --no-fund

# 4. Runtime. git lets a Kubernetes init container check a source revision out with this image;
#    Python 3 with venv runs Python graphs (the graph host, services/agent-runtime/python): a
#    project's environment is made from it (pip, from PyPI) by the init container of a source
#    revision, or at start-up in PYTHON_ENVIRONMENTS_DIR.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates python3 python3-venv \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=8123 \
    HOST=0.0.0.0 \
    LANGGRAPH_JSON=/app/examples/langgraph.json \
    NODE_PATH=/app/node_modules \
    PYTHON=python3 \
    PYTHON_ENVIRONMENTS_DIR=/tmp/python-environments
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/tsconfig.base.json /app/tsconfig.json ./
COPY --from=build /app/packages ./packages
COPY --from=build /app/services/agent-runtime ./services/agent-runtime
COPY --from=build /app/prisma/agent-runtime/migrations ./prisma/agent-runtime/migrations
COPY --from=build /app/scripts/migrate.ts ./scripts/migrate.ts
COPY examples/ ./examples/
# Numeric, so Kubernetes can verify runAsNonRoot (the node image's `node` user).
USER 1000:1000
EXPOSE 8123
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8123) + '/ok').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "services/agent-runtime/src/main.ts"]
