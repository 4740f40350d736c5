// The monitoring that docker/ ships (Prometheus and Grafana in the compose profile `observability`)
// must fit what the services really serve: every metric and label the dashboard's queries name is
// in the /metrics of a real agent runtime (or the control plane), Prometheus scrapes the compose
// services on the ports they serve /metrics on, with the credentials they ask for, and Grafana's
// provisioning points at what the compose file mounts. No Docker daemon and no Prometheus here: the
// files are parsed and checked against the Compose Specification schema and the running services.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import { parse } from "yaml";
import { createMetrics } from "@lgp/server-kit";
import { REPO_ROOT } from "@lgp/server-kit/src/testing";
import { serveMetrics } from "../../services/agent-runtime/src/metrics/endpoint";
import { RunMetrics } from "../../services/agent-runtime/src/metrics/run-metrics";
import type { RunStart } from "../../services/agent-runtime/src/runs/observers";
import type { RunFinished } from "../../services/agent-runtime/src/runs/finished";
import { Client, collect, startTestRuntime } from "../../services/agent-runtime/test/support/harness";
import { startHarness } from "../../services/control-plane/test/deployments/harness";

/* eslint-disable @typescript-eslint/no-explicit-any -- compose, Prometheus and Grafana files are plain data */

const DOCKER = path.join(REPO_ROOT, "docker");
const read = (file: string) => fs.readFileSync(path.join(DOCKER, file), "utf8");
const yamlOf = (file: string) => parse(read(file), { merge: true });

const compose = yamlOf("compose.yaml");
const observability = yamlOf("compose.observability.yaml");
const services: Record<string, any> = { ...compose.services, ...observability.services };
const prometheusConfig = yamlOf("prometheus/prometheus.yml");
const dashboard = JSON.parse(read("grafana/dashboards/agent-runtime.json"));

/** Compose variable interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, $$ (no variables set). */
function interpolate(value: string): string {
  return value.replace(/\$\$|\$\{([A-Za-z_]\w*)(?::?-([^}]*))?\}/g, (whole, _name, fallback) =>
    whole === "$$" ? "$" : (fallback ?? ""),
  );
}

/** The container port a service serves /metrics on: METRICS_PORT on a worker, PORT on an API. */
function metricsPort(service: string): number {
  const env = services[service].environment ?? {};
  return Number(env.METRICS_PORT ?? env.PORT);
}

/** A bind mount of `service` whose source is `source` (relative to docker/): its target. */
function mountTarget(service: string, source: string): string | undefined {
  for (const volume of services[service].volumes ?? []) {
    const [from, to] = String(volume).split(":");
    if (path.resolve(DOCKER, from) === path.resolve(DOCKER, source)) return to;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// PromQL, as far as the dashboard uses it: which series selectors an expression has (metric name
// and the labels it matches on), which labels it groups by, which Grafana variables it names.

interface Selector {
  metric: string;
  labels: string[];
}

interface Query {
  selectors: Selector[];
  grouping: string[];
  variables: string[];
}

const GROUPING = new Set(["by", "without", "on", "ignoring", "group_left", "group_right"]);
const KEYWORDS = new Set(["bool", "and", "or", "unless", "offset", "inf", "nan"]);
// What Grafana puts in for its own variables (ranges in PromQL's syntax).
const GRAFANA_GLOBALS: Record<string, string> = { __rate_interval: "1m", __interval: "15s", __range: "1h" };

function tokenize(expr: string): string[] {
  const tokens: string[] = [];
  const pattern =
    /\s+|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\{(?:[^}"]|"(?:[^"\\]|\\.)*")*\}|\[[^\]]*\]|[a-zA-Z_:][\w:]*|\d+(?:\.\d+)?(?:e[+-]?\d+)?|==|!=|>=|<=|[-+*/%^(),<>]/y;
  for (let index = 0; index < expr.length;) {
    pattern.lastIndex = index;
    const match = pattern.exec(expr);
    if (!match) throw new Error(`cannot read ${JSON.stringify(expr.slice(index))} in ${expr}`);
    if (match[0].trim()) tokens.push(match[0]);
    index = pattern.lastIndex;
  }
  return tokens;
}

function matcherLabels(block: string): string[] {
  const labels: string[] = [];
  const inner = block.slice(1, -1).trim();
  if (!inner) return labels;
  const matcher = /\s*([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"\s*(,|$)/y;
  for (let index = 0; index < inner.length;) {
    matcher.lastIndex = index;
    const match = matcher.exec(inner);
    if (!match) throw new Error(`cannot read the matchers ${block}`);
    labels.push(match[1]);
    index = matcher.lastIndex;
  }
  return labels;
}

function parseQuery(expr: string): Query {
  const variables = [...expr.matchAll(/\$\{?(\w+)\}?/g)].map((m) => m[1]);
  const text = expr.replace(/\$\{?(__\w+)\}?/g, (whole, name) => GRAFANA_GLOBALS[name] ?? whole);
  const tokens = tokenize(text);
  const selectors: Selector[] = [];
  const grouping: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const next = tokens[i + 1];
    if (GROUPING.has(token) && next === "(") {
      for (i += 2; tokens[i] !== ")"; i++) if (tokens[i] !== ",") grouping.push(tokens[i]);
      continue;
    }
    if (token.startsWith("{")) throw new Error(`a selector without a metric name in ${expr}`);
    if (!/^[a-zA-Z_:]/.test(token) || KEYWORDS.has(token)) continue;
    // A function or an aggregation: `rate(`, `sum(`, `sum by (`.
    if (next === "(" || next === "by" || next === "without") continue;
    const block = next?.startsWith("{");
    selectors.push({ metric: token, labels: block ? matcherLabels(next) : [] });
    if (block) i++;
  }
  return { selectors, grouping, variables };
}

// ---------------------------------------------------------------------------------------------
// The Prometheus text format: each family's type, and the labels each sample name carries.

interface Exposition {
  types: Map<string, string>;
  labels: Map<string, Set<string>>;
}

function readExposition(texts: string[]): Exposition {
  const types = new Map<string, string>();
  const labels = new Map<string, Set<string>>();
  for (const line of texts.join("\n").split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? \S+$/.exec(line);
    if (!sample) continue;
    const own = labels.get(sample[1]) ?? new Set<string>();
    for (const label of (sample[2] ?? "").matchAll(/(\w+)="/g)) own.add(label[1]);
    labels.set(sample[1], own);
  }
  return { types, labels };
}

/** The family a sample name belongs to: itself, or the histogram/summary whose series it is. */
function familyOf(exposition: Exposition, metric: string): string | undefined {
  if (exposition.types.has(metric)) return metric;
  const series = /^(.*)_(bucket|count|sum)$/.exec(metric);
  if (!series) return undefined;
  const type = exposition.types.get(series[1]);
  if (type === "histogram" || (type === "summary" && series[2] !== "bucket")) return series[1];
  return undefined;
}

/** A run as the run observers see it (the fields RunMetrics reads). */
function fakeRun(graphId: string, attempt: number): RunStart & RunFinished["run"] {
  const now = new Date();
  return {
    attempt,
    created_at: new Date(now.getTime() - 50),
    started_at: now,
    kwargs: { graph_id: graphId },
  } as unknown as RunStart & RunFinished["run"];
}

// ---------------------------------------------------------------------------------------------

describe("the compose files", () => {
  const schemaFile = path.join(path.dirname(require.resolve("dclint/package.json")), "schemas/compose.schema.json");
  const ajv = new Ajv({ allErrors: true, strict: false });
  const { $schema: _draft, ...schema } = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
  const validate = ajv.compile(schema);

  test.each(["compose.yaml", "compose.observability.yaml"])("%s is valid against the Compose schema", (file) => {
    validate(yamlOf(file));
    expect(validate.errors ?? []).toEqual([]);
  });

  test("compose.yaml includes the observability file, whose services all have the `observability` profile", () => {
    expect(compose.include).toEqual(["compose.observability.yaml"]);
    expect(Object.keys(observability.services).sort()).toEqual(["grafana", "prometheus"]);
    // Included services must not clash with the file's own; a plain `up` starts what it did before.
    for (const name of Object.keys(observability.services)) expect(compose.services[name]).toBeUndefined();
    for (const service of Object.values<any>(observability.services))
      expect(service.profiles).toEqual(["observability"]);
    for (const service of Object.values<any>(compose.services)) expect(service.profiles).toBeUndefined();
  });

  test("Prometheus and Grafana: pinned images, ports on 127.0.0.1, mounts that exist, health-gated start", () => {
    for (const [name, service] of Object.entries<any>(observability.services)) {
      expect([name, service.image]).toEqual([name, expect.stringMatching(/^[\w./-]+:v?\d+\.\d+\.\d+$/)]);
      for (const port of service.ports) expect(String(port)).toMatch(/^127\.0\.0\.1:/);
      for (const volume of service.volumes) {
        const [source, , mode] = String(volume).split(":");
        if (source.startsWith(".")) {
          expect([volume, fs.existsSync(path.join(DOCKER, source))]).toEqual([volume, true]);
          expect([volume, mode]).toEqual([volume, "ro"]);
        } else expect(Object.keys(observability.volumes)).toContain(source);
      }
      expect(service.healthcheck.test[0]).toBe("CMD");
      for (const [dependency, spec] of Object.entries<any>(service.depends_on ?? {})) {
        expect(spec.condition).toBe("service_healthy");
        expect(services[dependency].healthcheck.test).toBeDefined();
      }
    }
    expect(mountTarget("prometheus", "prometheus/prometheus.yml")).toBe("/etc/prometheus/prometheus.yml");
  });

  test("the worker serves /metrics on METRICS_PORT, on the compose network only", () => {
    const worker = services["agent-runtime-worker"];
    expect(metricsPort("agent-runtime-worker")).toBe(9464);
    expect(worker.expose).toEqual(["9464"]);
    expect(worker.ports).toBeUndefined();
  });
});

describe("docker/prometheus/prometheus.yml", () => {
  const jobs = prometheusConfig.scrape_configs as any[];

  test("scrapes the runtime API, every worker and the control plane on the ports they serve /metrics on", () => {
    const scraped: Record<string, string> = {};
    for (const job of jobs) {
      expect(job.metrics_path ?? "/metrics").toBe("/metrics");
      expect(job.scheme ?? "http").toBe("http");
      const targets: [string, number][] = [
        ...(job.static_configs ?? []).flatMap((c: any) =>
          c.targets.map((t: string) => [t.split(":")[0], Number(t.split(":")[1])]),
        ),
        ...(job.dns_sd_configs ?? []).flatMap((c: any) => c.names.map((n: string) => [n, c.port])),
      ];
      expect(targets.length).toBeGreaterThan(0);
      for (const [host, port] of targets) {
        expect([job.job_name, host in services]).toEqual([job.job_name, true]);
        expect([host, port]).toEqual([host, metricsPort(host)]);
        scraped[host] = job.job_name;
      }
    }
    expect(Object.keys(scraped).sort()).toEqual(["agent-runtime", "agent-runtime-worker", "control-plane"]);
    // Workers may be scaled (`--scale`): each of their containers is found by DNS.
    const worker = jobs.find((job) => job.job_name === scraped["agent-runtime-worker"]);
    expect(worker.dns_sd_configs[0]).toMatchObject({ type: "A", names: ["agent-runtime-worker"] });
  });

  test("presents the key compose.yaml's runtime accepts, from a file the prometheus service is given", () => {
    const job = jobs.find((j) => j.static_configs?.[0].targets[0].startsWith("agent-runtime:"));
    expect(job.authorization.type).toBe("Bearer");
    const mount = observability.services.prometheus.configs.find(
      (c: any) => c.target === job.authorization.credentials_file,
    );
    expect(mount).toBeDefined();
    const key = interpolate(observability.configs[mount.source].content);
    const hashes = interpolate(services["agent-runtime"].environment.API_KEY_HASHES);
    expect(hashes).toBe(`sha256:${createHash("sha256").update(key).digest("hex")}`);
    // The other jobs send nothing: their /metrics are open (checked on the real services below).
    for (const other of jobs.filter((j) => j !== job))
      expect(other.authorization ?? other.http_headers).toBeUndefined();
  });
});

describe("Grafana's provisioning", () => {
  const datasources = yamlOf("grafana/provisioning/datasources/prometheus.yaml").datasources;
  const providers = yamlOf("grafana/provisioning/dashboards/langgraph-platform.yaml").providers;
  const provisioning = mountTarget("grafana", "grafana/provisioning");
  const dashboards = mountTarget("grafana", "grafana/dashboards");

  test("its data source is the compose Prometheus", () => {
    expect(provisioning).toBe("/etc/grafana/provisioning");
    expect(datasources).toHaveLength(1);
    const url = new URL(datasources[0].url);
    expect(datasources[0].type).toBe("prometheus");
    expect(url.hostname).toBe("prometheus");
    expect(services.prometheus.ports).toEqual([`127.0.0.1:${url.port}:${url.port}`]);
    expect(datasources[0].jsonData.timeInterval).toBe(prometheusConfig.global.scrape_interval);
  });

  test("its dashboards are the files of docker/grafana/dashboards, the runs dashboard the home page", () => {
    expect(providers).toHaveLength(1);
    expect(providers[0].options.path).toBe(dashboards);
    const home = services.grafana.environment.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH;
    expect(path.posix.dirname(home)).toBe(dashboards);
    expect(fs.existsSync(path.join(DOCKER, "grafana/dashboards", path.posix.basename(home)))).toBe(true);
  });
});

describe("docker/grafana/dashboards/agent-runtime.json", () => {
  const panels = dashboard.panels as any[];
  const variables = dashboard.templating.list as any[];
  const queries = panels.flatMap((panel) =>
    (panel.targets ?? []).map((target: any) => ({ panel: panel.title as string, target })),
  );

  test("is a dashboard Grafana provisions: uid, schema version, unique ids, panels on a 24-column grid", () => {
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.title).toEqual(expect.any(String));
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    for (const panel of panels) {
      expect(["row", "timeseries", "stat"]).toContain(panel.type);
      const { x, y, w, h } = panel.gridPos;
      expect([panel.title, x >= 0 && w > 0 && x + w <= 24 && y >= 0 && h > 0]).toEqual([panel.title, true]);
    }
    for (const [i, a] of panels.entries())
      for (const b of panels.slice(i + 1)) {
        const [p, q] = [a.gridPos, b.gridPos];
        const overlap = p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
        expect([a.title, b.title, overlap]).toEqual([a.title, b.title, false]);
      }
  });

  test("every query goes to the data source variable and names only variables the dashboard has", () => {
    expect(variables.map((v) => v.name)).toEqual(["datasource", "service", "instance", "graph_id"]);
    expect(variables[0]).toMatchObject({ type: "datasource", query: "prometheus" });
    const defined = new Set([...variables.map((v) => v.name), ...Object.keys(GRAFANA_GLOBALS)]);
    for (const panel of panels.filter((p) => p.type !== "row")) {
      expect([panel.title, panel.datasource.uid]).toEqual([panel.title, "${datasource}"]);
      expect(new Set(panel.targets.map((t: any) => t.refId)).size).toBe(panel.targets.length);
      for (const target of panel.targets) {
        expect(target.datasource.uid).toBe("${datasource}");
        for (const name of parseQuery(target.expr).variables)
          expect([panel.title, name, defined.has(name)]).toEqual([panel.title, name, true]);
      }
    }
    for (const variable of variables.slice(1)) {
      expect(variable.datasource.uid).toBe("${datasource}");
      // The plain PromQL form Grafana runs as it is (a `qryType` would want the editor's fields).
      expect(variable.query).toEqual({ query: variable.definition, refId: "StandardVariableQuery" });
    }
  });

  test("quantiles are read from histogram buckets, grouped by `le`", () => {
    const quantiles = queries.filter(({ target }) => target.expr.includes("histogram_quantile"));
    expect(quantiles.length).toBeGreaterThanOrEqual(8);
    for (const { target } of quantiles) {
      const query = parseQuery(target.expr);
      expect(query.grouping).toContain("le");
      for (const selector of query.selectors) expect(selector.metric).toMatch(/_bucket$/);
    }
  });

  describe("against the /metrics of real services", () => {
    const KEY = "lgp-dev-runtime-key-change-me";
    let exposition: Exposition;
    let rt: Awaited<ReturnType<typeof startTestRuntime>>;
    let unauthenticated: number;

    beforeAll(async () => {
      // The runtime as compose runs it: with the development key's hash (so /metrics asks for it).
      const hashes = interpolate(services["agent-runtime"].environment.API_KEY_HASHES);
      rt = await startTestRuntime({ env: { API_KEY_HASHES: hashes } });
      const client = new Client({ apiUrl: rt.url, apiKey: KEY, callerOptions: { maxRetries: 0 } });
      const thread = await client.threads.create();
      await collect(client.runs.stream(thread.thread_id, "steps", { input: {}, context: { delay_ms: 5 } }));
      unauthenticated = (await fetch(`${rt.url}/metrics`)).status;
      const fromRuntime = await (
        await fetch(`${rt.url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })
      ).text();

      // What only some events make (a resume, a webhook settled, every run status), fed to the same
      // metrics in-process, so every series the dashboard reads has samples to take labels from.
      const metrics = createMetrics("agent-runtime-worker");
      const runs = new RunMetrics(metrics.registry, {
        runCounts: async () => ({ pending: 0, running: 0 }),
        executing: () => 0,
        subscribers: () => ({ sse: 0, websocket: 0 }),
      });
      runs.created("steps");
      runs.started(fakeRun("steps", 1));
      runs.started(fakeRun("steps", 2));
      for (const status of ["success", "error", "interrupted", "timeout"] as const)
        runs.finished({ run: fakeRun("steps", 1), status });
      runs.webhookSettled(true);
      runs.webhookSettled(false);
      metrics.httpDuration.observe({ method: "GET", route: "/ok", status: "500" }, 0.01);
      metrics.httpErrors.inc({ status: "500" });
      metrics.authRefusals.inc({ status: "401" });
      const inProcess = await metrics.registry.metrics();
      exposition = readExposition([fromRuntime, inProcess]);
    }, 120_000);

    afterAll(() => rt?.close());

    test("the runtime's /metrics needs its key, and takes it as Prometheus sends it", () => {
      expect(unauthenticated).toBe(401);
      expect(exposition.types.get("lgp_runs_finished_total")).toBe("counter");
    });

    test("every metric a query selects exists, with every label it matches on, groups by or shows", () => {
      for (const { panel, target } of queries) {
        const query = parseQuery(target.expr);
        expect(query.selectors.length).toBeGreaterThan(0);
        const available = new Set(["job", "instance"]);
        for (const selector of query.selectors) {
          const family = familyOf(exposition, selector.metric);
          expect([panel, selector.metric, family !== undefined]).toEqual([panel, selector.metric, true]);
          const labels = new Set([...(exposition.labels.get(selector.metric) ?? []), "job", "instance"]);
          for (const label of selector.labels)
            expect([panel, selector.metric, label, labels.has(label)]).toEqual([panel, selector.metric, label, true]);
          for (const label of labels) available.add(label);
        }
        for (const label of query.grouping) expect([panel, label, available.has(label)]).toEqual([panel, label, true]);
        // A legend shows labels the result keeps: those grouped by, or the selector's own.
        const kept =
          query.grouping.length && /\b(sum|max|min|avg|count) /.test(target.expr) ? new Set(query.grouping) : available;
        for (const [, label] of String(target.legendFormat).matchAll(/\{\{\s*(\w+)\s*\}\}/g))
          expect([panel, target.legendFormat, kept.has(label)]).toEqual([panel, target.legendFormat, true]);
      }
    });

    test("every template variable's label_values query names a metric and a label that exist", () => {
      for (const variable of variables.filter((v) => v.type === "query")) {
        const match = /^label_values\((.+),\s*(\w+)\)$/.exec(variable.definition);
        expect(match).not.toBeNull();
        const [selector] = parseQuery(match![1]).selectors;
        // Prometheus adds `job` and `instance` to every sample it scrapes.
        expect([...(exposition.labels.get(selector.metric) ?? []), "job", "instance"]).toContain(match![2]);
      }
    });

    test("every run and HTTP metric the services serve has a panel", () => {
      const families = [...exposition.types.keys()].filter((name) => /^(lgp|http)_/.test(name));
      const shown = new Set(
        queries.flatMap(({ target }) => parseQuery(target.expr).selectors.map((s) => familyOf(exposition, s.metric))),
      );
      expect(families.filter((family) => !shown.has(family))).toEqual([]);
      for (const family of [
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "nodejs_eventloop_lag_p99_seconds",
      ])
        expect(shown).toContain(family);
    });
  });
});

describe("the jobs without credentials scrape open endpoints", () => {
  test("the control plane's /metrics answers without a key", async () => {
    const harness = await startHarness();
    try {
      const response = await fetch(`${harness.url}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('service="control-plane"');
    } finally {
      await harness.close();
    }
  });

  test("a worker's METRICS_PORT endpoint answers without a key", async () => {
    const metrics = createMetrics("agent-runtime-worker");
    const server = await serveMetrics(metrics.registry, 0, "127.0.0.1");
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('service="agent-runtime-worker"');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
