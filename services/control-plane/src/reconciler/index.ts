export { Reconciler, type ReconcilerOptions } from "./reconciler";
export { createReconcilerRuntime, createLocalDeployer, type ReconcilerRuntime } from "./wiring";
