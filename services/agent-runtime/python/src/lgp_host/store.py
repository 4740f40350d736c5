"""The store Python graphs receive: LangGraph's `BaseStore`, each batch answered by the runtime over
the channel, so a deployment's JS and Python graphs and its `/store` endpoints share one store (its
table, semantic index and TTLs)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from langgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from lgp_host.channel import Channel


def _op(op: Op) -> dict[str, Any]:
    if isinstance(op, GetOp):
        return {"op": "get", "namespace": list(op.namespace), "key": op.key, "refresh_ttl": op.refresh_ttl}
    if isinstance(op, PutOp):
        wire: dict[str, Any] = {
            "op": "put",
            "namespace": list(op.namespace),
            "key": op.key,
            "value": op.value,
            "index": op.index,
        }
        if op.ttl is not NOT_PROVIDED:
            wire["ttl"] = op.ttl
        return wire
    if isinstance(op, SearchOp):
        return {
            "op": "search",
            "namespace_prefix": list(op.namespace_prefix),
            "filter": op.filter,
            "limit": op.limit,
            "offset": op.offset,
            "query": op.query,
            "refresh_ttl": op.refresh_ttl,
        }
    if isinstance(op, ListNamespacesOp):
        conditions = {c.match_type: list(c.path) for c in op.match_conditions or ()}
        return {
            "op": "list",
            "prefix": conditions.get("prefix"),
            "suffix": conditions.get("suffix"),
            "max_depth": op.max_depth,
            "limit": op.limit,
            "offset": op.offset,
        }
    raise TypeError(f"unknown store operation {type(op).__name__}")


def _fields(wire: dict[str, Any]) -> dict[str, Any]:
    return {
        "namespace": tuple(wire["namespace"]),
        "key": wire["key"],
        "value": wire["value"],
        "created_at": wire["created_at"],
        "updated_at": wire["updated_at"],
    }


def _item(wire: dict[str, Any] | None) -> Item | None:
    return None if wire is None else Item(**_fields(wire))


def _search_item(wire: dict[str, Any]) -> SearchItem:
    return SearchItem(**_fields(wire), score=wire.get("score"))


class RuntimeStore(BaseStore):
    supports_ttl = True

    def __init__(self, channel: Channel, loop: asyncio.AbstractEventLoop) -> None:
        self._channel = channel
        self._loop = loop

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        answers = await self._channel.call("store", {"ops": [_op(op) for op in ops]})
        results: list[Result] = []
        for op, answer in zip(ops, answers, strict=True):
            if isinstance(op, GetOp):
                results.append(_item(answer))
            elif isinstance(op, SearchOp):
                results.append([_search_item(item) for item in answer])
            elif isinstance(op, ListNamespacesOp):
                results.append([tuple(namespace) for namespace in answer])
            else:
                results.append(None)
        return results

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        # A sync node runs on a worker thread: the batch goes through the host's event loop.
        if self._loop.is_running() and _on_loop_thread(self._loop):
            raise RuntimeError("the store's sync methods cannot be called from async code: use the a- methods")
        return asyncio.run_coroutine_threadsafe(self.abatch(ops), self._loop).result()


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
