// Moves every secret at rest to the current key (README: Rotating the encryption key):
//   npm run secrets:rotate -w services/control-plane              re-encrypt what an old key holds
//   npm run secrets:rotate -w services/control-plane -- --check   only count it
// It takes the control plane's CONTROL_PLANE_DATABASE_URL, SECRETS_ENCRYPTION_KEY and
// SECRETS_ENCRYPTION_OLD_KEYS; beside `npm start`, its embedded database and the keys in
// .data/secrets.json, as the start does. Exits 1 while anything still needs an old key.
import { Client } from "pg";
import {
  ConfigError,
  embeddedDatabaseUrl,
  embeddedPostgresPort,
  embeddedSecret,
  isTransientError,
  loadConfig,
  runMain,
} from "@lgp/server-kit";
import { controlPlaneEnv } from "../config";
import { SecretCipher } from "./cipher";
import { rotationPass, type PassResult } from "./rotation";

const USAGE = "usage: secrets:rotate [--check] [--batch-size N]";
/** Passes after the first that pick up values written under an old key meanwhile (by a replica not yet switched). */
const MAX_PASSES = 3;
/** Shows which rows hold values no key opens, up to this many. */
const SHOWN_UNREADABLE = 10;

interface Options {
  check: boolean;
  batchSize: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { check: false, batchSize: 200 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--check") options.check = true;
    else if (arg === "--batch-size" || arg.startsWith("--batch-size=")) {
      const value = Number(arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i]);
      if (!Number.isInteger(value) || value < 1 || value > 10_000)
        throw new ConfigError(`${USAGE}\n--batch-size is 1 to 10000`);
      options.batchSize = value;
    } else throw new ConfigError(USAGE);
  }
  return options;
}

/** Each setting from the environment, else (beside `npm start`) from what the start keeps. */
function settingsOf(env: NodeJS.ProcessEnv) {
  const embedded = env.CONTROL_PLANE_DATABASE_URL ? undefined : embeddedDatabaseUrl("control_plane", env);
  const fromStart = (name: string) => env[name] || embeddedSecret(name, env);
  const config = loadConfig(
    controlPlaneEnv.pick({
      CONTROL_PLANE_DATABASE_URL: true,
      SECRETS_ENCRYPTION_KEY: true,
      SECRETS_ENCRYPTION_OLD_KEYS: true,
    }),
    {
      CONTROL_PLANE_DATABASE_URL: env.CONTROL_PLANE_DATABASE_URL || embedded,
      SECRETS_ENCRYPTION_KEY: fromStart("SECRETS_ENCRYPTION_KEY"),
      SECRETS_ENCRYPTION_OLD_KEYS: fromStart("SECRETS_ENCRYPTION_OLD_KEYS"),
    },
  );
  return { config, embedded: embedded !== undefined };
}

async function connect(url: string, embedded: boolean, env: NodeJS.ProcessEnv): Promise<Client> {
  // Named, so an operator (and the tests) can tell its queries apart in pg_stat_activity.
  const client = new Client({ connectionString: url, application_name: "lgp-secrets-rotate" });
  try {
    await client.connect();
  } catch (error) {
    if (!embedded || !isTransientError(error)) throw error;
    throw new ConfigError(
      `npm start's embedded PostgreSQL does not answer (port ${embeddedPostgresPort(env)}): run this while npm start ` +
        "runs, or set CONTROL_PLANE_DATABASE_URL",
    );
  }
  const { rows } = await client.query<{ table: string | null }>("SELECT to_regclass('deployments')::text AS table");
  if (!rows[0]?.table) {
    await client.end();
    throw new ConfigError("this database has no control plane tables: start the control plane once (it migrates it)");
  }
  return client;
}

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

/** Runs the command; answers whether nothing needs an old key any more (the exit status). */
export async function rotateCli(
  argv: string[],
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const options = parseArgs(argv);
  const { config, embedded } = settingsOf(env);
  const cipher = SecretCipher.fromConfig(config);
  const [current, ...old] = cipher.fingerprints();
  out(`current key ${current}; old keys: ${old.length ? old.join(", ") : "none"}`);
  const client = await connect(config.CONTROL_PLANE_DATABASE_URL, embedded, env);
  try {
    let last: PassResult;
    if (options.check) {
      last = await rotationPass(client, cipher, { write: false, batchSize: options.batchSize, progress: out });
    } else {
      last = await rotationPass(client, cipher, { write: true, batchSize: options.batchSize, progress: out });
      let reencrypted = last.reencrypted;
      let rows = last.rowsRewritten;
      // Once more over everything: what the API wrote meanwhile with an old key (a replica still
      // running with it as its current key) is found, and the last pass's counts are the final ones.
      for (let pass = 2; pass <= MAX_PASSES; pass++) {
        out("checking again for values written meanwhile ...");
        last = await rotationPass(client, cipher, { write: true, batchSize: options.batchSize });
        reencrypted += last.reencrypted;
        rows += last.rowsRewritten;
        if (last.reencrypted === 0) break;
        out(`${last.reencrypted} more written under an old key meanwhile: re-encrypted`);
      }
      out(`re-encrypted ${reencrypted} ciphertexts in ${rows} rows`);
      if (last.reencrypted > 0) {
        out(
          "values keep arriving under an old key: a control plane still has it as SECRETS_ENCRYPTION_KEY; " +
            "switch every replica to the new key, then run this again",
        );
      }
    }
    const remaining = sum(last.underOldKey);
    const perKey = last.underOldKey
      .map((count, index) => `${count} under ${old[index]}`)
      .filter((_, i) => last.underOldKey[i]);
    out(
      `${remaining} of ${last.ciphertexts} ciphertexts still need an old key` +
        (perKey.length ? ` (${perKey.join(", ")})` : ""),
    );
    if (last.unreadable.length) {
      out(
        `${last.unreadable.length} rows hold values no configured key opens: add the key they were written with ` +
          "to SECRETS_ENCRYPTION_OLD_KEYS",
      );
      for (const row of last.unreadable.slice(0, SHOWN_UNREADABLE)) out(`  ${row.table} ${row.id}`);
    }
    return remaining === 0 && last.unreadable.length === 0 && (options.check || last.reencrypted === 0);
  } finally {
    await client.end();
  }
}

if (require.main === module)
  runMain(async () => {
    const done = await rotateCli(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
    if (!done) process.exitCode = 1;
  });
