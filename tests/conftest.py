"""Fixtures shared by the test modules: the database every storage test runs against, on both engines."""

from __future__ import annotations

import pytest

from tests.botkit import postgres

ENGINES = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres_server():
    server = postgres.start()
    yield server
    server.stop()


@pytest.fixture(params=ENGINES)
async def database(request, tmp_path):
    """Where a test's store lives: an SQLite file, or a fresh schema on the session's PostgreSQL server (the same
    string opens the same database again, as a restart would)."""
    if request.param == "sqlite":
        return str(tmp_path / "cardtable.db")
    return await postgres.new_schema(request.getfixturevalue("postgres_server"))
