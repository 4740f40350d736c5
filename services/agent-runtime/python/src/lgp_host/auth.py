"""langgraph.json's `auth.path` naming a Python `Auth` (`langgraph_sdk.auth.Auth`): its authenticate
handler turns a request into a user, and its `@auth.on` handlers allow, deny, change or filter each
resource action, called as the official Python server calls them. The runtime asks for each."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from langgraph_sdk.auth import Auth
from langgraph_sdk.auth.exceptions import HTTPException


class _User(dict):
    """A user the runtime passes back, as handlers read it: a dict (what `is_studio_user` looks
    into) whose fields are attributes too, with the BaseUser properties' defaults."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def is_authenticated(self) -> bool:
        return bool(self.get("is_authenticated", True))

    @property
    def display_name(self) -> str:
        return str(self.get("display_name") or self.get("identity", ""))

    @property
    def identity(self) -> str:
        return str(self.get("identity", ""))

    @property
    def permissions(self) -> list[str]:
        return list(self.get("permissions") or [])


def _key(resource: str, action: str) -> str:
    """The runtime's name of a handler: `resource:action`, `resource`, `*:action` or `*`."""
    if resource == "*":
        return "*" if action == "*" else f"*:{action}"
    return resource if action == "*" else f"{resource}:{action}"


def _user_fields(result: Any) -> dict[str, Any]:
    """What authenticate returned (a string, a dict, a user object or `(permissions, user)`), as a dict."""
    permissions: list[str] | None = None
    if isinstance(result, tuple) and len(result) == 2:
        permissions, result = list(result[0]), result[1]
    if isinstance(result, str):
        fields: dict[str, Any] = {"identity": result}
    elif isinstance(result, Mapping):
        fields = dict(result)
    elif hasattr(result, "identity"):
        fields = {key: getattr(result, key) for key in ("identity", "display_name", "is_authenticated", "permissions") if hasattr(result, key)}
        fields.update(getattr(result, "__dict__", {}) or {})
    else:
        raise ValueError("authenticate must return a string identity, or a user with an `identity`")
    if permissions is not None:
        fields["permissions"] = permissions
    return fields


def _http_error(error: HTTPException) -> dict[str, Any]:
    return {"status": error.status_code, "detail": error.detail, "headers": dict(error.headers or {})}


class PythonAuth:
    def __init__(self, auth: Auth) -> None:
        if not isinstance(auth, Auth):
            raise TypeError("auth.path must name an Auth of langgraph_sdk.auth")
        self.auth = auth

    def describe(self) -> dict[str, Any]:
        keys = [_key(resource, action) for resource, action in self.auth._handlers]
        if self.auth._global_handlers:
            keys.append("*")
        return {"authenticate": self.auth._authenticate_handler is not None, "handlers": sorted(set(keys))}

    async def authenticate(self, request: dict[str, Any]) -> dict[str, Any]:
        handler = self.auth._authenticate_handler
        assert handler is not None
        headers = {bytes(name, "latin-1"): bytes(value, "latin-1") for name, value in request.get("headers", [])}
        arguments = {
            "headers": headers,
            "authorization": next((v.decode("latin-1") for k, v in headers.items() if k.lower() == b"authorization"), None),
            "path": request.get("path", "/"),
            "method": request.get("method", "GET"),
            "query_params": dict(parse_qsl(request.get("query", ""), keep_blank_values=True)),
            "path_params": {},
            "scopes": [],
        }
        accepted = inspect.signature(handler).parameters
        try:
            result = handler(**{name: value for name, value in arguments.items() if name in accepted})
            if inspect.isawaitable(result):
                result = await result
        except HTTPException as error:
            return {"error": _http_error(error)}
        return {"user": _user_fields(result)}

    async def authorize(self, request: dict[str, Any]) -> dict[str, Any]:
        resource, action = request["resource"], request["action"]
        handler = self._handler(resource, action)
        if handler is None:
            return {"result": None, "value": request.get("value")}
        user = _User(request.get("user") or {})
        context = Auth.types.AuthContext(
            user=user, permissions=list(request.get("permissions") or []), resource=resource, action=action
        )
        value = request.get("value")
        try:
            result = handler(ctx=context, value=value)
            if inspect.isawaitable(result):
                result = await result
        except HTTPException as error:
            return {"error": _http_error(error)}
        except AssertionError as error:
            return {"error": {"status": 403, "detail": str(error) or "Forbidden", "headers": {}}}
        return {"result": result, "value": value}

    def _handler(self, resource: str, action: str) -> Any:
        for key in ((resource, action), (resource, "*"), ("*", action), ("*", "*")):
            if key in self.auth._handlers:
                return self.auth._handlers[key][-1]
        return self.auth._global_handlers[-1] if self.auth._global_handlers else None
