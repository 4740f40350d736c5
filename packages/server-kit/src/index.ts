export * from "./config";
export * from "./logger";
export * from "./shutdown";
export * from "./http/app";
export * from "./http/errors";
export * from "./http/metrics";
export * from "./migrations/applier";
export * from "./migrations/database";
