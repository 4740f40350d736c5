export { KubernetesDeployer, createKubernetesDeployer, type KubernetesDeployerOptions } from "./kubernetes-deployer";
export {
  renderRevision,
  resourceNames,
  namespaceOf,
  type RenderInput,
  type RenderedRevision,
  type Manifest,
} from "./render";
export { rolloutState } from "./rollout";
