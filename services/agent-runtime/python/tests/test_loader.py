"""Graphs given as the official servers take them: file or module paths, graphs, builders, factories."""

import sys
import textwrap
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from lgp_host.loader import GraphSpec, graph_for, load

SOURCE = textwrap.dedent(
    """
    from typing import TypedDict
    from langgraph.graph import StateGraph, START, END
    from langgraph_sdk.runtime import ServerRuntime

    class State(TypedDict):
        n: int

    builder = StateGraph(State).add_node("inc", lambda s: {"n": s["n"] + 1}).add_edge(START, "inc").add_edge("inc", END)
    graph = builder.compile()
    seen = []

    def from_config(config):
        seen.append(("config", config["configurable"].get("who")))
        return builder.compile()

    async def from_runtime(runtime: ServerRuntime):
        seen.append(("runtime", runtime.access_context))
        return builder

    def both(config, runtime: ServerRuntime):
        seen.append(("both", runtime.access_context, config["configurable"].get("who")))
        return builder

    not_a_graph = 42
    """
)


@pytest.fixture
def project(tmp_path: Path):
    package = tmp_path / "mygraphs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "g.py").write_text(SOURCE)
    sys.path.insert(0, str(tmp_path))
    yield package
    sys.path.remove(str(tmp_path))
    for name in [name for name in sys.modules if name.startswith("mygraphs")]:
        del sys.modules[name]


async def use(loaded, access="threads.read"):
    config = {"configurable": {"who": "me", "thread_id": "t"}}
    async with graph_for(loaded, config, access=access, store=None, checkpointer=InMemorySaver()) as graph:
        return await graph.ainvoke({"n": 1}, config)


async def test_a_file_path_and_a_module_path_load_the_same_graph(project):
    by_file = load(GraphSpec("a", "graph", file=str(project / "g.py")))
    by_module = load(GraphSpec("b", "builder", module="mygraphs.g"))
    assert by_file.compiled is not None and by_module.compiled is not None
    assert await use(by_file) == {"n": 2}
    assert await use(by_module) == {"n": 2}


async def test_factories_get_the_config_the_runtime_or_both(project):
    module = sys.modules.get("mygraphs.g") or __import__("mygraphs.g", fromlist=["seen"])
    for attr in ("from_config", "from_runtime", "both"):
        loaded = load(GraphSpec(attr, attr, module="mygraphs.g"))
        assert loaded.factory is not None
        assert await use(loaded, access="threads.create_run") == {"n": 2}
    assert module.seen == [("config", "me"), ("runtime", "threads.create_run"), ("both", "threads.create_run", "me")]


def test_what_cannot_load_says_why(project):
    with pytest.raises(FileNotFoundError):
        load(GraphSpec("x", "graph", file=str(project / "missing.py")))
    with pytest.raises(AttributeError, match='no attribute named "nope".*graph'):
        load(GraphSpec("x", "nope", module="mygraphs.g"))
    with pytest.raises(TypeError, match="not a graph"):
        load(GraphSpec("x", "not_a_graph", module="mygraphs.g"))
