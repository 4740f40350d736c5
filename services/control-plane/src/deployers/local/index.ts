export { LocalDeployer, deploymentDatabaseUrl, type LocalDeployerOptions } from "./local-deployer";
