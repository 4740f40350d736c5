// Tenants and API keys from the command line:
//   npm run tenants -w services/control-plane -- create <name>     new tenant and its first key
//   npm run tenants -w services/control-plane -- add-key <name>    another key for a tenant
//   npm run tenants -w services/control-plane -- list              tenants and key counts
//   npm run tenants -w services/control-plane -- keys <name>       a tenant's keys: prefix, name, created
//   npm run tenants -w services/control-plane -- revoke-key <name> <key or prefix>
// Keys are stored hashed: the plain key is printed once, here. A rotation: add-key, move the
// clients to the new key, revoke-key the old one; every control plane refuses it at once.
import path from "node:path";
import { z } from "zod";
import {
  ConfigError,
  embeddedDatabaseUrl,
  embeddedPostgresPort,
  ensureDatabase,
  env,
  isTransientError,
  loadConfig,
  migrate,
  runMain,
} from "@lgp/server-kit";
import { createDb } from "../db";
import { createTenantKey, listTenantKeys, revokeTenantKey } from "./api-keys";

const MIGRATIONS_DIR = path.resolve(__dirname, "../../../../prisma/control-plane/migrations");
const USAGE =
  "usage: tenants create <name> | tenants add-key <name> [key-name] | tenants list | tenants keys <name> | " +
  "tenants revoke-key <name> <key or prefix>";
const COMMANDS = ["create", "add-key", "list", "keys", "revoke-key"];
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

export async function tenantsCli(argv: string[], out: (line: string) => void): Promise<void> {
  const [command, name, keyName] = argv;
  if (!command || !COMMANDS.includes(command)) throw new ConfigError(USAGE);
  if (command !== "list" && (!name || !NAME.test(name))) {
    throw new ConfigError(`${USAGE}\na tenant name is lowercase letters, digits and -`);
  }
  if (command === "revoke-key" && !keyName)
    throw new ConfigError(`${USAGE}\nname the key, or its prefix (tenants keys ${name})`);
  // Beside `npm start`, its embedded database; otherwise CONTROL_PLANE_DATABASE_URL.
  const embedded = process.env.CONTROL_PLANE_DATABASE_URL ? undefined : embeddedDatabaseUrl("control_plane");
  const url =
    embedded ?? loadConfig(z.object({ CONTROL_PLANE_DATABASE_URL: env.postgresUrl() })).CONTROL_PLANE_DATABASE_URL;
  try {
    await ensureDatabase(url);
  } catch (error) {
    if (!embedded || !isTransientError(error)) throw error;
    throw new ConfigError(
      `npm start's embedded PostgreSQL does not answer (port ${embeddedPostgresPort()}): run this while npm start ` +
        "runs, or set CONTROL_PLANE_DATABASE_URL",
    );
  }
  await migrate(url, MIGRATIONS_DIR);
  const db = createDb(url, 1);
  try {
    if (command === "list") {
      const tenants = await db.tenant.findMany({
        orderBy: { createdAt: "asc" },
        include: { _count: { select: { apiKeys: true } } },
      });
      for (const tenant of tenants) out(`${tenant.name}\t${tenant.id}\t${tenant._count.apiKeys} key(s)`);
      return;
    }
    const existing = await db.tenant.findUnique({ where: { name } });
    if (command === "create" && existing)
      throw new ConfigError(`tenant ${name} already exists (add a key with: tenants add-key ${name})`);
    if (command !== "create" && !existing)
      throw new ConfigError(`tenant ${name} does not exist (create it with: tenants create ${name})`);
    if (command === "keys") {
      for (const key of await listTenantKeys(db, existing!.id))
        out(`${key.prefix}\t${key.name}\t${key.createdAt.toISOString()}`);
      return;
    }
    if (command === "revoke-key") {
      const matched = await revokeTenantKey(db, existing!.id, keyName);
      if (matched === 0) throw new ConfigError(`tenant ${name} has no key ${keyName} (see: tenants keys ${name})`);
      if (matched > 1)
        throw new ConfigError(`${matched} keys of tenant ${name} start with ${keyName}: name the whole key to revoke`);
      out(`revoked key ${keyName.slice(0, 8)} of tenant ${name}; every control plane refuses it from now`);
      return;
    }
    const { tenantId, apiKey } = await createTenantKey(db, name, keyName ?? (command === "create" ? "default" : "cli"));
    out(`tenant ${name} ${tenantId}`);
    out(`api key (shown once, send it as X-Api-Key): ${apiKey}`);
  } finally {
    await db.$disconnect();
  }
}

if (require.main === module)
  runMain(() => tenantsCli(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)));
