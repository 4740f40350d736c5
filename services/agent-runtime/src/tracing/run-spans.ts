// A run's own spans, beside the HTTP, PostgreSQL and Redis ones the instrumentations make: its
// creation and hand-over to the queue in the API process, then, in whichever process takes the
// job, its wait in the queue, the claim and each attempt, with the graph's nodes inside (see
// node-spans.ts). The hand-over carries the trace context on the job (W3C traceparent), so one
// trace holds the run end to end across processes. Tracing off: each helper is a flag read.
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from "@opentelemetry/api";
import { tracingEnabled } from "@lgp/server-kit/src/tracing/sdk";
import type { RunJob } from "../queue/types";
import type { RunRow } from "../runs/repository";

const tracer = () => trace.getTracer("lgp.agent-runtime");

/** A run's attributes on its spans (OpenTelemetry's `langgraph.*` names are this project's own). */
export function runAttributes(run: {
  run_id: string;
  thread_id: string;
  assistant_id?: string;
  attempt?: number;
  kwargs?: { graph_id?: string };
}): Attributes {
  return {
    "langgraph.run.id": run.run_id,
    "langgraph.thread.id": run.thread_id,
    ...(run.assistant_id ? { "langgraph.assistant.id": run.assistant_id } : {}),
    ...(run.kwargs?.graph_id ? { "langgraph.graph.id": run.kwargs.graph_id } : {}),
    ...(run.attempt ? { "langgraph.run.attempt": run.attempt } : {}),
  };
}

/** How much of an error's message a span keeps (a graph's error may quote its input). */
export const ERROR_MESSAGE_CHARS = 300;

/** Marks a span failed, with the error's name, stack and the start of its message. */
export function failed(span: Span, error: unknown): void {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_MESSAGE_CHARS);
  const name = error instanceof Error ? error.name : "Error";
  span.recordException({
    name,
    message,
    stack: error instanceof Error ? error.stack?.split("\n").slice(1).join("\n") : undefined,
  });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Runs `work` inside a span of the active trace (child of the request's, say). */
export function traced<T>(
  name: string,
  attributes: Attributes,
  work: (span?: Span) => Promise<T>,
  options: { kind?: SpanKind; parent?: Context } = {},
): Promise<T> {
  if (!tracingEnabled()) return work();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * Hands a job to the queue inside a producer span whose context the job carries (`traceparent`),
 * so the worker's spans continue this trace. A job that has one already (queued again) keeps it.
 */
export function enqueueTraced(job: RunJob, enqueue: (job: RunJob) => Promise<void>): Promise<void> {
  if (!tracingEnabled() || job.traceparent) return enqueue(job);
  return traced(
    "run enqueue",
    { "langgraph.run.id": job.runId, "langgraph.thread.id": job.threadId, "messaging.operation.type": "send" },
    () => {
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      return enqueue(carrier.traceparent ? { ...job, ...carrier } : job);
    },
    { kind: SpanKind.PRODUCER },
  );
}

/** The trace context a job carries (none: the attempt starts a trace of its own). */
function jobContext(job: RunJob): Context {
  if (!job.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent: job.traceparent, tracestate: job.tracestate ?? "" });
}

/** What an attempt's span learns once its run is claimed. */
export interface AttemptSpan {
  /** Whether the attempt is sampled (a span not recorded needs no node spans). */
  readonly recording: boolean;
  /** The run claimed: its attributes, and its wait in the queue as a span of its own (first attempt). */
  claimed(run: Pick<RunRow, "run_id" | "thread_id" | "assistant_id" | "attempt" | "created_at" | "kwargs">): void;
  /** How the attempt ended (the run's status). */
  ended(status: string, error?: unknown): void;
}

/**
 * A worker taking a job: everything it does for the job (the claim, the graph, the run's end)
 * runs inside a consumer span continuing the job's trace.
 */
export function attemptTraced<T>(
  job: RunJob,
  attempt: number,
  work: (span: AttemptSpan | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return work(undefined);
  const parent = jobContext(job);
  return traced(
    "run attempt",
    { "langgraph.run.id": job.runId, "langgraph.thread.id": job.threadId, "langgraph.run.attempt": attempt },
    (span) =>
      work({
        recording: span?.isRecording() ?? false,
        claimed(run) {
          span?.setAttributes(runAttributes(run));
          if (run.attempt !== 1) return;
          // From when it was due (its creation, or after_seconds later) to this start.
          const due = new Date(run.created_at.getTime() + (run.kwargs.after_seconds ?? 0) * 1000);
          const now = new Date();
          // Under the hand-over's span, or the attempt's when the job carries none (a run woken
          // behind another of its thread, or queued again by the run sweep).
          const under = job.traceparent || !span ? parent : trace.setSpan(context.active(), span);
          tracer()
            .startSpan("run queued", { startTime: due < now ? due : now, attributes: runAttributes(run) }, under)
            .end(now);
        },
        ended(status, error) {
          span?.setAttribute("langgraph.run.status", status);
          if (error !== undefined && span) failed(span, error);
        },
      }),
    { kind: SpanKind.CONSUMER, parent },
  );
}
