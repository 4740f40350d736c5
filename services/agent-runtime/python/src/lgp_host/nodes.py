"""A graph's nodes starting and ending, for the runtime's traces (a span per node): LangGraph's
callbacks give every chain run; a node's run is the one named after its node (metadata
`langgraph_node`), and a subgraph's nodes are reported under the node that called the subgraph.
Asked for by the runtime (`trace_nodes`) only when it traces. The events ride in the run's stream
as `{"n": 1}` items with their own clock readings, so their place among the events does not matter.
"""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langgraph.errors import GraphBubbleUp

from lgp_host.channel import StreamItem
from lgp_host.serde import dumps


class NodeEvents(BaseCallbackHandler):
    # Called in the graph's own task, in order (not in a thread pool).
    run_inline = True

    def __init__(self) -> None:
        # Each chain run under way: the nearest node run at or above it, and that node's namespace.
        self._runs: dict[UUID, tuple[UUID | None, str | None]] = {}
        self._items: list[StreamItem] = []

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        above_node, above_ns = self._runs.get(parent_run_id, (None, None)) if parent_run_id else (None, None)
        metadata = metadata or {}
        node = metadata.get("langgraph_node")
        namespace = metadata.get("langgraph_checkpoint_ns") or ""
        if not isinstance(node, str) or kwargs.get("name") != node or above_ns == namespace:
            self._runs[run_id] = (above_node, above_ns)
            return
        self._runs[run_id] = (run_id, namespace)
        step = metadata.get("langgraph_step")
        event = {
            "k": "start",
            "id": str(run_id),
            "parent": str(above_node) if above_node else None,
            "node": node,
            "step": step if isinstance(step, int) else None,
            "ns": namespace,
            "t": time.time() * 1000,
        }
        self._items.append(({"n": 1}, dumps(event)))

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._end(run_id, None)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._end(run_id, error)

    def _end(self, run_id: UUID, error: BaseException | None) -> None:
        entry = self._runs.pop(run_id, None)
        if entry is None or entry[0] != run_id:
            return
        event: dict[str, Any] = {"k": "end", "id": str(run_id), "t": time.time() * 1000}
        # An interrupt (or a command to the parent graph) is how a node steers the run, not a failure.
        if error is not None and not isinstance(error, GraphBubbleUp):
            event["error"] = {"name": type(error).__name__, "message": str(error)[:300]}
        self._items.append(({"n": 1}, dumps(event)))

    def take(self) -> list[StreamItem]:
        """The events since the last take."""
        items, self._items = self._items, []
        return items
