"""Calls of the official Python client (`langgraph-sdk`) against a live runtime.

Usage: python3 sdk_calls.py <runtime url>. Prints one JSON object: each check's name with "ok" or
what went wrong. Each check runs even when another failed, so one run reports them all.
"""

import json
import sys

from langgraph_sdk import get_sync_client

client = get_sync_client(url=sys.argv[1], api_key=None, timeout=20)
results = {}


def check(name):
    def run(fn):
        try:
            fn()
            results[name] = "ok"
        except Exception as error:  # noqa: BLE001 - every failure is reported, none stops the rest
            results[name] = f"{type(error).__name__}: {error}"[:500]

    return run


def human(text):
    return {"messages": [{"type": "human", "content": text}]}


def contents(values):
    return [message["content"] for message in values["messages"]]


@check("assistants.search")
def _():
    found = client.assistants.search(graph_id="agent")
    assert [assistant["graph_id"] for assistant in found] == ["agent"], found


@check("assistants.get_subgraphs")
def _():
    assistant = client.assistants.search(graph_id="agent")[0]
    assert client.assistants.get_subgraphs(assistant["assistant_id"]) == {}
    assert client.assistants.get_subgraphs(assistant["assistant_id"], recurse=True) == {}


@check("threads.create with supersteps")
def _():
    # The client sends "command": null beside each update's values.
    thread = client.threads.create(
        graph_id="agent",
        supersteps=[
            {
                "updates": [
                    {
                        "values": {
                            "messages": [
                                {"type": "human", "content": "copied"},
                                {"type": "ai", "content": "echo: copied"},
                            ]
                        },
                        "as_node": "agent",
                    }
                ]
            }
        ],
    )
    state = client.threads.get_state(thread["thread_id"])
    assert contents(state["values"]) == ["copied", "echo: copied"], state["values"]


@check("runs.stream")
def _():
    thread = client.threads.create()
    parts = list(client.runs.stream(thread["thread_id"], "agent", input=human("hi"), stream_mode="values"))
    assert parts[0].event == "metadata", parts[0]
    assert contents(parts[-1].data)[-1] == "echo: hi", parts[-1]


@check("runs.wait")
def _():
    thread = client.threads.create()
    values = client.runs.wait(thread["thread_id"], "agent", input=human("again"))
    assert contents(values) == ["again", "echo: again"], values


@check("runs.join_stream without stream_mode")
def _():
    # The client sends `stream_mode=` (empty) when none is given.
    thread = client.threads.create()
    run = client.runs.create(thread["thread_id"], "steps", input={}, context={"delay_ms": 150})
    parts = list(client.runs.join_stream(thread["thread_id"], run["run_id"]))
    values = [part.data for part in parts if part.event == "values"]
    assert values and values[-1]["count"] == 3, parts


@check("threads.join_stream")
def _():
    thread = client.threads.create()
    client.runs.create(thread["thread_id"], "steps", input={}, context={"delay_ms": 150})
    # A thread's stream stays open for later runs: stop at the run's final values.
    for part in client.threads.join_stream(thread["thread_id"]):
        if part.event == "values" and part.data.get("count") == 3:
            break
    else:
        raise AssertionError("the thread stream ended before the run's final values")


print(json.dumps(results))
