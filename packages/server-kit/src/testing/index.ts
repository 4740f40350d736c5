export * from "./database";
export * from "./official-client";
export * from "./contract-fuzz";
export * from "./langsmith-recorder";
export * from "./otlp-receiver";
