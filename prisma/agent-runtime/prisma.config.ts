import path from "node:path";
import { defineConfig } from "prisma/config";

// The schema is a folder (one .prisma file per capability); migrations are hand-written SQL in
// Prisma's layout, applied by packages/server-kit's migration applier (see DESIGN.md "Data").
export default defineConfig({
  schema: path.join(__dirname, "schema"),
  migrations: { path: path.join(__dirname, "migrations") },
});
