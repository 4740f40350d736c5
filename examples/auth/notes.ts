// The notes agent: remembers what each user tells it, in the store under their own namespace.
// It knows who is talking from `config.configurable.langgraph_auth_user`, set by the runtime.
import { AIMessage } from "@langchain/core/messages";
import { MessagesAnnotation, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";

/** A message's text, whether its content is a string or a list of parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part === "string" ? part : String((part as { text?: unknown }).text ?? "")))
      .join("");
  return "";
}

export const graph = new StateGraph(MessagesAnnotation)
  .addNode("agent", async (state, config: LangGraphRunnableConfig) => {
    const user = config.configurable?.langgraph_auth_user as { identity: string; display_name: string } | undefined;
    const text = textOf(state.messages.at(-1)?.content);
    const owner = user?.identity ?? "anonymous";
    const notes = (await config.store?.search([owner, "notes"], { limit: 100 })) ?? [];
    await config.store?.put([owner, "notes"], `note-${notes.length + 1}`, { text });
    return {
      messages: [new AIMessage(`${user?.display_name ?? "anonymous"}, noted (${notes.length + 1} notes): ${text}`)],
    };
  })
  .addEdge("__start__", "agent")
  .addEdge("agent", "__end__")
  .compile();
