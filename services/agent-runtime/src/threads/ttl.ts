// A thread's time to live, as the official clients send it: minutes from now, either a bare number
// or `{ttl, strategy}`. The row keeps the resulting expiry; the sweeper acts once it has passed.
import type { AgentRuntime } from "@lgp/contracts";

export type ThreadTtl = AgentRuntime.components["schemas"]["ThreadTtl"];
export type PruneStrategy = "delete" | "keep_latest";

export interface ThreadExpiry {
  expiresAt: Date;
  strategy: PruneStrategy;
}

/** The expiry a `ttl` sets, from `now`; undefined when none is given (null counts as none). */
export function expiryOf(ttl: ThreadTtl | undefined, now = new Date()): ThreadExpiry | undefined {
  if (ttl == null) return undefined;
  const minutes = typeof ttl === "number" ? ttl : ttl.ttl;
  const strategy = typeof ttl === "number" ? "delete" : (ttl.strategy ?? "delete");
  return { expiresAt: new Date(now.getTime() + minutes * 60_000), strategy };
}
