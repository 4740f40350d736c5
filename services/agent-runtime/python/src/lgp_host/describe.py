"""What `/assistants/{id}/graph`, `/schemas` and `/subgraphs` show of a Python graph: its drawing
and the JSON Schemas LangGraph derives from it, with the fields the official Python server gives
(input, output, state, the `configurable` part of the config, context)."""

from __future__ import annotations

import logging
from typing import Any

from langgraph.pregel import Pregel
from langchain_core.runnables.utils import create_model
from pydantic import TypeAdapter

logger = logging.getLogger("lgp_host.describe")

# Configurable keys the server sets itself: not part of what an assistant configures.
_SERVER_KEYS = ("__pregel_checkpointer", "__pregel_store", "checkpoint_id", "checkpoint_ns", "thread_id")


async def drawing(graph: Pregel, config: dict[str, Any], xray: bool | int) -> dict[str, Any]:
    drawable = await graph.aget_graph(config, xray=xray)
    json_graph = drawable.to_json()
    # The official server leaves out each node's class path.
    for node in json_graph.get("nodes", []):
        if isinstance(node.get("data"), dict):
            node["data"].pop("id", None)
    return json_graph


def _configurable_schema(graph: Pregel) -> dict[str, Any]:
    config_model = graph.config_schema()  # type: ignore[deprecated]
    fields = getattr(config_model, "model_fields", None) or {}
    if "configurable" not in fields:
        return {}
    schema = TypeAdapter(fields["configurable"].annotation).json_schema()
    for key in _SERVER_KEYS:
        schema.get("properties", {}).pop(key, None)
    config_type = getattr(graph, "config_type", None)
    if config_type is not None and hasattr(config_type, "__name__"):
        schema["title"] = config_type.__name__
    return schema


def _state_schema(graph: Pregel) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for name in graph.stream_channels_list:
        update_type = graph.channels[name].UpdateType
        try:
            create_model(name, __root__=(update_type, None)).model_json_schema()
            fields[name] = (update_type, None)
        except Exception:  # noqa: BLE001 - a type pydantic cannot describe is "any"
            fields[name] = (Any, None)
    return create_model(graph.get_name("State"), **fields).model_json_schema()


def _attempt(graph: Pregel, part: str, make: Any) -> Any:
    try:
        return make()
    except Exception as error:  # noqa: BLE001 - one part that fails leaves the others
        logger.warning("cannot describe the %s schema of graph %s: %s", part, graph.name, error)
        return None


def schemas(graph: Pregel) -> dict[str, Any]:
    context = _attempt(graph, "context", graph.get_context_jsonschema)
    return {
        "input": _attempt(graph, "input", graph.get_input_jsonschema),
        "output": _attempt(graph, "output", graph.get_output_jsonschema),
        "state": _attempt(graph, "state", lambda: _state_schema(graph)),
        "config": _attempt(graph, "config", lambda: _configurable_schema(graph)),
        "context": context,
    }


async def subgraph_schemas(graph: Pregel, namespace: str | None, recurse: bool) -> dict[str, Any]:
    return {ns: schemas(subgraph) async for ns, subgraph in graph.aget_subgraphs(namespace=namespace, recurse=recurse)}
