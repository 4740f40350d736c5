import { useState } from "react";
import { useRuntime } from "../runtime";

/**
 * Runs the thread forward from a checkpoint (`checkpointId`, input null), as a fork or a replay:
 * the graph goes on from that checkpoint's `next`, and its new checkpoints are that checkpoint's
 * children (a branch beside those it had). The nodes that ran are shown as their updates arrive.
 */
export function useRunFrom(threadId: string, assistantId: string, onDone: () => Promise<void>) {
  const { client } = useRuntime();
  const [running, setRunning] = useState(false);
  const [ran, setRan] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const runFrom = async (checkpointId: string, what: string) => {
    setRunning(true);
    setRan([]);
    setOutcome(null);
    setError(null);
    const nodes: string[] = [];
    try {
      const stream = client.runs.stream(threadId, assistantId, {
        input: null,
        checkpointId,
        streamMode: ["updates"],
      });
      for await (const chunk of stream) {
        if (chunk.event === "error") {
          const data = chunk.data as { message?: string; error?: string } | undefined;
          throw new Error(`The run failed: ${data?.message ?? data?.error ?? "no reason given"}.`);
        }
        if (chunk.event === "updates" && chunk.data && typeof chunk.data === "object") {
          nodes.push(...Object.keys(chunk.data));
          setRan([...nodes]);
        }
      }
      const steps = nodes.filter((node) => node !== "__interrupt__");
      setOutcome(
        `${what}: ${steps.length ? `ran ${steps.join(", ")}` : "nothing left to run"}` +
          `${nodes.includes("__interrupt__") ? ", then stopped at an interrupt" : ""}.`,
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setRunning(false);
      await onDone();
    }
  };
  return { runFrom, running, ran, outcome, error, setError, setOutcome };
}
