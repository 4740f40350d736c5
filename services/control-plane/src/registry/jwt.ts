// The registry's bearer tokens: JWTs (JWS compact, ES256/RS256) in the Docker registry token
// format, signed with the operator's key. The registry trusts the certificate of that key
// (`auth.token.rootcertbundle`) and finds it by `kid`, the key's libtrust id. Signed with
// node:crypto: the JOSE library this project uses elsewhere (`jose`) is ESM-only and the control
// plane's tests load it in-process; signing one compact JWS needs nothing more than this.
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import { ConfigError } from "@lgp/server-kit";

export interface TokenSigningKey {
  key: KeyObject;
  alg: "ES256" | "ES384" | "RS256";
  /** The libtrust key id the registry indexes its trusted keys by. */
  kid: string;
}

/** libtrust's key id: the first 240 bits of SHA-256 over the public key's DER, base32 in groups of four. */
export function libtrustKeyId(publicKeyDer: Buffer): string {
  const digest = createHash("sha256").update(publicKeyDer).digest().subarray(0, 30);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const byte of digest) bits += byte.toString(2).padStart(8, "0");
  let encoded = "";
  for (let i = 0; i < bits.length; i += 5) encoded += alphabet[parseInt(bits.slice(i, i + 5), 2)];
  return encoded.match(/.{4}/g)!.join(":");
}

/** Reads a PEM private key (EC P-256/P-384 or RSA); anything else is a configuration error naming the variable. */
export function tokenSigningKey(pem: string | Buffer, variable = "REGISTRY_TOKEN_KEY_FILE"): TokenSigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new ConfigError(`${variable}: not a PEM private key (${(error as Error).message})`);
  }
  const der = createPublicKey(key).export({ type: "spki", format: "der" });
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const alg =
    key.asymmetricKeyType === "rsa"
      ? "RS256"
      : key.asymmetricKeyType === "ec" && curve === "prime256v1"
        ? "ES256"
        : key.asymmetricKeyType === "ec" && curve === "secp384r1"
          ? "ES384"
          : undefined;
  if (!alg) throw new ConfigError(`${variable}: the key must be RSA or EC on P-256 or P-384`);
  return { key, alg, kid: libtrustKeyId(der) };
}

function segment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function signJwt(claims: Record<string, unknown>, signing: TokenSigningKey): string {
  const input = `${segment({ typ: "JWT", alg: signing.alg, kid: signing.kid })}.${segment(claims)}`;
  const hash = signing.alg === "ES384" ? "sha384" : "sha256";
  // JWS wants ECDSA signatures as r||s, not DER.
  const signature = sign(hash, Buffer.from(input), { key: signing.key, dsaEncoding: "ieee-p1363" });
  return `${input}.${signature.toString("base64url")}`;
}
