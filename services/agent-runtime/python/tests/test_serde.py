"""What a Python graph's output looks like on the wire: the official Python server's shapes."""

import uuid
from datetime import timedelta

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.types import Send

from lgp_host.serde import dumps, loads, to_plain


def test_a_message_is_its_model_dump_with_its_type():
    message = AIMessage("echo: hi", id="m1")
    assert to_plain({"messages": [message]}) == {"messages": [message.model_dump()]}
    assert to_plain(message)["type"] == "ai"
    assert to_plain(HumanMessage("hi"))["type"] == "human"


def test_send_exceptions_sets_and_other_values():
    assert to_plain(Send("node", {"x": 1})) == {"node": "node", "args": {"x": 1}}
    assert to_plain(ValueError("boom")) == {"error": "ValueError", "message": "boom"}
    assert sorted(to_plain({1, 2})) == [1, 2]
    assert to_plain(timedelta(seconds=3)) == 3.0
    identifier = uuid.uuid4()
    assert to_plain(identifier) == str(identifier)
    assert to_plain(b"\x00\x01") == "AAE="
    assert to_plain({1: "a"}) == {"1": "a"}


def test_a_lone_surrogate_is_replaced_not_refused():
    text = "cut \ud800 here"
    assert "cut" in loads(dumps({"text": text}))["text"]
