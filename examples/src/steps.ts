// A three-step counter that takes its time (context `delay_ms` per step) and reports progress
// through the custom stream: for watching, cancelling and rejoining runs in flight.
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { Annotation, StateGraph } from "@langchain/langgraph";
import { z } from "zod";

const StepsState = Annotation.Root({
  count: Annotation<number>({ reducer: (left, right) => left + right, default: () => 0 }),
  visited: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

export const StepsContext = z.object({
  delay_ms: z.number().int().min(0).max(60_000).optional().describe("Pause of each step, in milliseconds"),
});

function step(name: string) {
  return async (_state: typeof StepsState.State, runtime: LangGraphRunnableConfig<z.infer<typeof StepsContext>>) => {
    const delay = runtime.context?.delay_ms ?? 0;
    runtime.writer?.({ step: name, status: "started" });
    if (delay > 0) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delay);
        runtime.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("aborted"));
        });
      });
    }
    return { count: 1, visited: [name] };
  };
}

export const graph = new StateGraph(StepsState, StepsContext)
  .addNode("one", step("one"))
  .addNode("two", step("two"))
  .addNode("three", step("three"))
  .addEdge("__start__", "one")
  .addEdge("one", "two")
  .addEdge("two", "three")
  .addEdge("three", "__end__")
  .compile();
