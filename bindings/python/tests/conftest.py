"""pytest fixtures; the helpers live in _vectors.py and _stores.py."""

import pytest

from _stores import make_certs_dir, start_server
from _vectors import rows


@pytest.fixture(scope="session")
def codec_rows():
    return rows("sno_codec.tsv")


@pytest.fixture(scope="session")
def certs(request):
    """The folder of the test certificates both servers use: `ca.pem` (the test CA, which signed
    the servers' certificates, valid for `localhost` only) and `wrong-ca.pem` (a CA that signed
    nothing)."""
    return make_certs_dir(request)


@pytest.fixture(scope="session")
def pg(request, certs):
    """A throwaway PostgreSQL server for the session (`.url`: postgres://postgres@127.0.0.1:PORT/postgres),
    TLS on the same port."""
    return start_server("pg", request, certs=certs)


@pytest.fixture(scope="session")
def redis(request, certs):
    """A throwaway Redis server for the session, TLS on `.tls_port`."""
    return start_server("redis", request, certs=certs, tls=True)
