"""The echo agent: one node that answers the last message with `{prefix}{text}`."""

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from agents.text import text_of


class Context(TypedDict, total=False):
    """Run context: `reply_prefix` replaces the default "echo: " prefix."""

    reply_prefix: str


def agent(state: MessagesState, runtime: Runtime[Context]) -> dict:
    last = state["messages"][-1] if state["messages"] else None
    prefix = (runtime.context or {}).get("reply_prefix") or "echo: "
    return {"messages": [AIMessage(f"{prefix}{text_of(last.content if last else '')}")]}


graph = (
    StateGraph(MessagesState, context_schema=Context)
    .add_node("agent", agent)
    .add_edge(START, "agent")
    .add_edge("agent", END)
    .compile()
)
