import { useCallback, useEffect, useRef, useState } from "react";
import type { Command, ThreadState } from "@langchain/langgraph-sdk";
import { useRuntime } from "../runtime";
import { DEBUG_STREAM_MODES, runError, type RawEvent } from "./events";

/** Where the debugged run is: not started, streaming, stopped at a breakpoint or step, or ended. */
export type Phase = "idle" | "running" | "paused" | "done" | "failed";

export interface Breakpoints {
  before: string[];
  after: string[];
}

/**
 * A run driven step by step with the official client, on a thread of its own. Each call streams a
 * run of the thread (`client.runs.stream`, subgraphs included) and, when it ends, reads the
 * thread's state: with nodes left to run it is a stop, otherwise the run is over.
 *
 * - `start`: a new run with the input, interrupted before/after the chosen nodes;
 * - `step`: resumes (no input) with `interruptBefore: "*"`, so it stops again before whatever runs
 *   next. LangGraph (JS and Python alike) does not interrupt again before the nodes it was resumed
 *   at: a resumed run always runs at least one step;
 * - `proceed`: resumes with the chosen breakpoints, to the next one or the end.
 * A stop at the graph's own `interrupt()` is resumed with `Command({resume})` instead of no input.
 */
export function useDebugRun(assistantId: string) {
  const { client } = useRuntime();
  const [threadId, setThreadId] = useState<string | null>(null);
  const [events, setEvents] = useState<RawEvent[]>([]);
  const [phase, setPhase] = useState<Phase>("idle");
  const [stop, setStop] = useState<ThreadState | null>(null);
  const [error, setError] = useState<unknown>(null);
  /** The run that `start` began: panels show it and the steps that followed it. */
  const [firstRun, setFirstRun] = useState(1);
  const runs = useRef(0);
  const seq = useRef(0);
  const context = useRef<Record<string, unknown> | undefined>(undefined);
  const runId = useRef<string | null>(null);
  const aborter = useRef<AbortController | null>(null);
  const pending = useRef<RawEvent[]>([]);
  const frame = useRef<number | null>(null);
  useEffect(() => () => aborter.current?.abort(), []);

  // Tokens can come by the hundred a second: they are shown once per frame.
  const push = useCallback((event: RawEvent) => {
    pending.current.push(event);
    frame.current ??= requestAnimationFrame(() => {
      frame.current = null;
      const batch = pending.current;
      pending.current = [];
      setEvents((previous) => previous.concat(batch));
    });
  }, []);

  const stream = useCallback(
    async (
      thread: string,
      payload: {
        input?: unknown;
        command?: Command;
        interruptBefore?: string[] | "*";
        interruptAfter?: string[] | "*";
      },
    ) => {
      const controller = new AbortController();
      aborter.current = controller;
      const run = ++runs.current;
      setPhase("running");
      setError(null);
      const seen: RawEvent[] = [];
      try {
        for await (const chunk of client.runs.stream(thread, assistantId, {
          ...payload,
          input: payload.command ? undefined : ((payload.input ?? null) as Record<string, unknown> | null),
          context: context.current,
          streamMode: [...DEBUG_STREAM_MODES],
          streamSubgraphs: true,
          signal: controller.signal,
        })) {
          const event: RawEvent = { seq: ++seq.current, run, event: chunk.event, data: chunk.data };
          if (chunk.event === "metadata") runId.current = (chunk.data as { run_id?: string }).run_id ?? null;
          seen.push(event);
          push(event);
        }
        const state = await client.threads.getState(thread);
        if (controller.signal.aborted) return;
        setStop(state);
        const failure = runError(seen);
        if (failure) setError(new Error(failure));
        setPhase(failure ? "failed" : state.next.length ? "paused" : "done");
      } catch (caught) {
        if (controller.signal.aborted) return;
        setError(caught);
        setPhase("failed");
      } finally {
        if (aborter.current === controller) aborter.current = null;
        runId.current = null;
      }
    },
    [client, assistantId, push],
  );

  /** A new run with `input`: on this session's thread (a new one at first), paused at the breakpoints. */
  const start = useCallback(
    async (input: unknown, runContext: Record<string, unknown> | undefined, breakpoints: Breakpoints | "*") => {
      context.current = runContext;
      setStop(null);
      setFirstRun(runs.current + 1);
      let thread = threadId;
      if (!thread) {
        try {
          thread = (await client.threads.create()).thread_id;
        } catch (caught) {
          setError(caught);
          setPhase("failed");
          return;
        }
        setThreadId(thread);
      }
      await stream(thread, { input, ...interrupts(breakpoints) });
    },
    [client, threadId, stream],
  );

  /** From a stop: one step (`"*"`), or on to the next of `breakpoints`; `resume` answers an `interrupt()`. */
  const resume = useCallback(
    async (breakpoints: Breakpoints | "*", resumeValue?: { value: unknown }) => {
      if (!threadId) return;
      await stream(threadId, {
        ...(resumeValue ? { command: { resume: resumeValue.value } } : {}),
        ...interrupts(breakpoints),
      });
    },
    [threadId, stream],
  );

  /** Cancels the run in flight (it stops after its current step, as a stop the user can continue from). */
  const cancel = useCallback(async () => {
    if (!threadId || !runId.current) return;
    try {
      await client.runs.cancel(threadId, runId.current);
    } catch (caught) {
      setError(caught);
    }
  }, [client, threadId]);

  /** Forgets the thread: the next start makes a new one. */
  const reset = useCallback(() => {
    aborter.current?.abort();
    setThreadId(null);
    setEvents([]);
    setStop(null);
    setError(null);
    setPhase("idle");
    setFirstRun(runs.current + 1);
  }, []);

  return { threadId, events, phase, stop, error, firstRun, start, resume, cancel, reset };
}

function interrupts(breakpoints: Breakpoints | "*") {
  if (breakpoints === "*") return { interruptBefore: "*" as const };
  return {
    interruptBefore: breakpoints.before.length ? breakpoints.before : undefined,
    interruptAfter: breakpoints.after.length ? breakpoints.after : undefined,
  };
}
