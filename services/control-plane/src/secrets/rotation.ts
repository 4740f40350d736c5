// Re-encrypts every secret at rest under the current key (`npm run secrets:rotate`, see rotate-cli.ts).
//
// Resumable: each row is rewritten by one UPDATE of its own, so a crash leaves every row wholly under
// one key or the other, and a rerun skips rows already under the current key (finding that costs one
// decryption, no write). Safe while serving: the UPDATE is a compare-and-swap on the ciphertexts it
// read; a row the API changed meanwhile is read again instead of being overwritten with what it held
// before. `updated_at` is left alone: rotation changes no value, and the API's own compare-and-swap
// writes (PATCH, OAuth refresh) must not lose to it.
import type { Client } from "pg";
import { UndecryptableSecretError, type SecretCipher } from "./cipher";

/**
 * Where ciphertexts are stored: text columns holding one each, or JSON lists of `{name, value}`;
 * `key` is the table's primary key, the order the pass goes in (and where a rerun's pass starts over).
 */
interface Place {
  table: string;
  key: string[];
  columns: { name: string; kind: "ciphertext" | "secret-list" }[];
}

export const PLACES: Place[] = [
  { table: "deployments", key: ["id"], columns: [{ name: "secrets", kind: "secret-list" }] },
  { table: "revisions", key: ["id"], columns: [{ name: "secrets", kind: "secret-list" }] },
  { table: "oauth_providers", key: ["id"], columns: [{ name: "client_secret_encrypted", kind: "ciphertext" }] },
  { table: "oauth_authorizations", key: ["id"], columns: [{ name: "code_verifier_encrypted", kind: "ciphertext" }] },
  {
    table: "oauth_tokens",
    key: ["id"],
    columns: [
      { name: "access_token_encrypted", kind: "ciphertext" },
      { name: "refresh_token_encrypted", kind: "ciphertext" },
    ],
  },
  // Answers kept for repeats of idempotent creates (a new deployment's carries its API key); a day at most.
  { table: "idempotency_keys", key: ["scope", "key"], columns: [{ name: "body", kind: "ciphertext" }] },
];

/** What a pass found and did. `underOldKey[i]` counts ciphertexts only the i-th old key opens (after the pass). */
export interface PassResult {
  rows: number;
  ciphertexts: number;
  reencrypted: number;
  rowsRewritten: number;
  underOldKey: number[];
  /** Rows holding a value no configured key opens (by primary key, `/` between its columns): left as they are. */
  unreadable: { table: string; id: string }[];
}

export interface PassOptions {
  /** false: only count (`--check`). */
  write: boolean;
  batchSize?: number;
  progress?: (line: string) => void;
}

/** A row as read: its primary key's columns and each encrypted column, as text (a JSON list's text for secret lists). */
type Row = Record<string, string | null>;

/** How a row would look under the current key, and what it held. */
interface Plan {
  values: (string | null)[];
  ciphertexts: number;
  reencrypted: number;
  /** The old key (index into the old keys) of each value that needs one, when not rewritten. */
  oldKeys: number[];
  unreadable: boolean;
}

/** Compare-and-swap attempts on one row the API keeps changing before it is left to the next pass. */
const MAX_ATTEMPTS = 5;
const PROGRESS_EVERY_MS = 1000;

function planRow(place: Place, row: Row, cipher: SecretCipher): Plan {
  const plan: Plan = { values: [], ciphertexts: 0, reencrypted: 0, oldKeys: [], unreadable: false };
  const reencrypt = (stored: string): string => {
    plan.ciphertexts++;
    try {
      const { plain, key } = cipher.open(stored);
      if (key === 0) return stored;
      plan.reencrypted++;
      plan.oldKeys.push(key - 1);
      return cipher.encrypt(plain);
    } catch (error) {
      if (!(error instanceof UndecryptableSecretError)) throw error;
      plan.unreadable = true;
      return stored;
    }
  };
  for (const column of place.columns) {
    const stored = row[column.name] ?? null;
    if (stored === null) plan.values.push(null);
    else if (column.kind === "ciphertext") plan.values.push(reencrypt(stored));
    else {
      const list = JSON.parse(stored) as { name: string; value: string }[];
      const before = plan.reencrypted;
      const rewritten = list.map((secret) => ({ ...secret, value: reencrypt(secret.value) }));
      plan.values.push(plan.reencrypted === before ? stored : JSON.stringify(rewritten));
    }
  }
  return plan;
}

function selectList(place: Place): string {
  return [...place.key, ...place.columns.map((column) => `${column.name}::text AS ${column.name}`)].join(", ");
}

const keyOf = (place: Place, row: Row) => place.key.map((column) => row[column] as string);
/** `(a, b) = ($1, $2)` and the like, for the primary key's columns from parameter `first` on. */
const keyCompare = (place: Place, operator: "=" | ">", first: number) =>
  `(${place.key.join(", ")}) ${operator} (${place.key.map((_, i) => `$${first + i}`).join(", ")})`;

/** Rows that hold anything to decrypt (most revisions of most deployments have no secrets). */
function holdsSecrets(place: Place): string {
  return place.columns
    .map((column) => (column.kind === "ciphertext" ? `${column.name} IS NOT NULL` : `${column.name} <> '[]'::jsonb`))
    .join(" OR ");
}

/** The row's new values, only if its columns still hold what was read. */
async function compareAndSwap(client: Client, place: Place, row: Row, values: (string | null)[]): Promise<boolean> {
  const k = place.key.length;
  const n = place.columns.length;
  const cast = (index: number) => (place.columns[index]!.kind === "secret-list" ? "::jsonb" : "");
  const sets = place.columns.map((column, i) => `${column.name} = $${k + i + 1}${cast(i)}`);
  const guards = place.columns.map((column, i) =>
    column.kind === "secret-list"
      ? `${column.name} = $${k + n + i + 1}::jsonb`
      : `${column.name} IS NOT DISTINCT FROM $${k + n + i + 1}::text`,
  );
  const result = await client.query(
    `UPDATE ${place.table} SET ${sets.join(", ")} WHERE ${keyCompare(place, "=", 1)} AND ${guards.join(" AND ")}`,
    [...keyOf(place, row), ...values, ...place.columns.map((column) => row[column.name] ?? null)],
  );
  return result.rowCount === 1;
}

function emptyPass(oldKeys: number): PassResult {
  return {
    rows: 0,
    ciphertexts: 0,
    reencrypted: 0,
    rowsRewritten: 0,
    underOldKey: Array(oldKeys).fill(0),
    unreadable: [],
  };
}

/** One pass over every place: counts what needs an old key and (with `write`) re-encrypts it. */
export async function rotationPass(client: Client, cipher: SecretCipher, options: PassOptions): Promise<PassResult> {
  const result = emptyPass(cipher.oldKeyCount);
  for (const place of PLACES) await passOver(client, cipher, place, options, result);
  return result;
}

async function passOver(
  client: Client,
  cipher: SecretCipher,
  place: Place,
  options: PassOptions,
  result: PassResult,
): Promise<void> {
  const batchSize = options.batchSize ?? 200;
  const exists = await client.query<{ name: string | null }>("SELECT to_regclass($1)::text AS name", [place.table]);
  if (!exists.rows[0]?.name) {
    // A database migrated by an older release: nothing of this kind is stored there.
    options.progress?.(`${place.table}: no such table`);
    return;
  }
  const total = Number(
    (await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${place.table} WHERE ${holdsSecrets(place)}`))
      .rows[0]!.n,
  );
  let after: string[] | undefined;
  let read = 0;
  let rewritten = 0;
  let lastProgress = 0;
  const report = (final: boolean) => {
    const done = options.write ? `, ${rewritten} ciphertexts re-encrypted` : "";
    options.progress?.(`${place.table}: ${read}/${Math.max(total, read)} rows${done}${final ? "" : " ..."}`);
    lastProgress = Date.now();
  };
  for (;;) {
    const batch = await client.query<Row>(
      `SELECT ${selectList(place)} FROM ${place.table}
       WHERE (${holdsSecrets(place)}) ${after ? `AND ${keyCompare(place, ">", 2)}` : ""}
       ORDER BY ${place.key.join(", ")} LIMIT $1`,
      [batchSize, ...(after ?? [])],
    );
    for (let row of batch.rows) {
      result.rows++;
      read++;
      for (let attempt = 1; ; attempt++) {
        const plan = planRow(place, row, cipher);
        // Nothing to do, nothing that can be done (a value no key opens), only counting, or a row
        // rewritten by the API faster than we can swap (left for the next pass).
        if (plan.reencrypted === 0 || plan.unreadable || !options.write || attempt > MAX_ATTEMPTS) {
          result.ciphertexts += plan.ciphertexts;
          for (const key of plan.oldKeys) result.underOldKey[key]!++;
          if (plan.unreadable) result.unreadable.push({ table: place.table, id: keyOf(place, row).join("/") });
          break;
        }
        if (await compareAndSwap(client, place, row, plan.values)) {
          result.ciphertexts += plan.ciphertexts;
          result.reencrypted += plan.reencrypted;
          result.rowsRewritten++;
          rewritten += plan.reencrypted;
          break;
        }
        // Changed (or deleted) since it was read: read it again and decide on what it holds now.
        const fresh = await client.query<Row>(
          `SELECT ${selectList(place)} FROM ${place.table} WHERE ${keyCompare(place, "=", 1)}`,
          keyOf(place, row),
        );
        if (!fresh.rows[0]) break;
        row = fresh.rows[0];
      }
      after = keyOf(place, row);
    }
    if (batch.rows.length < batchSize) break;
    if (lastProgress === 0 || Date.now() - lastProgress >= PROGRESS_EVERY_MS) report(false);
  }
  report(true);
}
