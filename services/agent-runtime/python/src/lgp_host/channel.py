"""The local channel to the agent runtime: length-prefixed JSON frames over a socket the runtime
handed over as file descriptor 3.

A frame is a 4-byte big-endian length, then a 4-byte length of its header, the header (a JSON
object with a type `t`) and a payload: JSON the runtime may pass on without reading it (an event's
data goes to the client's stream as it is), or nothing.
- from the runtime: `call` (one answer), `stream` (items, then an end), `cancel` (of a call or
  stream), `credit` (more items a stream may send), `reply` (to a call of ours);
- to the runtime: `ready`, `reply`, `item`, `end`, `call` (the store, embeddings), `log`.
A call's arguments and a reply's result are the payload. Handlers run as asyncio tasks, so a slow
one never holds the others up.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from lgp_host.serde import dumps, loads

HEADER = struct.Struct(">II")
# A frame larger than this is refused (a state of 256 MiB is not one a graph should stream).
MAX_FRAME = 256 * 1024 * 1024
# Items a stream sends before the runtime grants more (it grants as it consumes).
STREAM_WINDOW = 128

CallHandler = Callable[[dict[str, Any]], Awaitable[Any]]
# A stream's items: the fields of the item's header and its payload (JSON bytes, or None).
StreamItem = tuple[dict[str, Any], bytes | None]
StreamHandler = Callable[[dict[str, Any]], AsyncIterator[StreamItem]]


class RemoteError(Exception):
    """An error the runtime answered to one of our calls."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def error_of(exc: BaseException) -> dict[str, str]:
    """How an exception travels: its class name and message, as the run's error event tells it."""
    return {"name": type(exc).__name__, "message": str(exc)}


class _Credit:
    """A stream's right to send: STREAM_WINDOW items, more as the runtime grants them."""

    def __init__(self) -> None:
        self.available = STREAM_WINDOW
        self.event = asyncio.Event()
        self.event.set()

    def grant(self, n: int) -> None:
        self.available += n
        self.event.set()

    async def take(self) -> None:
        while self.available <= 0:
            self.event.clear()
            await self.event.wait()
        self.available -= 1


class Channel:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._calls: dict[str, CallHandler] = {}
        self._streams: dict[str, StreamHandler] = {}
        self._tasks: dict[int, asyncio.Task[Any]] = {}
        self._credits: dict[int, _Credit] = {}
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._closed = asyncio.Event()

    @classmethod
    async def from_fd(cls, fd: int) -> Channel:
        sock = socket.socket(fileno=fd)
        sock.setblocking(False)
        reader, writer = await asyncio.open_unix_connection(sock=sock, limit=MAX_FRAME)
        return cls(reader, writer)

    def on_call(self, op: str, handler: CallHandler) -> None:
        self._calls[op] = handler

    def on_stream(self, op: str, handler: StreamHandler) -> None:
        self._streams[op] = handler

    def send(self, header: dict[str, Any], payload: bytes | None = None) -> None:
        """Writes a frame (buffered by the transport; a closed channel drops it)."""
        if self._writer.is_closing():
            return
        head = dumps(header)
        body = payload or b""
        self._writer.write(HEADER.pack(4 + len(head) + len(body), len(head)) + head + body)

    async def call(self, op: str, args: dict[str, Any]) -> Any:
        """Asks the runtime and waits for its answer."""
        call_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = future
        try:
            self.send({"t": "call", "id": call_id, "op": op}, dumps(args))
            return await future
        finally:
            self._pending.pop(call_id, None)

    async def serve(self) -> None:
        """Reads frames until the runtime closes the channel, then cancels what is under way."""
        try:
            while True:
                try:
                    sizes = await self._reader.readexactly(HEADER.size)
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                size, head_size = HEADER.unpack(sizes)
                if size > MAX_FRAME:
                    raise ValueError(f"frame of {size} bytes is over the limit")
                frame = await self._reader.readexactly(size - 4)
                header = loads(frame[:head_size])
                payload = frame[head_size:]
                self._dispatch(header, loads(payload) if payload else None)
        finally:
            self._closed.set()
            for task in list(self._tasks.values()):
                task.cancel()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("the runtime closed the channel"))

    def _dispatch(self, message: dict[str, Any], payload: Any) -> None:
        kind = message.get("t")
        if kind == "reply":
            future = self._pending.get(message["id"])
            if future is None or future.done():
                return
            if "error" in message:
                error = message["error"]
                future.set_exception(RemoteError(error.get("name", "Error"), error.get("message", "")))
            else:
                future.set_result(payload)
        elif kind == "call":
            self._start(message["id"], self._answer(message, payload))
        elif kind == "stream":
            self._credits[message["id"]] = _Credit()
            self._start(message["id"], self._pump(message, payload))
        elif kind == "credit":
            credit = self._credits.get(message["id"])
            if credit is not None:
                credit.grant(int(message.get("n", STREAM_WINDOW)))
        elif kind == "cancel":
            task = self._tasks.get(message["id"])
            if task is not None:
                task.cancel()

    def _start(self, request_id: int, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks[request_id] = task

        def done(_: asyncio.Task[None]) -> None:
            self._tasks.pop(request_id, None)
            self._credits.pop(request_id, None)

        task.add_done_callback(done)

    async def _answer(self, message: dict[str, Any], args: Any) -> None:
        async def work() -> tuple[dict[str, Any], bytes | None]:
            handler = self._calls.get(message["op"])
            if handler is None:
                raise ValueError(f"unknown call {message['op']!r}")
            return {"t": "reply", "id": message["id"]}, dumps(await handler(args or {}))

        await self._replying(message["id"], work)

    async def _pump(self, message: dict[str, Any], args: Any) -> None:
        request_id = message["id"]
        credit = self._credits[request_id]

        async def work() -> tuple[dict[str, Any], bytes | None]:
            handler = self._streams.get(message["op"])
            if handler is None:
                raise ValueError(f"unknown stream {message['op']!r}")
            async for fields, payload in handler(args or {}):
                await credit.take()
                self.send({"t": "item", "id": request_id, **fields}, payload)
            return {"t": "end", "id": request_id}, None

        await self._replying(request_id, work)

    async def _replying(self, request_id: int, work: Callable[[], Awaitable[tuple[dict[str, Any], bytes | None]]]) -> None:
        """Sends what `work` answers, or the error it failed with (a cancel's too, then re-raised)."""
        try:
            header, payload = await work()
        except asyncio.CancelledError:
            self.send({"t": "reply", "id": request_id, "error": {"name": "CancelledError", "message": "cancelled"}})
            raise
        except Exception as exc:  # noqa: BLE001 - every failure is the caller's answer
            self.send({"t": "reply", "id": request_id, "error": error_of(exc)})
        else:
            self.send(header, payload)

    async def drain(self) -> None:
        await self._writer.drain()

    async def closed(self) -> None:
        await self._closed.wait()
