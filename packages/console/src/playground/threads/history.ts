import { useCallback, useEffect, useRef, useState } from "react";
import type { ThreadState } from "@langchain/langgraph-sdk";
import { useRuntime } from "../runtime";

/** Checkpoints read per page of the timeline. */
export const PAGE = 20;

export const idOf = (state: ThreadState): string => state.checkpoint?.checkpoint_id ?? "";
export const parentOf = (state: ThreadState): string | null => state.parent_checkpoint?.checkpoint_id ?? null;

/**
 * A thread's checkpoints, every branch (the history lists all of them, newest first), read a page
 * at a time: `loadOlder` asks for the page before the oldest one read (`before`), until a page
 * comes back short. `reload` reads again at least as many as were read, with the newest first, so
 * what a fork or a replay added shows without losing the older pages.
 */
export function useHistory(threadId: string) {
  const { client } = useRuntime();
  const [checkpoints, setCheckpoints] = useState<ThreadState[]>([]);
  const [complete, setComplete] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const read = useRef(0);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      // Those read so far, and a page more for what a run added since.
      const limit = read.current + PAGE;
      const page = await client.threads.getHistory(threadId, { limit });
      read.current = page.length;
      setCheckpoints(page);
      setComplete(page.length < limit);
      setError(null);
    } catch (caught) {
      setError(caught);
    } finally {
      setLoading(false);
    }
  }, [client, threadId]);

  const loadOlder = useCallback(async () => {
    const oldest = checkpoints.at(-1);
    if (!oldest) return;
    setLoading(true);
    try {
      const page = await client.threads.getHistory(threadId, {
        limit: PAGE,
        before: { configurable: { checkpoint_id: idOf(oldest) } },
      });
      read.current = checkpoints.length + page.length;
      setCheckpoints([...checkpoints, ...page]);
      setComplete(page.length < PAGE);
      setError(null);
    } catch (caught) {
      setError(caught);
    } finally {
      setLoading(false);
    }
  }, [client, threadId, checkpoints]);

  useEffect(() => {
    read.current = 0;
    void reload();
  }, [reload]);
  return { checkpoints, complete, loading, error, reload, loadOlder };
}

/** The checkpoints read, by id, and each one's children (oldest first: branch 1 is the original). */
export function treeOf(checkpoints: ThreadState[]) {
  const byId = new Map(checkpoints.map((state) => [idOf(state), state]));
  const children = new Map<string, ThreadState[]>();
  // Newest first in, so each list is built newest first and reversed once.
  for (const state of checkpoints) {
    const parent = parentOf(state);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), state]);
  }
  for (const list of children.values()) list.reverse();
  return { byId, children };
}

/** The line from `head` back to the oldest checkpoint read of its ancestry: newest first. */
export function lineOf(head: string | null, byId: Map<string, ThreadState>): ThreadState[] {
  const line: ThreadState[] = [];
  for (let state = head ? byId.get(head) : undefined; state;) {
    line.push(state);
    const parent = parentOf(state);
    state = parent ? byId.get(parent) : undefined;
  }
  return line;
}

/** The newest checkpoint read that descends from `root` (or is it): the tip of that branch. */
export function tipOf(root: string, checkpoints: ThreadState[], byId: Map<string, ThreadState>): string {
  for (const state of checkpoints) {
    if (lineOf(idOf(state), byId).some((ancestor) => idOf(ancestor) === root)) return idOf(state);
  }
  return root;
}

/**
 * What was written to reach a checkpoint: `metadata.writes` where the graph's library records it
 * (older LangGraph versions did); else the results of the parent's tasks, which are the writes
 * of the nodes that ran from the parent to here (a "loop" step); a run's input; else (an update)
 * the top-level values that differ from the parent's. Null when the parent is not read yet.
 */
export function writesOf(state: ThreadState, byId: Map<string, ThreadState>): Record<string, unknown> | null {
  const recorded = (state.metadata as { writes?: unknown } | undefined)?.writes;
  if (recorded && typeof recorded === "object") return recorded as Record<string, unknown>;
  // A run's input is written to `__start__`, which is this checkpoint's own task.
  if (state.metadata?.source === "input") {
    const start = state.tasks.find((task) => task.name === "__start__");
    return { __start__: start?.result ?? null };
  }
  const parentId = parentOf(state);
  const parent = parentId ? byId.get(parentId) : undefined;
  if (!parent) return null;
  // A task that wrote nothing (an empty input's `__start__`) has a null result.
  if (state.metadata?.source === "loop" && parent.tasks.length) {
    return Object.fromEntries(parent.tasks.map((task) => [task.name, task.result ?? null]));
  }
  return changedValues(parent.values as Record<string, unknown>, state.values as Record<string, unknown>);
}

/** The top-level fields of `next` whose JSON differs from `before`'s. */
export function changedValues(before: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(next ?? {}).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before?.[key])),
  );
}

/** The node(s) whose writes made this checkpoint, for its one-line summary. */
export function writersOf(state: ThreadState, byId: Map<string, ThreadState>): string {
  const source = String(state.metadata?.source ?? "");
  if (source === "input") return "input";
  if (source === "update" || source === "fork") return `${source}${asNodeOf(state)}`;
  const writes = writesOf(state, byId);
  return writes && Object.keys(writes).length ? Object.keys(writes).join(", ") : source;
}

function asNodeOf(state: ThreadState): string {
  const writes = (state.metadata as { writes?: Record<string, unknown> } | undefined)?.writes;
  const node = writes && Object.keys(writes).length === 1 ? Object.keys(writes)[0] : null;
  return node ? ` as ${node}` : "";
}
