"""A project's Python graphs, loaded as the official servers accept them: a file path
(`./src/agent.py:graph`) or a module path (`agents.steps:make_graph`), whose attribute is a compiled
graph, a `StateGraph` (compiled here), or a factory (sync or async, or an async context manager)
taking the run's config and/or the server runtime (`langgraph_sdk.runtime.ServerRuntime`)."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import sys
import typing
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin

from langgraph.graph import StateGraph
from langgraph.pregel import Pregel

AccessContext = typing.Literal["threads.create_run", "threads.update", "threads.read", "assistants.read"]


@dataclass
class GraphSpec:
    graph_id: str
    attr: str
    file: str | None = None
    module: str | None = None

    @property
    def where(self) -> str:
        return f"{self.file or self.module}:{self.attr}"


@dataclass
class LoadedGraph:
    spec: GraphSpec
    compiled: Pregel | None = None
    factory: Callable[..., Any] | None = None
    # How the factory takes its arguments: the names of its config and runtime parameters.
    config_param: str | None = None
    runtime_param: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _import(spec: GraphSpec) -> Any:
    if spec.module:
        return importlib.import_module(spec.module)
    path = Path(spec.file or "")
    if not path.is_file():
        raise FileNotFoundError(f"file not found: {path}")
    # One module per file, named after its path (as the official server names them), so two graphs
    # of one file share it and a file's own imports of its siblings resolve from its folder.
    name = "lgp_graph_" + "".join(ch if ch.isalnum() else "_" for ch in str(path.with_suffix("")))
    if name in sys.modules:
        return sys.modules[name]
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot import {path} as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def load_export(spec: str, base: Path) -> Any:
    """A `path.py:attr` or `package.module:attr` of langgraph.json (not a graph: an embedding
    function, an auth handler, an app), a path relative to the project's folder."""
    target, _, attr = spec.rpartition(":")
    if not target:
        target, attr = spec, ""
    if target.endswith(".py") or "/" in target:
        module = _import(GraphSpec("", attr, file=str((base / target).resolve())))
    else:
        module = importlib.import_module(target)
    if not attr:
        raise ValueError(f"{spec}: name the attribute after a colon (path.py:name)")
    if not hasattr(module, attr):
        raise AttributeError(f'{spec}: no attribute named "{attr}"')
    return getattr(module, attr)


def _is_runtime_annotation(annotation: Any) -> bool:
    if annotation is inspect.Parameter.empty:
        return False
    try:
        from langgraph_sdk.runtime import ServerRuntime, _ExecutionRuntime, _ReadRuntime
    except ImportError:  # an older langgraph-sdk: no server runtime to pass
        return False
    if annotation is ServerRuntime:
        return True
    if isinstance(annotation, type):
        return issubclass(annotation, (_ExecutionRuntime, _ReadRuntime))
    origin = get_origin(annotation)
    if origin is ServerRuntime:
        return True
    args = get_args(annotation)
    return bool(origin is not None and args and _is_runtime_annotation(args[0]))


def _classify(loaded: LoadedGraph, factory: Callable[..., Any]) -> None:
    """Which parameter takes the config and which the runtime (by annotation), as the official server reads them."""
    params = list(inspect.signature(factory).parameters.values())
    try:
        from langgraph_sdk.runtime import ServerRuntime

        hints = typing.get_type_hints(factory, localns={"ServerRuntime": ServerRuntime})
    except Exception:  # noqa: BLE001 - unresolvable annotations: read them as written
        hints = {}
    runtime = [p for p in params if _is_runtime_annotation(hints.get(p.name, p.annotation))]
    if len(params) > 2:
        raise ValueError(f"a graph factory takes at most 2 arguments (config, runtime), not {len(params)}")
    if len(params) == 2 and len(runtime) != 1:
        raise ValueError("a graph factory of two arguments takes a RunnableConfig and a ServerRuntime")
    for param in params:
        if param in runtime:
            loaded.runtime_param = param.name
        else:
            loaded.config_param = param.name


def _as_graph(value: Any) -> Pregel | None:
    if isinstance(value, StateGraph):
        return value.compile()
    if isinstance(value, Pregel):
        return value
    return None


def _named(graph: Pregel, graph_id: str) -> Pregel:
    """A graph left with LangGraph's default name takes its graph id (its runs' root name), as on the official server."""
    return graph.copy(update={"name": graph_id}) if graph.name == "LangGraph" else graph


def load(spec: GraphSpec) -> LoadedGraph:
    module = _import(spec)
    if not hasattr(module, spec.attr):
        names = [name for name, value in vars(module).items() if isinstance(value, (StateGraph, Pregel))]
        hint = f" (graphs in it: {', '.join(names)})" if names else ""
        raise AttributeError(f'no attribute named "{spec.attr}"{hint}')
    value = getattr(module, spec.attr)
    loaded = LoadedGraph(spec)
    graph = _as_graph(value)
    if graph is not None:
        loaded.compiled = _named(graph, spec.graph_id)
    elif callable(value):
        loaded.factory = value
        _classify(loaded, value)
    else:
        raise TypeError("the attribute is not a graph, a compiled graph or a factory")
    return loaded


def _server_runtime(access: AccessContext, store: Any, context: Any, user: Any) -> Any:
    from langgraph_sdk.runtime import _ExecutionRuntime, _ReadRuntime

    if access == "threads.create_run":
        return _ExecutionRuntime(access_context=access, user=user, store=store, context=context)
    return _ReadRuntime(access_context=access, user=user, store=store)


@contextlib.asynccontextmanager
async def graph_for(
    loaded: LoadedGraph,
    config: dict[str, Any],
    *,
    access: AccessContext,
    store: Any,
    checkpointer: Any,
    context: Any = None,
    user: Any = None,
) -> AsyncIterator[Pregel]:
    """The graph to use for one operation, with the checkpointer and store attached (a factory is
    called for each, and a context-manager factory left when the operation is done)."""
    if loaded.compiled is not None:
        graph = loaded.compiled
        if graph.checkpointer is not checkpointer or graph.store is not store:
            graph.checkpointer = checkpointer
            graph.store = store
        yield graph
        return
    kwargs: dict[str, Any] = {}
    if loaded.config_param:
        kwargs[loaded.config_param] = config
    if loaded.runtime_param:
        kwargs[loaded.runtime_param] = _server_runtime(access, store, context, user)
    made = loaded.factory(**kwargs)  # type: ignore[misc]
    async with contextlib.AsyncExitStack() as stack:
        if inspect.isawaitable(made):
            made = await made
        if hasattr(made, "__aenter__"):
            made = await stack.enter_async_context(made)
        elif hasattr(made, "__enter__") and not isinstance(made, (StateGraph, Pregel)):
            made = stack.enter_context(made)
        graph = _as_graph(made)
        if graph is None:
            raise TypeError(f"graph {loaded.spec.graph_id!r}: the factory did not return a graph")
        update: dict[str, Any] = {"checkpointer": checkpointer, "store": store}
        if graph.name == "LangGraph":
            update["name"] = loaded.spec.graph_id
        yield graph.copy(update=update)
