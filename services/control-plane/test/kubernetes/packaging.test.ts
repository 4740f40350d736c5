import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import Ajv from "ajv";
import { parse } from "yaml";
import { loadControlPlaneConfig } from "../../src/config";
// The packaging must fit both services: compose's environments are checked against their schemas.
import { loadAgentRuntimeConfig } from "../../../agent-runtime/src/config";

/* eslint-disable @typescript-eslint/no-explicit-any -- compose and package files are plain JSON */

const ROOT = path.resolve(__dirname, "../../../..");
const DOCKERFILES = ["docker/control-plane.Dockerfile", "docker/agent-runtime.Dockerfile"];
const WORKDIR = "/app";

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

/** Dockerfile instructions with continuation lines joined and comments dropped. */
function instructions(file: string): Instruction[] {
  const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const result: Instruction[] = [];
  let buffer = "";
  let start = 0;
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!buffer && (line === "" || line.startsWith("#"))) return;
    if (!buffer) start = index + 1;
    if (line.startsWith("#")) return;
    if (line.endsWith("\\")) {
      buffer += `${line.slice(0, -1)} `;
      return;
    }
    buffer += line;
    const [keyword, ...rest] = buffer.split(/\s+/);
    result.push({ keyword: keyword.toUpperCase(), args: rest.join(" "), line: start });
    buffer = "";
  });
  return result;
}

function exists(relative: string): boolean {
  return fs.existsSync(path.join(ROOT, relative.replace(/\/$/, "")));
}

function packageJson(dir: string): any {
  return JSON.parse(fs.readFileSync(path.join(ROOT, dir, "package.json"), "utf8"));
}

/** `npm run <script> -w <workspace>` and `npx tsx <file>` / `tsx <file>` must name things that exist. */
function checkCommand(command: string, where: string, cwd = "."): string[] {
  const problems: string[] = [];
  for (const match of command.matchAll(/npm run ([\w:-]+)(?: -w ([\w/.-]+))?/g)) {
    const [, script, workspace = "."] = match;
    const scripts = packageJson(workspace).scripts ?? {};
    if (!scripts[script]) problems.push(`${where}: script "${script}" is not in ${workspace}/package.json`);
    else problems.push(...checkCommand(scripts[script], `${where} -> ${workspace}:${script}`, workspace));
  }
  for (const match of command.matchAll(/(?:^|\s)(?:npx )?tsx ([\w./-]+\.ts)/g)) {
    const file = path.join(cwd, match[1]);
    if (!exists(file)) problems.push(`${where}: ${file} does not exist`);
  }
  return problems;
}

describe.each(DOCKERFILES)("%s", (file) => {
  const steps = instructions(file);
  const stages = steps.filter((s) => s.keyword === "FROM").map((s) => / AS (\S+)$/i.exec(s.args)?.[1]);

  test("multi-stage: dependencies (npm ci), build, production dependencies, slim runtime", () => {
    expect(stages).toEqual(["deps", "build", "prod-deps", "runtime"]);
    const runs = steps.filter((s) => s.keyword === "RUN").map((s) => s.args);
    expect(runs.some((r) => /npm ci\b/.test(r) && !r.includes("--omit=dev"))).toBe(true);
    expect(runs.some((r) => /npm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(runs.some((r) => r.includes("scripts/prisma-generate.ts"))).toBe(true);
    expect(runs.some((r) => r.includes("npm run generate -w packages/contracts"))).toBe(true);
  });

  test("every path it copies from the build context exists in the repository", () => {
    const copies = steps.filter((s) => (s.keyword === "COPY" || s.keyword === "ADD") && !s.args.includes("--from="));
    expect(copies.length).toBeGreaterThan(5);
    for (const copy of copies) {
      const parts = copy.args.split(/\s+/).filter((p) => !p.startsWith("--"));
      for (const source of parts.slice(0, -1)) expect([source, exists(source)]).toEqual([source, true]);
    }
  });

  test("every path it copies between stages is one the stage has (the repository's, or node_modules)", () => {
    const copies = steps.filter((s) => s.keyword === "COPY" && s.args.includes("--from="));
    expect(copies.length).toBeGreaterThan(3);
    for (const copy of copies) {
      const stage = /--from=(\S+)/.exec(copy.args)![1];
      expect(stages).toContain(stage);
      const parts = copy.args.split(/\s+/).filter((p) => !p.startsWith("--"));
      for (const source of parts.slice(0, -1)) {
        expect(source.startsWith(`${WORKDIR}/`)).toBe(true);
        const relative = source.slice(WORKDIR.length + 1);
        if (relative === "node_modules") continue;
        expect([relative, exists(relative)]).toEqual([relative, true]);
      }
    }
  });

  test("the dependency stage copies the package.json of every workspace (npm ci needs them all)", () => {
    const workspaces = (packageJson(".").workspaces as string[]).flatMap((pattern) => {
      const dir = pattern.replace(/\/\*$/, "");
      return fs
        .readdirSync(path.join(ROOT, dir))
        .map((name) => `${dir}/${name}`)
        .filter((ws) => fs.existsSync(path.join(ROOT, ws, "package.json")));
    });
    expect(workspaces.length).toBeGreaterThanOrEqual(4);
    const copied = steps.filter((s) => s.keyword === "COPY" && !s.args.includes("--from=")).map((s) => s.args);
    for (const ws of workspaces) expect(copied).toContain(`${ws}/package.json ${ws}/`);
    expect(copied).toContain("package.json package-lock.json ./");
  });

  test("what it runs exists: build scripts, the start command, the health check", () => {
    const problems: string[] = [];
    for (const step of steps.filter((s) => s.keyword === "RUN"))
      problems.push(...checkCommand(step.args, `${file}:${step.line}`));
    const cmd = JSON.parse(steps.filter((s) => s.keyword === "CMD").at(-1)!.args) as string[];
    expect(cmd.slice(0, 3)).toEqual(["node", "--import", "tsx"]);
    for (const arg of cmd.filter((a) => a.endsWith(".ts"))) if (!exists(arg)) problems.push(`CMD runs missing ${arg}`);
    expect(problems).toEqual([]);
    const healthcheck = steps.find((s) => s.keyword === "HEALTHCHECK");
    expect(healthcheck?.args).toMatch(/\/ok'/);
  });

  test("runs as a non-root user and documents its port", () => {
    const users = steps.filter((s) => s.keyword === "USER").map((s) => s.args);
    expect(users.at(-1)).toBe("1000:1000");
    const port = file.includes("control-plane") ? "8100" : "8123";
    expect(steps.find((s) => s.keyword === "EXPOSE")?.args).toBe(port);
    expect(steps.find((s) => s.keyword === "ENV" && s.args.includes(`PORT=${port}`))).toBeDefined();
  });

  test("its .dockerignore keeps node_modules and local data out without hiding a copied path", () => {
    const ignore = fs
      .readFileSync(path.join(ROOT, `${file}.dockerignore`), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    expect(ignore).toEqual(expect.arrayContaining(["**/node_modules", ".git", ".data"]));
    const copied = steps
      .filter((s) => s.keyword === "COPY" && !s.args.includes("--from="))
      .flatMap((s) => s.args.split(/\s+/).slice(0, -1));
    for (const source of copied) expect(ignore).not.toContain(source.replace(/\/$/, ""));
  });
});

describe("the control plane image", () => {
  test("carries the agent runtime, its migrations and git for the local deployer, with a writable work directory", () => {
    const steps = instructions("docker/control-plane.Dockerfile");
    const copies = steps.filter((s) => s.keyword === "COPY").map((s) => s.args);
    expect(copies).toContain("--from=build /app/services/agent-runtime ./services/agent-runtime");
    expect(copies).toContain("--from=build /app/prisma/agent-runtime/migrations ./prisma/agent-runtime/migrations");
    const runtimeStage = steps.slice(steps.findIndex((s) => s.keyword === "FROM" && s.args.endsWith("AS runtime")));
    expect(
      runtimeStage.some((s) => s.keyword === "RUN" && s.args.includes("install -y --no-install-recommends git")),
    ).toBe(true);
    // The local deployer's default DEPLOYMENTS_DIR (<repo>/.data/deployments), writable by the service.
    expect(runtimeStage.some((s) => s.keyword === "RUN" && s.args.includes("chown -R node:node /app/.data"))).toBe(
      true,
    );
    const compose = parse(fs.readFileSync(path.join(ROOT, "docker/compose.yaml"), "utf8"), { merge: true });
    expect(compose.services["control-plane"].volumes).toEqual(["control-plane-data:/app/.data"]);
  });
});

describe("the agent runtime image", () => {
  test("serves the bundled examples by default (LANGGRAPH_JSON) and copies them", () => {
    const steps = instructions("docker/agent-runtime.Dockerfile");
    const env = steps
      .filter((s) => s.keyword === "ENV")
      .map((s) => s.args)
      .join(" ");
    expect(env).toContain("LANGGRAPH_JSON=/app/examples/langgraph.json");
    expect(steps.some((s) => s.keyword === "COPY" && s.args === "examples/ ./examples/")).toBe(true);
    expect(exists("examples/langgraph.json")).toBe(true);
  });

  test("carries Python 3 with venv for Python graphs, and the graph host's package", () => {
    const steps = instructions("docker/agent-runtime.Dockerfile");
    const runtimeStage = steps.slice(steps.findIndex((s) => s.keyword === "FROM" && s.args.endsWith("AS runtime")));
    const install = runtimeStage.find((s) => s.keyword === "RUN" && s.args.includes("apt-get install"))!;
    expect(install.args).toMatch(/python3 python3-venv/);
    const env = runtimeStage
      .filter((s) => s.keyword === "ENV")
      .map((s) => s.args)
      .join(" ");
    expect(env).toContain("PYTHON_ENVIRONMENTS_DIR=");
    // The host package is part of the service folder the image copies.
    expect(runtimeStage.some((s) => s.keyword === "COPY" && s.args.includes("/app/services/agent-runtime"))).toBe(true);
    expect(exists("services/agent-runtime/python/pyproject.toml")).toBe(true);
  });
});

/** Compose variable interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, $$. */
function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g, (whole, name, op, fallback) => {
    if (whole === "$$") return "$";
    const current = vars[name];
    if (op === ":-") return current ? current : fallback;
    if (op === "-") return current ?? fallback;
    return current ?? "";
  });
}

describe("docker/compose.yaml", () => {
  const compose = parse(fs.readFileSync(path.join(ROOT, "docker/compose.yaml"), "utf8"), { merge: true });
  const services = compose.services as Record<string, any>;

  test("is valid against the Compose Specification schema", () => {
    const schemaFile = path.join(path.dirname(require.resolve("dclint/package.json")), "schemas/compose.schema.json");
    const ajv = new Ajv({ allErrors: true, strict: false });
    // Draft-07 (ajv's default); its "$schema" spells the meta-schema URI in a form ajv does not know.
    const { $schema: _draft, ...schema } = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
    const validate = ajv.compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // ... and the schema does catch mistakes.
    expect(validate({ services: { a: { image: "x", depends_on: { b: { condition: "when_ready" } } } } })).toBe(false);
  });

  test("runs PostgreSQL, Redis, the control plane, the runtime API (WORKERS=0) and a separate worker", () => {
    expect(Object.keys(services).sort()).toEqual([
      "agent-runtime",
      "agent-runtime-worker",
      "control-plane",
      "postgres",
      "redis",
    ]);
    expect(services["agent-runtime"].environment.WORKERS).toBe("0");
    const worker = services["agent-runtime-worker"].command as string[];
    // The worker entry point the runtime's own `worker` script runs.
    expect(packageJson("services/agent-runtime").scripts.worker).toBe("tsx src/worker.ts");
    expect(worker).toEqual(["node", "--import", "tsx", "services/agent-runtime/src/worker.ts"]);
    expect(exists(worker[3])).toBe(true);
  });

  test("start order is health-gated, and every awaited service has a health check", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, spec] of Object.entries((service.depends_on ?? {}) as Record<string, any>)) {
        expect([name, dependency, dependency in services]).toEqual([name, dependency, true]);
        expect(spec.condition).toBe("service_healthy");
        const healthcheck = services[dependency].healthcheck;
        const imageHealthcheck = services[dependency].build?.dockerfile;
        // Either its own test, or the HEALTHCHECK of the image it builds.
        const checked =
          (healthcheck?.test && !healthcheck.disable) ||
          (imageHealthcheck && instructions(imageHealthcheck).some((s) => s.keyword === "HEALTHCHECK"));
        expect([dependency, Boolean(checked)]).toEqual([dependency, true]);
      }
    }
    expect(Object.keys(services["control-plane"].depends_on).sort()).toEqual(["postgres", "redis"]);
    expect(Object.keys(services["agent-runtime"].depends_on).sort()).toEqual(["postgres", "redis"]);
    expect(Object.keys(services["agent-runtime-worker"].depends_on).sort()).toEqual(["agent-runtime", "redis"]);
  });

  test("builds from the repository with the Dockerfiles that exist; named volumes are declared", () => {
    for (const service of Object.values(services)) {
      if (!service.build) continue;
      expect(path.resolve(ROOT, "docker", service.build.context)).toBe(ROOT);
      expect(exists(service.build.dockerfile)).toBe(true);
    }
    for (const service of Object.values(services)) {
      for (const volume of service.volumes ?? []) {
        const source = String(volume).split(":")[0];
        if (!source.startsWith(".") && !source.startsWith("/")) expect(Object.keys(compose.volumes)).toContain(source);
      }
    }
  });

  test("each service's environment (defaults interpolated) passes that service's configuration schema", () => {
    const env = (name: string) =>
      Object.fromEntries(
        Object.entries(services[name].environment as Record<string, string>).map(([key, value]) => [
          key,
          interpolate(String(value), {}),
        ]),
      );
    const controlPlane = loadControlPlaneConfig(env("control-plane"));
    expect(controlPlane.PORT).toBe(8100);
    expect(controlPlane.CONTROL_PLANE_DATABASE_URL).toBe("postgresql://postgres:postgres@postgres:5432/control_plane");
    expect(controlPlane.BOOTSTRAP_API_KEY).toBeDefined();
    const api = loadAgentRuntimeConfig(env("agent-runtime"));
    expect([api.PORT, api.WORKERS, api.REDIS_URL]).toEqual([8123, 0, "redis://redis:6379/0"]);
    const worker = loadAgentRuntimeConfig(env("agent-runtime-worker"));
    expect(worker.DATABASE_URL).toBe(api.DATABASE_URL);
    expect(worker.LANGGRAPH_JSON).toBe("/app/examples/langgraph.json");
    // Overrides from the environment take effect.
    expect(
      interpolate(services["control-plane"].environment.BOOTSTRAP_API_KEY, { BOOTSTRAP_API_KEY: "k".repeat(20) }),
    ).toBe("k".repeat(20));
  });

  const dockerCompose = spawnSync("docker", ["compose", "version"], { encoding: "utf8" }).status === 0;
  (dockerCompose ? test : test.skip)("docker compose config accepts it", () => {
    const result = spawnSync("docker", ["compose", "-f", path.join(ROOT, "docker/compose.yaml"), "config", "--quiet"], {
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe(".github/workflows/images.yml", () => {
  const workflow = parse(fs.readFileSync(path.join(ROOT, ".github/workflows/images.yml"), "utf8"));

  test("runs on pushes and pull requests: both image builds and the compose stack (ci.yml runs the suite)", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(Object.keys(workflow.jobs).sort()).toEqual(["build", "compose"]);
    const ci = parse(fs.readFileSync(path.join(ROOT, ".github/workflows/ci.yml"), "utf8"));
    expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push"]);
    expect(ci.jobs.test.steps.some((s: any) => s.run === "bash .ci/run")).toBe(true);
    expect(exists(".ci/run")).toBe(true);
  });

  test("builds each Dockerfile that exists, and only those", () => {
    const services = workflow.jobs.build.strategy.matrix.service as string[];
    expect(services.map((s) => `docker/${s}.Dockerfile`).sort()).toEqual([...DOCKERFILES].sort());
    const build = workflow.jobs.build.steps.find((s: any) => String(s.uses).startsWith("docker/build-push-action"));
    expect(build.with.file).toBe("docker/${{ matrix.service }}.Dockerfile");
    expect(build.with.context).toBe(".");
  });

  test("the compose job checks and starts docker/compose.yaml", () => {
    const runs = workflow.jobs.compose.steps.map((s: any) => s.run ?? "").join("\n");
    expect(runs).toContain("docker compose -f docker/compose.yaml config --quiet");
    expect(runs).toContain("up --build --detach --wait");
  });
});
