// For deployers that follow their runtimes' output rather than start it (kubernetes: pod logs),
// this loop says what to follow: every deployment with an active revision that this control plane
// holds the lease of. One control plane follows a deployment at a time (so a line is stored once
// with several replicas); a lease not renewed (its holder died) is taken over, and the new holder
// goes on after the last line stored.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Logger } from "@lgp/server-kit";
import type { Db } from "../db";
import type { Deployer, DeploymentTarget, RuntimeLogSink, RuntimeLogStore } from "../deployers/deployer";
import { targetOf } from "../reconciler/targets";
import { RevisionRepository } from "../revisions/repository";
import type { SecretCipher } from "../secrets/cipher";
import { RuntimeLogCollector } from "./collector";

export interface FollowingOptions {
  /** How often the followed set is brought up to date (new pods, restarted containers). */
  intervalMs?: number;
  /** How long a lease lasts without renewal. */
  leaseMs?: number;
}

/**
 * A revision's sink is let go after this long without a line (a stream still holding it goes on
 * writing through it; the next attach makes a new one).
 */
const IDLE_SINK_MS = 10 * 60_000;

export class RuntimeLogFollowing implements RuntimeLogStore {
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly revisions: RevisionRepository;
  private readonly sinks = new Map<string, RuntimeLogCollector>();
  private readonly intervalMs: number;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly deployer: Required<Pick<Deployer, "followLogs">>,
    private readonly cipher: SecretCipher,
    private readonly logger: Logger,
    options: FollowingOptions = {},
  ) {
    this.revisions = new RevisionRepository(db);
    this.intervalMs = options.intervalMs ?? 5000;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  start(): void {
    const run = () => {
      this.syncing = this.syncing
        .then(() => this.sync())
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, "could not bring the followed runtime logs up to date"),
        );
    };
    run();
    this.timer = setInterval(run, this.intervalMs);
    this.timer.unref();
  }

  /** Lets go of every log and lease, and stores what is pending. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.syncing;
    await this.deployer.followLogs([], this);
    await Promise.all([...this.sinks.values()].map((sink) => sink.close()));
    this.sinks.clear();
    await this.db.runtimeLogFollower.deleteMany({ where: { holder: this.holder } }).catch(() => {});
  }

  /** Takes or renews the leases of the active deployments and follows the ones held. */
  async sync(): Promise<void> {
    const active = await this.db.deployment.findMany({
      where: {
        activeRevisionId: { not: null },
        status: { not: "AWAITING_DELETE" },
        source: { not: "external_docker" },
      },
    });
    const held = new Set(await this.lease(active.map((deployment) => deployment.id)));
    const targets: DeploymentTarget[] = [];
    for (const deployment of active) {
      if (!held.has(deployment.id)) continue;
      const revision = await this.revisions.findById(deployment.activeRevisionId!);
      if (!revision) continue;
      targets.push(targetOf(this.cipher, deployment, revision));
    }
    await this.deployer.followLogs(targets, this);
    const now = Date.now();
    for (const [revisionId, sink] of this.sinks) {
      if (now - sink.lastLineMs < IDLE_SINK_MS) continue;
      this.sinks.delete(revisionId);
      await sink.close();
    }
  }

  /** The ids among `deploymentIds` whose lease this process holds now (taken, renewed, or expired and taken over). */
  private async lease(deploymentIds: string[]): Promise<string[]> {
    if (!deploymentIds.length) return [];
    const rows = await this.db.$queryRaw<{ deployment_id: string }[]>`
      INSERT INTO runtime_log_followers (deployment_id, holder, expires_at)
      SELECT id, ${this.holder}, now() + ${this.leaseMs} * interval '1 millisecond'
      FROM unnest(${deploymentIds}::uuid[]) AS id
      ON CONFLICT (deployment_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
      WHERE runtime_log_followers.holder = EXCLUDED.holder OR runtime_log_followers.expires_at < now()
      RETURNING deployment_id::text`;
    return rows.map((row) => row.deployment_id);
  }

  sink(revisionId: string, secretValues: string[]): RuntimeLogSink {
    let sink = this.sinks.get(revisionId);
    if (!sink) {
      sink = new RuntimeLogCollector(this.revisions, revisionId, secretValues, this.logger);
      this.sinks.set(revisionId, sink);
    }
    return sink;
  }

  lastLineAt(revisionId: string, origin: Record<string, string>): Promise<Date | null> {
    return this.revisions.lastLogLineAt(revisionId, "deploy", origin);
  }
}
