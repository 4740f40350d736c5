// Generates both Prisma clients. Prisma's native schema engine cannot be downloaded here and
// `generate` does not need it, so PRISMA_SCHEMA_ENGINE_BINARY points at a stub when none is set.
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "..");
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY:
    process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.join(root, "scripts/no-schema-engine.sh"),
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
for (const service of ["control-plane", "agent-runtime"]) {
  execFileSync(
    process.execPath,
    [require.resolve("prisma/build/index.js"), "generate", "--config", `prisma/${service}/prisma.config.ts`],
    { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] },
  );
  console.log(`generated Prisma client for ${service}`);
}
