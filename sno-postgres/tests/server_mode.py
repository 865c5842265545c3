#!/usr/bin/env python3
"""Server mode at scale (issue #43): a PostgreSQL server with shared_preload_libraries = 'sno' and
max_connections = 220 leases one partition, over one connection held by its background worker,
from a lease store (a second throwaway PostgreSQL), while an application process leases from the
same store and namespace with SNO_LEASE_URL. 200 sessions call sno_new() 5 000 times each.

  - steady, then disturbed: one backend terminated mid-INSERT (pg_terminate_backend: its client
    reconnects and goes on), the worker terminated (SIGTERM: it releases, the postmaster starts it
    again), the lease store paused for 3 s (SIGSTOP, SIGCONT);
  - then the worker killed (SIGKILL: the postmaster restarts the whole server, as after any crash
    of a process that touches shared memory; the clients reconnect and go on).

Checked: no sno_new() fails (the terminated backend's session and the sessions the crash ended
reconnect; nothing else may fail); no ID repeats among the server's and the application's; the
server minted on at most 2 partitions (its lease, and after the worker's restart maybe another), never
the application's; the server holds at most 2 connections to the store at any time (the worker's;
2 while a restarted worker's new connection overlaps the old one's close); no backend runs a
thread; sno_lease_status() is readable by pg_monitor and refused to a plain role; the server log
holds no password of the store's URL.

usage: server_mode.py   (env: SNO_PG_BINDIR as for run.py; needs the Python package `sno` and
                         psycopg; the extension installed into that server)
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg
import sno

REPO = Path(__file__).resolve().parents[2]
STORE_SERVER = REPO / "scripts" / "store-server"

SESSIONS = 200
PER_SESSION = 5_000
BATCH = 100
# Between two batches of a session: its 5 000 IDs take about 13 s, through every disturbance.
PAUSE = 0.25
NAMESPACE = "server-mode"
TTL = 6

APP = """
import sys, time, sno
end = time.monotonic() + float(sys.argv[1])
ids = []
while time.monotonic() < end:
    ids.extend(str(sno.new()) for _ in range(200))
    time.sleep(0.01)
sno.release_process_lease()
print("\\n".join(ids))
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def store_server(*args):
    return subprocess.run(["bash", str(STORE_SERVER), *map(str, args)], check=True, capture_output=True, text=True).stdout.strip()


def worker_pid(conn):
    return conn.execute("SELECT worker_pid FROM sno_lease_status()").fetchone()[0]


def wait_for(what, condition, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not {what} after {seconds} s"
        time.sleep(0.05)


def connect(dsn):
    """A connection, retried while the server restarts after a crash."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return psycopg.connect(dsn, autocommit=True)
        except psycopg.OperationalError:
            assert time.monotonic() < deadline, "the server does not accept connections again"
            time.sleep(0.1)


class Fleet:
    """200 sessions minting in batches; each keeps its IDs, and counts failures that are not a
    connection ended under it."""

    def __init__(self, dsn):
        self.dsn = dsn
        self.ids = [[] for _ in range(SESSIONS)]
        self.pids = [None] * SESSIONS
        self.running = [True] * SESSIONS
        self.failures = []
        self.reconnects = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.session, args=(k,)) for k in range(SESSIONS)]

    def session(self, k):
        try:
            self.mint(k)
        finally:
            self.running[k] = False

    def mint(self, k):
        done = 0
        while done < PER_SESSION:
            try:
                with connect(self.dsn) as c:
                    self.pids[k] = c.execute("SELECT pg_backend_pid()").fetchone()[0]
                    while done < PER_SESSION:
                        rows = c.execute("SELECT sno_new()::text FROM generate_series(1, %s)", (BATCH,)).fetchall()
                        self.ids[k].extend(r[0] for r in rows)
                        done += BATCH
                        time.sleep(PAUSE)
            except psycopg.Error as e:
                if e.sqlstate is None or e.sqlstate.startswith(("08", "57P")):
                    # The connection ended under the session (its backend terminated, or the
                    # server restarting after a crash): the batch never returned; reconnect.
                    with self.lock:
                        self.reconnects += 1
                    continue
                self.failures.append(f"{e.sqlstate}: {e}")
                return

    def start(self):
        for t in self.threads:
            t.start()

    def join(self):
        for t in self.threads:
            t.join(timeout=300)
            assert not t.is_alive(), "a session hangs"


def lease_connections(store):
    """The lease connections the store holds, by client port (the server's worker and the
    application)."""
    with psycopg.connect(store, autocommit=True) as c:
        return c.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'sno-lease'").fetchone()[0]


def threads_of(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except FileNotFoundError:
        return None


def run_round(dsn, store_url, store_dsn, server_dir, store_dir, app_env, crash):
    fleet = Fleet(dsn)
    app = subprocess.Popen([sys.executable, "-c", APP, "20"], env=app_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    fleet.start()
    most_connections = 0
    with connect(dsn) as admin:
        wait_for("minting", lambda: sum(map(len, fleet.ids)) > SESSIONS * BATCH)
        if not crash:
            # A backend terminated mid-INSERT.
            victim = next(p for k, p in enumerate(fleet.pids) if p and fleet.running[k])
            assert admin.execute("SELECT pg_terminate_backend(%s)", (victim,)).fetchone()[0]
            time.sleep(1)
            # The worker terminated: it releases; the postmaster starts it again.
            old = worker_pid(admin)
            os.kill(old, signal.SIGTERM)
            wait_for("a new worker", lambda: worker_pid(admin) not in (None, old))
            time.sleep(1)
            # The lease store paused for 3 s.
            store_server("pause", "pg", store_dir)
            time.sleep(3)
            store_server("resume", "pg", store_dir)
        else:
            os.kill(worker_pid(admin), signal.SIGKILL)
    while any(t.is_alive() for t in fleet.threads):
        most_connections = max(most_connections, lease_connections(store_dsn))
        for pid in [p for p in fleet.pids if p][:20]:
            n = threads_of(pid)
            assert n in (None, 1), f"backend {pid} runs {n} threads"
        time.sleep(0.2)
    fleet.join()
    out, err = app.communicate(timeout=120)
    assert app.returncode == 0, err
    app_ids = out.split()
    assert fleet.failures == [], fleet.failures[:5]
    server_ids = [i for ids in fleet.ids for i in ids]
    assert len(server_ids) == SESSIONS * PER_SESSION, len(server_ids)
    every = server_ids + app_ids
    assert len(set(every)) == len(every), f"{len(every) - len(set(every))} duplicates"
    partitions = {sno.ID(i).partition for i in server_ids}
    app_partitions = {sno.ID(i).partition for i in app_ids}
    assert 1 <= len(partitions) <= 2, partitions
    assert not partitions & app_partitions, (partitions, app_partitions)
    # The worker's connection, and the application's; 2 for the worker while a restarted
    # worker's new connection overlaps its predecessor's.
    assert most_connections <= 3, most_connections
    what = "a worker killed (crash restart)" if crash else "a backend and the worker terminated, the store paused 3 s"
    print(
        f"ok: {SESSIONS} sessions, {len(server_ids)} IDs on partitions {sorted(partitions)}, the application's "
        f"{len(app_ids)} on {sorted(app_partitions)}; {what}; {fleet.reconnects} reconnects, 0 failures, "
        f"0 duplicates, at most {most_connections} lease connections at the store (the application's among them)"
    )


def main():
    root = Path(tempfile.mkdtemp(prefix="sno-pg-server-mode-"))
    store_dir, server_dir = root / "store", root / "server"
    store_port, port = free_port(), free_port()
    try:
        store_server("start", "pg", store_dir, store_port)
        # The store's URL with a password: it must never reach the server's log.
        store_url = f"postgres://sno_auth:sno-secret@127.0.0.1:{store_port}/postgres"
        store_dsn = f"host=127.0.0.1 port={store_port} user=postgres dbname=postgres"
        with psycopg.connect(store_dsn, autocommit=True) as c:
            c.execute("GRANT CREATE ON SCHEMA public TO sno_auth")
        store_server("start", "pg", server_dir, port)
        with open(server_dir / "data" / "postgresql.conf", "a") as conf:
            conf.write(
                "shared_preload_libraries = 'sno'\nmax_connections = 220\n"
                f"sno.lease_url = '{store_url}'\nsno.lease_namespace = '{NAMESPACE}'\nsno.lease_ttl = {TTL}\n"
            )
        store_server("restart", "pg", server_dir)
        dsn = f"host=127.0.0.1 port={port} user=postgres dbname=postgres"
        with connect(dsn) as c:
            c.execute("CREATE EXTENSION sno")
            wait_for("leased", lambda: c.execute("SELECT state FROM sno_lease_status()").fetchone()[0] == "leased")
            mode, ns = c.execute("SELECT mode, namespace FROM sno_lease_status()").fetchone()
            assert (mode, ns) == ("server", NAMESPACE), (mode, ns)
            # Readable by pg_monitor, not by a plain role.
            c.execute("CREATE ROLE mon LOGIN IN ROLE pg_monitor")
            c.execute("CREATE ROLE plain LOGIN")
        with psycopg.connect(f"host=127.0.0.1 port={port} user=mon dbname=postgres", autocommit=True) as m:
            assert m.execute("SELECT partition FROM sno_lease_status()").fetchone()[0] is not None
        with psycopg.connect(f"host=127.0.0.1 port={port} user=plain dbname=postgres", autocommit=True) as p:
            try:
                p.execute("SELECT * FROM sno_lease_status()")
                raise AssertionError("a plain role read the status")
            except psycopg.errors.InsufficientPrivilege:
                pass
            # Minting needs no privilege.
            assert len(p.execute("SELECT sno_new()").fetchone()[0]) > 0
        app_env = dict(os.environ, SNO_LEASE_URL=store_url, SNO_LEASE_NAMESPACE=NAMESPACE, SNO_LEASE_TTL=str(TTL))
        app_env.pop("SNO_PARTITION", None)
        run_round(dsn, store_url, store_dsn, server_dir, store_dir, app_env, crash=False)
        run_round(dsn, store_url, store_dsn, server_dir, store_dir, app_env, crash=True)
        log = (server_dir / "server.log").read_text()
        assert "sno-secret" not in log, "a password in the server log"
        with connect(dsn) as c:
            version = int(c.execute("SHOW server_version_num").fetchone()[0])
        # (PostgreSQL 13.4 writes the worker's LOG lines only with log_min_messages = log.)
        if version >= 140000:
            assert "sno: partition" in log and "leased from postgres://sno_auth@127.0.0.1" in log, log[-2000:]
        print("all server-mode tests passed")
    finally:
        for d in (server_dir, store_dir):
            subprocess.run(["bash", str(STORE_SERVER), "stop", "pg", str(d)], check=False, capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
