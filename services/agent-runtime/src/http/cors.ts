// CORS as the official server configures it: `http.cors` in langgraph.json, or the environment
// (CORS_CONFIG, CORS_ALLOW_ORIGINS) over it. Without either, any origin may call the runtime, and
// the headers the official client reads (run ids, pages, the resumable stream) are exposed, with
// those of rate limits and idempotent repeats.
import cors, { type CorsOptions } from "cors";
import type { RequestHandler } from "express";
import { z } from "zod";
import { REPLAYED_HEADER } from "@lgp/server-kit";
import { GraphConfigError, readGraphProject } from "../graphs/config";

export const corsSettings = z
  .object({
    allow_origins: z.array(z.string()).optional(),
    allow_origin_regex: z
      .string()
      .refine((source) => {
        try {
          new RegExp(source);
          return true;
        } catch {
          return false;
        }
      }, "is not a valid regular expression")
      .optional(),
    allow_methods: z.array(z.string()).optional(),
    allow_headers: z.array(z.string()).optional(),
    allow_credentials: z.boolean().optional(),
    expose_headers: z.array(z.string()).optional(),
    max_age: z.number().int().min(0).optional(),
  })
  .loose();

export type CorsSettings = z.infer<typeof corsSettings>;

/**
 * What a page needs to read: the run a stream belongs to, its resumable stream, pages (the official
 * client); when to retry a 429 or 503 and the budget left (rate limits); whether a create with an
 * Idempotency-Key was answered again rather than done.
 */
const CLIENT_HEADERS = [
  "Content-Location",
  "Location",
  "X-Pagination-Total",
  "X-Pagination-Next",
  "Retry-After",
  "RateLimit",
  "RateLimit-Policy",
  REPLAYED_HEADER,
];

/** Adds the headers the official client needs to an `expose_headers` list that lacks them. */
function withClientHeaders(expose: string[]): string[] {
  const have = new Set(expose.map((header) => header.toLowerCase()));
  return [...expose, ...CLIENT_HEADERS.filter((header) => !have.has(header.toLowerCase()))];
}

/**
 * Whether a browser page of an origin may call the runtime under these settings. The regex must
 * match the whole origin (as on the hosted server): `https://.*\.example\.com` does not admit
 * `https://a.example.com.evil.io`.
 */
function originCheck(settings: CorsSettings): (origin: string) => boolean {
  const list = settings.allow_origins;
  if (!settings.allow_origin_regex && (!list || list.includes("*"))) return () => true;
  const regex = settings.allow_origin_regex ? new RegExp(`^(?:${settings.allow_origin_regex})$`) : undefined;
  return (origin) => (list?.includes(origin) ?? false) || (regex?.test(origin) ?? false);
}

export function corsOptions(settings: CorsSettings | undefined): CorsOptions {
  if (!settings) return { origin: "*", exposedHeaders: CLIENT_HEADERS, maxAge: 600 };
  const list = settings.allow_origins;
  const anyOrigin = !settings.allow_origin_regex && (!list || list.includes("*"));
  const allowed = originCheck(settings);
  const options: CorsOptions = {
    // With credentials a browser refuses `*`: the request's own origin is echoed instead.
    origin: anyOrigin
      ? settings.allow_credentials
        ? true
        : "*"
      : (origin, callback) => callback(null, !!origin && allowed(origin)),
    exposedHeaders: withClientHeaders(settings.expose_headers ?? []),
    credentials: settings.allow_credentials ?? false,
  };
  if (settings.allow_methods) options.methods = settings.allow_methods;
  if (settings.allow_headers) options.allowedHeaders = settings.allow_headers;
  if (settings.max_age !== undefined) options.maxAge = settings.max_age;
  return options;
}

/**
 * The CORS middleware, preflights answered (204) before any other handler. With origins
 * restricted, a write from a page of another origin is refused (403) rather than executed: a
 * browser sends a `text/plain` POST without asking first, and such a body is read as JSON here.
 */
export function corsMiddleware(settings: CorsSettings | undefined): RequestHandler[] {
  const handlers: RequestHandler[] = [
    cors({ ...corsOptions(settings), preflightContinue: false, optionsSuccessStatus: 204 }),
  ];
  if (settings) {
    const allowed = originCheck(settings);
    handlers.push((req, res, next) => {
      const origin = req.headers.origin;
      if (!origin || ["GET", "HEAD", "OPTIONS"].includes(req.method) || allowed(origin)) return next();
      res.status(403).json({ detail: `Origin ${origin} is not allowed to call this server` });
    });
  }
  return handlers;
}

/**
 * The settings in force: CORS_CONFIG over langgraph.json's `http.cors`, CORS_ALLOW_ORIGINS over
 * either's origins. A bad `http.cors` stops start-up with its key named.
 */
export function resolveCorsSettings(
  fromEnv: { CORS_CONFIG?: CorsSettings; CORS_ALLOW_ORIGINS?: string[] },
  fromJson: unknown,
): CorsSettings | undefined {
  let settings = fromEnv.CORS_CONFIG;
  if (!settings && fromJson !== undefined && fromJson !== null) {
    const parsed = corsSettings.safeParse(fromJson);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new GraphConfigError(`invalid langgraph.json: http.cors.${issue.path.join(".")} ${issue.message}`);
    }
    settings = parsed.data;
  }
  if (fromEnv.CORS_ALLOW_ORIGINS?.length) settings = { ...settings, allow_origins: fromEnv.CORS_ALLOW_ORIGINS };
  return settings;
}

/** The settings in force for a runtime: its environment over its langgraph.json's `http.cors`. */
export function corsSettingsOf(config: {
  LANGGRAPH_JSON: string;
  CORS_CONFIG?: CorsSettings;
  CORS_ALLOW_ORIGINS?: string[];
}): CorsSettings | undefined {
  const http = (readGraphProject(config.LANGGRAPH_JSON).json as { http?: { cors?: unknown } }).http;
  return resolveCorsSettings(config, http?.cors);
}
