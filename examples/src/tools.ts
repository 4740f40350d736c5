// A tool-calling agent without a model: `agent` asks the `word_count` tool about the last human
// message, the tool node runs it, and `agent` answers with its result. Front ends show the call,
// its arguments and its result (the console's playground does).
import { randomUUID } from "node:crypto";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { textOf } from "./text";

export const wordCount = tool(({ text }) => String(text.trim().split(/\s+/).filter(Boolean).length), {
  name: "word_count",
  description: "Counts the words of a text",
  schema: z.object({ text: z.string().describe("The text whose words to count") }),
});

export const graph = new StateGraph(MessagesAnnotation)
  .addNode("agent", (state) => {
    const last = state.messages.at(-1);
    if (last instanceof ToolMessage || last?.getType?.() === "tool") {
      return { messages: [new AIMessage(`That message has ${textOf(last.content)} words.`)] };
    }
    return {
      messages: [
        new AIMessage({
          content: "",
          tool_calls: [{ id: `call_${randomUUID()}`, name: "word_count", args: { text: textOf(last?.content) } }],
        }),
      ],
    };
  })
  .addNode("tools", new ToolNode([wordCount]))
  .addEdge("__start__", "agent")
  .addConditionalEdges(
    "agent",
    (state) => ((state.messages.at(-1) as AIMessage | undefined)?.tool_calls?.length ? "tools" : "__end__"),
    ["tools", "__end__"],
  )
  .addEdge("tools", "agent")
  .compile();
