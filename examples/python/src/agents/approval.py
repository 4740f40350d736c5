"""A multi-node graph that stops for human approval: `propose` writes a proposal, `review` calls
interrupt() and waits for `{approved, note?}` (resumed with `command: {resume}`), then `publish` or
`revise` runs."""

import operator
from typing import Annotated

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import interrupt

from agents.text import text_of


class ApprovalState(MessagesState, total=False):
    draft: str
    approved: bool
    steps: Annotated[list[str], operator.add]


def propose(state: ApprovalState) -> dict:
    last = state["messages"][-1] if state["messages"] else None
    return {"draft": f"proposal: {text_of(last.content if last else '')}", "steps": ["propose"]}


def review(state: ApprovalState) -> dict:
    answer = interrupt({"question": "Approve this draft?", "draft": state.get("draft")})
    approved = isinstance(answer, dict) and answer.get("approved") is True
    return {"approved": approved, "steps": ["review"]}


def publish(state: ApprovalState) -> dict:
    return {"messages": [AIMessage(f"published: {state.get('draft')}")], "steps": ["publish"]}


def revise(state: ApprovalState) -> dict:
    return {"messages": [AIMessage(f"rejected: {state.get('draft')}")], "steps": ["revise"]}


graph = (
    StateGraph(ApprovalState)
    .add_node("propose", propose)
    .add_node("review", review)
    .add_node("publish", publish)
    .add_node("revise", revise)
    .add_edge(START, "propose")
    .add_edge("propose", "review")
    .add_conditional_edges("review", lambda state: "publish" if state.get("approved") else "revise", ["publish", "revise"])
    .add_edge("publish", END)
    .add_edge("revise", END)
    .compile()
)
