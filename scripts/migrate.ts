// `npm run db:migrate`: applies each service's pending migrations to the database its variable
// names (CONTROL_PLANE_DATABASE_URL, DATABASE_URL); a service whose variable is unset is skipped.
import path from "node:path";
import { ensureDatabase, migrate } from "@lgp/server-kit";

const targets = [
  { service: "control-plane", variable: "CONTROL_PLANE_DATABASE_URL" },
  { service: "agent-runtime", variable: "DATABASE_URL" },
];

async function main(): Promise<void> {
  let ran = 0;
  for (const { service, variable } of targets) {
    const url = process.env[variable];
    if (!url) {
      console.log(`${service}: ${variable} is not set, skipped`);
      continue;
    }
    await ensureDatabase(url);
    const result = await migrate(url, path.resolve(__dirname, "../prisma", service, "migrations"), (line) =>
      console.log(`${service}: ${line}`),
    );
    console.log(`${service}: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`);
    ran += 1;
  }
  if (!ran) {
    console.error("nothing to migrate: set CONTROL_PLANE_DATABASE_URL and/or DATABASE_URL");
    process.exit(1);
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
