import type { Db } from "../db";
import type { AuthFilters } from "../auth";
import type { Cron as CronModel, Prisma } from "../generated/prisma/client";

export type CronRow = CronModel;

export interface CronFilter {
  assistantId?: string;
  threadId?: string;
  enabled?: boolean;
  /** What the caller may see (its auth handler's filters on the cron's metadata). */
  access?: AuthFilters;
}

export type CronSortBy =
  "cron_id" | "assistant_id" | "thread_id" | "created_at" | "updated_at" | "next_run_date" | "end_time";

const SORT_COLUMN: Record<CronSortBy, keyof Prisma.CronOrderByWithRelationInput> = {
  cron_id: "cronId",
  assistant_id: "assistantId",
  thread_id: "threadId",
  created_at: "createdAt",
  updated_at: "updatedAt",
  next_run_date: "nextRunDate",
  end_time: "endTime",
};

export class CronRepository {
  constructor(private readonly db: Db) {}

  /** Inserts a cron; null when its thread was deleted meanwhile (the foreign key refused it). */
  async create(data: Prisma.CronUncheckedCreateInput): Promise<CronRow | null> {
    try {
      return await this.db.cron.create({ data });
    } catch (error) {
      if ((error as { code?: string }).code === "P2003") return null;
      throw error;
    }
  }

  async find(cronId: string, access?: AuthFilters): Promise<CronRow | null> {
    return this.db.cron.findFirst({ where: { cronId, AND: accessConditions(access) } });
  }

  /** The updated row, or null when there is no such cron. */
  async update(cronId: string, data: Prisma.CronUncheckedUpdateInput): Promise<CronRow | null> {
    const { count } = await this.db.cron.updateMany({ where: { cronId }, data: { ...data, updatedAt: new Date() } });
    return count ? this.find(cronId) : null;
  }

  async setNextRunDate(cronId: string, nextRunDate: Date | null): Promise<void> {
    await this.db.cron.updateMany({ where: { cronId }, data: { nextRunDate } });
  }

  async delete(cronId: string): Promise<boolean> {
    return (await this.db.cron.deleteMany({ where: { cronId } })).count > 0;
  }

  search(
    filter: CronFilter,
    options: { limit: number; offset: number; sortBy: CronSortBy; sortOrder: "asc" | "desc" },
  ): Promise<CronRow[]> {
    return this.db.cron.findMany({
      where: where(filter),
      orderBy: [{ [SORT_COLUMN[options.sortBy]]: options.sortOrder }, { cronId: "asc" }],
      take: options.limit,
      skip: options.offset,
    });
  }

  count(filter: CronFilter): Promise<number> {
    return this.db.cron.count({ where: where(filter) });
  }

  /** Every enabled cron: what the schedulers are rebuilt from. */
  enabled(): Promise<CronRow[]> {
    return this.db.cron.findMany({ where: { enabled: true } });
  }
}

/** Auth filters as JSON conditions on `metadata`: a string equals, `$contains` needs an array holding the values. */
function accessConditions(access: AuthFilters | undefined): Prisma.CronWhereInput[] {
  return Object.entries(access ?? {}).map(([key, condition]): Prisma.CronWhereInput => {
    if (typeof condition === "string") return { metadata: { path: [key], equals: condition } };
    if (condition.$eq !== undefined) return { metadata: { path: [key], equals: condition.$eq } };
    const contains = condition.$contains ?? [];
    const values: string[] = Array.isArray(contains) ? contains : [contains];
    return { metadata: { path: [key], array_contains: values } } as Prisma.CronWhereInput;
  });
}

function where(filter: CronFilter): Prisma.CronWhereInput {
  return {
    AND: accessConditions(filter.access),
    ...(filter.assistantId ? { assistantId: filter.assistantId } : {}),
    ...(filter.threadId ? { threadId: filter.threadId } : {}),
    ...(filter.enabled !== undefined ? { enabled: filter.enabled } : {}),
  };
}
