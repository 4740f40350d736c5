// The rotate command while the control plane serves, and when it dies: a secret the API writes while
// the command holds the row's old value is not overwritten with that value; a command SIGKILLed half
// way leaves every row readable, and a rerun finishes the rest without re-encrypting what was done.
// Both stop the command at a chosen row the same way: a transaction holding that row's lock.
import { randomUUID } from "node:crypto";
import type { Client } from "pg";
import request from "supertest";
import { generateKey, SecretCipher } from "../../src/secrets/cipher";
import { rotateCli } from "../../src/secrets/rotate-cli";
import { createTenantKey } from "../../src/tenants/api-keys";
import {
  connect,
  ControlPlaneOnOneDatabase,
  finished,
  rotateEnv,
  rotateProcess,
  rotationBlockedOnLock,
  rotationSessionsGone,
  storedCiphertexts,
} from "./support";

const KEY_A = generateKey();
const KEY_B = generateKey();
const underA = SecretCipher.fromEncodedKey(KEY_A);
const underB = SecretCipher.fromEncodedKey(KEY_B);
/** B current, A old: `open(...).key` says which of them a value is under (0: B, 1: A). */
const ring = SecretCipher.fromEncodedKey(KEY_B, [KEY_A]);

let cp: ControlPlaneOnOneDatabase;
let sql: Client;
let locker: Client;
let apiKey: string;

beforeAll(async () => {
  cp = await ControlPlaneOnOneDatabase.start();
  sql = await connect(cp.database.url);
  locker = await connect(cp.database.url);
  const served = await cp.serve({ SECRETS_ENCRYPTION_KEY: KEY_A });
  apiKey = (await createTenantKey(served.db, "tenant-a")).apiKey;
});

afterAll(async () => {
  await locker?.end();
  await sql?.end();
  await cp?.close();
});

/** Holds the lock of one row until `release` (the rotate command's UPDATE of it waits meanwhile). */
async function holdRow(table: string, id: string): Promise<{ release: () => Promise<void> }> {
  await locker.query("BEGIN");
  await locker.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  return { release: () => locker.query("ROLLBACK").then(() => undefined) };
}

const stored = async (table: string, id: string) =>
  (await sql.query<{ secrets: { name: string; value: string }[] }>(`SELECT secrets FROM ${table} WHERE id = $1`, [id]))
    .rows[0]!.secrets;

test("a secret the API writes during the rotation is kept, not replaced by the value the command read", async () => {
  // Three deployments with a secret each, under A (the API of a control plane with key A).
  const names = new Map<string, string>();
  for (const name of ["one", "two", "three"]) {
    const created = await request(cp.url)
      .post("/v2/deployments")
      .set("X-Api-Key", apiKey)
      .send({
        name,
        source: "external_docker",
        source_config: { custom_url: "http://agent.example.test/" },
        source_revision_config: { image_uri: "example/agent:1" },
        secrets: [{ name: "TOKEN", value: `${name}-old` }],
      });
    expect(created.status).toBe(201);
    names.set(created.body.id, name);
  }
  // In the order the command goes (by id).
  const ids = [...names.keys()].sort();
  const [first, , last] = ids;
  await cp.serve({ SECRETS_ENCRYPTION_KEY: KEY_B, SECRETS_ENCRYPTION_OLD_KEYS: KEY_A });

  // The command reads all three, then waits at the first; meanwhile the API changes the last.
  const lock = await holdRow("deployments", first!);
  const lines: string[] = [];
  const rotation = rotateCli([], (line) => lines.push(line), rotateEnv(cp.database.url, KEY_B, [KEY_A]));
  try {
    await rotationBlockedOnLock(sql);
    const patched = await request(cp.url)
      .patch(`/v2/deployments/${last}`)
      .set("X-Api-Key", apiKey)
      .send({ secrets: [{ name: "TOKEN", value: "written-during-rotation" }] });
    expect(patched.status).toBe(200);
  } finally {
    await lock.release();
  }
  expect(await rotation).toBe(true);

  // The API's value survived; the others moved to B unchanged.
  const values = [];
  for (const id of ids) values.push(underB.decrypt((await stored("deployments", id))[0]!.value));
  expect(values).toEqual(ids.map((id) => (id === last ? "written-during-rotation" : `${names.get(id)}-old`)));
  expect(lines.at(-1)).toMatch(/^0 of \d+ ciphertexts still need an old key$/);
  for (const { value } of await storedCiphertexts(sql)) expect(underB.open(value).key).toBe(0);
});

test("a rotation killed half way leaves every row readable; the rerun finishes only what was left", async () => {
  // 1000 revision snapshots with two secrets each, under A, and the lock of the 600th held.
  const deployment = await request(cp.url)
    .post("/v2/deployments")
    .set("X-Api-Key", apiKey)
    .send({
      name: "many-revisions",
      source: "external_docker",
      source_config: { custom_url: "http://agent.example.test/" },
      source_revision_config: { image_uri: "example/agent:1" },
    });
  expect(deployment.status).toBe(201);
  const revisions = Array.from({ length: 1000 }, (_, i) => ({
    id: randomUUID(),
    plain: [`a-${i}`, `b-${i}`],
    secrets: [
      { name: "A", value: underA.encrypt(`a-${i}`) },
      { name: "B", value: underA.encrypt(`b-${i}`) },
    ],
  }));
  await sql.query(
    `INSERT INTO revisions (id, deployment_id, source, source_revision_config, secrets, updated_at)
     SELECT id, $1, 'external_docker', '{}', secrets, now() FROM unnest($2::uuid[], $3::jsonb[]) AS r(id, secrets)`,
    [deployment.body.id, revisions.map((r) => r.id), revisions.map((r) => JSON.stringify(r.secrets))],
  );
  revisions.sort((a, b) => (a.id < b.id ? -1 : 1));
  const lock = await holdRow("revisions", revisions[599]!.id);

  const env = rotateEnv(cp.database.url, KEY_B, [KEY_A]);
  const killed = rotateProcess(["--batch-size", "100"], env);
  const exited = finished(killed);
  try {
    await rotationBlockedOnLock(sql);
    killed.kill("SIGKILL");
    expect((await exited).signal).toBe("SIGKILL");
  } finally {
    await lock.release();
  }
  await rotationSessionsGone(sql);
  // It said how far it got before it died.
  expect(killed.output()).toMatch(/^revisions: [1-9]\d*\/\d+ rows, \d+ ciphertexts re-encrypted \.\.\.$/m);

  // Every row is wholly under one key: the 599 before the held one under B, the 400 after it under
  // A, and the held one under either (the UPDATE the dead command had sent ran once the lock went).
  const keys = [];
  for (const { id } of revisions)
    keys.push((await stored("revisions", id)).map(({ value }) => ring.open(value).key).join());
  expect(keys.slice(0, 599)).toEqual(Array(599).fill("0,0"));
  expect(["0,0", "1,1"]).toContain(keys[599]);
  expect(keys.slice(600)).toEqual(Array(400).fill("1,1"));
  const left = keys.filter((key) => key === "1,1").length;

  // The rerun re-encrypts the rows left, nothing more, and ends with none under A.
  const rerun = await finished(rotateProcess([], env));
  expect(rerun.code).toBe(0);
  expect(rerun.stdout).toContain(`re-encrypted ${2 * left} ciphertexts in ${left} rows`);
  expect(rerun.stdout).toMatch(/^0 of \d+ ciphertexts still need an old key$/m);
  for (const revision of revisions) {
    const values = (await stored("revisions", revision.id)).map(({ value }) => underB.decrypt(value));
    expect(values).toEqual(revision.plain);
  }
}, 120_000);

test("a value no configured key opens is left as it is, its row named, and the command exits 1", async () => {
  const { rows } = await sql.query<{ id: string }>("SELECT id FROM deployments ORDER BY id LIMIT 1");
  const id = rows[0]!.id;
  const before = await stored("deployments", id);
  const foreign = [{ name: "TOKEN", value: SecretCipher.fromEncodedKey(generateKey()).encrypt("under a lost key") }];
  await sql.query("UPDATE deployments SET secrets = $2 WHERE id = $1", [id, JSON.stringify(foreign)]);
  try {
    const lines: string[] = [];
    expect(await rotateCli([], (line) => lines.push(line), rotateEnv(cp.database.url, KEY_B, [KEY_A]))).toBe(false);
    expect(lines).toContain(
      "1 rows hold values no configured key opens: add the key they were written with to SECRETS_ENCRYPTION_OLD_KEYS",
    );
    expect(lines.at(-1)).toBe(`  deployments ${id}`);
    expect(await stored("deployments", id)).toEqual(foreign);
  } finally {
    await sql.query("UPDATE deployments SET secrets = $2 WHERE id = $1", [id, JSON.stringify(before)]);
  }
});
