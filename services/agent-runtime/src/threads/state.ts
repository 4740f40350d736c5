// LangGraph StateSnapshot -> the ThreadState the official client reads.
import type { AgentRuntime } from "@lgp/contracts";
import { toPlain, toWireValue } from "../common/serde";

export type ThreadState = AgentRuntime.components["schemas"]["ThreadState"];
type CheckpointRef = AgentRuntime.components["schemas"]["CheckpointRef"];

/* eslint-disable @typescript-eslint/no-explicit-any */
function checkpointOf(config: any): CheckpointRef | null {
  const configurable = config?.configurable;
  if (!configurable?.checkpoint_id) return null;
  return {
    thread_id: String(configurable.thread_id),
    checkpoint_ns: String(configurable.checkpoint_ns ?? ""),
    checkpoint_id: String(configurable.checkpoint_id),
    checkpoint_map: configurable.checkpoint_map ?? null,
  };
}

function errorText(error: unknown): string | null {
  if (error == null) return null;
  if (typeof error === "string") return error;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  const candidate = error as { message?: string };
  return candidate.message ?? JSON.stringify(error);
}

/** A task's subgraph checkpoint as the graph names it (`{thread_id, checkpoint_ns: "<node>:<task id>"}`). */
function subgraphCheckpoint(state: any): object | null {
  return state && typeof state === "object" && "configurable" in state ? (toPlain(state.configurable) ?? null) : null;
}

function isSnapshot(state: any): boolean {
  return !!state && typeof state === "object" && "values" in state && "next" in state;
}

/**
 * A snapshot as the API answers it. A subgraph's task carries the address of the subgraph's state
 * (`checkpoint`), or that state itself (`state`) when it was asked with `subgraphs`; nested states
 * have the official server's fields only (no deprecated `checkpoint_id`s, no `interrupts` list).
 */
export function toThreadState(snapshot: any, nested = false): ThreadState {
  const tasks = (snapshot.tasks ?? []).map((task: any) => ({
    id: task.id,
    name: task.name,
    path: toPlain(task.path ?? []),
    error: errorText(task.error),
    interrupts: toPlain(task.interrupts ?? []),
    checkpoint: subgraphCheckpoint(task.state),
    state: isSnapshot(task.state) ? toThreadState(task.state, true) : null,
    result: task.result === undefined ? null : toPlain(task.result),
  }));
  const checkpoint = checkpointOf(snapshot.config);
  const parent = checkpointOf(snapshot.parentConfig);
  const state: ThreadState = {
    // Written as JSON at once (the response), so the values as JSON would see them, not a parsed
    // copy: a long thread's values are most of what a state or a history page writes.
    values: toWireValue(snapshot.values ?? {}) as ThreadState["values"],
    next: [...(snapshot.next ?? [])],
    tasks,
    metadata: toPlain<Record<string, unknown>>(snapshot.metadata ?? {}),
    created_at: snapshot.createdAt ?? null,
    checkpoint,
    parent_checkpoint: parent,
  };
  if (nested) return state;
  return {
    ...state,
    checkpoint_id: checkpoint?.checkpoint_id ?? null,
    parent_checkpoint_id: parent?.checkpoint_id ?? null,
    interrupts: tasks.flatMap((task: { interrupts: unknown[] }) => task.interrupts),
  };
}

/** Pending interrupts of a snapshot keyed by task id (the thread's `interrupts` field). */
export function interruptsOf(snapshot: any): Record<string, unknown[]> {
  const result: Record<string, unknown[]> = {};
  for (const task of snapshot?.tasks ?? []) {
    if (task.interrupts?.length) result[task.id] = toPlain(task.interrupts);
  }
  return result;
}

/** An empty state for a thread that has no checkpoint yet. */
export function emptyState(): ThreadState {
  return {
    values: {},
    next: [],
    tasks: [],
    metadata: {},
    created_at: null,
    checkpoint: null,
    parent_checkpoint: null,
    checkpoint_id: null,
    parent_checkpoint_id: null,
    interrupts: [],
  };
}
