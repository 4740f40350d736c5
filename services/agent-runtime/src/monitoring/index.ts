export { MonitoringRepository } from "./repository";
export { MonitoringService } from "./service";
export { monitoringRouter } from "./routes";
