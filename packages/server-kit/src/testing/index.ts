export * from "./database";
