// The echo agent: one node that answers the last message with `${prefix}${text}`.
import { AIMessage } from "@langchain/core/messages";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { z } from "zod";

/** Run context: `reply_prefix` replaces the default "echo: " prefix. */
export const ContextSchema = z.object({
  reply_prefix: z.string().optional().describe('Prefix of the reply (default "echo: ")'),
});

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === "string" ? part : ((part as { text?: string }).text ?? ""))).join("");
  }
  return "";
}

export const graph = new StateGraph(MessagesAnnotation, ContextSchema)
  .addNode("agent", (state, runtime) => {
    const last = state.messages.at(-1);
    const prefix = runtime?.context?.reply_prefix ?? "echo: ";
    return { messages: [new AIMessage(`${prefix}${textOf(last?.content)}`)] };
  })
  .addEdge("__start__", "agent")
  .addEdge("agent", "__end__")
  .compile();
