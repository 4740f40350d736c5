"""A Python graph's run as events of the thread-centric protocol, in the shapes LangGraph JS's v3 event
stream gives them (which the runtime's protocol layer and the official clients read): the graph
streamed with its subgraphs in the modes the protocol's channels come from, each chunk turned into
its channel's events.

- `values`: the state; `updates`: one per node, `{node, values}`; `custom`: `{payload}`;
- `tasks` as LangGraph gives them; `checkpoints`: `{id, parent_id, step, source}`;
- `messages`: each AI message (streamed token by token or returned whole) as `message-start`,
  its text as a content block (`content-block-start`, `-delta`s, `-finish`), `message-finish`;
- `tools`: `tool-started` (its input as JSON text), `tool-finished`, `tool-error`;
- `lifecycle` of each task (`started`, then `completed`, `failed` or `interrupted`), in the task's
  namespace; the root's lifecycle is the runtime's (it follows the run's outcome).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage

from lgp_host.channel import StreamItem
from lgp_host.serde import dumps

MODES = ["values", "updates", "messages", "custom", "tasks", "checkpoints", "tools"]


def _event(method: str, namespace: list[str], data: Any) -> StreamItem:
    return ({"p": 1}, dumps({"type": "event", "method": method, "params": {"namespace": namespace, "data": data}}))


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            block if isinstance(block, str) else str(block.get("text", ""))
            for block in content
            if isinstance(block, str) or (isinstance(block, dict) and block.get("type") == "text")
        )
    return ""


def _checkpoint(payload: dict[str, Any]) -> dict[str, Any] | None:
    configurable = (payload.get("config") or {}).get("configurable") or {}
    if not configurable.get("checkpoint_id"):
        return None
    metadata = payload.get("metadata") or {}
    parent = ((payload.get("parent_config") or {}).get("configurable") or {}).get("checkpoint_id")
    summary: dict[str, Any] = {"id": configurable["checkpoint_id"]}
    if parent:
        summary["parent_id"] = parent
    summary["step"] = metadata.get("step", 0)
    summary["source"] = metadata.get("source", "loop")
    return summary


@dataclass
class _Message:
    namespace: list[str]
    text: str = ""
    block: bool = False
    finished: bool = False


class ProtocolShaper:
    def __init__(self) -> None:
        self.messages: dict[str, _Message] = {}
        # Tasks under way, by the namespace of the graph running them: (name, id).
        self.tasks: dict[tuple[str, ...], dict[str, str]] = {}

    def shape(self, namespace: tuple[str, ...], mode: str, chunk: Any) -> list[StreamItem]:
        ns = list(namespace)
        if mode == "values":
            return [_event("values", ns, chunk)]
        if mode == "updates":
            if not isinstance(chunk, dict):
                return []
            return [_event("updates", ns, {"node": node, "values": values}) for node, values in chunk.items()]
        if mode == "custom":
            return [_event("custom", ns, {"payload": chunk})]
        if mode == "checkpoints":
            summary = _checkpoint(chunk) if isinstance(chunk, dict) else None
            return [_event("checkpoints", ns, summary)] if summary else []
        if mode == "tasks":
            return self._task(ns, chunk)
        if mode == "messages":
            return self._message(*chunk)
        if mode == "tools":
            return self._tool(namespace, chunk)
        return []

    def _task(self, ns: list[str], task: dict[str, Any]) -> list[StreamItem]:
        running = self.tasks.setdefault(tuple(ns), {})
        own = ns + [f"{task['name']}:{task['id']}"]
        items = [_event("tasks", ns, task)]
        if "result" not in task and "error" not in task:
            running[task["id"]] = task["name"]
            items.append(_event("lifecycle", own, {"event": "started", "graph_name": task["name"]}))
            return items
        running.pop(task["id"], None)
        items.extend(self._finish_messages(own))
        lifecycle: dict[str, Any] = {"graph_name": task["name"]}
        if task.get("error"):
            lifecycle.update(event="failed", error=str(task["error"]))
        elif task.get("interrupts"):
            lifecycle["event"] = "interrupted"
        else:
            lifecycle["event"] = "completed"
        items.append(_event("lifecycle", own, {"event": lifecycle.pop("event"), **lifecycle}))
        return items

    def _tool(self, namespace: tuple[str, ...], data: dict[str, Any]) -> list[StreamItem]:
        # Tool events come with the namespace of the graph: they belong to its task running them.
        running = self.tasks.get(namespace) or {}
        ns = list(namespace) + ([f"{name}:{task_id}" for task_id, name in running.items()][:1] if len(running) == 1 else [])
        if data.get("event") == "tool-started" and not isinstance(data.get("input"), str):
            data = {**data, "input": json.dumps(data.get("input"), separators=(",", ":"), default=str)}
        return [_event("tools", ns, data)]

    def _message(self, message: BaseMessage | dict[str, Any], metadata: dict[str, Any]) -> list[StreamItem]:
        if not isinstance(message, (AIMessage, AIMessageChunk)) or not message.id:
            return []
        checkpoint_ns = str((metadata or {}).get("langgraph_checkpoint_ns") or "")
        ns = checkpoint_ns.split("|") if checkpoint_ns else []
        state = self.messages.get(message.id)
        items: list[StreamItem] = []
        if state is None:
            state = self.messages[message.id] = _Message(ns)
            items.append(_event("messages", ns, {"event": "message-start", "role": "ai", "id": message.id}))
        if state.finished:
            return items
        if isinstance(message, AIMessageChunk):
            items.extend(self._delta(state, _text(message.content)))
            if getattr(message, "chunk_position", None) == "last":
                items.extend(self._finish(state))
        else:
            # A whole message: what it adds to what was streamed, then its end.
            whole = _text(message.content)
            items.extend(self._delta(state, whole[len(state.text) :] if whole.startswith(state.text) else whole))
            items.extend(self._finish(state))
        return items

    def _delta(self, state: _Message, text: str) -> list[StreamItem]:
        if not text:
            return []
        items: list[StreamItem] = []
        if not state.block:
            state.block = True
            items.append(_event("messages", state.namespace, {"event": "content-block-start", "index": 0, "content": {"type": "text", "text": ""}}))
        state.text += text
        items.append(_event("messages", state.namespace, {"event": "content-block-delta", "index": 0, "delta": {"type": "text-delta", "text": text}}))
        return items

    def _finish(self, state: _Message) -> list[StreamItem]:
        state.finished = True
        items: list[StreamItem] = []
        if state.block:
            items.append(_event("messages", state.namespace, {"event": "content-block-finish", "index": 0, "content": {"type": "text", "text": state.text}}))
        items.append(_event("messages", state.namespace, {"event": "message-finish"}))
        return items

    def _finish_messages(self, namespace: list[str]) -> list[StreamItem]:
        """Messages of a task that ended without saying theirs ended."""
        items: list[StreamItem] = []
        for state in self.messages.values():
            if not state.finished and state.namespace[: len(namespace)] == namespace:
                items.extend(self._finish(state))
        return items

    def close(self) -> list[StreamItem]:
        return self._finish_messages([])


async def protocol_items(graph: Any, run_input: Any, config: dict[str, Any], args: dict[str, Any]) -> AsyncIterator[StreamItem]:
    kwargs: dict[str, Any] = {
        "context": args.get("context"),
        "stream_mode": MODES,
        "subgraphs": True,
        "interrupt_before": args.get("interrupt_before"),
        "interrupt_after": args.get("interrupt_after"),
    }
    if args.get("durability"):
        kwargs["durability"] = args["durability"]
    shaper = ProtocolShaper()
    async for namespace, mode, chunk in graph.astream(run_input, config, **kwargs):
        for item in shaper.shape(tuple(namespace), mode, chunk):
            yield item
    for item in shaper.close():
        yield item
