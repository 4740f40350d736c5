"""langgraph.json's `http.app` naming a Python ASGI app (Starlette, FastAPI): the runtime sends it the
requests its routes match (it learns them from `routes()`: each route's path pattern and methods)
and writes back what the app answers."""

from __future__ import annotations

import asyncio
import base64
from typing import Any


def _routes_of(app: Any) -> list[Any]:
    router = getattr(app, "router", None)
    routes = getattr(router, "routes", None) or getattr(app, "routes", None)
    if routes is None:
        raise TypeError("http.app must be a Starlette or FastAPI app (an ASGI app with routes)")
    return list(routes)


class PythonApp:
    def __init__(self, app: Any) -> None:
        if not callable(app):
            raise TypeError("http.app must be an ASGI app")
        self.app = app
        self.route_list = _routes_of(app)

    def routes(self) -> list[dict[str, Any]]:
        """Each route's path pattern (a regular expression) and methods (None: any)."""
        described = []
        for route in self.route_list:
            regex = getattr(route, "path_regex", None)
            if regex is None:
                continue
            methods = getattr(route, "methods", None)
            described.append({"pattern": regex.pattern, "methods": sorted(methods) if methods else None})
        return described

    async def request(self, wire: dict[str, Any]) -> dict[str, Any]:
        body = base64.b64decode(wire.get("body") or "")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": wire["method"],
            "scheme": "http",
            "path": wire["path"],
            "raw_path": wire["path"].encode(),
            "root_path": "",
            "query_string": (wire.get("query") or "").encode(),
            "headers": [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in wire.get("headers", [])],
            "client": (wire.get("client") or "127.0.0.1", 0),
            "server": ("127.0.0.1", 0),
            "state": {},
        }
        sent = False
        done = asyncio.Event()

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        status = 500
        headers: list[list[str]] = []
        chunks: list[bytes] = []

        async def send(message: dict[str, Any]) -> None:
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [[name.decode("latin-1"), value.decode("latin-1")] for name, value in message.get("headers", [])]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    done.set()

        await self.app(scope, receive, send)
        done.set()
        return {"status": status, "headers": headers, "body": base64.b64encode(b"".join(chunks)).decode()}
