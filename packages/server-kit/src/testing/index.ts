export * from "./database";
export * from "./official-client";
