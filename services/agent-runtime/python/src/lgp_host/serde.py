"""JSON for the channel and the wire: what a graph puts in its state or streams, in the shapes the
official Python server answers (a pydantic model, LangChain's messages included, as its
`model_dump()`; a `Send` as `{node, args}`; an exception as `{error, message}`; a set as a list;
bytes as base64), so a client sees a Python graph's output here as it would there."""

from __future__ import annotations

import dataclasses
import enum
import uuid
from base64 import b64encode
from collections import deque
from datetime import timedelta, timezone
from decimal import Decimal
from pathlib import PurePath
from typing import Any

import orjson
from langgraph.types import Send

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY


def _default(value: Any) -> Any:
    """The JSON form of what orjson does not write by itself (None: not serialisable, written as null)."""
    if isinstance(value, Send):
        return {"node": value.node, "args": value.arg}
    if isinstance(value, type):
        return None
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump()
    legacy = getattr(value, "dict", None)
    if callable(legacy) and not isinstance(value, dict):
        return legacy()
    as_dict = getattr(value, "_asdict", None)
    if callable(as_dict):
        return as_dict()
    if dataclasses.is_dataclass(value):
        return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    if isinstance(value, BaseException):
        return {"error": type(value).__name__, "message": str(value)}
    if isinstance(value, (set, frozenset, deque, tuple)):
        return list(value)
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, timezone):
        return value.tzname(None)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (uuid.UUID, PurePath)):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (bytes, bytearray)):
        return b64encode(value).decode()
    return None


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value, default=_default, option=_OPTIONS)
    except TypeError as error:
        # A lone surrogate in a string (text cut in the middle of a character) cannot be UTF-8.
        if "surrogates" not in str(error):
            raise
        return orjson.dumps(_without_surrogates(value), default=_default, option=_OPTIONS)


def loads(data: bytes) -> Any:
    return orjson.loads(data)


def to_plain(value: Any) -> Any:
    """The value as plain JSON data (dicts, lists, strings, numbers), as the wire would carry it."""
    return orjson.loads(dumps(value))


def _without_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_without_surrogates(item) for item in value]
    return value
