export { RevisionRepository } from "./repository";
export { RevisionService } from "./service";
export { revisionsRouter } from "./routes";
export * from "./status";
