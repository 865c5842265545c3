#!/usr/bin/env python3
"""The sno extension against the ways people make keys in PostgreSQL today, measured in one run
on a throwaway server started with shared_preload_libraries = 'sno' (server mode: one lease for
the server, every backend minting from shared memory; scripts/store-server; the extension
installed: scripts/pg-extension install).

For each key generator: a table with the key as its primary key and `DEFAULT <generator>`, and
one `INSERT INTO t (n) SELECT g FROM generate_series(1, 1000000) g` into it, timed (the best of
ROUNDS runs, each into a fresh table), then the size of its primary key's btree index; and the
generator alone, `SELECT count(<generator>) FROM generate_series(1, 1000000)`. The peers are
`gen_random_uuid()` (built in), on PostgreSQL 18 and later the built-in `uuidv7()`, a PL/pgSQL
ULID function of the kind people paste (a 48-bit Unix millisecond time and pgcrypto's random
bytes, as a `uuid`; left out when the server has no pgcrypto), a sno key stored as `text`, and
sno_new() in backend mode (a lease per backend over a connection of its own: the design of
libsno 0.2, opt-in now). Then pgbench: 32 clients, each transaction one INSERT of a row keyed by
sno_new() (server mode, then backend mode) or gen_random_uuid(): transactions per second, and the
connections the server holds meanwhile (the clients' and the lease's). Prints markdown tables;
ratios compare figures of this run.

usage: bench.py [--rows N] [--rounds K] [--pg-config PATH] [--pgbench-seconds S]   (needs psycopg)
  --pg-config: the server to start is that install's (its bindir); default SNO_PG_BINDIR, else
  Debian's (scripts/store-server). The extension must be installed there (scripts/pg-extension
  install --pg-config PATH).
"""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

REPO = Path(__file__).resolve().parents[2]
STORE_SERVER = REPO / "scripts" / "store-server"

PLPGSQL_ULID = """
CREATE FUNCTION plpgsql_ulid() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    unix_ms bytea := int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint);
BEGIN
    RETURN encode(substring(unix_ms FROM 3 FOR 6) || gen_random_bytes(10), 'hex')::uuid;
END
$$;
"""

BACKEND = "sno_new(), backend mode (a lease per backend)"

# (label, column type, DEFAULT expression)
KEYS = [
    ("sno_new()", "sno", "sno_new()"),
    (BACKEND, "sno", "sno_new()"),
    ("ulid_new()", "uuid", "ulid_new()"),
    ("uuid7_new()", "uuid", "uuid7_new()"),
    ("gen_random_uuid() (UUIDv4, built in)", "uuid", "gen_random_uuid()"),
    ("uuidv7() (UUIDv7, built in, PostgreSQL 18+)", "uuid", "uuidv7()"),
    ("plpgsql_ulid() (PL/pgSQL + pgcrypto)", "uuid", "plpgsql_ulid()"),
    ("sno_new()::text", "text", "sno_new()::text"),
]
PEER = "gen_random_uuid() (UUIDv4, built in)"
UUIDV7 = "uuidv7() (UUIDv7, built in, PostgreSQL 18+)"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(conn, sql):
    started = time.perf_counter()
    conn.execute(sql)
    return time.perf_counter() - started


def pgbench(bindir, port, script, seconds, options, conn):
    """pgbench with 32 clients running `script`: its tps, and the most connections the server
    held while it ran (client backends, and lease connections: application_name sno-lease)."""
    path = Path(tempfile.mkdtemp(prefix="sno-pgbench-")) / "insert.sql"
    path.write_text(script)
    env = dict(os.environ, PGOPTIONS=options)
    run = subprocess.Popen(
        [str(bindir / "pgbench"), "-n", "-c", "32", "-j", "2", "-T", str(seconds), "-f", str(path),
         "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "postgres"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    most = (0, 0)
    while run.poll() is None:
        clients, leases = conn.execute(
            "SELECT count(*) FILTER (WHERE backend_type = 'client backend' AND application_name = 'pgbench'),"
            " count(*) FILTER (WHERE application_name = 'sno-lease') FROM pg_stat_activity"
        ).fetchone()
        most = max(most, (clients, leases), key=sum)
        time.sleep(0.2)
    out, err = run.communicate()
    assert run.returncode == 0, err
    tps = float(next(line for line in out.splitlines() if line.startswith("tps")).split()[2])
    shutil.rmtree(path.parent, ignore_errors=True)
    return tps, most


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pg-config", help="the pg_config of the PostgreSQL to start (default: SNO_PG_BINDIR)")
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    args = parser.parse_args()
    if args.pg_config:
        bindir = subprocess.run([args.pg_config, "--bindir"], check=True, capture_output=True, text=True)
        os.environ["SNO_PG_BINDIR"] = bindir.stdout.strip()
    root = Path(tempfile.mkdtemp(prefix="sno-pg-bench-"))
    port = free_port()
    try:
        subprocess.run(
            ["bash", str(STORE_SERVER), "start", "pg", str(root / "pg"), str(port)],
            check=True,
            capture_output=True,
        )
        with open(root / "pg" / "data" / "postgresql.conf", "a") as conf:
            conf.write("shared_preload_libraries = 'sno'\n")
        subprocess.run(["bash", str(STORE_SERVER), "restart", "pg", str(root / "pg")], check=True, capture_output=True)
        bindir = Path(os.environ.get("SNO_PG_BINDIR") or sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1])
        dsn = f"host=127.0.0.1 port={port} user=postgres dbname=postgres"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION sno")
            server = conn.execute("SHOW server_version").fetchone()[0]
            keys = KEYS
            if int(conn.execute("SHOW server_version_num").fetchone()[0]) < 180000:
                keys = [k for k in keys if k[0] != UUIDV7]
            try:
                conn.execute("CREATE EXTENSION pgcrypto")
                conn.execute(PLPGSQL_ULID)
            except psycopg.Error as e:  # an install without contrib
                print(f"no pgcrypto ({e.sqlstate}): the PL/pgSQL ULID row is left out", file=sys.stderr)
                keys = [k for k in keys if not k[0].startswith("plpgsql_ulid")]
            conn.execute("SELECT sno_new()")  # the server's lease held, outside the timings
            rows = {}
            for label, column, default in keys:
                # Backend mode: this session leases its own partition (outside the timings).
                conn.execute(f"SET sno.lease_mode = {'backend' if label == BACKEND else 'auto'}")
                conn.execute("SELECT sno_new()")
                inserts, calls = [], []
                size = 0
                for _ in range(args.rounds):
                    conn.execute("DROP TABLE IF EXISTS t")
                    conn.execute(f"CREATE TABLE t (id {column} PRIMARY KEY DEFAULT {default}, n int NOT NULL)")
                    conn.execute("CHECKPOINT")
                    inserts.append(
                        timed(conn, f"INSERT INTO t (n) SELECT g FROM generate_series(1, {args.rows}) g")
                    )
                    size = conn.execute("SELECT pg_relation_size('t_pkey')").fetchone()[0]
                    calls.append(timed(conn, f"SELECT count({default}) FROM generate_series(1, {args.rows})"))
                conn.execute("DROP TABLE t")
                rows[label] = (column, min(inserts), statistics.median(inserts), min(calls), size)
        # A fresh session: the one above may still hold a lease of its own (backend mode).
        with psycopg.connect(dsn, autocommit=True) as conn:
            bench = {}
            for label, column, default, options in [
                ("sno_new(), server mode", "sno", "sno_new()", ""),
                ("sno_new(), backend mode", "sno", "sno_new()", "-c sno.lease_mode=backend"),
                ("gen_random_uuid()", "uuid", "gen_random_uuid()", ""),
            ]:
                conn.execute("DROP TABLE IF EXISTS pb")
                conn.execute(f"CREATE TABLE pb (id {column} PRIMARY KEY DEFAULT {default}, n int NOT NULL)")
                conn.execute("CHECKPOINT")
                bench[label] = pgbench(bindir, port, "INSERT INTO pb (n) VALUES (1);\n", args.pgbench_seconds, options, conn)
            conn.execute("DROP TABLE pb")
        peer_insert, peer_call = rows[PEER][1], rows[PEER][3]
        print(f"PostgreSQL {server}, {args.rows:,} rows, best of {args.rounds} rounds\n")
        print(f"| key | column | INSERT … SELECT {args.rows:,} rows (s) | vs gen_random_uuid() | the generator alone (ns/call) | vs gen_random_uuid() | primary key index (MB) |")
        print("|---|---|---|---|---|---|---|")
        for label, (column, best, _median, call, size) in rows.items():
            print(
                f"| {label} | `{column}` | {best:.2f} | {peer_insert / best:.2f}× | "
                f"{call / args.rows * 1e9:.0f} | {peer_call / call:.2f}× | {size / 2**20:.1f} |"
            )
        peer_tps = bench["gen_random_uuid()"][0]
        print(f"\npgbench, 32 clients, {args.pgbench_seconds} s, one INSERT per transaction\n")
        print("| key | tps | vs gen_random_uuid() | connections the server held (clients + lease) |")
        print("|---|---|---|---|")
        for label, (tps, (clients, leases)) in bench.items():
            print(f"| {label} | {tps:.0f} | {tps / peer_tps:.2f}× | {clients} + {leases} |")
        if UUIDV7 in rows:
            sno_row, v7 = rows["sno_new()"], rows[UUIDV7]
            print(
                f"\nsno_new() against the built-in uuidv7(), this run: INSERT {v7[1] / sno_row[1]:.2f}×,"
                f" the generator alone {v7[3] / sno_row[3]:.2f}× (above 1: sno_new() is faster)"
            )
    finally:
        subprocess.run(["bash", str(STORE_SERVER), "stop", "pg", str(root / "pg")], check=False)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
