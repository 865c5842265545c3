"""Throwaway PostgreSQL and Redis servers for the tests (the lease and database tests), started
by the repository's scripts/store-server on a free loopback port, in a directory under
$SNO_TEST_STORE_ROOT (scripts/test.sh sets it) or the temporary directory, and stopped when the
session ends, even after a failure. A server that cannot start fails the tests that need it
(never a skip). The session fixtures `pg` and `redis` are in conftest.py."""

import dataclasses
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
STORE_SERVER = REPO / "scripts" / "store-server"


def free_port():
    """A loopback port nothing listens on (bound and released at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclasses.dataclass
class Server:
    kind: str
    url: str
    port: int
    path: pathlib.Path


def store_server(*args):
    return subprocess.run(
        ["bash", str(STORE_SERVER), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=180,
    )


def start_server(kind, request):
    root = os.environ.get("SNO_TEST_STORE_ROOT") or tempfile.gettempdir()
    path = pathlib.Path(tempfile.mkdtemp(prefix=f"sno-py-{kind}-", dir=root))

    def stop():
        store_server("stop", kind, path)
        shutil.rmtree(path, ignore_errors=True)

    # Registered before the start, so that a server half started is stopped too.
    request.addfinalizer(stop)
    port = free_port()
    done = store_server("start", kind, path, port)
    if done.returncode != 0:
        pytest.fail(
            f"scripts/store-server start {kind} failed (exit {done.returncode}; are Debian's "
            f"postgresql and redis-server installed?):\n{done.stderr}",
            pytrace=False,
        )
    return Server(kind, done.stdout.strip(), port, path)
