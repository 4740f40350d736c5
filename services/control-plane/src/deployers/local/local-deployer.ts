import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { UploadStore } from "../../uploads/store";
import { dropDatabase, ensureDatabase, type Logger, type OutboundFetch } from "@lgp/server-kit";
import {
  DeployerError,
  type BuildResult,
  type Deployer,
  type DeploymentTarget,
  type DeployResult,
  type ProvisionResult,
  type RevisionLog,
  type RevisionTarget,
  type RuntimeLogSink,
} from "../deployer";
import { baseEnv, runCommand, runShell } from "./commands";
import { verifyGraphConfig } from "./graph-config";
import { freePort } from "@lgp/server-kit";
import { deployExternal, healthAt } from "../external";
import { deploymentEnv } from "../runtime-env";
import { RuntimeProcesses } from "./processes";
import { checkout, unpackSource } from "./source";

const REPO_ROOT = path.resolve(__dirname, "../../../../..");

export interface LocalDeployerOptions {
  /** A PostgreSQL URL on the server that holds the deployments' databases (its database part is ignored). */
  databaseServerUrl: string;
  /** Where sources are checked out and built: `<workDir>/<deployment>/<revision>/`. */
  workDir: string;
  /** Host in the URLs reported for runtimes (they listen on 127.0.0.1). */
  publicHost?: string;
  /** How long a runtime may take to answer /ok, and install/build commands to finish. */
  startTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** How long an external_docker URL may take to answer /ok. */
  healthTimeoutMs?: number;
  /** The fetch for external_docker URLs (a tenant's): the outbound policy's. */
  outbound?: OutboundFetch;
  /** LOG_LEVEL of the runtimes (a deployment secret named LOG_LEVEL overrides it). */
  runtimeLogLevel?: string;
  /** The agent runtime entry point; default this repository's services/agent-runtime. */
  runtimeEntry?: string;
  /** The uploaded source tarballs (a `source_tarball_path` of `uploads/...` names one). */
  uploads?: Pick<UploadStore, "fileOf">;
  /**
   * Where a revision's runtime output is kept (its deploy log), given the deployment's secret
   * values to mask; without it, only start-up output reaches the deploy log.
   */
  runtimeLogs?: (revisionId: string, secretValues: string[]) => RuntimeLogSink;
}

/** Variables the platform sets for a runtime; a secret cannot override them. */
const RESERVED = new Set(["DATABASE_URL", "PORT", "HOST", "LANGGRAPH_JSON", "REDIS_URL", "API_KEY_HASHES"]);
const BUILD_MARKER = ".lgp-build.json";

/** A deployment's database on the server of `serverUrl` (any database's URL there): `lgp_deployment_<id>`. */
export function deploymentDatabaseUrl(serverUrl: string, deploymentId: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/lgp_deployment_${deploymentId.replace(/-/g, "").toLowerCase()}`;
  url.search = "";
  return url.toString();
}

/**
 * The `local` deployer: each deployment gets its own database on the configured PostgreSQL server;
 * a source revision is checked out (or copied), installed and built under the work directory and
 * served by an agent runtime process on a free port; an external_docker revision is health-checked
 * at its custom_url.
 */
export class LocalDeployer implements Deployer {
  readonly kind = "local" as const;
  readonly processes: RuntimeProcesses;
  private readonly runtimeEntry: string;

  constructor(
    private readonly options: LocalDeployerOptions,
    logger: Logger,
  ) {
    this.runtimeEntry = options.runtimeEntry ?? path.join(REPO_ROOT, "services/agent-runtime/src/main.ts");
    this.processes = new RuntimeProcesses(logger, this.runtimeEntry);
  }

  databaseUrl(deploymentId: string): string {
    return deploymentDatabaseUrl(this.options.databaseServerUrl, deploymentId);
  }

  private revisionDir(deploymentId: string, revisionId: string): string {
    return path.join(this.options.workDir, deploymentId, revisionId);
  }

  async provisionDatabase(deployment: DeploymentTarget): Promise<ProvisionResult> {
    const databaseUrl = this.databaseUrl(deployment.id);
    try {
      // Two revisions of a new deployment may both get here: PostgreSQL reports a concurrent
      // CREATE DATABASE of the same name as a unique violation, so look again once.
      await ensureDatabase(databaseUrl).catch(() => ensureDatabase(databaseUrl));
    } catch (error) {
      throw new DeployerError(`could not create the deployment's database: ${(error as Error).message}`);
    }
    return { databaseUrl };
  }

  async build(deployment: DeploymentTarget, revision: RevisionTarget, log: RevisionLog): Promise<BuildResult> {
    const config = revision.sourceRevisionConfig;
    if (deployment.source === "external_docker" || deployment.source === "internal_docker") {
      return { artifact: String(config.image_uri ?? "") };
    }
    const dir = path.join(this.revisionDir(deployment.id, revision.id), "src");
    const marker = path.join(this.revisionDir(deployment.id, revision.id), BUILD_MARKER);
    // Idempotent: a revision built before a restart is not built again.
    if (existsSync(marker)) {
      const done = JSON.parse(readFileSync(marker, "utf8")) as BuildResult;
      if (existsSync(done.artifact)) {
        log.info("reusing the build made earlier");
        return done;
      }
    }
    rmSync(dir, { recursive: true, force: true });
    const repoUrl = stringOf(deployment.sourceConfig.repo_url);
    const sourcePath = await this.sourcePathOf(stringOf(config.source_tarball_path), deployment.id);
    let repoCommitSha: string | undefined;
    // A redeployed revision carries the commit of the revision it copies: build exactly that.
    if (repoUrl)
      repoCommitSha = await checkout(repoUrl, stringOf(config.repo_ref), dir, log, stringOf(config.repo_commit_sha));
    else if (sourcePath) await unpackSource(sourcePath, dir, log);
    else throw new DeployerError("the revision has neither a repo_url nor a source_tarball_path");

    const timeoutMs = this.options.commandTimeoutMs ?? 10 * 60_000;
    for (const key of ["install_command", "build_command"] as const) {
      const command = stringOf(deployment.sourceConfig[key]);
      if (command) await runShell(command, { cwd: dir, timeoutMs, log, label: key });
    }
    const configPath = stringOf(config.langgraph_config_path) ?? "langgraph.json";
    const graphConfig = verifyGraphConfig(dir, configPath);
    log.info(`${configPath} loads: graphs ${graphConfig.graphs.join(", ")}`);
    const result: BuildResult = { artifact: graphConfig.path, repoCommitSha };
    if (graphConfig.python)
      result.python = await this.pythonEnvironment(graphConfig.path, revision.id, deployment.id, log);
    writeFileSync(marker, JSON.stringify(result));
    return result;
  }

  async deploy(
    deployment: DeploymentTarget,
    revision: RevisionTarget,
    build: BuildResult | null,
    log: RevisionLog,
  ): Promise<DeployResult> {
    if (deployment.source === "external_docker") {
      const url = stringOf(deployment.sourceConfig.custom_url);
      if (!url)
        throw new DeployerError("an external_docker revision needs source_config.custom_url to be deployed locally");
      return deployExternal(url, this.options.healthTimeoutMs ?? 30_000, log, this.options.outbound);
    }
    if (deployment.source === "internal_docker") {
      throw new DeployerError(
        "the local deployer cannot run container images; use the kubernetes deployer or an external_docker URL",
      );
    }
    if (!build?.artifact || !existsSync(build.artifact))
      throw new DeployerError("the revision's build output is missing");
    const revisionDir = this.revisionDir(deployment.id, revision.id);
    const pidFile = path.join(revisionDir, "runtime.pid");
    await this.processes.stop(revision.id, pidFile);
    const port = await freePort();
    const url = `http://${this.options.publicHost ?? "127.0.0.1"}:${port}`;
    const env: Record<string, string> = { ...baseEnv(), LOG_LEVEL: this.options.runtimeLogLevel ?? "info" };
    for (const [name, value] of Object.entries(deploymentEnv(deployment))) if (!RESERVED.has(name)) env[name] = value;
    Object.assign(env, {
      DATABASE_URL: this.databaseUrl(deployment.id),
      PORT: String(port),
      HOST: "127.0.0.1",
      LANGGRAPH_JSON: build.artifact,
    });
    // The build's Python environment (its interpreter is kept in the build marker beside the
    // source; the revision row keeps only the artifact).
    const python = build.python ?? this.builtPython(deployment.id, revision.id);
    if (python) env.LANGGRAPH_PYTHON = python;
    if (deployment.runtimeKeyHash) env.API_KEY_HASHES = deployment.runtimeKeyHash;
    else log.warn("this deployment has no API key (made before keys existed): its runtime is open; rotate its key");
    mkdirSync(revisionDir, { recursive: true });
    await this.processes.start({
      revisionId: revision.id,
      deploymentId: deployment.id,
      command: process.execPath,
      args: ["--import", "tsx", this.runtimeEntry],
      cwd: REPO_ROOT,
      env,
      url,
      pidFile,
      timeoutMs: this.options.startTimeoutMs ?? 120_000,
      log,
      output: this.options.runtimeLogs?.(
        revision.id,
        deployment.secrets.map((secret) => secret.value),
      ),
    });
    return { url };
  }

  async health(deployment: DeploymentTarget, revision: RevisionTarget): Promise<"healthy" | "unhealthy" | "unknown"> {
    const url =
      deployment.source === "external_docker"
        ? stringOf(deployment.sourceConfig.custom_url)
        : this.processes.url(revision.id);
    if (!url) return "unhealthy";
    // Only a tenant's URL is judged by the outbound policy; this deployer's own runtimes are on loopback.
    return healthAt(url, deployment.source === "external_docker" ? this.options.outbound : undefined);
  }

  async retire(deployment: DeploymentTarget, revision: RevisionTarget, log: RevisionLog): Promise<void> {
    const revisionDir = this.revisionDir(deployment.id, revision.id);
    if (await this.processes.stop(revision.id, path.join(revisionDir, "runtime.pid")))
      log.info("stopped the agent runtime");
    rmSync(revisionDir, { recursive: true, force: true });
  }

  async destroy(deployment: DeploymentTarget, log: RevisionLog): Promise<void> {
    const deploymentDir = path.join(this.options.workDir, deployment.id);
    const revisions = new Set(this.processes.revisionsOf(deployment.id));
    if (existsSync(deploymentDir)) for (const entry of readdirSync(deploymentDir)) revisions.add(entry);
    for (const revisionId of revisions) {
      await this.processes.stop(revisionId, path.join(deploymentDir, revisionId, "runtime.pid"));
    }
    log.info("stopped the deployment's agent runtimes");
    await dropDatabase(this.databaseUrl(deployment.id));
    log.info("dropped the deployment's database");
    rmSync(deploymentDir, { recursive: true, force: true });
  }

  /**
   * The revision's Python environment, made by the agent runtime's own tool (its requirements and
   * the project's `dependencies`), pip's output in the build log; every revision shares pip's
   * cache (the user's, or PIP_CACHE_DIR), so a second revision of the same requirements downloads nothing.
   */
  private async pythonEnvironment(
    configPath: string,
    revisionId: string,
    deploymentId: string,
    log: RevisionLog,
  ): Promise<string> {
    const prepare = path.join(path.dirname(this.runtimeEntry), "python", "prepare.ts");
    log.info("making the revision's Python environment (pip)");
    const output = await runCommand(
      process.execPath,
      [
        "--import",
        "tsx",
        prepare,
        configPath,
        "--environments-dir",
        path.join(this.revisionDir(deploymentId, revisionId), "python"),
      ],
      {
        cwd: REPO_ROOT,
        env: baseEnv(),
        timeoutMs: this.options.commandTimeoutMs ?? 10 * 60_000,
        log,
        label: "python environment",
      },
    );
    const python = /^python: (.+)$/m.exec(output)?.[1];
    if (!python) throw new DeployerError("the Python environment was made, but its interpreter was not named");
    return python;
  }

  /** The interpreter of a revision's Python environment, as its build recorded it. */
  private builtPython(deploymentId: string, revisionId: string): string | undefined {
    const marker = path.join(this.revisionDir(deploymentId, revisionId), BUILD_MARKER);
    if (!existsSync(marker)) return undefined;
    const python = (JSON.parse(readFileSync(marker, "utf8")) as BuildResult).python;
    return python && existsSync(python) ? python : undefined;
  }

  /** Stops every runtime this process started (control-plane shutdown, end of a test). */
  stopAll(): Promise<void> {
    return this.processes.stopAll();
  }

  /** An upload's object path (`uploads/<deployment>/<id>.tar.gz`) as its file; any other path as it is. */
  private async sourcePathOf(value: string | null, deploymentId: string): Promise<string | null> {
    if (!value || !UploadStore.isObjectPath(value)) return value;
    const file = await this.options.uploads?.fileOf(value, deploymentId);
    if (!file)
      throw new DeployerError(
        `the upload ${value} is not there (uploads are kept in UPLOADS_DIR, or UPLOADS_S3_BUCKET)`,
      );
    return file;
  }
}

function stringOf(value: unknown): string | null {
  return typeof value === "string" && value.length ? value : null;
}
