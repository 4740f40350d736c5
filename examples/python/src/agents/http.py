"""Custom routes (langgraph.json `http.app`): a Starlette app, as the official Python server takes
it. Requests its routes match go to it; the others to the runtime's own routes."""

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


async def about(request: Request) -> JSONResponse:
    """What this deployment serves, for a front end's "about" box."""
    return JSONResponse(
        {
            "name": "langgraph-platform Python examples",
            "graphs": ["agent", "approval", "steps", "tools"],
            "memory": "POST /store/items/search with a `query` ranks the store's items by meaning",
        }
    )


async def echo(request: Request) -> JSONResponse:
    """Answers the JSON it was sent, with the graph it names (a path parameter)."""
    return JSONResponse({"graph": request.path_params["graph_id"], "body": await request.json()}, status_code=201)


app = Starlette(
    routes=[
        Route("/examples/about", about, methods=["GET"]),
        Route("/examples/{graph_id}/echo", echo, methods=["POST"]),
    ]
)
