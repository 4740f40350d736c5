import type { ControlPlane } from "@lgp/contracts";

/**
 * The deployment's `resource_spec` as the contract describes it. Volumes, mounts and containers
 * are Kubernetes objects passed through as given (the contract types their nested objects loosely).
 */
export type ResourceSpec = NonNullable<ControlPlane.components["schemas"]["ResourceSpec"]>;

/** Sizing with every default applied. */
export interface Sizing {
  cpu: number;
  cpuLimit: number;
  memoryMb: number;
  memoryLimitMb: number;
  minScale: number;
  maxScale: number;
}

/** What a deployment gets when its resource_spec leaves a value out. */
export const DEFAULT_SIZING = { cpu: 1, memoryMb: 1024, minScale: 1, maxScale: 1 } as const;

/** The API validated the body against the contract; this only narrows `source_config.resource_spec`. */
export function resourceSpecOf(sourceConfig: Record<string, unknown>): ResourceSpec {
  const spec = sourceConfig.resource_spec;
  return spec && typeof spec === "object" ? (spec as ResourceSpec) : {};
}

export function apiSizing(spec: ResourceSpec): Sizing {
  const cpu = spec.cpu ?? DEFAULT_SIZING.cpu;
  const memoryMb = spec.memory_mb ?? DEFAULT_SIZING.memoryMb;
  const minScale = spec.min_scale ?? DEFAULT_SIZING.minScale;
  return {
    cpu,
    cpuLimit: spec.cpu_limit ?? cpu * 2,
    memoryMb,
    memoryLimitMb: spec.memory_limit_mb ?? memoryMb * 2,
    minScale,
    maxScale: Math.max(spec.max_scale ?? Math.max(DEFAULT_SIZING.maxScale, minScale), minScale),
  };
}

/** Queue workers: each value absent from the spec is the API's (a queue request given alone doubles for its limit). */
export function queueSizing(spec: ResourceSpec): Sizing {
  const api = apiSizing(spec);
  const minScale = spec.queue_min_scale ?? api.minScale;
  return {
    cpu: spec.queue_cpu ?? api.cpu,
    cpuLimit: spec.queue_cpu_limit ?? (spec.queue_cpu != null ? spec.queue_cpu * 2 : api.cpuLimit),
    memoryMb: spec.queue_memory_mb ?? api.memoryMb,
    memoryLimitMb:
      spec.queue_memory_limit_mb ?? (spec.queue_memory_mb != null ? spec.queue_memory_mb * 2 : api.memoryLimitMb),
    minScale,
    maxScale: Math.max(spec.queue_max_scale ?? api.maxScale, minScale),
  };
}

/** CPU cores as a Kubernetes quantity: 0.5 -> "500m", 2 -> "2", 1.25 -> "1250m". */
export function cpuQuantity(cores: number): string {
  if (Number.isInteger(cores)) return String(cores);
  return `${Math.round(cores * 1000)}m`;
}

/** Megabytes as a Kubernetes quantity: 512 -> "512Mi" (the platform's megabytes are mebibytes). */
export function memoryQuantity(mb: number): string {
  return `${Math.round(mb)}Mi`;
}
