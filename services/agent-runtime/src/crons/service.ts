// Crons, domain side: rows in PostgreSQL (the source of truth), schedules in a CronScheduler, and
// on every tick a run created through the same RunService as any other run (stateless crons go
// through the stateless runs, so their threads are removed afterwards unless kept).
import type { AgentRuntime } from "@lgp/contracts";
import { NotFoundError, invalid, type Logger } from "@lgp/server-kit";
import type { AssistantService } from "../assistants/service";
import { allowAll, authConfigurable, type AuthContext, type AuthFilters, type Authorize } from "../auth";
import { newId } from "../common/ids";
import type { RunCreate, RunService } from "../runs/service";
import type { StatelessRunService } from "../stateless/service";
import type { ThreadRepository } from "../threads/repository";
import type { CronRepository, CronRow, CronSortBy } from "./repository";
import { checkSchedule, checkTimezone, nextTick } from "./schedule";
import type { CronScheduler, ScheduledCron } from "./scheduler";

type Schemas = AgentRuntime.components["schemas"];
export type Cron = Schemas["Cron"];
export type CronCreate = Schemas["CronCreate"];
export type CronUpdate = Schemas["CronUpdate"];
export type CronSearch = Schemas["CronSearch"];

/** The RunCreate fields a cron keeps in its payload and passes to every run it creates. */
const PAYLOAD_FIELDS = [
  "input",
  "metadata",
  "config",
  "context",
  "interrupt_before",
  "interrupt_after",
  "webhook",
  "multitask_strategy",
  "if_not_exists",
  "checkpoint_during",
  "durability",
] as const;

export function toCron(row: CronRow): Cron {
  return {
    cron_id: row.cronId,
    assistant_id: row.assistantId,
    thread_id: row.threadId,
    on_run_completed: (row.onRunCompleted as Cron["on_run_completed"]) ?? null,
    end_time: row.endTime?.toISOString() ?? null,
    schedule: row.schedule,
    timezone: row.timezone,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    payload: row.payload as Record<string, unknown>,
    user_id: row.userId,
    next_run_date: row.nextRunDate?.toISOString() ?? null,
    metadata: row.metadata as Record<string, unknown>,
    enabled: row.enabled,
  };
}

const scheduled = (row: CronRow): ScheduledCron => ({
  cronId: row.cronId,
  schedule: row.schedule,
  timezone: row.timezone,
  endTime: row.endTime,
});

export interface CronServiceDeps {
  repository: CronRepository;
  scheduler: CronScheduler;
  assistants: AssistantService;
  threads: ThreadRepository;
  runs: RunService;
  stateless: StatelessRunService;
  logger: Logger;
  /** The custom auth handlers (`crons:*` events; a thread cron also needs the thread). */
  authorize?: Authorize;
}

export class CronService {
  private readonly authorize: Authorize;

  constructor(private readonly deps: CronServiceDeps) {
    this.authorize = deps.authorize ?? allowAll;
  }

  /** A cron on `threadId`, or stateless when it is null. */
  async create(threadId: string | null, body: CronCreate, auth?: AuthContext): Promise<Cron> {
    const { repository, assistants, threads } = this.deps;
    checkSchedule(body.schedule);
    const timezone = body.timezone ?? null;
    if (timezone) checkTimezone(timezone);
    const assistant = await assistants.resolve(body.assistant_id);
    const { value } = await this.authorize(auth, "crons:create", {
      thread_id: threadId,
      assistant_id: assistant.assistant_id,
      schedule: body.schedule,
      metadata: { ...(body.metadata ?? {}) } as Record<string, unknown>,
    });
    const { filters: threadAccess } = threadId
      ? await this.authorize(auth, "threads:create_run", { thread_id: threadId, assistant_id: assistant.assistant_id })
      : { filters: undefined };
    if (threadId && !(await threads.find(threadId, threadAccess)))
      throw new NotFoundError(`Thread "${threadId}" not found`);
    const endTime = body.end_time ? new Date(body.end_time) : null;
    const enabled = body.enabled ?? true;
    const payload: Record<string, unknown> = {};
    for (const field of PAYLOAD_FIELDS) if (body[field] != null) payload[field] = body[field];
    if (auth) {
      // The cron's runs act for the user who made it: the graph sees them as it would in a run of theirs.
      const config = (payload.config ?? {}) as Record<string, unknown>;
      payload.config = { ...config, configurable: { ...(config.configurable as object), ...authConfigurable(auth) } };
    }
    const row = await repository.create({
      cronId: newId(),
      assistantId: assistant.assistant_id,
      threadId,
      schedule: body.schedule,
      timezone,
      payload: payload as object,
      metadata: (value.metadata ?? {}) as object,
      enabled,
      onRunCompleted: threadId ? null : (body.on_run_completed ?? "delete"),
      endTime,
      nextRunDate: enabled ? nextTick(body.schedule, new Date(), endTime, timezone) : null,
    });
    if (!row) throw new NotFoundError(`Thread "${threadId}" not found`);
    await this.sync(row);
    return toCron(row);
  }

  async update(cronId: string, body: CronUpdate, auth?: AuthContext): Promise<Cron> {
    const { repository } = this.deps;
    const { filters, value } = await this.authorize(auth, "crons:update", {
      cron_id: cronId,
      metadata: body.metadata === undefined || body.metadata === null ? undefined : { ...body.metadata },
      schedule: body.schedule,
    });
    body = { ...body, ...(value.metadata !== undefined ? { metadata: value.metadata } : {}) };
    const current = await this.require(cronId, filters);
    if (body.schedule !== undefined) checkSchedule(body.schedule);
    // null, like an absent field, keeps the zone (tolerant of clients that send every field).
    if (body.timezone) checkTimezone(body.timezone);
    if (body.on_run_completed !== undefined && current.threadId) {
      throw invalid(["body", "on_run_completed"], "on_run_completed applies to stateless crons only");
    }
    const payload = { ...(current.payload as Record<string, unknown>) };
    for (const field of ["input", "config", "context", "webhook", "interrupt_before", "interrupt_after"] as const) {
      if (body[field] !== undefined) payload[field] = body[field];
    }
    if (body.metadata !== undefined) payload.metadata = body.metadata;
    const schedule = body.schedule ?? current.schedule;
    const timezone = body.timezone ?? current.timezone;
    const endTime = body.end_time === undefined ? current.endTime : body.end_time ? new Date(body.end_time) : null;
    const enabled = body.enabled ?? current.enabled;
    const row = await repository.update(cronId, {
      schedule,
      timezone,
      endTime,
      enabled,
      payload: payload as object,
      ...(body.metadata !== undefined ? { metadata: body.metadata as object } : {}),
      ...(body.on_run_completed !== undefined ? { onRunCompleted: body.on_run_completed } : {}),
      nextRunDate: enabled ? nextTick(schedule, new Date(), endTime, timezone) : null,
    });
    if (!row) throw new NotFoundError(`Cron "${cronId}" not found`);
    await this.sync(row);
    return toCron(row);
  }

  async get(cronId: string, auth?: AuthContext): Promise<Cron> {
    const { filters } = await this.authorize(auth, "crons:read", { cron_id: cronId });
    return toCron(await this.require(cronId, filters));
  }

  async delete(cronId: string, auth?: AuthContext): Promise<void> {
    const { filters } = await this.authorize(auth, "crons:delete", { cron_id: cronId });
    if (filters) await this.require(cronId, filters);
    if (!(await this.deps.repository.delete(cronId))) throw new NotFoundError(`Cron "${cronId}" not found`);
    await this.deps.scheduler.remove(cronId);
  }

  async search(query: CronSearch, auth?: AuthContext): Promise<Partial<Cron & { now: string }>[]> {
    const { filters, value } = await this.authorize(auth, "crons:search", { ...query });
    const rows = await this.deps.repository.search(
      { ...(await this.filter(value)), access: filters },
      {
        limit: query.limit ?? 10,
        offset: query.offset ?? 0,
        sortBy: (query.sort_by ?? "created_at") as CronSortBy,
        sortOrder: query.sort_order ?? "desc",
      },
    );
    const now = new Date().toISOString();
    return rows.map((row) => {
      const cron: Cron & { now: string } = { ...toCron(row), now };
      if (!query.select?.length) return toCron(row);
      return Object.fromEntries(query.select.map((field) => [field, cron[field]]));
    });
  }

  async count(query: { assistant_id?: string; thread_id?: string }, auth?: AuthContext): Promise<number> {
    const { filters, value } = await this.authorize(auth, "crons:search", { ...query });
    return this.deps.repository.count({ ...(await this.filter(value)), access: filters });
  }

  /** One tick: creates the cron's run. A cron whose thread or assistant is gone is deleted. */
  async fire(cronId: string, tickAt: Date): Promise<void> {
    const { repository, scheduler, runs, stateless, logger } = this.deps;
    const row = await repository.find(cronId);
    if (!row || !row.enabled || (row.endTime && tickAt > row.endTime)) {
      // A schedule left behind (deleted or disabled meanwhile): it stops here.
      if (!row || !row.enabled) await scheduler.remove(cronId);
      return;
    }
    const payload = row.payload as Record<string, unknown>;
    const body = {
      ...payload,
      assistant_id: row.assistantId,
      metadata: { ...((payload.metadata as object) ?? {}), cron_id: row.cronId, cron_tick: tickAt.toISOString() },
    } as RunCreate;
    try {
      if (row.threadId) await runs.create(row.threadId, body);
      else await stateless.create({ ...body, on_completion: (row.onRunCompleted as "delete" | "keep") ?? "delete" });
    } catch (error) {
      if (error instanceof NotFoundError) {
        logger.warn({ cronId, reason: error.message }, "cron target is gone; deleting the cron");
        await repository.delete(cronId);
        await scheduler.remove(cronId);
        return;
      }
      throw error;
    } finally {
      await repository.setNextRunDate(
        cronId,
        nextTick(row.schedule, new Date(Math.max(Date.now(), tickAt.getTime())), row.endTime, row.timezone),
      );
    }
  }

  /** Starts firing ticks in this process, with the schedules rebuilt from the database. */
  async start(): Promise<void> {
    const rows = await this.deps.repository.enabled();
    await this.deps.scheduler.start((cronId, tickAt) => this.fire(cronId, tickAt), rows.map(scheduled));
  }

  /** The cron, if the caller's filters (when given) let it see it: another user's cron is absent. */
  private async require(cronId: string, access?: AuthFilters): Promise<CronRow> {
    const row = await this.deps.repository.find(cronId, access);
    if (!row) throw new NotFoundError(`Cron "${cronId}" not found`);
    return row;
  }

  private async sync(row: CronRow): Promise<void> {
    if (row.enabled && row.nextRunDate) await this.deps.scheduler.upsert(scheduled(row));
    else await this.deps.scheduler.remove(row.cronId);
  }

  private async filter(query: { assistant_id?: string; thread_id?: string; enabled?: boolean }) {
    let assistantId: string | undefined;
    if (query.assistant_id) {
      // A graph id names its default assistant here too; an unknown one matches nothing.
      assistantId = await this.deps.assistants.resolve(query.assistant_id).then(
        (assistant) => assistant.assistant_id,
        () => "00000000-0000-0000-0000-000000000000",
      );
    }
    return { assistantId, threadId: query.thread_id, enabled: query.enabled };
  }
}
