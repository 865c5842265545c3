"""pytest fixtures; the helpers live in _vectors.py and _stores.py."""

import pytest

from _stores import start_server
from _vectors import rows


@pytest.fixture(scope="session")
def codec_rows():
    return rows("sno_codec.tsv")


@pytest.fixture(scope="session")
def pg(request):
    """A throwaway PostgreSQL server for the session (`.url`: postgres://postgres@127.0.0.1:PORT/postgres)."""
    return start_server("pg", request)


@pytest.fixture(scope="session")
def redis(request):
    """A throwaway Redis server for the session."""
    return start_server("redis", request)
