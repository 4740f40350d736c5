// OpenTelemetry traces, configured by the standard OTEL_* variables and off unless they ask for
// them: the official Node SDK exports over OTLP (HTTP, protobuf by default; OTEL_EXPORTER_OTLP_PROTOCOL
// = http/json for JSON), with the HTTP server and client, Express, PostgreSQL (pg) and Redis
// (ioredis) instrumented. The SDK is loaded only when on, so tracing off costs a flag read.
//
// It must start before the modules it instruments are loaded: each entry point imports a file
// that calls startTracing as its first import.
import type { NodeSDK } from "@opentelemetry/sdk-node";

let sdk: NodeSDK | undefined;
let started = false;

/** Query parameters whose values a span never states (with the SDK's own: signatures). */
const REDACTED_QUERY_PARAMS = [
  "sig",
  "Signature",
  "AWSAccessKeyId",
  "X-Goog-Signature",
  "X-Amz-Signature",
  "X-Amz-Credential",
  "X-Amz-Security-Token",
  "code",
  "state",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "api_key",
  "apikey",
  "key",
  "password",
  "secret",
  "client_secret",
];

/** Paths nobody wants a trace of: health checks and scrapes. */
const UNTRACED_PATHS = new Set(["/ok", "/metrics", "/health", "/healthz"]);

/**
 * Whether the environment asks for traces: an OTLP endpoint is set, or OTEL_TRACES_EXPORTER names
 * an exporter; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it off.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.includes("none")) return false;
  return exporters.length > 0 || !!env.OTEL_EXPORTER_OTLP_ENDPOINT || !!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
}

/** Whether this process traces (startTracing found it asked for). */
export function tracingEnabled(): boolean {
  return sdk !== undefined;
}

/**
 * Starts the SDK when the environment asks for traces; the first call of a process decides (a
 * worker's entry point calls it before the modules it shares with the API's). OTEL_SERVICE_NAME
 * wins over `serviceName`.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (started) return tracingEnabled();
  started = true;
  if (!tracingRequested(env)) return false;
  // Loaded only when tracing is on (require: synchronously, before the instrumented modules).
  const { NodeSDK } = require("@opentelemetry/sdk-node") as typeof import("@opentelemetry/sdk-node");
  const { HttpInstrumentation } =
    require("@opentelemetry/instrumentation-http") as typeof import("@opentelemetry/instrumentation-http");
  const { ExpressInstrumentation, ExpressLayerType } =
    require("@opentelemetry/instrumentation-express") as typeof import("@opentelemetry/instrumentation-express");
  const { PgInstrumentation } =
    require("@opentelemetry/instrumentation-pg") as typeof import("@opentelemetry/instrumentation-pg");
  const { IORedisInstrumentation } =
    require("@opentelemetry/instrumentation-ioredis") as typeof import("@opentelemetry/instrumentation-ioredis");
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ? undefined : serviceName,
    // Traces only, unless metrics or logs are asked for by name: /metrics (Prometheus) has the
    // figures and the logs go to stdout.
    ...(env.OTEL_METRICS_EXPORTER ? {} : { metricReaders: [] }),
    ...(env.OTEL_LOGS_EXPORTER ? {} : { logRecordProcessors: [] }),
    instrumentations: [
      new HttpInstrumentation({
        // Credentials a URL may carry (an OAuth callback's code and state, say) are not stated.
        redactedQueryParams: REDACTED_QUERY_PARAMS,
        redactedQueryParamsServer: REDACTED_QUERY_PARAMS,
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? "").split("?")[0]),
      }),
      // The route's handler; a span per middleware and per router a request passes would be noise.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      // Statements and commands outside a traced request or run (the queue's polling, sweeps)
      // would each start a trace of their own: they are left out.
      // A statement's text is kept (its values are not); a pool checkout is not a span of its own.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      // A command's name and key only: the queue's scripts carry jobs (a run's input) as arguments.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: redisStatement }),
    ],
  });
  sdk.start();
  return true;
}

/** Commands whose first argument is a key (what the runtime and BullMQ send); any other states its name only. */
const KEYED_COMMANDS = new Set(
  (
    "get set del exists expire pexpire incr incrby hget hset hmget hmset hgetall hdel hincrby lpush rpush lrem llen " +
    "lrange rpoplpush lmove sadd srem scard smembers zadd zrem zcard zrange zrangebyscore zpopmin zscore xadd xread " +
    "xrange xrevrange xtrim xlen xdel publish subscribe"
  ).split(" "),
);

/**
 * A Redis command as a span states it: its name, and its key for the data commands above; never
 * a value, and never an argument of any other command (AUTH's is the password).
 */
export function redisStatement(command: string, args: unknown[]): string {
  const key = args[0];
  const keyed = KEYED_COMMANDS.has(command.toLowerCase()) && typeof key === "string" && key.length <= 200;
  return keyed ? `${command} ${key}` : command;
}

/** Exports the spans still buffered and stops the SDK (on shutdown). */
export async function shutdownTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
