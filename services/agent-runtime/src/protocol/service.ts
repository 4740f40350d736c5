// The thread-centric protocol, API side: commands on a thread (start a run, answer an interrupt,
// read the state) and the thread's event stream, filtered by channel and namespace. Nothing here
// is held per connection beyond its filter: events come from the thread's log, which the workers
// write, so any API process serves any client, and a client that reconnects (to any replica) gets
// every event it missed.
import { isPrefixMatch, isSupportedChannel } from "@langchain/langgraph/stream";
import { routingOf } from "./run-events";
import { HttpError, NotFoundError } from "@lgp/server-kit";
import type { AuthContext } from "../auth";
import type { ThreadLog, ThreadLogEntry } from "../queue/types";
import type { RunCaller, RunCreate, RunService } from "../runs/service";
import type { ThreadRow } from "../threads/repository";
import type { ThreadService } from "../threads/service";
import { protocolState } from "./state";

export type ErrorCode =
  | "invalid_argument"
  | "unknown_command"
  | "unknown_error"
  | "no_such_run"
  | "no_such_subscription"
  | "not_supported"
  | "permission_denied";

export interface Command {
  id: number;
  method: string;
  params?: Record<string, unknown>;
}

export type CommandResponse =
  | { type: "success"; id: number; result: Record<string, unknown>; meta?: ResponseMeta }
  | { type: "error"; id: number | null; error: ErrorCode; message: string; meta?: ResponseMeta };

interface ResponseMeta {
  thread_id: string;
  applied_through_seq: number;
}

/** Which events a stream (an SSE connection, a WebSocket subscription) receives. */
export interface EventFilter {
  channels: string[];
  namespaces?: string[][];
  depth?: number;
  /** Events after this seq only. */
  since?: number;
}

/** An event ready for the wire: its seq, method and JSON text. */
export interface WireEvent {
  seq: number;
  method: string;
  json: string;
  namespace: string[];
  channel: string | undefined;
}

interface TreeNode {
  namespace: string[];
  status: string;
  graph_name: string;
  children?: TreeNode[];
}

const STRATEGIES = new Set(["reject", "rollback", "interrupt", "enqueue"]);

type Dict = Record<string, unknown>;
const isRecord = (value: unknown): value is Dict =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function failure(id: number | null, error: ErrorCode, message: string): CommandResponse {
  return { type: "error", id, error, message };
}

/** What is wrong with a filter's channels: none given, or one that is not a channel (`custom:<name>` is). */
export function filterProblem(filter: { channels?: unknown }): "empty" | "unsupported" | undefined {
  const { channels } = filter;
  if (!Array.isArray(channels) || !channels.length) return "empty";
  if (!channels.every((channel) => typeof channel === "string" && isSupportedChannel(channel))) return "unsupported";
  return undefined;
}

export function matches(filter: EventFilter, event: WireEvent): boolean {
  if (filter.since !== undefined && event.seq <= filter.since) return false;
  const channel = event.channel;
  if (!channel) return false;
  if (!filter.channels.includes(channel) && !(channel.startsWith("custom:") && filter.channels.includes("custom")))
    return false;
  if (!filter.namespaces?.length) return true;
  return filter.namespaces.some(
    (prefix) =>
      isPrefixMatch(event.namespace, prefix) &&
      (filter.depth === undefined || event.namespace.length - prefix.length <= filter.depth),
  );
}

export class ProtocolService {
  constructor(private readonly deps: { runs: RunService; threads: ThreadService; log: ThreadLog }) {}

  /** 404 for a thread that exists but is not the caller's; a thread not created yet passes. */
  async requireVisibleIfExists(threadId: string, auth?: AuthContext): Promise<void> {
    // Without a caller (no custom auth) no thread is hidden: no read of it for each stream.
    if (!auth) return;
    if ((await this.visibility(threadId, auth)) === "hidden") throw new NotFoundError(`Thread "${threadId}" not found`);
  }

  /**
   * Answers a command. Errors of the protocol (a bad argument, nothing to resume) are error
   * responses; HTTP errors of the run they start (the assistant is unknown, the thread busy under
   * `reject`) are thrown, for the transport to report.
   */
  async command(
    threadId: string,
    command: Command,
    /** Who sends it: the user, and the request's configurable headers for the runs it starts. */
    caller: RunCaller = {},
  ): Promise<CommandResponse> {
    const params = isRecord(command.params) ? command.params : {};
    const { auth } = caller;
    switch (command.method) {
      case "run.start":
        return this.startRun(threadId, command.id, params, caller);
      case "input.respond":
        return this.respond(threadId, command.id, params, caller);
      case "state.get":
        return this.state(threadId, command.id, params, auth);
      case "agent.getTree": {
        const tree = await this.tree(threadId);
        if (!tree) return failure(command.id, "no_such_run", "No run has streamed on this thread yet.");
        return { type: "success", id: command.id, result: { tree }, meta: await this.meta(threadId) };
      }

      case "subscription.reconnect":
        return failure(command.id, "not_supported", "subscription.reconnect is not supported by this server yet.");
      default:
        return failure(command.id, "unknown_command", `Unknown protocol command: ${command.method}`);
    }
  }

  /**
   * The graph and its subgraphs as the thread's latest run went through them: each namespace with
   * the status of its last lifecycle event and its graph's name.
   */
  private async tree(threadId: string): Promise<TreeNode | undefined> {
    const entries = await this.deps.log.range(threadId, 0, await this.deps.log.lastSeq(threadId));
    let root: TreeNode | undefined;
    const nodes = new Map<string, TreeNode>();
    for (const entry of entries) {
      if (entry.method !== "lifecycle") continue;
      const { namespace = [], data } = JSON.parse(entry.params) as {
        namespace?: string[];
        data?: { event?: string; graph_name?: string };
      };
      // Each run starts with its root's `running`: the tree is the latest run's.
      if (!namespace.length && data?.event === "running") {
        root = { namespace: [], status: "started", graph_name: "root" };
        nodes.clear();
        nodes.set("", root);
      }
      if (!root) continue;
      const key = namespace.join("\0");
      let node = nodes.get(key);
      if (!node) {
        node = { namespace, status: "started", graph_name: "root" };
        nodes.set(key, node);
        const parent = nodes.get(namespace.slice(0, -1).join("\0")) ?? root;
        (parent.children ??= []).push(node);
      }
      if (data?.event) node.status = data.event;
      if (data?.graph_name) node.graph_name = data.graph_name;
    }
    return root;
  }

  private async meta(threadId: string): Promise<ResponseMeta> {
    return { thread_id: threadId, applied_through_seq: await this.deps.log.lastSeq(threadId) };
  }

  /**
   * The thread's pending interrupts (none when it does not exist yet), from its latest checkpoint:
   * written before the run's events announce them, so a client that answers at once finds them.
   */
  private async interrupts(threadId: string, auth?: AuthContext): Promise<string[]> {
    try {
      const state = await this.deps.threads.state(threadId, undefined, false, auth);
      return (state.tasks ?? []).flatMap((task) =>
        ((task.interrupts ?? []) as { id?: unknown }[]).flatMap((entry) =>
          typeof entry?.id === "string" ? [entry.id] : [],
        ),
      );
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  }

  /** The thread if it exists and the caller may see it (`require` without the 404). */
  private findThread(threadId: string, auth?: AuthContext): Promise<ThreadRow | undefined> {
    return this.deps.threads.require(threadId, auth).catch((error) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
  }

  private async startRun(threadId: string, id: number, params: Dict, caller: RunCaller): Promise<CommandResponse> {
    const assistantId = typeof params.assistant_id === "string" ? params.assistant_id : "";
    if (!assistantId) return failure(id, "invalid_argument", "run.start requires an assistant_id.");
    const input = params.input ?? null;
    const meta = await this.meta(threadId);
    // Input for a thread stopped at an interrupt resumes it, as the official server does: the
    // worker decides from the checkpoint the run starts from (its claim reads it anyway).
    const run = await this.run(
      threadId,
      {
        assistant_id: assistantId,
        input,
        config: isRecord(params.config) ? params.config : undefined,
        context: isRecord(params.context) ? params.context : undefined,
        metadata: isRecord(params.metadata) ? params.metadata : undefined,
        multitask_strategy: strategyOf(params.multitaskStrategy ?? params.multitask_strategy),
      },
      caller,
    );
    return { type: "success", id, result: { run_id: run }, meta };
  }

  private async respond(threadId: string, id: number, params: Dict, caller: RunCaller): Promise<CommandResponse> {
    const { auth } = caller;
    const answers: Dict = {};
    if (Array.isArray(params.responses)) {
      for (const entry of params.responses) {
        if (!isRecord(entry) || typeof entry.interrupt_id !== "string")
          return failure(id, "invalid_argument", "input.respond responses entries require an interrupt_id.");
        answers[entry.interrupt_id] = entry.response;
      }
      if (!Object.keys(answers).length)
        return failure(id, "invalid_argument", "input.respond requires at least one response.");
    } else if (typeof params.interrupt_id === "string") {
      answers[params.interrupt_id] = params.response;
    } else {
      return failure(id, "invalid_argument", "input.respond requires an interrupt_id.");
    }
    const pending = await this.interrupts(threadId, auth);
    if (!pending.length) return failure(id, "no_such_run", "No interrupted run is bound to this thread.");
    const unknown = Object.keys(answers).filter((interrupt) => !pending.includes(interrupt));
    if (unknown.length) return failure(id, "invalid_argument", `Unknown interrupt id(s): ${unknown.join(", ")}`);
    const thread = await this.deps.threads.require(threadId, auth);
    const assistantId = (thread.metadata as Dict)?.assistant_id;
    if (typeof assistantId !== "string")
      return failure(id, "no_such_run", "Thread has no assistant; call run.start first.");
    const meta = await this.meta(threadId);
    const command: Dict = { resume: answers };
    if (isRecord(params.update) || Array.isArray(params.update)) command.update = params.update;
    if (typeof params.goto === "string" || Array.isArray(params.goto) || isRecord(params.goto))
      command.goto = params.goto;
    await this.run(
      threadId,
      {
        assistant_id: assistantId,
        command: command as RunCreate["command"],
        config: isRecord(params.config) ? params.config : undefined,
        metadata: isRecord(params.metadata) ? params.metadata : undefined,
        multitask_strategy: "enqueue",
      },
      caller,
    );
    return { type: "success", id, result: {}, meta };
  }

  private async run(threadId: string, body: RunCreate, caller: RunCaller): Promise<string> {
    const run = await this.deps.runs.create(
      threadId,
      { ...body, if_not_exists: "create", stream_subgraphs: true },
      { ...caller, protocol: true, resumeInterrupt: body.input != null },
    );
    return run.run_id;
  }

  private async state(threadId: string, id: number, params: Dict, auth?: AuthContext): Promise<CommandResponse> {
    const state = await this.deps.threads.state(threadId, undefined, false, auth);
    const values = (protocolState(state.values ?? {}) ?? {}) as Dict;
    const keys =
      Array.isArray(params.keys) && params.keys.every((key) => typeof key === "string") ? params.keys : undefined;
    const configurable = (state.checkpoint ?? undefined) as Dict | undefined;
    const checkpointId = configurable?.checkpoint_id;
    return {
      type: "success",
      id,
      result: {
        values: keys ? Object.fromEntries(Object.entries(values).filter(([key]) => keys.includes(key))) : values,
        ...(typeof checkpointId === "string"
          ? {
              checkpoint: {
                id: checkpointId,
                ...(typeof configurable?.checkpoint_ns === "string" ? { ns: configurable.checkpoint_ns } : {}),
              },
            }
          : {}),
      },
      meta: await this.meta(threadId),
    };
  }

  /**
   * The thread's events after `since` (everything kept when absent), then live ones, until `signal`.
   * A client may listen before its first `run.start` creates the thread: the stream then waits, and
   * the caller's right to see the thread is checked when its first event comes.
   */
  async *events(
    threadId: string,
    filter: EventFilter,
    signal: AbortSignal,
    auth?: AuthContext,
  ): AsyncIterable<WireEvent> {
    // Without a caller (no custom auth) every thread is visible: nothing to check.
    let visible = auth ? await this.visibility(threadId, auth) : "visible";
    if (visible === "hidden") throw new NotFoundError(`Thread "${threadId}" not found`);
    for await (const event of this.follow(threadId, filter.since ?? 0, signal)) {
      if (visible === "absent") {
        visible = await this.visibility(threadId, auth);
        if (visible !== "visible") return;
      }
      if (matches(filter, event)) yield event;
    }
  }

  /** Whether the caller may see the thread, or it does not exist (yet). */
  private async visibility(threadId: string, auth?: AuthContext): Promise<"visible" | "hidden" | "absent"> {
    if (await this.findThread(threadId, auth)) return "visible";
    return auth && (await this.findThread(threadId)) ? "hidden" : "absent";
  }

  /** The thread's events with `since < seq <= until` (what it keeps of them). */
  async range(threadId: string, since: number, until: number): Promise<WireEvent[]> {
    return (await this.deps.log.range(threadId, since, until)).map(wireEvent);
  }

  lastSeq(threadId: string): Promise<number> {
    return this.deps.log.lastSeq(threadId);
  }

  /** Follows the log after `since`, every event (for a WebSocket, which filters by subscription). */
  async *follow(threadId: string, since: number, signal: AbortSignal): AsyncIterable<WireEvent> {
    for await (const entry of this.deps.log.read(threadId, { since, signal })) yield wireEvent(entry);
  }
}

function wireEvent(entry: ThreadLogEntry): WireEvent {
  const { seq, method, params } = entry;
  return {
    seq,
    method,
    ...routingOf(method, params),
    // Written out only for the events a subscriber takes.
    get json() {
      return `{"type":"event","event_id":"${seq}","seq":${seq},"method":${JSON.stringify(method)},"params":${params}}`;
    },
  };
}

function strategyOf(value: unknown): RunCreate["multitask_strategy"] {
  return typeof value === "string" && STRATEGIES.has(value) ? (value as RunCreate["multitask_strategy"]) : "enqueue";
}

/** An HTTP error of a command, as a protocol error response (the WebSocket has no status line). */
export function errorResponse(id: number | null, error: unknown): CommandResponse {
  if (error instanceof HttpError) {
    const code: ErrorCode =
      error.status === 404
        ? "no_such_run"
        : error.status === 403
          ? "permission_denied"
          : error.status === 422
            ? "invalid_argument"
            : "unknown_error";
    return failure(id, code, error.message);
  }
  return failure(id, "unknown_error", "The command failed");
}
