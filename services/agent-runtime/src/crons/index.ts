export { CronRepository } from "./repository";
export { CronService } from "./service";
export { MemoryCronScheduler, RedisCronScheduler, type CronScheduler } from "./scheduler";
export { cronsRouter } from "./routes";
