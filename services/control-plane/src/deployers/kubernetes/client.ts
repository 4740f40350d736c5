import fs from "node:fs";
import path from "node:path";
import NodeModule from "node:module";
import { ConfigError } from "@lgp/server-kit";
import type * as K8s from "@kubernetes/client-node" with { "resolution-mode": "import" };

export type { K8s };

/**
 * `@kubernetes/client-node` 1.x ships only ES modules. Node >= 20.19 can `require()` them, but
 * jest's module registry refuses to, so the client is loaded through Node's own loader (a real
 * `Module`, which jest does not replace). The 2.x line needs Node 22; 1.x runs on Node 20.
 */
export function loadKubernetesClient(): typeof K8s {
  const ModuleClass = NodeModule as unknown as {
    new (id: string): { filename: string; paths: string[]; require(id: string): unknown };
    _nodeModulePaths(dir: string): string[];
  };
  const loader = new ModuleClass(__filename);
  loader.filename = __filename;
  loader.paths = ModuleClass._nodeModulePaths(path.dirname(__filename));
  return loader.require("@kubernetes/client-node") as typeof K8s;
}

/**
 * A KubeConfig: from `kubeconfigPath` when given, otherwise the library's default order
 * ($KUBECONFIG, ~/.kube/config, then the in-cluster service account).
 */
export function loadKubeConfig(kubeconfigPath?: string): K8s.KubeConfig {
  const k8s = loadKubernetesClient();
  const kc = new k8s.KubeConfig();
  if (kubeconfigPath) {
    if (!fs.existsSync(kubeconfigPath)) throw new ConfigError(`invalid KUBECONFIG: ${kubeconfigPath} does not exist`);
    kc.loadFromFile(kubeconfigPath);
  } else {
    kc.loadFromDefault();
    // With nothing to load, the library falls back to an unauthenticated http://localhost:8080.
    if (kc.getCurrentCluster()?.server === "http://localhost:8080" && kc.getCurrentContext() === "loaded-context") {
      throw new ConfigError(
        "DEPLOYER=kubernetes found no cluster: set KUBECONFIG, provide ~/.kube/config, or run the control plane in a cluster",
      );
    }
  }
  if (!kc.getCurrentCluster()) throw new ConfigError("invalid KUBECONFIG: its current context names no cluster");
  return kc;
}
