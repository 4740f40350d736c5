"""A graph's `print` and `logging` output, sent to the runtime's log with the ids of the run that
wrote it (a context variable set for each run's task, which LangGraph copies into the threads
that run sync nodes)."""

from __future__ import annotations

import contextvars
import io
import logging
import sys
import threading
from typing import Any

from lgp_host.channel import Channel

# The ids of the run being executed: run_id, thread_id, graph_id, assistant_id.
run_ids: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("lgp_run_ids", default=None)

_LEVELS = {
    logging.DEBUG: "debug",
    logging.INFO: "info",
    logging.WARNING: "warn",
    logging.ERROR: "error",
    logging.CRITICAL: "fatal",
}


class _Sink:
    """Where log records go: the channel (from any thread, through the host's event loop)."""

    def __init__(self, channel: Channel, loop: Any) -> None:
        self.channel = channel
        self.loop = loop
        self.loop_thread = threading.get_ident()

    def emit(self, level: str, message: str, source: str, extra: dict[str, Any] | None = None) -> None:
        record = {"t": "log", "level": level, "msg": message, "source": source, "ids": run_ids.get()}
        if extra:
            record["fields"] = extra
        if threading.get_ident() == self.loop_thread:
            self.channel.send(record)
        else:
            self.loop.call_soon_threadsafe(self.channel.send, record)


class _LineWriter(io.TextIOBase):
    """A text stream whose complete lines each become a log record (print, sys.stderr.write)."""

    def __init__(self, sink: _Sink, level: str, source: str) -> None:
        self._sink = sink
        self._level = level
        self._source = source
        self._partial = threading.local()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        buffered = getattr(self._partial, "text", "") + text
        *lines, rest = buffered.split("\n")
        self._partial.text = rest
        for line in lines:
            if line.strip():
                self._sink.emit(self._level, line, self._source)
        return len(text)

    def flush(self) -> None:
        rest = getattr(self._partial, "text", "")
        if rest.strip():
            self._partial.text = ""
            self._sink.emit(self._level, rest, self._source)


class _Handler(logging.Handler):
    def __init__(self, sink: _Sink) -> None:
        super().__init__()
        self._sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info:
                message = f"{message}\n{logging.Formatter().formatException(record.exc_info)}"
            level = _LEVELS.get(record.levelno, "info")
            self._sink.emit(level, message, "python", {"logger": record.name})
        except Exception:  # noqa: BLE001 - logging must never fail the graph
            self.handleError(record)


def capture(channel: Channel, loop: Any, level: str) -> None:
    """Sends print output (INFO), stderr (ERROR) and logging records to the runtime."""
    sink = _Sink(channel, loop)
    sys.stdout = _LineWriter(sink, "info", "stdout")
    sys.stderr = _LineWriter(sink, "error", "stderr")
    root = logging.getLogger()
    root.handlers[:] = [_Handler(sink)]
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    # Libraries that log every request at INFO (the HTTP clients) stay at WARNING, as on the official server.
    for noisy in ("httpx", "httpcore", "psycopg.pool"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
