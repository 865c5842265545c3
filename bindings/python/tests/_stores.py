"""Throwaway PostgreSQL and Redis servers for the tests (the lease and database tests), started
by the repository's scripts/store-server on a free loopback port, in a directory under
$SNO_TEST_STORE_ROOT (scripts/test.sh sets it) or the temporary directory, and stopped when the
session ends, even after a failure. A server that cannot start fails the tests that need it
(never a skip). The session fixtures `pg`, `redis` and `certs` are in conftest.py: both servers
take TLS (PostgreSQL on its port, Redis on `.tls_port` too) with the certificates of one folder,
`certs` (`ca.pem`, the test CA that signed both servers' certificates for `localhost`, and
`wrong-ca.pem`, a CA that signed nothing)."""

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
    tls_port: "int | None" = None


def store_server(*args, certs=None):
    env = None
    if certs is not None:
        env = {**os.environ, "SNO_TEST_CERTS": str(certs)}
    return subprocess.run(
        ["bash", str(STORE_SERVER), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


def store_root():
    return os.environ.get("SNO_TEST_STORE_ROOT") or tempfile.gettempdir()


def make_certs_dir(request):
    """An empty folder for the session's certificates (scripts/store-server fills it on the
    first start), removed at the end."""
    path = pathlib.Path(tempfile.mkdtemp(prefix="sno-py-certs-", dir=store_root()))
    request.addfinalizer(lambda: shutil.rmtree(path, ignore_errors=True))
    return path


def start_server(kind, request, certs=None, tls=False):
    """Starts a server; with `certs`, its certificates are that folder's; with `tls` (Redis), it
    takes TLS on a second port too."""
    root = store_root()
    path = pathlib.Path(tempfile.mkdtemp(prefix=f"sno-py-{kind}-", dir=root))

    def stop():
        store_server("stop", kind, path)
        shutil.rmtree(path, ignore_errors=True)

    # Registered before the start, so that a server half started is stopped too.
    request.addfinalizer(stop)
    port = free_port()
    tls_port = None
    if tls and kind == "redis":
        tls_port = free_port()
        while tls_port == port:
            tls_port = free_port()
    ports = [port] if tls_port is None else [port, tls_port]
    done = store_server("start", kind, path, *ports, certs=certs)
    if done.returncode != 0:
        pytest.fail(
            f"scripts/store-server start {kind} failed (exit {done.returncode}; are Debian's "
            f"postgresql and redis-server installed?):\n{done.stderr}",
            pytrace=False,
        )
    return Server(kind, done.stdout.strip(), port, path, tls_port)
