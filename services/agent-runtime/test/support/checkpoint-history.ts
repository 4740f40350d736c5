import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/**
 * A thread's history as a saver (the official one, in the checkpointer tests) reads it, newest
 * first and without ids: each checkpoint's step, values and pending writes.
 */
export async function historyOf(saver: BaseCheckpointSaver, threadId: string) {
  const steps = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } }))
    steps.push({
      step: tuple.metadata?.step,
      values: tuple.checkpoint.channel_values,
      writes: (tuple.pendingWrites ?? []).map(([, channel, value]) => [channel, value]),
    });
  return steps;
}
