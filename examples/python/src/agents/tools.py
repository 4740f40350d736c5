"""A tool-calling agent without a model: `agent` asks the `word_count` tool about the last human
message, the tool node runs it, and `agent` answers with its result. The tool logs what it counted
(an error when there is nothing to count): the lines are the deployment's deploy log
(`langgraph deploy logs`)."""

import logging
import uuid

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from agents.text import text_of


log = logging.getLogger(__name__)


@tool
def word_count(text: str) -> str:
    """Counts the words of a text"""
    words = len(text.split())
    if words:
        log.info("word_count counted %d words", words)
    else:
        log.error("word_count was given no words to count")
    return str(words)


def agent(state: MessagesState) -> dict:
    last = state["messages"][-1] if state["messages"] else None
    if isinstance(last, ToolMessage):
        return {"messages": [AIMessage(f"That message has {text_of(last.content)} words.")]}
    call = {"id": f"call_{uuid.uuid4()}", "name": "word_count", "args": {"text": text_of(last.content if last else "")}}
    return {"messages": [AIMessage(content="", tool_calls=[call])]}


def route(state: MessagesState) -> str:
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else END


graph = (
    StateGraph(MessagesState)
    .add_node("agent", agent)
    .add_node("tools", ToolNode([word_count]))
    .add_edge(START, "agent")
    .add_conditional_edges("agent", route, ["tools", END])
    .add_edge("tools", "agent")
    .compile()
)
