import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import swaggerUi from "swagger-ui-express";
import type { Logger } from "../logger";
import { HttpError, ServiceUnavailableError, ValidationFailedError, type ValidationIssue } from "./errors";
import { createMetrics, type ServiceMetrics } from "./metrics";
import type { RateLimitMount } from "./rate-limit";
import { SERVICE_PATHS } from "./service-paths";
import { rejectUnstorableText } from "./storable-text";
import { isTransientError } from "../transient";
import { defaultJsonContentType, nullAsAbsent } from "./tolerant";
import { toValidationIssue } from "./validation";
import { contractValidator } from "./contract-validator";

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  /** The bundled OpenAPI document of this service (from @lgp/contracts). */
  apiSpec: Record<string, unknown>;
  /**
   * How a 422 reads: `list` is the control plane's `{detail: [{loc, msg, type}]}`; `message` is
   * the agent runtime's `{detail: "<text>"}`.
   */
  validationStyle: "list" | "message";
  /** Checks every response against the contract too (on in tests, so drift fails loudly). */
  validateResponses?: boolean;
  /** Largest JSON body accepted. */
  bodyLimit?: string;
  /**
   * Tolerant input (the agent runtime, whose clients are the official SDKs): unknown query
   * parameters are ignored, `null` for an optional body field means "not given", and a body sent
   * without `Content-Type` is read as JSON. Values are still validated.
   */
  tolerantInput?: boolean;
  /** CORS: before everything else but the request log and metrics, so a browser can read every answer. */
  cors?: RequestHandler[];
  /** Middleware before everything but CORS, health and metrics (authentication on the runtime). */
  early?: RequestHandler[];
  /**
   * Express's `trust proxy` (TRUST_PROXY): which hops' X-Forwarded-For to believe for `req.ip`,
   * the address failed authentications are counted by. Unset: the socket's address, never the header.
   */
  trustProxy?: TrustProxy;
  /** Middleware before validation (authentication). */
  before?: RequestHandler[];
  /**
   * Rate limits per caller, checked after `early` and `before` (so after authentication, and with
   * the body read) and after the probes, /metrics and the docs, which are never limited. Its
   * per-address budget of failed authentications is checked after `cors`, before `early`.
   */
  rateLimit?: RateLimitMount;
  /** Mounts the service's routes; runs after the contract validator. */
  routes: (app: Express) => void;
  /** Readiness: resolves when dependencies answer; throws otherwise. */
  ready?: () => Promise<void>;
  metrics?: ServiceMetrics;
}

/** A hop count, or addresses, subnets and names (`loopback`, `uniquelocal`) of trusted proxies. */
export type TrustProxy = number | string;

export interface ServiceApp {
  app: Express;
  metrics: ServiceMetrics;
}

declare module "express-serve-static-core" {
  interface Request {
    id: string;
  }
}

/**
 * The HTTP shell both services share: request id on every log line, metrics, health, the contract's
 * document and reference page, the contract validator in front of every handler, and one error
 * middleware that turns the error hierarchy into responses (never a stack trace or SQL text).
 */
// The reference page shares its origin with what browsers keep there (the console's key in
// sessionStorage): only its own scripts may run. Swagger UI's styles are inline.
const docsSecurityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader(
    "Content-Security-Policy",
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  );
  next();
};

export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const metrics = options.metrics ?? createMetrics(options.service);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "extended");
  if (options.trustProxy !== undefined) app.set("trust proxy", options.trustProxy);

  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers["x-request-id"];
        const id = typeof incoming === "string" && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
      autoLogging: { ignore: (req) => req.url === "/ok" || req.url === "/metrics" },
      serializers: {
        // The path only: query strings can carry secrets (an OAuth callback's code and state).
        req: (req) => ({ id: req.id, method: req.method, path: String(req.url).split("?")[0] }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.use((req, res, next) => {
    const stop = metrics.httpDuration.startTimer();
    res.on("finish", () => {
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : "unmatched";
      stop({ method: req.method, route, status: String(res.statusCode) });
      if (res.statusCode >= 500) metrics.httpErrors.inc({ status: String(res.statusCode) });
      if (res.statusCode === 401 || res.statusCode === 403)
        metrics.authRefusals.inc({ status: String(res.statusCode) });
    });
    next();
  });

  for (const handler of options.cors ?? []) app.use(handler);
  if (options.rateLimit) app.use(options.rateLimit.limiter.authFailureGuard(metrics));
  for (const handler of options.early ?? []) app.use(handler);

  app.get("/ok", (_req, res) => {
    res.json({ ok: true });
  });
  app.get("/ready", async (req, res) => {
    try {
      await options.ready?.();
      res.json({ ready: true });
    } catch (error) {
      req.log.warn({ err: error }, "readiness check failed");
      res.status(503).json({ ready: false, detail: "a dependency is not answering" });
    }
  });
  app.get("/metrics", async (_req, res) => {
    res.setHeader("Content-Type", metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  app.get("/openapi.json", (_req, res) => {
    res.json(options.apiSpec);
  });
  app.use(
    "/docs",
    docsSecurityHeaders,
    swaggerUi.serve,
    swaggerUi.setup(options.apiSpec, { customSiteTitle: `${options.service} API` }),
  );

  if (options.tolerantInput) app.use(defaultJsonContentType);
  app.use(express.json({ limit: options.bodyLimit ?? "10mb", strict: false }));
  for (const handler of options.before ?? []) app.use(handler);
  if (options.rateLimit) app.use(options.rateLimit.limiter.middleware(options.rateLimit, metrics));
  app.use(rejectUnstorableText);
  if (options.tolerantInput) app.use(nullAsAbsent(options.apiSpec));
  app.use(
    contractValidator(options.apiSpec, {
      // The bundled contracts are checked against the OpenAPI schema by their own test
      // (packages/contracts/test); checking again here doubled each app's validator build.
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: options.tolerantInput ?? false, coerceTypes: true },
      validateResponses: options.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      ignoreUndocumented: false,
      ignorePaths: SERVICE_PATHS,
    }),
  );
  options.routes(app);
  app.use(errorMiddleware(options.validationStyle));
  return { app, metrics };
}

interface ValidatorError {
  status?: number;
  errors?: { path?: string; message?: string; errorCode?: string }[];
  type?: string;
  message?: string;
}

function errorMiddleware(style: "list" | "message"): ErrorRequestHandler {
  const validationBody = (issues: ValidationIssue[]) =>
    style === "list"
      ? { detail: issues }
      : { detail: issues.map((issue) => `${issue.loc.join(".")}: ${issue.msg}`).join("; ") };

  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.log.error({ err: error }, "error after the response started");
      res.end();
      return;
    }
    if (error instanceof ValidationFailedError) {
      res.status(422).json(validationBody(error.issues));
      return;
    }
    const send = (http: HttpError) => {
      for (const [name, value] of Object.entries(http.headers ?? {})) res.setHeader(name, value);
      res.status(http.status).json({ detail: http.detail });
    };
    if (error instanceof HttpError) return send(error);
    const validator = error as ValidatorError;
    // body-parser: malformed JSON or a body over the limit.
    if (validator.type === "entity.parse.failed") {
      res
        .status(422)
        .json(validationBody([{ loc: ["body"], msg: "Request body is not valid JSON", type: "json_invalid" }]));
      return;
    }
    if (validator.type === "entity.too.large") {
      res.status(413).json({ detail: "Request body is too large" });
      return;
    }
    if (typeof validator.status === "number" && Array.isArray(validator.errors)) {
      if (validator.status === 400) {
        res.status(422).json(validationBody(validator.errors.map(toValidationIssue)));
        return;
      }
      const text: Record<number, string> = {
        404: "Not Found",
        405: "Method Not Allowed",
        415: "Unsupported Media Type",
      };
      if (validator.status === 401 || validator.status === 403) {
        res.status(validator.status).json({ detail: validator.errors[0]?.message ?? "Unauthorized" });
        return;
      }
      if (validator.status < 500) {
        res.status(validator.status).json({ detail: text[validator.status] ?? validator.message ?? "Bad Request" });
        return;
      }
    }
    if (isTransientError(error)) {
      // A connection cut or refused: the client may retry (the official clients do on a 503).
      req.log.warn({ err: error }, "a dependency is unreachable; answered 503");
      return send(new ServiceUnavailableError("A database or queue connection failed; retry shortly"));
    }
    req.log.error({ err: error }, "unhandled error");
    res.status(500).json({ detail: "Internal Server Error", request_id: req.id });
  };
}
