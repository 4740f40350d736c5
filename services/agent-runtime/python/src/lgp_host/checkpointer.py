"""The checkpointer of Python graphs: the official `langgraph-checkpoint-postgres` saver, unchanged,
on the deployment's own database and the same tables as the JS graphs' (the `langgraph` schema,
which the runtime creates and migrates before it starts this host). Its checkpoints are written in
the Python saver's own format; the runtime's thread endpoints read them through this host."""

from __future__ import annotations

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

SCHEMA = "langgraph"


def connection_pool(conninfo: str, max_size: int) -> AsyncConnectionPool:
    return AsyncConnectionPool(
        conninfo,
        min_size=1,
        max_size=max(1, max_size),
        open=False,
        # What the saver's documentation asks of its connections (autocommit, statements prepared
        # from their first use, rows as dicts), on the schema of the checkpoint tables.
        kwargs={
            "autocommit": True,
            "prepare_threshold": 0,
            "row_factory": dict_row,
            "options": f"-c search_path={SCHEMA}",
        },
    )


def saver(pool: AsyncConnectionPool) -> AsyncPostgresSaver:
    return AsyncPostgresSaver(conn=pool)
