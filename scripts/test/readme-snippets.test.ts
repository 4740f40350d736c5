import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { onPorts, readmeBlocks, snippet, type Block } from "./readme/blocks";
import {
  bash,
  freshSetup,
  portIsFree,
  printedExports,
  readmePorts,
  start,
  type BashOptions,
  type Ran,
  type Setup,
  type Started,
} from "./readme/shell";
import { startSnippetChecks } from "./readme/starts";

// The README's snippets as a newcomer pastes them, against `npm start` on fresh databases: each
// block marked `<!-- snippet: NAME -->` is taken from README.md and run by bash in the repository,
// in a shell where the `export` line npm start printed was pasted; what the README says it answers
// is checked. Blocks that need a Docker daemon or a cluster say why they are not run.

const RUN_AGAINST_NPM_START = [
  "runtime-curl",
  "try.mts",
  "protocol.mts",
  "api-key-hash",
  "mcp.mts",
  "a2a.mts",
  "idempotent.mts",
  "tenants",
  "secrets-rotate",
  "langgraph-deploy",
  "langgraph-deploy-logs",
];
const blocks = readmeBlocks();

/** Fails with what the snippet printed when it did not exit 0. */
function succeeded(ran: Ran, block: Block): Ran {
  if (ran.code !== 0) throw new Error(`README line ${block.line} exited ${ran.code}:\n${block.code}\n${ran.output}`);
  return ran;
}

test("every code block of the README is run here, or says why it is not", () => {
  const unmarked = blocks.filter((block) => !block.marker).map((block) => `line ${block.line}`);
  expect(unmarked).toEqual([]);
  const snippets = blocks.filter((block) => block.marker === "snippet").map((block) => block.name);
  expect(snippets.sort()).toEqual([...RUN_AGAINST_NPM_START, ...Object.keys(startSnippetChecks)].sort());
});

describe("against npm start", () => {
  let setup: Setup;
  let platform: Started;
  let exports: string;

  beforeAll(async () => {
    setup = await freshSetup(await readmePorts());
    if (setup.ports.runtime !== 8123) {
      process.stdout.write(`8100/8123 taken here: the snippets run on ${JSON.stringify(setup.ports)}\n`);
    }
    platform = await start("npm start", setup.env);
    exports = printedExports(platform.output());
  }, 240_000);
  afterAll(async () => {
    await platform?.stop();
    // Ctrl-C left nothing listening.
    if (setup)
      expect([await portIsFree(setup.ports.controlPlane), await portIsFree(setup.ports.runtime)]).toEqual([true, true]);
    await setup?.close();
  }, 60_000);

  /** The snippet, pasted in the shell where the printed export line was pasted first. */
  const paste = async (block: Block) =>
    succeeded(await bash(`${exports}\n${onPorts(block.code, setup.ports)}`, { env: setup.env }), block);

  /** A `.mts` snippet saved under the name the README gives and run with the command it gives. */
  const saveAndRun = async (block: Block) => {
    const command = `npx tsx ${block.name}`;
    expect(block.before).toContain(command);
    writeFileSync(path.join(setup.dataDir, block.name), onPorts(block.code, setup.ports));
    return succeeded(await bash(`${exports}\n${command}`, { env: setup.env, cwd: setup.dataDir }), block);
  };

  test("curl: the runtime answers its assistants to the printed key", async () => {
    const block = snippet("runtime-curl", blocks);
    const { stdout } = await paste(block);
    // "It answers the default assistants of the four example graphs (`agent`, ...)."
    const promised = [...block.after.split(". ")[0].matchAll(/`(\w+)`/g)].map((match) => match[1]);
    expect(promised).toHaveLength(4);
    const assistants = JSON.parse(stdout) as { graph_id: string }[];
    expect(assistants.map((assistant) => assistant.graph_id).sort()).toEqual(promised.sort());
  });

  test("try.mts streams a run of the echo agent", async () => {
    const block = snippet("try.mts", blocks);
    const lines = (await saveAndRun(block)).stdout.trim().split("\n");
    expect(block.after).toContain("answering `echo: hi`");
    expect(lines[0]).toMatch(/^metadata /);
    const updates = lines.filter((line) => line.startsWith("updates "));
    expect(updates).toHaveLength(1);
    expect(JSON.parse(updates[0].slice("updates ".length))).toMatchObject({
      agent: { messages: [expect.objectContaining({ content: "echo: hi" })] },
    });
  });

  test("protocol.mts stops at the approval's interrupt and resumes it", async () => {
    const block = snippet("protocol.mts", blocks);
    const { stdout } = await saveAndRun(block);
    expect(block.after).toContain("`Approve this draft?`");
    expect(block.after).toContain("`published: proposal: ship it`");
    expect(stdout).toContain("Approve this draft?");
    expect(stdout).toContain("published: proposal: ship it");
  });

  test("a key and its hash", async () => {
    const { stdout } = await paste(snippet("api-key-hash", blocks));
    const key = /^key: (\S+)$/m.exec(stdout)?.[1];
    const hash = /^API_KEY_HASHES=sha256:([0-9a-f]{64})$/m.exec(stdout)?.[1];
    expect(key).toBeDefined();
    expect(hash).toBe(createHash("sha256").update(key!).digest("hex"));
  });

  test("mcp.mts lists the assistants as tools", async () => {
    const block = snippet("mcp.mts", blocks);
    const { stdout } = await saveAndRun(block);
    const promised = /prints the tools, one per assistant: `(\[.*\])`/.exec(block.after)?.[1];
    expect(promised).toBeDefined();
    expect(stdout.trim()).toBe(promised);
  });

  test("a2a.mts sends a message to the echo agent with the runtime's key", async () => {
    const block = snippet("a2a.mts", blocks);
    const { stdout } = await saveAndRun(block);
    expect(block.after).toContain("`echo: hello agent`");
    expect(stdout).toMatch(/^task /);
    expect(stdout).toContain("echo: hello agent");
  });

  test("idempotent.mts: a create-run retried with its Idempotency-Key is answered the first run", async () => {
    const block = snippet("idempotent.mts", blocks);
    const { stdout } = await saveAndRun(block);
    expect(block.after).toContain("It prints `true 1`");
    expect(stdout.trim()).toBe("true 1");
  });

  test("npm run tenants: a tenant, a second key, the list", async () => {
    // This start uses the test's PostgreSQL, so the shell has CONTROL_PLANE_DATABASE_URL (the
    // README's "otherwise"); embedded-start.test.ts runs the same command beside the embedded one.
    const { stdout } = await paste(snippet("tenants", blocks));
    const keys = [...stdout.matchAll(/api key \(shown once, send it as X-Api-Key\): (\S+)/g)].map((match) => match[1]);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const answer = await fetch(`http://localhost:${setup.ports.controlPlane}/v2/deployments`, {
        headers: { "X-Api-Key": key },
      });
      expect(answer.status).toBe(200);
    }
    expect(stdout).toMatch(/^acme\t\S+\t2 key\(s\)$/m);
  });

  test("npm run secrets:rotate: a check, then a rotation with nothing under an old key", async () => {
    // The keys come from npm start's .data/secrets.json (DATA_DIR), as the README says; the
    // rotation itself is tested in services/control-plane/test/secrets.
    const { stdout } = await paste(snippet("secrets-rotate", blocks));
    expect(stdout.match(/^0 of \d+ ciphertexts still need an old key$/gm)).toHaveLength(2);
    expect(stdout).toMatch(/^re-encrypted 0 ciphertexts in 0 rows$/m);
    expect(stdout).toMatch(/^current key [0-9a-f]{12}; old keys: none$/m);
  });

  describe("the official CLI", () => {
    let project: string;
    let cliEnv: NodeJS.ProcessEnv;
    /** The control plane, with the key of the printed export line. */
    const controlPlane = (route: string, init: RequestInit = {}) =>
      fetch(`http://localhost:${setup.ports.controlPlane}${route}`, {
        ...init,
        headers: { "X-Api-Key": /LANGGRAPH_HOST_API_KEY=(\S+)/.exec(exports)![1] },
      });
    let deploymentId: string | undefined;
    beforeAll(() => {
      // A copy of examples/ (the CLI writes the deployment's name into the project's .env).
      project = path.join(setup.dataDir, "project");
      cpSync(path.join(REPO_ROOT, "examples"), project, {
        recursive: true,
        filter: (source) => !/__pycache__|\.egg-info|node_modules/.test(source),
      });
      // As after `pip install langgraph-cli`: a `langgraph` command, from the tests' Python clients'
      // environment (run as a module: its own console script names the folder it was built in).
      const python = execFileSync(
        process.execPath,
        ["--import", "tsx", path.join(REPO_ROOT, "services/agent-runtime/test/support/python.ts"), "--clients"],
        { cwd: REPO_ROOT, encoding: "utf8", timeout: 300_000 },
      )
        .trim()
        .split("\n")
        .at(-1)!;
      const bin = path.join(setup.dataDir, "bin");
      mkdirSync(bin);
      writeFileSync(path.join(bin, "langgraph"), `#!/bin/sh\nexec "${python}" -m langgraph_cli "$@"\n`, {
        mode: 0o755,
      });
      cliEnv = { ...setup.env, PATH: `${bin}:${setup.env.PATH}`, LANGSMITH_API_KEY: "", NO_COLOR: "1" };
    }, 300_000);
    // The deployment goes, and with it its runtime and database (the local deployer drops it).
    afterAll(async () => {
      if (!deploymentId) return;
      await controlPlane(`/v2/deployments/${deploymentId}`, { method: "DELETE" });
      const deadline = Date.now() + 30_000;
      while ((await controlPlane(`/v2/deployments/${deploymentId}`)).status !== 404 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }, 60_000);

    const inProject = (block: Block, options: Omit<BashOptions, "env" | "cwd">) =>
      bash(`${exports}\n${onPorts(block.code, setup.ports)}`, { env: cliEnv, cwd: project, ...options });

    test("langgraph deploy --remote: the project reaches DEPLOYED, and the status link lands", async () => {
      const block = snippet("langgraph-deploy", blocks);
      const { output } = succeeded(await inProject(block, { timeoutMs: 400_000 }), block);
      const found = await controlPlane("/v2/deployments?name_contains=my-agent");
      const [deployment] = ((await found.json()) as { resources: { id: string; latest_revision_id: string }[] })
        .resources;
      deploymentId = deployment.id;
      const revision = await controlPlane(
        `/v2/deployments/${deployment.id}/revisions/${deployment.latest_revision_id}`,
      );
      expect(((await revision.json()) as { status: string }).status).toBe("DEPLOYED");
      // The status link the CLI printed lands on the deployment's page in the console.
      const cp = `http://localhost:${setup.ports.controlPlane}`;
      const link = new RegExp(`${cp}/o/[^/\\s]+/host/deployments/${deployment.id}`).exec(output)?.[0];
      expect(link).toBeDefined();
      const page = await fetch(link!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    }, 420_000);

    test("langgraph deploy logs: the newest lines, a filtered query, then --follow", async () => {
      const block = snippet("langgraph-deploy-logs", blocks);
      // The last command follows until Ctrl-C, given once --follow has printed the deployment's
      // log (its last status change) after the first command printed it.
      const deployed = /status DEPLOYING -> DEPLOYED/g;
      const ran = await inProject(block, {
        timeoutMs: 120_000,
        until: (output) => (output.match(deployed) ?? []).length >= 2,
      });
      expect((ran.stdout.match(deployed) ?? []).length).toBe(2);
    }, 150_000);
  });
});

describe("snippets that start the platform themselves", () => {
  test.each(Object.keys(startSnippetChecks))(
    "%s",
    async (name) => {
      const block = snippet(name, blocks);
      const setup = await freshSetup(await readmePorts());
      try {
        await startSnippetChecks[name](block, setup);
      } finally {
        await setup.close();
      }
    },
    300_000,
  );
});
