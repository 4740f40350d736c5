// langgraph.json's TTL sections: `store.ttl` (items of the long-term store) and `checkpointer.ttl`
// (threads, with their checkpoints). Minutes, as on the official server; checked at start-up.
import { z } from "zod";
import { GraphConfigError, type GraphProject } from "../graphs/config";

const minutes = z.number().positive();

const storeTtl = z
  .object({
    default_ttl: minutes.nullish(),
    refresh_on_read: z.boolean().default(true),
    sweep_interval_minutes: minutes.nullish(),
  })
  .loose();

const checkpointerTtl = z
  .object({
    strategy: z.enum(["delete", "keep_latest"]).default("delete"),
    default_ttl: minutes.nullish(),
    sweep_interval_minutes: minutes.nullish(),
  })
  .loose();

export interface StoreTtlSettings {
  /** Minutes an item written without a `ttl` lives; undefined: forever. */
  defaultTtlMinutes?: number;
  /** Whether reads that do not say restart an item's TTL. */
  refreshOnRead: boolean;
  sweepIntervalMs?: number;
}

export interface CheckpointerTtlSettings {
  /** Minutes a thread created without a `ttl` lives; undefined: forever. */
  defaultTtlMinutes?: number;
  strategy: "delete" | "keep_latest";
  sweepIntervalMs?: number;
}

function section<T extends z.ZodType>(project: GraphProject, key: "store" | "checkpointer", schema: T): z.infer<T> {
  const raw = (project.json as Record<string, { ttl?: unknown } | undefined>)[key]?.ttl ?? {};
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GraphConfigError(`invalid ${key}.ttl.${issue.path.join(".")} in ${project.configPath}: ${issue.message}`);
  }
  return parsed.data;
}

const toMs = (value: number | null | undefined) => (value == null ? undefined : Math.round(value * 60_000));

export function storeTtlOf(project: GraphProject): StoreTtlSettings {
  const ttl = section(project, "store", storeTtl);
  return {
    defaultTtlMinutes: ttl.default_ttl ?? undefined,
    refreshOnRead: ttl.refresh_on_read,
    sweepIntervalMs: toMs(ttl.sweep_interval_minutes),
  };
}

export function checkpointerTtlOf(project: GraphProject): CheckpointerTtlSettings {
  const ttl = section(project, "checkpointer", checkpointerTtl);
  return {
    defaultTtlMinutes: ttl.default_ttl ?? undefined,
    strategy: ttl.strategy,
    sweepIntervalMs: toMs(ttl.sweep_interval_minutes),
  };
}
