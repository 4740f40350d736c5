import type { Db } from "../db";
import { Prisma, type Revision as RevisionRow, type RevisionLog as RevisionLogRow } from "../generated/prisma/client";
import type { PagePosition } from "../deployments/paging";
import type { RevisionStatus } from "./status";

export type { RevisionRow, RevisionLogRow };

/** What a transaction of the (extended) client offers: its revision model is all this needs. */
type Tx = Pick<Db, "revision">;

export interface NewRevision {
  deploymentId: string;
  source: string;
  sourceRevisionConfig: Prisma.InputJsonValue;
  resourceSpec: Prisma.InputJsonValue | null;
  secrets: Prisma.InputJsonValue;
  /** A redeploy pins the commit its original revision was built from. */
  repoCommitSha?: string | null;
}

export function insertRevision(tx: Tx, revision: NewRevision): Promise<RevisionRow> {
  const { resourceSpec, ...rest } = revision;
  return tx.revision.create({ data: { ...rest, resourceSpec: resourceSpec ?? undefined } });
}

export type LogKind = "build" | "deploy";
export type LogLevel = "debug" | "info" | "warn" | "error";
const LEVELS: LogLevel[] = ["debug", "info", "warn", "error"];

export interface LogLine {
  kind: LogKind;
  level: LogLevel;
  message: string;
  timestamp: Date;
  /** A runtime line's structured fields. */
  fields?: Record<string, unknown> | null;
}

export interface LogFilter {
  kind: LogKind;
  limit: number;
  offset: number;
  order: "asc" | "desc";
  level?: LogLevel | null;
  query?: string | null;
  startTime?: Date | null;
  endTime?: Date | null;
}

/** Extra columns a transition may set together with the status. */
export interface TransitionData {
  statusMessage?: string | null;
  artifact?: string | null;
  repoCommitSha?: string | null;
  url?: string | null;
  interruptions?: number;
}

/** An entry of a revision's `status_history` column, as stored. */
export interface StoredStatusChange {
  status: RevisionStatus;
  /** The time of the change, as PostgreSQL writes a timestamptz in JSON. */
  at: string;
  message: string | null;
}

const TRANSITION_COLUMNS: Record<keyof TransitionData, string> = {
  statusMessage: "status_message",
  artifact: "artifact",
  repoCommitSha: "repo_commit_sha",
  url: "url",
  interruptions: "interruptions",
};

/**
 * The one statement that changes a revision's status: guarded by the expected current status, so
 * two reconcilers (or a reconciler and a restart) never both move a revision, and appending the
 * change to `status_history` (with the transition's status message) in the same UPDATE. `tx` is
 * the client or a transaction. True when it moved.
 */
export async function transitionRevision(
  tx: Pick<Db, "$executeRaw">,
  id: string,
  from: RevisionStatus | RevisionStatus[],
  to: RevisionStatus,
  data: TransitionData = {},
  line?: Omit<LogLine, "timestamp">,
): Promise<boolean> {
  const froms = Array.isArray(from) ? from : [from];
  if (!froms.length) return false;
  const columns = (Object.keys(TRANSITION_COLUMNS) as (keyof TransitionData)[])
    .filter((key) => data[key] !== undefined)
    .map((key) => Prisma.sql`${Prisma.raw(`"${TRANSITION_COLUMNS[key]}"`)} = ${data[key]}`);
  // now() at the columns' precision: the entry's time and updated_at are the same instant.
  const entry = Prisma.sql`jsonb_build_object('status', ${to}::text, 'at', now()::timestamptz(3), 'message', ${
    data.statusMessage ?? null
  }::text)`;
  const sets = [
    Prisma.sql`status = ${to}`,
    ...columns,
    Prisma.sql`status_history = status_history || jsonb_build_array(${entry})`,
    Prisma.sql`updated_at = now()::timestamptz(3)`,
  ];
  const update = Prisma.sql`
    UPDATE revisions SET ${Prisma.join(sets, ", ")} WHERE id = ${id}::uuid AND status IN (${Prisma.join(froms)})`;
  if (!line) return (await tx.$executeRaw`${update}`) === 1;
  // The line goes in with the change, so a client that sees the new status finds it in the log.
  // Its time is this process's, as for the lines buffered before it (the log's times stay in order).
  const count = await tx.$executeRaw`
    WITH moved AS (${update} RETURNING id)
    INSERT INTO revision_logs (revision_id, kind, level, message, timestamp)
    SELECT id, ${line.kind}, ${line.level}, ${line.message}, ${new Date()}::timestamptz(3) FROM moved`;
  return count === 1;
}

/** Revision rows and their logs. Callers check tenancy through the deployment first. */
export class RevisionRepository {
  constructor(private readonly db: Db) {}

  find(deploymentId: string, id: string): Promise<RevisionRow | null> {
    return this.db.revision.findFirst({ where: { id, deploymentId } });
  }

  findById(id: string): Promise<RevisionRow | null> {
    return this.db.revision.findUnique({ where: { id } });
  }

  list(
    deploymentId: string,
    statuses: string[] | undefined,
    position: PagePosition,
    limit: number,
  ): Promise<RevisionRow[]> {
    const where: Prisma.RevisionWhereInput = { deploymentId };
    if (position.beforeSeq !== undefined) where.seq = { lt: position.beforeSeq };
    if (statuses?.length) where.status = { in: statuses };
    return this.db.revision.findMany({ where, orderBy: { seq: "desc" }, skip: position.skip, take: limit });
  }

  /** Revisions the reconciler has not finished (unchanged since `before`), oldest first. */
  unfinished(before?: Date): Promise<RevisionRow[]> {
    return this.db.revision.findMany({
      where: {
        status: { in: ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "AWAITING_DEPLOY", "DEPLOYING"] },
        ...(before ? { updatedAt: { lt: before } } : {}),
      },
      orderBy: { seq: "asc" },
    });
  }

  /** Is there a revision of this deployment created after this one? */
  async hasNewer(revision: RevisionRow): Promise<boolean> {
    const newer = await this.db.revision.findFirst({
      where: { deploymentId: revision.deploymentId, seq: { gt: revision.seq } },
      select: { id: true },
    });
    return newer !== null;
  }

  /**
   * The one way a status changes (see transitionRevision): a row update guarded by the expected
   * current status that also records the change in the status history. True when it moved.
   */
  transition(
    id: string,
    from: RevisionStatus | RevisionStatus[],
    to: RevisionStatus,
    data: TransitionData = {},
    line?: Omit<LogLine, "timestamp">,
  ): Promise<boolean> {
    return transitionRevision(this.db, id, from, to, data, line);
  }

  /** Renews the lease of the step that holds the revision (updated_at), while it is in `status`. */
  async touch(id: string, status: RevisionStatus): Promise<void> {
    await this.db.$executeRaw`UPDATE revisions SET updated_at = now() WHERE id = ${id}::uuid AND status = ${status}`;
  }

  /** Sets columns without changing the status, guarded the same way. */
  async update(id: string, status: RevisionStatus, data: TransitionData): Promise<boolean> {
    const { count } = await this.db.revision.updateMany({ where: { id, status }, data });
    return count === 1;
  }

  async appendLogs(revisionId: string, lines: LogLine[]): Promise<void> {
    if (!lines.length) return;
    await this.db.revisionLog.createMany({
      data: lines.map(({ fields, ...line }) => ({
        revisionId,
        ...line,
        ...(fields ? { fields: fields as Prisma.InputJsonValue } : {}),
      })),
    });
  }

  /** The time of the newest line of a revision's log whose fields hold all of `fields`. */
  async lastLogLineAt(revisionId: string, kind: LogKind, fields: Record<string, string>): Promise<Date | null> {
    const rows = await this.db.$queryRaw<{ at: Date | null }[]>`
      SELECT max("timestamp") AS at FROM revision_logs
      WHERE revision_id = ${revisionId}::uuid AND kind = ${kind} AND fields @> ${JSON.stringify(fields)}::jsonb`;
    return rows[0]?.at ?? null;
  }

  /**
   * A page of a revision's log, or of all a deployment's revisions together; `next` is the offset
   * of the following page, null at the end.
   */
  async logs(
    scope: { revisionId: string } | { deploymentId: string },
    filter: LogFilter,
  ): Promise<{ lines: RevisionLogRow[]; next: number | null }> {
    const where: Prisma.RevisionLogWhereInput = {
      ...("revisionId" in scope
        ? { revisionId: scope.revisionId }
        : { revision: { deploymentId: scope.deploymentId } }),
      kind: filter.kind,
    };
    if (filter.level) where.level = { in: LEVELS.slice(LEVELS.indexOf(filter.level)) };
    if (filter.query)
      where.message = { contains: filter.query.replace(/[\\%_]/g, (c) => `\\${c}`), mode: "insensitive" };
    if (filter.startTime || filter.endTime) {
      where.timestamp = {
        ...(filter.startTime ? { gte: filter.startTime } : {}),
        ...(filter.endTime ? { lte: filter.endTime } : {}),
      };
    }
    const rows = await this.db.revisionLog.findMany({
      where,
      // In time order, as `--follow` asks for lines after the newest one's time; the id breaks ties.
      orderBy: [{ timestamp: filter.order }, { id: filter.order }],
      skip: filter.offset,
      take: filter.limit + 1,
    });
    const more = rows.length > filter.limit;
    return { lines: rows.slice(0, filter.limit), next: more ? filter.offset + filter.limit : null };
  }
}
