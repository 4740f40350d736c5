"""Executing a run of a Python graph: LangGraph's stream turned into the run's events as the official
Python server shapes them, each with its data already JSON, for the runtime to pass on as it is.

The stream's items (channel `item` frames):
- `{"e": name}` + data: an event of the run's stream (`values`, `updates|ns`, `messages/partial`...);
- `{"s": 1}` + data: the root graph's values (the thread's new state), whether asked for or not;
- `{"i": 1}`: the run stopped at an interrupt;
- `{"p": 1}` + data: an event of the thread-centric protocol (see lgp_host.protocol);
- `{"n": 1}` + data: a node starting or ending, when the runtime traces (see lgp_host.nodes).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from langchain_core.messages import (
    AIMessageChunk,
    BaseMessage,
    BaseMessageChunk,
    ToolMessageChunk,
    convert_to_messages,
    message_chunk_to_message,
)

from langgraph.version import __version__ as langgraph_version

from lgp_host.channel import StreamItem
from lgp_host.serde import dumps

# The API's stream modes, as LangGraph's (`events` is LangChain's event stream, not a mode).
_GRAPH_MODE = {
    "values": "values",
    "updates": "updates",
    "messages": "messages",
    "messages-tuple": "messages",
    "custom": "custom",
    "debug": "debug",
    "checkpoints": "checkpoints",
    "tasks": "tasks",
}


def _ref(config: Any) -> dict[str, Any] | None:
    """`{checkpoint_id, thread_id, checkpoint_ns, checkpoint_map}` of a checkpoint's config."""
    configurable = (config or {}).get("configurable") or {}
    if not configurable.get("thread_id") or not configurable.get("checkpoint_id"):
        return None
    ref = {"checkpoint_id": configurable["checkpoint_id"], "thread_id": configurable["thread_id"]}
    if "checkpoint_ns" in configurable:
        ref["checkpoint_ns"] = configurable["checkpoint_ns"] or ""
    if "checkpoint_map" in configurable:
        ref["checkpoint_map"] = configurable["checkpoint_map"]
    return ref


def _debug_task(task: dict[str, Any]) -> dict[str, Any]:
    state = task.get("state")
    if not state or not isinstance(state, dict) or not state.get("configurable"):
        return task
    task = {**task, "checkpoint": state["configurable"]}
    del task["state"]
    return task


def _debug_checkpoint(payload: dict[str, Any] | None) -> dict[str, Any] | None:
    if not payload:
        return None
    return {
        **payload,
        "checkpoint": _ref(payload.get("config")),
        "parent_checkpoint": _ref(payload.get("parent_config")),
        "tasks": [_debug_task(task) for task in payload.get("tasks", [])],
    }


def _as_message(value: Any) -> tuple[BaseMessage, bool]:
    """A streamed message (a chunk, a whole message, or its dict form) and whether it is a chunk."""
    if isinstance(value, BaseMessage):
        return value, isinstance(value, BaseMessageChunk)
    kind = str(value.get("type", "")).lower() + str(value.get("role", "")).lower()
    if "chunk" in kind:
        if "ai" in kind:
            return AIMessageChunk(**value), True
        if "tool" in kind:
            return ToolMessageChunk(**value), True
        return BaseMessageChunk(**value), True
    return convert_to_messages([value])[0], False


def _interrupt(chunk: Any) -> bool:
    return isinstance(chunk, dict) and bool(chunk.get("__interrupt__"))


# LangGraph up to 1.0.3 shows an interrupt in `updates` only (later ones in `values` too): with
# those, `updates` is streamed for it, and shown as a `values` event when not asked for.
_UPDATES_FOR_INTERRUPTS = tuple(int(part) for part in langgraph_version.split(".")[:3] if part.isdigit()) <= (1, 0, 3)


class EventShaper:
    """Turns the graph's stream chunks into the run's events, as the official Python server does."""

    def __init__(self, api_modes: list[str], subgraphs: bool) -> None:
        self.api_modes = set(api_modes)
        self.subgraphs = subgraphs
        self.tuples = "messages-tuple" in self.api_modes
        self.interrupt_updates_only = _UPDATES_FOR_INTERRUPTS and "updates" not in self.api_modes
        self.messages: dict[str, BaseMessage] = {}
        # The root's latest values, when they are not streamed as events.
        self.values: Any = None

    def state(self) -> list[StreamItem]:
        """The thread's new state, if it was held back (the root's last values not streamed)."""
        if self.values is None:
            return []
        values, self.values = self.values, None
        return [({"s": 1}, dumps(values))]

    def graph_modes(self) -> list[str]:
        modes = {_GRAPH_MODE[mode] for mode in self.api_modes if mode in _GRAPH_MODE}
        # Always `values`: its last chunk is the thread's new state.
        modes.add("values")
        if _UPDATES_FOR_INTERRUPTS:
            modes.add("updates")
        return sorted(modes)

    def shape(self, namespace: tuple[str, ...], mode: str, chunk: Any) -> list[StreamItem]:
        suffix = f"|{'|'.join(namespace)}" if self.subgraphs and namespace else ""
        items: list[StreamItem] = []
        if mode == "values" and not namespace:
            if _interrupt(chunk):
                items.append(({"i": 1}, None))
            elif "values" not in self.api_modes:
                # Only the last is the thread's new state: written once, at the end (see state()).
                self.values = chunk
                return items
            else:
                self.values = None
            data = dumps(chunk)
            if not _interrupt(chunk):
                items.append(({"s": 1}, data))
            if "values" in self.api_modes:
                items.append(({"e": "values"}, data))
            return items
        if mode == "updates" and _interrupt(chunk) and not namespace:
            items.append(({"i": 1}, None))
        if mode == "debug" and isinstance(chunk, dict) and chunk.get("type") == "checkpoint":
            chunk = {**chunk, "payload": _debug_checkpoint(chunk.get("payload"))}
        if mode == "messages":
            if self.tuples:
                items.append(({"e": f"messages{suffix}"}, dumps(chunk)))
            if "messages" in self.api_modes:
                items.extend(self._legacy_messages(chunk))
            return items
        if mode in self.api_modes:
            items.append(({"e": f"{mode}{suffix}"}, dumps(chunk)))
        elif mode == "updates" and self.interrupt_updates_only and _interrupt(chunk):
            items.append(({"e": f"values{suffix}"}, dumps(chunk)))
        return items

    def _legacy_messages(self, chunk: Any) -> list[StreamItem]:
        """`messages/metadata` once per message, then `messages/partial` (tokens so far) or `/complete`."""
        value, metadata = chunk
        message, is_chunk = _as_message(value)
        items: list[StreamItem] = []
        if message.id in self.messages:
            self.messages[message.id] += message  # type: ignore[operator]
        else:
            self.messages[message.id] = message
            items.append(({"e": "messages/metadata"}, dumps({message.id: {"metadata": metadata}})))
        sofar = self.messages[message.id]
        name = "messages/partial" if isinstance(message, BaseMessageChunk) else "messages/complete"
        shown = sofar if is_chunk else message_chunk_to_message(sofar)  # type: ignore[arg-type]
        items.append(({"e": name}, dumps([shown])))
        return items


async def stream_items(graph: Any, run_input: Any, config: dict[str, Any], args: dict[str, Any]) -> AsyncIterator[StreamItem]:
    """The run's items, for `stream` (graph.astream) and `events` (LangChain's event stream) runs."""
    shaper = EventShaper(args.get("stream_mode") or ["values"], bool(args.get("subgraphs")))
    kwargs: dict[str, Any] = {
        "context": args.get("context"),
        "stream_mode": shaper.graph_modes(),
        "subgraphs": shaper.subgraphs,
        "interrupt_before": args.get("interrupt_before"),
        "interrupt_after": args.get("interrupt_after"),
    }
    if args.get("durability"):
        kwargs["durability"] = args["durability"]
    if "events" not in shaper.api_modes:
        async for chunk in graph.astream(run_input, config, **kwargs):
            namespace, mode, payload = chunk if shaper.subgraphs else ((), *chunk)
            for item in shaper.shape(tuple(namespace), mode, payload):
                yield item
        for item in shaper.state():
            yield item
        return
    run_id = str(config.get("run_id") or "")
    async for event in graph.astream_events(run_input, config, version="v2", **kwargs):
        if "langsmith:hidden" in (event.get("tags") or ()):
            continue
        data = event.get("data") or {}
        if event.get("event") == "on_chain_stream" and str(event.get("run_id")) == run_id and "chunk" in data:
            chunk = data["chunk"]
            namespace, mode, payload = chunk if shaper.subgraphs else ((), *chunk)
            for item in shaper.shape(tuple(namespace), mode, payload):
                yield item
        else:
            yield ({"e": "events"}, dumps(event))
    for item in shaper.state():
        yield item
