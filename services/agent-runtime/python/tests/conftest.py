import os

import pytest


@pytest.fixture
def database_url() -> str:
    """A database the runtime migrated (its checkpoint tables in the `langgraph` schema)."""
    url = os.environ.get("LGP_TEST_DATABASE_URL")
    if not url:
        pytest.skip("LGP_TEST_DATABASE_URL is not set (the runtime's test suite sets it)")
    return url
