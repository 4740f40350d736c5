/**
 * What the revision reconciler asks of a deployment target. One implementation per target:
 * `local` (processes on this machine, databases on the local PostgreSQL server) and `kubernetes`
 * (manifests applied to a cluster). Every method is idempotent: the reconciler may repeat a step
 * after a restart.
 */
export interface Deployer {
  readonly kind: "local" | "kubernetes";

  /** Creates the deployment's own database (and anything else that lives as long as it). */
  provisionDatabase(deployment: DeploymentTarget): Promise<ProvisionResult>;

  /** Builds a source revision into something `deploy` can run. Docker sources skip this step. */
  build(deployment: DeploymentTarget, revision: RevisionTarget, log: RevisionLog): Promise<BuildResult>;

  /** Starts (or rolls out) the revision and waits until it is healthy or has failed. */
  deploy(
    deployment: DeploymentTarget,
    revision: RevisionTarget,
    build: BuildResult | null,
    log: RevisionLog,
  ): Promise<DeployResult>;

  /** Is the revision serving? `unknown` when the deployer cannot tell. */
  health(deployment: DeploymentTarget, revision: RevisionTarget): Promise<"healthy" | "unhealthy" | "unknown">;

  /** Stops a revision that is no longer active (its replacement is DEPLOYED). */
  retire(deployment: DeploymentTarget, revision: RevisionTarget, log: RevisionLog): Promise<void>;

  /** Removes everything the deployment owns: its revisions' workloads and its database. */
  destroy(deployment: DeploymentTarget, log: RevisionLog): Promise<void>;

  /**
   * Follows the runtimes' output of exactly these deployments into their revisions' deploy logs
   * (and lets go of any other), called again and again. Absent where a deployer collects the
   * output as it starts a runtime (local).
   */
  followLogs?(deployments: DeploymentTarget[], store: RuntimeLogStore): Promise<void>;
}

/** Where a runtime's output goes: its revision's deploy log. */
export interface RuntimeLogSink {
  /**
   * One line of output; `origin` is where it came from when the deployer knows (a pod's log: the
   * time the node received it, and the pod and container, kept among the line's fields).
   */
  line(stream: "stdout" | "stderr", text: string, origin?: LineOrigin): void;
  /** Writes what is pending (the runtime stopped). */
  close(): Promise<void>;
}

export interface LineOrigin {
  timestamp?: Date;
  fields?: Record<string, string>;
}

/** The deploy logs, as a deployer that follows output (kubernetes) sees them. */
export interface RuntimeLogStore {
  /** The sink of a revision's deploy log, masking these secret values. */
  sink(revisionId: string, secretValues: string[]): RuntimeLogSink;
  /** The time of the last line stored from `origin` (a pod's container), to go on after it. */
  lastLineAt(revisionId: string, origin: Record<string, string>): Promise<Date | null>;
}

/** The parts of a deployment a deployer needs, with secrets already decrypted. */
export interface DeploymentTarget {
  id: string;
  tenantId: string;
  name: string;
  source: "github" | "external_docker" | "internal_docker" | "internal_source";
  sourceConfig: Record<string, unknown>;
  secrets: { name: string; value: string }[];
  /**
   * The hash (`sha256:<hex>`) of the runtime's API key, passed as API_KEY_HASHES through the
   * deployer's secret mechanism; null for a deployment made before keys existed (open runtime).
   */
  runtimeKeyHash: string | null;
}

export interface RevisionTarget {
  id: string;
  sourceRevisionConfig: Record<string, unknown>;
}

export interface ProvisionResult {
  databaseUrl: string | null;
}

export interface BuildResult {
  /** What deploy runs: a directory for `local`, an image reference for `kubernetes`. */
  artifact: string;
  repoCommitSha?: string;
  /** `local`: the interpreter of the revision's Python environment, when it has Python graphs. */
  python?: string;
}

export interface DeployResult {
  /** Where the revision serves the agent runtime API. */
  url: string | null;
}

/** Appends a line to the revision's build or deploy log. */
export interface RevisionLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A failed step; the reconciler records `message` in the revision log and the matching *_FAILED. */
export class DeployerError extends Error {}
