export { LocalDeployer, type LocalDeployerOptions } from "./local-deployer";
