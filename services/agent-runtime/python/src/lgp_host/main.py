"""The Python graph host: started by the agent runtime, one per runtime process that serves Python
graphs. It loads the project's graphs, says which loaded, then answers the runtime's calls on the
channel (file descriptor 3): runs, state reads and updates, drawings and schemas. Its checkpointer is
the deployment's PostgreSQL; its store and everything it logs go back through the channel.

Configured by the runtime through the environment:
- LGP_GRAPHS: `[{"graph_id", "attr", "file" | "module"}]`;
- LGP_AUTH, LGP_APP: langgraph.json's `auth.path` and `http.app`, when they name Python;
- LGP_DATABASE_URL: the deployment's database (libpq form); LGP_POOL_SIZE: its connections;
- LGP_LOG_LEVEL: the runtime's LOG_LEVEL.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import signal
import sys
import uuid
from pathlib import Path
from typing import Any

from lgp_host import describe, logs
from lgp_host.auth import PythonAuth
from lgp_host.http import PythonApp
from lgp_host.channel import Channel, error_of
from lgp_host.checkpointer import connection_pool, saver
from lgp_host.loader import GraphSpec, LoadedGraph, graph_for, load, load_export
from lgp_host.nodes import NodeEvents
from lgp_host.protocol import protocol_items
from lgp_host.runs import stream_items
from lgp_host.serde import dumps, loads
from lgp_host.state import command_of, snapshot_wire, supersteps_of
from lgp_host.store import RuntimeStore

CHANNEL_FD = 3


class Host:
    def __init__(self, channel: Channel, checkpointer: Any, store: RuntimeStore) -> None:
        self.channel = channel
        self.checkpointer = checkpointer
        self.store = store
        self.graphs: dict[str, LoadedGraph] = {}
        self.failures: dict[str, str] = {}
        # langgraph.json's other Python parts (the embedding function), loaded on first use.
        self.exports: dict[str, Any] = {}
        self.auth: PythonAuth | None = None
        self.app: PythonApp | None = None

    def load_parts(self, auth: str | None, app: str | None) -> dict[str, Any]:
        """`auth.path` and `http.app`: what each offers, or why it cannot load."""
        report: dict[str, Any] = {}
        for name, spec, make in (("auth", auth, PythonAuth), ("app", app, PythonApp)):
            if not spec:
                continue
            try:
                part = make(load_export(spec, Path.cwd()))
            except Exception as error:  # noqa: BLE001 - reported to the runtime, which stops start-up
                report[name] = {"error": f"{type(error).__name__}: {error}"}
                continue
            setattr(self, name, part)
            report[name] = part.describe() if isinstance(part, PythonAuth) else {"routes": part.routes()}
        return report

    async def authenticate(self, args: dict[str, Any]) -> Any:
        return await self.auth.authenticate(args)  # type: ignore[union-attr]

    async def authorize(self, args: dict[str, Any]) -> Any:
        return await self.auth.authorize(args)  # type: ignore[union-attr]

    async def http_request(self, args: dict[str, Any]) -> Any:
        return await self.app.request(args)  # type: ignore[union-attr]

    def load(self, specs: list[dict[str, Any]]) -> dict[str, Any]:
        report: dict[str, Any] = {}
        for raw in specs:
            spec = GraphSpec(raw["graph_id"], raw.get("attr") or "graph", raw.get("file"), raw.get("module"))
            try:
                loaded = load(spec)
            except BaseException as error:  # noqa: BLE001 - a graph that fails leaves the others
                if isinstance(error, (KeyboardInterrupt, SystemExit)):
                    raise
                message = f"{type(error).__name__}: {error}"
                self.failures[spec.graph_id] = message
                report[spec.graph_id] = {"error": message}
                continue
            self.graphs[spec.graph_id] = loaded
            report[spec.graph_id] = {"factory": loaded.factory is not None}
        return report

    def _loaded(self, graph_id: str) -> LoadedGraph:
        loaded = self.graphs.get(graph_id)
        if loaded is None:
            raise LookupError(self.failures.get(graph_id) or f'graph "{graph_id}" is not a Python graph of this project')
        return loaded

    def graph(self, args: dict[str, Any]):
        """The graph an operation uses (a factory's built with the config and access it gives)."""
        build = args.get("build") or {}
        return graph_for(
            self._loaded(args["graph_id"]),
            build.get("config") or {},
            access=build.get("access") or "threads.read",
            store=self.store,
            checkpointer=None if args.get("stateless_checkpointer") else self.checkpointer,
            context=build.get("context"),
            user=build.get("user"),
        )

    # --- calls -------------------------------------------------------------------------------

    async def get_state(self, args: dict[str, Any]) -> Any:
        async with self.graph(args) as graph:
            snapshot = await graph.aget_state(args["config"], subgraphs=bool(args.get("subgraphs")))
            return snapshot_wire(snapshot)

    async def get_history(self, args: dict[str, Any]) -> Any:
        async with self.graph(args) as graph:
            return [
                snapshot_wire(snapshot)
                async for snapshot in graph.aget_state_history(
                    args["config"], filter=args.get("filter"), before=args.get("before"), limit=args.get("limit")
                )
            ]

    async def update_state(self, args: dict[str, Any]) -> Any:
        async with self.graph(args) as graph:
            values = args.get("values")
            if args.get("command"):
                values = command_of(args["command"])
            return await graph.aupdate_state(args["config"], values, as_node=args.get("as_node"), task_id=args.get("task_id"))

    async def bulk_update_state(self, args: dict[str, Any]) -> Any:
        async with self.graph(args) as graph:
            return await graph.abulk_update_state(args["config"], supersteps_of(args["supersteps"]))

    async def draw(self, args: dict[str, Any]) -> Any:
        async with self.graph(args) as graph:
            return await describe.drawing(graph, (args.get("build") or {}).get("config") or {}, args.get("xray") or False)

    async def schemas(self, args: dict[str, Any]) -> Any:
        async with self.graph(args) as graph:
            return describe.schemas(graph)

    async def subgraphs(self, args: dict[str, Any]) -> Any:
        async with self.graph(args) as graph:
            return await describe.subgraph_schemas(graph, args.get("namespace"), bool(args.get("recurse")))

    async def embed(self, args: dict[str, Any]) -> Any:
        """`store.index.embed` naming a Python function (or an Embeddings object): the texts' vectors."""
        spec = args["spec"]
        embedder = self.exports.get(spec)
        if embedder is None:
            embedder = self.exports[spec] = load_export(spec, Path.cwd())
        texts = list(args["texts"])
        if hasattr(embedder, "aembed_documents"):
            return await embedder.aembed_documents(texts)
        if hasattr(embedder, "embed_documents"):
            return await asyncio.to_thread(embedder.embed_documents, texts)
        vectors = embedder(texts)
        if inspect.isawaitable(vectors):
            vectors = await vectors
        return [list(vector) for vector in vectors]

    # --- the run stream ----------------------------------------------------------------------

    async def run(self, args: dict[str, Any]):
        config = args["config"]
        if isinstance(config.get("run_id"), str):
            config["run_id"] = uuid.UUID(config["run_id"])
        configurable = config.get("configurable") or {}
        logs.run_ids.set(
            {
                key: configurable.get(key)
                for key in ("run_id", "thread_id", "graph_id", "assistant_id")
                if configurable.get(key) is not None
            }
        )
        run_input = command_of(args["command"]) if args.get("command") else args.get("input")
        nodes = NodeEvents() if args.get("trace_nodes") else None
        if nodes:
            config["callbacks"] = [nodes]
        async with self.graph(args) as graph:
            items = protocol_items if args.get("kind") == "protocol" else stream_items
            try:
                async for item in items(graph, run_input, config, args):
                    for node_item in nodes.take() if nodes else ():
                        yield node_item
                    yield item
            except Exception:
                # The failing node's end goes out before the run's error.
                for node_item in nodes.take() if nodes else ():
                    yield node_item
                raise
            for node_item in nodes.take() if nodes else ():
                yield node_item


async def serve() -> None:
    loop = asyncio.get_running_loop()
    channel = await Channel.from_fd(CHANNEL_FD)
    logs.capture(channel, loop, os.environ.get("LGP_LOG_LEVEL", "info"))
    pool = connection_pool(os.environ["LGP_DATABASE_URL"], int(os.environ.get("LGP_POOL_SIZE", "5")))
    # Connections are made in the background: the host can say what it loaded before the
    # database answers (the runtime checks a project's graphs before it migrates its database).
    await pool.open(wait=False)
    host = Host(channel, saver(pool), RuntimeStore(channel, loop))
    report = {
        "graphs": host.load(loads(os.environ.get("LGP_GRAPHS", "[]").encode())),
        **host.load_parts(os.environ.get("LGP_AUTH"), os.environ.get("LGP_APP")),
    }
    for op, handler in {
        "state.get": host.get_state,
        "state.history": host.get_history,
        "state.update": host.update_state,
        "state.bulk_update": host.bulk_update_state,
        "graph.draw": host.draw,
        "graph.schemas": host.schemas,
        "graph.subgraphs": host.subgraphs,
        "embed": host.embed,
        "auth.authenticate": host.authenticate,
        "auth.authorize": host.authorize,
        "http.request": host.http_request,
    }.items():
        channel.on_call(op, handler)
    channel.on_stream("run", host.run)
    channel.send({"t": "ready", "pid": os.getpid(), "python": sys.version.split()[0]}, dumps(report))
    # The runtime stops this host by closing the channel (or by SIGTERM, as its own shutdown does).
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    serving = asyncio.ensure_future(channel.serve())
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({serving, stopping}, return_when=asyncio.FIRST_COMPLETED)
    serving.cancel()
    await pool.close()


def main() -> None:
    try:
        try:
            # libuv's event loop where it is installed (as the official Python server runs on it).
            import uvloop
        except ImportError:
            asyncio.run(serve())
        else:
            uvloop.run(serve())
    except Exception as error:  # noqa: BLE001 - the runtime reads why the host stopped from stderr
        print(f"lgp_host: {error_of(error)['name']}: {error}", file=sys.__stderr__)
        sys.exit(1)
