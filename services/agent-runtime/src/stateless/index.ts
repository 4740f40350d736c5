export { StatelessRunService, attachTemporaryThreadCleanup } from "./service";
export { statelessRouter } from "./routes";
