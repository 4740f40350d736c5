export * from "./model";
export { DeploymentRepository } from "./repository";
export { DeploymentService } from "./service";
export { deploymentsRouter } from "./routes";
export { presentDeployment } from "./presenter";
