// The echo agent: one node that answers the last message with `${prefix}${text}`.
import { AIMessage } from "@langchain/core/messages";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { z } from "zod";
import { textOf } from "./text";

/** Run context: `reply_prefix` replaces the default "echo: " prefix. */
export const ContextSchema = z.object({
  reply_prefix: z.string().optional().describe('Prefix of the reply (default "echo: ")'),
});

export const graph = new StateGraph(MessagesAnnotation, ContextSchema)
  .addNode("agent", (state, runtime) => {
    const last = state.messages.at(-1);
    const prefix = runtime?.context?.reply_prefix ?? "echo: ";
    return { messages: [new AIMessage(`${prefix}${textOf(last?.content)}`)] };
  })
  .addEdge("__start__", "agent")
  .addEdge("agent", "__end__")
  .compile();
