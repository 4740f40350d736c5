export { PrismaStore, createGraphStore } from "./graph-store";
export { StoreRepository } from "./repository";
export { StoreService } from "./service";
export { storeRouter } from "./routes";
