// Generative UI: the agent answers a question about the weather with a message and a `WeatherCard`
// component (ui.tsx) attached to it, pushed with `typedUi`: it lands in the state's `ui` list and
// in the stream, and the page renders it with LoadExternalComponent. Deterministic (no model).
import { AIMessage } from "@langchain/core/messages";
import { Annotation, MessagesAnnotation, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { typedUi, uiMessageReducer } from "@langchain/langgraph-sdk/react-ui/server";
import type ComponentMap from "./ui.js";

const WeatherState = Annotation.Root({
  ...MessagesAnnotation.spec,
  ui: Annotation({ reducer: uiMessageReducer, default: () => [] }),
});

/** The city named after "in" in the last message, or Paris. */
function cityOf(text: string): string {
  return /\bin\s+([A-Za-z][A-Za-z .'-]*)/i.exec(text)?.[1]?.trim() ?? "Paris";
}

export const graph = new StateGraph(WeatherState)
  .addNode("forecast", (state, config: LangGraphRunnableConfig) => {
    const last = state.messages.at(-1);
    const city = cityOf(typeof last?.content === "string" ? last.content : "");
    const temperature = 12 + (city.length % 10);
    const message = new AIMessage({
      id: `forecast-${Date.now()}`,
      content: `The weather in ${city}: ${temperature}°C`,
    });
    const ui = typedUi<typeof ComponentMap>(config);
    ui.push({ name: "weather", props: { city, temperature } }, { message });
    return { messages: [message] };
  })
  .addEdge("__start__", "forecast")
  .addEdge("forecast", "__end__")
  .compile();
