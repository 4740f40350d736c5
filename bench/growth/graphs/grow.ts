// The growth bench's second graph: each turn adds one message to the state (the echo agent adds
// two, the user's and its answer), so a thread's state grows with its history as a long chat's does.
import { AIMessage } from "@langchain/core/messages";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";

export const graph = new StateGraph(MessagesAnnotation)
  .addNode("turn", (state) => ({ messages: [new AIMessage(`turn ${state.messages.length + 1}`)] }))
  .addEdge("__start__", "turn")
  .addEdge("turn", "__end__")
  .compile();
