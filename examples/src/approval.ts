// A multi-node graph that stops for human approval: `propose` writes a proposal, `review` calls
// interrupt() and waits for `{approved, note?}` (resumed with `command: {resume}`), then `publish`
// or `revise` runs.
import { AIMessage } from "@langchain/core/messages";
import { Annotation, MessagesAnnotation, StateGraph, interrupt } from "@langchain/langgraph";
import { textOf } from "./text";

const ApprovalState = Annotation.Root({
  ...MessagesAnnotation.spec,
  draft: Annotation<string>,
  approved: Annotation<boolean | undefined>,
  steps: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

export const graph = new StateGraph(ApprovalState)
  .addNode("propose", (state) => {
    const last = state.messages.at(-1);
    return { draft: `proposal: ${textOf(last?.content)}`, steps: ["propose"] };
  })
  .addNode("review", (state) => {
    const answer = interrupt<{ question: string; draft: string }, { approved?: boolean; note?: string }>({
      question: "Approve this draft?",
      draft: state.draft,
    });
    return { approved: answer?.approved === true, steps: ["review"] };
  })
  .addNode("publish", (state) => ({
    messages: [new AIMessage(`published: ${state.draft}`)],
    steps: ["publish"],
  }))
  .addNode("revise", (state) => ({
    messages: [new AIMessage(`rejected: ${state.draft}`)],
    steps: ["revise"],
  }))
  .addEdge("__start__", "propose")
  .addEdge("propose", "review")
  .addConditionalEdges("review", (state) => (state.approved ? "publish" : "revise"), ["publish", "revise"])
  .addEdge("publish", "__end__")
  .addEdge("revise", "__end__")
  .compile();
