"""A thread's state as the runtime reads it: LangGraph's `StateSnapshot` with the field names of
LangGraph JS's (the runtime turns either into the API's ThreadState), and the updates and commands
that come from the API turned back into LangGraph's types."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.types import Command, Interrupt, Send, StateSnapshot, StateUpdate


def interrupt_wire(interrupt: Any) -> Any:
    if isinstance(interrupt, Interrupt):
        return {"value": interrupt.value, "id": interrupt.id}
    return interrupt


def snapshot_wire(snapshot: StateSnapshot) -> dict[str, Any]:
    tasks = []
    for task in snapshot.tasks:
        state = task.state
        tasks.append(
            {
                "id": task.id,
                "name": task.name,
                "path": list(task.path),
                "error": task.error,
                "interrupts": [interrupt_wire(i) for i in task.interrupts],
                "state": snapshot_wire(state) if isinstance(state, StateSnapshot) else state,
                "result": getattr(task, "result", None),
            }
        )
    metadata = snapshot.metadata
    thread_id = ((snapshot.config or {}).get("configurable") or {}).get("thread_id")
    if metadata is not None and thread_id and "thread_id" not in metadata:
        # The saver keeps no thread id in a checkpoint's metadata; the official server shows it there.
        metadata = {**metadata, "thread_id": thread_id}
    return {
        "values": snapshot.values,
        "next": list(snapshot.next),
        "config": snapshot.config,
        "metadata": metadata,
        "createdAt": snapshot.created_at,
        "parentConfig": snapshot.parent_config,
        "tasks": tasks,
    }


def _send(value: Any) -> Any:
    if isinstance(value, dict) and "node" in value:
        return Send(value["node"], value.get("input", value.get("args")))
    return value


def command_of(wire: dict[str, Any]) -> Command:
    """The API's `command` ({resume, update, goto}) as LangGraph's Command, as the official server maps it."""
    goto = wire.get("goto")
    if isinstance(goto, list):
        goto = [_send(item) for item in goto]
    elif goto is not None:
        goto = _send(goto)
    update = wire.get("update")
    if isinstance(update, list):
        # [[key, value], ...] pairs, as some clients send them.
        update = [tuple(pair) if isinstance(pair, list) else pair for pair in update]
    kwargs: dict[str, Any] = {}
    if "resume" in wire and wire["resume"] is not None:
        kwargs["resume"] = wire["resume"]
    if update is not None:
        kwargs["update"] = update
    if goto is not None:
        kwargs["goto"] = goto
    return Command(**kwargs)


def supersteps_of(wire: Sequence[dict[str, Any]]) -> list[list[StateUpdate]]:
    """`{updates: [{values, as_node, command?}]}` per superstep, as LangGraph's StateUpdates."""
    return [
        [
            StateUpdate(
                command_of(update["command"]) if update.get("command") else update.get("values"),
                update.get("as_node"),
                update.get("task_id"),
            )
            for update in step.get("updates", [])
        ]
        for step in wire
    ]
