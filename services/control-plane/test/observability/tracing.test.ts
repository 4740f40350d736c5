// The control plane's traces: started as its own process with the standard OTEL_* variables, it
// exports an HTTP server span per API request, with its PostgreSQL statements inside, over OTLP/HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { freePort, waitUntilOk } from "@lgp/server-kit";
import { createEmptyDatabase, type TestDatabase } from "@lgp/server-kit/src/testing";
import { OtlpReceiver } from "@lgp/server-kit/src/testing/otlp-receiver";

let receiver: OtlpReceiver;
let database: TestDatabase;
let child: ChildProcess;
let url: string;
const output: string[] = [];
const key = `lgp_test_${randomBytes(12).toString("hex")}`;

beforeAll(async () => {
  receiver = await new OtlpReceiver().start();
  database = await createEmptyDatabase("control_plane");
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const serviceDir = path.resolve(__dirname, "../..");
  child = spawn(process.execPath, ["--import", "tsx", path.join(serviceDir, "src/main.ts")], {
    cwd: serviceDir,
    env: {
      ...process.env,
      CONTROL_PLANE_DATABASE_URL: database.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      BOOTSTRAP_API_KEY: key,
      CONSOLE_ENABLED: "false",
      SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => output.push(String(chunk)));
  child.stderr?.on("data", (chunk) => output.push(String(chunk)));
  if (!(await waitUntilOk(`${url}/ok`, 60_000, () => child.exitCode === null))) {
    throw new Error(`the control plane did not start:\n${output.join("")}`);
  }
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await receiver?.close();
  await database?.drop();
});

test("an API request is a trace: its server span, its route and its PostgreSQL statements", async () => {
  const response = await fetch(`${url}/v2/deployments`, { headers: { "x-api-key": key } });
  expect(response.status).toBe(200);
  const spans = await receiver.waitFor((all) => all.some((span) => span.name === "GET /v2/deployments"));
  const request = spans.find((span) => span.name === "GET /v2/deployments");
  expect(request).toMatchObject({ service: "control-plane", kind: 2, parentSpanId: undefined });
  const trace = spans.filter((span) => span.traceId === request!.traceId);
  expect(
    trace.some((span) => [span.attributes["db.system"], span.attributes["db.system.name"]].includes("postgresql")),
  ).toBe(true);
}, 30_000);
