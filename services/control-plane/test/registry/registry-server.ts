// A real Docker registry for the registry tests: Debian's `docker-registry` (distribution 2.8),
// with token authentication pointed at the control plane. Also the side of a registry client the
// tests need: the Bearer challenge dance `docker login`/`push`/`pull` do, a blob and manifest push.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const REGISTRY_BINARY = process.env.DOCKER_REGISTRY_PATH ?? "/usr/bin/docker-registry";

/** Whether the registry binary is there; a test without it is skipped, and says why once. */
export function registryAvailable(test: string): boolean {
  const present = existsSync(REGISTRY_BINARY);
  if (!present)
    console.warn(
      `${test} skipped: no registry at ${REGISTRY_BINARY} (apt-get install docker-registry, or set DOCKER_REGISTRY_PATH)`,
    );
  return present;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** An EC P-256 key and its self-signed certificate, as an operator makes them with openssl. */
export function tokenKeyPair(dir: string): { keyFile: string; certFile: string } {
  const keyFile = path.join(dir, "token.key");
  const certFile = path.join(dir, "token.crt");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"],
      ...["-keyout", keyFile, "-out", certFile, "-days", "2", "-subj", "/CN=lgp-registry-token"],
    ],
    { stdio: "ignore" },
  );
  return { keyFile, certFile };
}

export interface RunningRegistry {
  /** host:port, as image references name it. */
  host: string;
  url: string;
  close(): Promise<void>;
}

export async function startRegistry(options: {
  dir: string;
  port: number;
  realm: string;
  service: string;
  issuer: string;
  certFile: string;
}): Promise<RunningRegistry> {
  const config = path.join(options.dir, "registry.yml");
  writeFileSync(
    config,
    [
      "version: 0.1",
      "log: { level: error, accesslog: { disabled: true } }",
      `storage: { filesystem: { rootdirectory: ${path.join(options.dir, "storage")} }, delete: { enabled: true } }`,
      `http: { addr: 127.0.0.1:${options.port} }`,
      "auth:",
      "  token:",
      `    realm: ${options.realm}`,
      `    service: ${options.service}`,
      `    issuer: ${options.issuer}`,
      `    rootcertbundle: ${options.certFile}`,
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn(REGISTRY_BINARY, ["serve", config], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = await fetch(`${url}/v2/`).catch(() => undefined);
    if (answer?.status === 401) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`the registry did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    host: `127.0.0.1:${options.port}`,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Talks to the registry as docker does: on a Bearer challenge, asks the realm for a token with Basic credentials. */
export class RegistryClient {
  /** The registry JWTs the token endpoint answered, newest last (their claims are what the tests check). */
  readonly tokens: string[] = [];

  constructor(
    private readonly url: string,
    private readonly password: string,
    private readonly username = "oauth2accesstoken",
  ) {}

  async request(method: string, pathname: string, body?: Buffer, contentType?: string): Promise<Response> {
    const target = pathname.startsWith("http") ? pathname : `${this.url}${pathname}`;
    const send = (token?: string) =>
      fetch(target, {
        method,
        body,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(contentType ? { "content-type": contentType } : {}),
          accept: "application/vnd.oci.image.manifest.v1+json",
        },
      });
    const first = await send();
    const challenge = first.headers.get("www-authenticate");
    if (first.status !== 401 || !challenge?.startsWith("Bearer ")) return first;
    const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const realm = new URL(params.realm!);
    realm.searchParams.set("service", params.service!);
    if (params.scope) realm.searchParams.set("scope", params.scope);
    const answer = await fetch(realm, {
      headers: { authorization: `Basic ${Buffer.from(`${this.username}:${this.password}`).toString("base64")}` },
    });
    if (!answer.ok) return answer; // the token endpoint's refusal is the answer
    const { token } = (await answer.json()) as { token: string };
    this.tokens.push(token);
    return send(token);
  }

  /** Pushes a one-layer image as `name:tag`; every step's status, in order. */
  async push(name: string, tag: string): Promise<number[]> {
    const layer = gzipSync(Buffer.alloc(1024));
    const config = Buffer.from(
      JSON.stringify({
        architecture: "amd64",
        os: "linux",
        rootfs: { type: "layers", diff_ids: [`sha256:${sha256(Buffer.alloc(1024))}`] },
      }),
    );
    const statuses: number[] = [];
    for (const blob of [layer, config]) {
      const started = await this.request("POST", `/v2/${name}/blobs/uploads/`);
      statuses.push(started.status);
      if (started.status !== 202) return statuses;
      const location = new URL(started.headers.get("location")!, this.url);
      location.searchParams.set("digest", `sha256:${sha256(blob)}`);
      const put = await this.request("PUT", location.toString(), blob, "application/octet-stream");
      statuses.push(put.status);
      if (put.status !== 201) return statuses;
    }
    const manifest = {
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      config: {
        mediaType: "application/vnd.oci.image.config.v1+json",
        digest: `sha256:${sha256(config)}`,
        size: config.length,
      },
      layers: [
        {
          mediaType: "application/vnd.oci.image.layer.v1.tar+gzip",
          digest: `sha256:${sha256(layer)}`,
          size: layer.length,
        },
      ],
    };
    const put = await this.request(
      "PUT",
      `/v2/${name}/manifests/${tag}`,
      Buffer.from(JSON.stringify(manifest)),
      "application/vnd.oci.image.manifest.v1+json",
    );
    statuses.push(put.status);
    return statuses;
  }

  async pullManifest(name: string, tag: string): Promise<Response> {
    return this.request("GET", `/v2/${name}/manifests/${tag}`);
  }
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The claims of a JWT (the test reads what the control plane granted). */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
}
