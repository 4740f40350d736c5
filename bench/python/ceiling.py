"""The Python ceiling of bench/python.bench.ts: the Python echo agent (examples/python) run in this
one process with the official Python PostgreSQL checkpointer, no HTTP, CLIENTS runs at a time over
THREADS threads. It warms up, says `ready`, waits for a line on stdin (the bench starts its CPU
meter then), runs RUNS runs and prints `result {...}`: runs/s and each run's times."""

import asyncio
import json
import os
import sys
import time
import uuid

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from agents.agent import graph

RUNS = int(os.environ.get("BENCH_RUNS", "1000"))
THREADS = int(os.environ.get("BENCH_THREADS", "100"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "20"))
WARMUP = min(100, RUNS)
SCHEMA = "bench_python_ceiling"


async def drive(total: int, compiled, threads: list[str]) -> tuple[list[dict], float, int]:
    samples: list[dict] = []
    failures = 0
    next_index = 0
    started = time.perf_counter()

    async def loop() -> None:
        nonlocal next_index, failures
        while next_index < total:
            index = next_index
            next_index += 1
            run_started = time.perf_counter()
            first = None
            try:
                async for _chunk in compiled.astream(
                    {"messages": [{"role": "user", "content": f"hello {index}"}]},
                    {"configurable": {"thread_id": threads[index % len(threads)]}},
                    stream_mode=["updates"],
                ):
                    if first is None:
                        first = (time.perf_counter() - run_started) * 1000
            except Exception as error:  # noqa: BLE001 - counted, as the bench counts failures
                failures += 1
                print(f"run {index} failed: {error}", file=sys.stderr)
                continue
            samples.append({"firstEventMs": first, "endMs": (time.perf_counter() - run_started) * 1000})

    await asyncio.gather(*(loop() for _ in range(CLIENTS)))
    return samples, (time.perf_counter() - started) * 1000, failures


async def main() -> None:
    conninfo = os.environ["BENCH_CEILING_DATABASE_URL"]
    async with AsyncConnectionPool(conninfo, min_size=1, max_size=20, open=False, kwargs={
        "autocommit": True, "prepare_threshold": 0, "row_factory": dict_row, "options": f"-c search_path={SCHEMA}",
    }) as pool:
        async with pool.connection() as conn:
            await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
        saver = AsyncPostgresSaver(conn=pool)
        await saver.setup()
        compiled = graph.copy(update={"checkpointer": saver})
        threads = [str(uuid.uuid4()) for _ in range(THREADS)]
        await drive(WARMUP, compiled, threads)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        samples, elapsed, failures = await drive(RUNS, compiled, threads)
        print("result " + json.dumps({"samples": samples, "elapsedMs": elapsed, "failures": failures}), flush=True)


asyncio.run(main())
