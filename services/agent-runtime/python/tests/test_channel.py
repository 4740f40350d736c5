"""The channel's frames, calls, streams, credit and cancels, over a real socket pair."""

import asyncio
import socket
import struct

import pytest

from lgp_host.channel import STREAM_WINDOW, Channel, RemoteError
from lgp_host.serde import dumps, loads


class Peer:
    """The runtime's end of the channel, as raw frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    def send(self, header: dict, payload=None) -> None:
        head = dumps(header)
        body = b"" if payload is None else dumps(payload)
        self.writer.write(struct.pack(">II", 4 + len(head) + len(body), len(head)) + head + body)

    async def receive(self) -> tuple[dict, bytes]:
        size, head_size = struct.unpack(">II", await self.reader.readexactly(8))
        frame = await self.reader.readexactly(size - 4)
        return loads(frame[:head_size]), frame[head_size:]


@pytest.fixture
async def pair():
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    channel = Channel(reader, writer)
    peer = Peer(*await asyncio.open_unix_connection(sock=theirs))
    serving = asyncio.ensure_future(channel.serve())
    yield channel, peer
    peer.writer.close()
    await asyncio.wait_for(serving, 5)


async def test_a_call_is_answered_with_its_result_or_its_error(pair):
    channel, peer = pair

    async def add(args):
        if args["b"] == 0:
            raise ValueError("b is zero")
        return args["a"] + args["b"]

    channel.on_call("add", add)
    peer.send({"t": "call", "id": 1, "op": "add"}, {"a": 2, "b": 3})
    header, payload = await peer.receive()
    assert header == {"t": "reply", "id": 1} and loads(payload) == 5
    peer.send({"t": "call", "id": 2, "op": "add"}, {"a": 2, "b": 0})
    header, _ = await peer.receive()
    assert header == {"t": "reply", "id": 2, "error": {"name": "ValueError", "message": "b is zero"}}
    peer.send({"t": "call", "id": 3, "op": "nothing"}, {})
    header, _ = await peer.receive()
    assert header["error"]["name"] == "ValueError" and "unknown call" in header["error"]["message"]


async def test_a_stream_sends_a_window_of_items_then_waits_for_credit(pair):
    channel, peer = pair

    async def count(args):
        for i in range(args["n"]):
            yield {"e": "n"}, dumps(i)

    channel.on_stream("count", count)
    total = STREAM_WINDOW + 10
    peer.send({"t": "stream", "id": 7, "op": "count"}, {"n": total})
    seen = []
    for _ in range(STREAM_WINDOW):
        header, payload = await peer.receive()
        assert header == {"t": "item", "id": 7, "e": "n"}
        seen.append(loads(payload))
    # Nothing more until the runtime grants it.
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(peer.receive(), 0.2)
    peer.send({"t": "credit", "id": 7, "n": 64})
    for _ in range(10):
        _, payload = await peer.receive()
        seen.append(loads(payload))
    header, _ = await peer.receive()
    assert header == {"t": "end", "id": 7}
    assert seen == list(range(total))


async def test_a_cancel_stops_the_stream_where_it_is(pair):
    channel, peer = pair
    stopped = asyncio.Event()

    async def forever(args):
        try:
            while True:
                yield {"e": "tick"}, None
                await asyncio.sleep(0.01)
        finally:
            stopped.set()

    channel.on_stream("forever", forever)
    peer.send({"t": "stream", "id": 9, "op": "forever"}, {})
    await peer.receive()
    peer.send({"t": "cancel", "id": 9})
    while True:
        header, _ = await peer.receive()
        if header["t"] == "reply":
            break
    assert header["error"]["name"] == "CancelledError"
    await asyncio.wait_for(stopped.wait(), 2)


async def test_our_calls_get_the_runtimes_answer(pair):
    channel, peer = pair
    asked = asyncio.ensure_future(channel.call("store", {"ops": []}))
    header, payload = await peer.receive()
    assert header["t"] == "call" and header["op"] == "store" and loads(payload) == {"ops": []}
    peer.send({"t": "reply", "id": header["id"]}, [1, 2])
    assert await asked == [1, 2]
    failing = asyncio.ensure_future(channel.call("store", {}))
    header, _ = await peer.receive()
    peer.send({"t": "reply", "id": header["id"], "error": {"name": "StoreError", "message": "no"}})
    with pytest.raises(RemoteError, match="no"):
        await failing
