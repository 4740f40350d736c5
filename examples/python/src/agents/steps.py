"""A three-step counter that takes its time (context `delay_ms` per step) and reports progress
through the custom stream: for watching, cancelling and rejoining runs in flight. Exported as a
factory, as the official servers accept it (called with the run's config)."""

import asyncio
import operator
from typing import Annotated

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict


class StepsState(TypedDict, total=False):
    count: Annotated[int, operator.add]
    visited: Annotated[list[str], operator.add]


class StepsContext(TypedDict, total=False):
    """Pause of each step, in milliseconds."""

    delay_ms: int


def step(name: str):
    async def run(state: StepsState, runtime: Runtime[StepsContext]) -> dict:
        delay = (runtime.context or {}).get("delay_ms") or 0
        get_stream_writer()({"step": name, "status": "started"})
        if delay > 0:
            await asyncio.sleep(delay / 1000)
        return {"count": 1, "visited": [name]}

    return run


def make_graph(config: RunnableConfig):
    return (
        StateGraph(StepsState, context_schema=StepsContext)
        .add_node("one", step("one"))
        .add_node("two", step("two"))
        .add_node("three", step("three"))
        .add_edge(START, "one")
        .add_edge("one", "two")
        .add_edge("two", "three")
        .add_edge("three", END)
        .compile()
    )
