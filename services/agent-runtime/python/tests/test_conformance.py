"""The checkpointer Python graphs run with, as the host configures it on the runtime's tables,
against the official conformance suite for Python checkpointers."""

from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.report import ProgressCallbacks

from lgp_host.checkpointer import connection_pool, saver


async def test_the_hosts_checkpointer_passes_the_conformance_suite(database_url):
    pool = connection_pool(database_url, 4)
    await pool.open()

    @checkpointer_test(name="lgp_host checkpointer (AsyncPostgresSaver on the runtime's tables)")
    async def hosts_checkpointer():
        yield saver(pool)

    try:
        report = await validate(hosts_checkpointer, progress=ProgressCallbacks.verbose())
    finally:
        await pool.close()
    report.print_report()
    assert report.passed_all_base()
