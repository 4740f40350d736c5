// The key ring itself: the current key encrypts, old keys still open what they wrote, values from
// before the ring still read, and neither a wrong value nor a wrong setting ever shows a key.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ConfigError } from "@lgp/server-kit";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { loadControlPlaneConfig } from "../../src/config";
import { generateKey, SecretCipher, UndecryptableSecretError } from "../../src/secrets/cipher";

const [A, B, C] = [generateKey(), generateKey(), generateKey()];
const ring = SecretCipher.fromEncodedKey(B, [A]);

test("the current key encrypts; an old key still opens what it wrote, and says it is old", () => {
  const fresh = ring.encrypt("new value");
  expect(SecretCipher.fromEncodedKey(B).decrypt(fresh)).toBe("new value");
  expect(() => SecretCipher.fromEncodedKey(A).decrypt(fresh)).toThrow(UndecryptableSecretError);

  const old = SecretCipher.fromEncodedKey(A).encrypt("old value");
  expect(ring.open(old)).toEqual({ plain: "old value", key: 1 });
  expect(ring.open(fresh)).toEqual({ plain: "new value", key: 0 });
  const moved = ring.reencrypt(old)!;
  expect(SecretCipher.fromEncodedKey(B).decrypt(moved)).toBe("old value");
  expect(ring.reencrypt(fresh)).toBeUndefined();
});

test("a value stored before the key ring (same key, same form) still reads", () => {
  // Written by the cipher of the previous release, key 00 01 .. 1f.
  const stored = "v1:YWrwPM34Ef3HsfkF:ZQ4LWjzZz12YH6V1VvjMng==:VB/H19miroXAUgbpq1Cj80MhFqWlNur4nEP3";
  const key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
  expect(SecretCipher.fromEncodedKey(key).decrypt(stored)).toBe("written before the key ring");
  expect(SecretCipher.fromEncodedKey(generateKey(), [key]).open(stored)).toEqual({
    plain: "written before the key ring",
    key: 1,
  });
});

test("a value no configured key opens, or a tampered one, is refused without a word of the keys", () => {
  const foreign = SecretCipher.fromEncodedKey(C).encrypt("someone else's");
  const tampered = (() => {
    const [version, iv, tag, data] = ring.encrypt("mine").split(":");
    return [version, iv, tag, Buffer.from("nine").toString("base64") + data!.slice(8)].join(":");
  })();
  for (const stored of [foreign, tampered, "plain text", "v1:a:b:c:d"]) {
    let error: unknown;
    try {
      ring.decrypt(stored);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UndecryptableSecretError);
    for (const key of [A, B, C]) expect((error as Error).message).not.toContain(key);
  }
});

test("fingerprints tell the keys apart and are not the keys", () => {
  const [current, old] = ring.fingerprints();
  expect(current).toMatch(/^[0-9a-f]{12}$/);
  expect(old).not.toBe(current);
  expect(SecretCipher.fromEncodedKey(A).fingerprints()).toEqual([old]);
  for (const key of [A, B]) {
    expect(key).not.toContain(current);
    expect(Buffer.from(key, "base64").toString("hex")).not.toContain(current);
  }
});

describe("SECRETS_ENCRYPTION_OLD_KEYS", () => {
  const base = { CONTROL_PLANE_DATABASE_URL: "postgresql://postgres@127.0.0.1/x", SECRETS_ENCRYPTION_KEY: B };

  test("takes keys comma separated, base64 or hex, spaces and empty entries ignored", () => {
    const hex = Buffer.from(C, "base64").toString("hex");
    const config = loadControlPlaneConfig({ ...base, SECRETS_ENCRYPTION_OLD_KEYS: ` ${A} ,, ${hex} ` });
    expect(config.SECRETS_ENCRYPTION_OLD_KEYS).toEqual([A, hex]);
    expect(loadControlPlaneConfig(base).SECRETS_ENCRYPTION_OLD_KEYS).toEqual([]);
    const both = SecretCipher.fromConfig(config);
    expect(both.oldKeyCount).toBe(2);
    expect(both.decrypt(SecretCipher.fromEncodedKey(C).encrypt("under C"))).toBe("under C");
  });

  test("a bad entry is named by its place, never shown", () => {
    const bad = `${A},${A.slice(0, 20)}`;
    expect(() => loadControlPlaneConfig({ ...base, SECRETS_ENCRYPTION_OLD_KEYS: bad })).toThrow(ConfigError);
    expect(() => loadControlPlaneConfig({ ...base, SECRETS_ENCRYPTION_OLD_KEYS: bad })).toThrow(
      /^invalid SECRETS_ENCRYPTION_OLD_KEYS: entry 2 must be 32 bytes, as 64 hex characters or base64$/,
    );
  });

  test("the control plane refuses to start on a malformed key with one line that does not show it", () => {
    const shortKey = "c2VjcmV0LWJ1dC10b28tc2hvcnQ=";
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", path.join(REPO_ROOT, "services/control-plane/src/main.ts")],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...base,
          SECRETS_ENCRYPTION_KEY: shortKey,
        },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      "invalid SECRETS_ENCRYPTION_KEY: must be 32 bytes, as 64 hex characters or base64",
    );
  });
});
