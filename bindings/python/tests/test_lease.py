"""Leased partitions (sno.Lease, Generator(lease=...), SNO_LEASE_URL / SNO_PARTITION) against real
PostgreSQL and Redis servers, started for the session by scripts/store-server (never mocks). A
server that cannot be started fails the tests that need it; nothing is skipped.

Redis grants nothing usable in a namespace's first TTL (by design), so the Redis tests use the
shortest TTL, 1 s, and fresh namespaces only where they must."""

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import uuid
import warnings
from datetime import datetime, timezone

import pytest

import sno

from _stores import REPO, free_port, start_server, store_server

BAD_INPUT = REPO / "testdata" / "lease_bad_input.tsv"

# The exception class of every lease error code.
CLASSES = {
    "lease_invalid_url": sno.LeaseConfigError,
    "lease_invalid_options": sno.LeaseConfigError,
    "lease_unreachable": sno.LeaseUnreachableError,
    "lease_authentication_failed": sno.LeaseAuthenticationError,
    "lease_tls_failed": sno.LeaseTlsError,
    "lease_no_free_partition": sno.NoFreePartitionError,
    "lease_store": sno.LeaseStoreError,
    "lease_expired": sno.LeaseExpiredError,
    "lease_pending": sno.LeasePendingError,
    "invalid_environment": sno.ConfigError,
}


def namespace():
    """A namespace of this test alone."""
    return f"py-{uuid.uuid4().hex[:16]}"


@pytest.fixture(params=["pg", "redis"])
def store(request):
    return request.getfixturevalue(request.param)


def test_lease_on_both_stores(store):
    ns = namespace()
    with sno.Lease(store.url, namespace=ns, ttl=1.0, timeout=5.0) as lease:
        assert not lease.closed
        assert 0 <= lease.partition <= 65535
        assert isinstance(lease.token, int) and lease.token > 0
        assert lease.namespace == ns
        assert f"/{os.getpid()}/" in lease.holder
        assert lease.ttl == 1.0 and lease.partitions == (0, 65535)
        assert lease.last_error is None
        assert lease.renewal_failures == 0 and lease.renewals >= 0
        assert 0.0 < lease.expires_in <= 1.0
        host, pid, program, _ = lease.holder.split("/")
        assert host and pid == str(os.getpid()) and program.startswith("python")
        # Each property reads the lease as it is now, and a renewal (every few hundred ms at
        # this TTL) may land between two reads: compare a pair read with none in between.
        for _ in range(100):
            unix_ms, expires = lease.expires_unix_ms, lease.expires_at
            if lease.expires_unix_ms == unix_ms:
                break
        assert isinstance(expires, datetime) and expires.tzinfo is timezone.utc
        assert unix_ms == round(expires.timestamp() * 1000)
        assert f"partition={lease.partition}" in repr(lease) and ns in repr(lease)
    assert lease.closed
    assert lease.expires_in == 0.0 and lease.last_error is None
    assert "closed" in repr(lease)
    lease.close()  # idempotent
    assert lease.closed


def test_a_narrow_range_gives_its_partition(store):
    with sno.Lease(store.url, namespace=namespace(), ttl=1.0, partitions=(4242, 4242)) as lease:
        assert lease.partition == 4242 and lease.partitions == (4242, 4242)


def test_leased_generator_mints_on_the_partition(store):
    lease = sno.Lease(store.url, namespace=namespace(), ttl=1.0)
    try:
        g = sno.Generator(lease=lease, sequence_min=16, sequence_max=4095, max_wait_ms=2000)
        assert g.lease is lease
        assert g.partition == lease.partition
        assert (g.sequence_min, g.sequence_max, g.capacity, g.max_wait_ms) == (16, 4095, 4080, 2000)
        ids = [g.new(), g.try_new(), *g.new_many(5000)]
        ids += [sno.ID.from_str(t) for t in g.new_many(1000, as_str=True)]
        assert g.new(7).meta == 7 and {i.meta for i in g.new_many(10, meta=3)} == {3}
        assert {i.partition for i in ids} == {lease.partition}
        assert len(set(ids)) == len(ids) and ids == sorted(ids)
        assert all(16 <= i.sequence <= 4095 for i in ids)
        # Every ID lies before the store's expiry of the grant that minted it.
        assert all(i.unix_ms < lease.expires_unix_ms for i in ids)
        assert set(g.stats()) == {"overflows", "overflow_episodes", "drifts", "regressions", "waits"}
        assert "lease=<sno.Lease" in repr(g)
        # Renewals keep the lease (and the generator) going past the TTL.
        first_expiry = lease.expires_unix_ms
        time.sleep(2.5)
        later = g.new()
        assert later.partition == lease.partition and later > ids[-1]
        assert lease.expires_unix_ms > first_expiry
        assert lease.renewals > 0 and lease.renewal_failures == 0
    finally:
        lease.close()
    with pytest.raises(sno.LeaseExpiredError) as err:
        g.new()
    assert err.value.code == "lease_expired" and err.value.partition == lease.partition
    assert isinstance(err.value, sno.LeaseError) and isinstance(err.value, RuntimeError)
    assert str(lease.partition) in str(err.value)
    for call in (g.try_new, lambda: g.new_many(3)):
        with pytest.raises(sno.LeaseExpiredError):
            call()
    with pytest.raises(sno.LeaseError) as err:
        sno.Generator(lease=lease)
    assert err.value.code == "lease_unavailable"


def test_one_lease_one_generator(pg):
    with sno.Lease(pg.url, namespace=namespace()) as lease:
        g = sno.Generator(lease=lease)
        with pytest.raises(sno.LeaseError) as err:
            sno.Generator(lease=lease)
        assert err.value.code == "lease_unavailable"
        assert g.new().partition == lease.partition


def test_what_a_leased_generator_refuses(pg):
    with sno.Lease(pg.url, namespace=namespace()) as lease:
        for kwargs in ({"partition": 3}, {"snapshot": sno.Generator().snapshot()}):
            with pytest.raises(sno.ConfigError) as err:
                sno.Generator(lease=lease, **kwargs)
            assert err.value.code == "leased_generator"
            # The core's words, the same in every language: what was asked for, and why not.
            assert "is not for a leased generator: " in str(err.value)
        g = sno.Generator(lease=lease)
        for call in (
            g.snapshot,
            lambda: g.repartition(3),
            lambda: g.new_at_unix_ns(0, time.time_ns()),
            lambda: g.new_at_time(0, datetime.now(timezone.utc)),
        ):
            with pytest.raises(sno.ConfigError) as err:
                call()
            assert err.value.code == "leased_generator"
            assert "is not for a leased generator: " in str(err.value)
        assert g.new().partition == lease.partition
        with pytest.raises(TypeError):
            sno.Generator(lease="not a lease")


def test_the_generator_keeps_its_lease_open(pg):
    g = sno.Generator(lease=sno.Lease(pg.url, namespace=namespace()))
    assert not g.lease.closed
    assert g.new().partition == g.lease.partition
    g.lease.close()
    with pytest.raises(sno.LeaseExpiredError):
        g.new()


def test_held_partitions_are_refused_and_close_releases(store):
    ns = namespace()
    a = sno.Lease(store.url, namespace=ns, ttl=1.0, partitions=(7, 8))
    b = sno.Lease(store.url, namespace=ns, ttl=1.0, partitions=(7, 8))
    try:
        assert {a.partition, b.partition} == {7, 8}
        with pytest.raises(sno.NoFreePartitionError) as err:
            sno.Lease(store.url, namespace=ns, ttl=1.0, partitions=(7, 8))
        e = err.value
        assert e.code == "lease_no_free_partition" and isinstance(e, RuntimeError)
        assert (e.namespace, e.first, e.last) == (ns, 7, 8)
        a.close()
        # Released at once, not after the TTL: the partition is free again, with a larger token.
        with sno.Lease(store.url, namespace=ns, ttl=1.0, partitions=(7, 8)) as c:
            assert c.partition == a.partition
            assert c.token > a.token
    finally:
        a.close()
        b.close()


def poll(condition, what):
    """Calls condition() until it is true, for at most 30 s (a bound for a slow machine, not a
    timing claim)."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"still not {what} after 30 s"
        time.sleep(0.02)


def test_an_unreachable_store_stops_the_generator_until_it_is_back(redis):
    with sno.Lease(redis.url, namespace=namespace(), ttl=1.0) as lease:
        g = sno.Generator(lease=lease, max_wait_ms=100)
        g.new()
        paused = store_server("pause", "redis", redis.path)
        assert paused.returncode == 0, paused.stderr
        try:

            def refused():
                try:
                    g.try_new()
                    return False
                except sno.LeaseExpiredError:
                    return True

            # Renewals time out; at the end of its window the generator refuses ...
            poll(refused, "refusing")
            with pytest.raises(sno.LeaseExpiredError):
                g.new()  # ... and new() gives up after max_wait_ms
            poll(lambda: lease.last_error is not None, "reporting the renewal error")
            assert lease.renewal_failures > 0
            assert isinstance(lease.last_error, sno.LeaseUnreachableError)
            assert lease.last_error.code == "lease_unreachable"
        finally:
            resumed = store_server("resume", "redis", redis.path)
            assert resumed.returncode == 0, resumed.stderr

        def minting():
            try:
                return g.new().partition == lease.partition
            except sno.LeaseExpiredError:
                return False

        # A renewal (or, if the grant lapsed meanwhile, a new partition) lets it mint again.
        poll(minting, "minting again")


def test_lease_arguments():
    url = f"postgres://postgres@127.0.0.1:{free_port()}/postgres"
    for kwargs in (
        {"ttl": float("nan")},
        {"ttl": -1},
        {"ttl": float("inf")},
        {"timeout": 1e300},
        {"margin": -0.5},
        {"partitions": (0, 70000)},
        {"partitions": (-1, 5)},
        {"partitions": (0, 2**200)},
        {"namespace": "a/b"},
        {"ttl": 0.5},
    ):
        with pytest.raises(sno.LeaseConfigError) as err:
            sno.Lease(url, **kwargs)
        assert err.value.code == "lease_invalid_options", kwargs
        assert isinstance(err.value, sno.ConfigError) and isinstance(err.value, ValueError)
        assert str(err.value).startswith("sno lease: invalid option:")
    for kwargs in (
        {"ttl": "15"},
        {"partitions": "0-7"},
        {"partitions": (1, 2, 3)},
        {"partitions": (1.0, 2)},
        {"namespace": 7},
    ):
        with pytest.raises(TypeError):
            sno.Lease(url, **kwargs)
    with pytest.raises(TypeError):
        sno.Lease(url, "default")  # options are keyword-only


def test_lease_from_env(pg, monkeypatch):
    for name in ("SNO_LEASE_URL", "SNO_LEASE_NAMESPACE", "SNO_LEASE_TTL", "SNO_LEASE_PARTITIONS"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(sno.ConfigError) as err:
        sno.Lease.from_env()
    assert err.value.code == "invalid_environment" and err.value.variable == "SNO_LEASE_URL"
    monkeypatch.setenv("SNO_LEASE_URL", " ")
    with pytest.raises(sno.LeaseConfigError) as err:
        sno.Lease.from_env()
    assert err.value.code == "lease_invalid_options" and "SNO_LEASE_URL" in str(err.value)
    ns = namespace()
    monkeypatch.setenv("SNO_LEASE_URL", pg.url)
    monkeypatch.setenv("SNO_LEASE_NAMESPACE", ns)
    monkeypatch.setenv("SNO_LEASE_TTL", "2s")
    monkeypatch.setenv("SNO_LEASE_PARTITIONS", "300-301")
    with sno.Lease.from_env() as lease:
        assert lease.namespace == ns and lease.ttl == 2.0 and lease.partitions == (300, 301)
        assert lease.partition in (300, 301)
    monkeypatch.setenv("SNO_LEASE_PARTITIONS", "301-300")
    with pytest.raises(sno.LeaseConfigError) as err:
        sno.Lease.from_env()
    assert err.value.code == "lease_invalid_options" and "SNO_LEASE" in str(err.value)


# --- testdata/lease_bad_input.tsv ------------------------------------------------------------


def bad_rows():
    lines = [l for l in BAD_INPUT.read_text(encoding="utf-8").splitlines() if not l.startswith("#")]
    header = lines[0].split("\t")
    assert header == ["case", "url", "options", "code", "secret"], header
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:] if line]
    assert all(len(r) == len(header) for r in rows)
    return [pytest.param(r, id=r["case"]) for r in rows]


def lease_kwargs(options):
    """The Lease keyword arguments of a row's options, and whether to hold the range first."""
    kwargs, hold = {}, False
    if options == "-":
        return kwargs, hold
    for item in options.split(";"):
        key, _, value = item.partition("=")
        if key == "namespace":
            kwargs["namespace"] = value
        elif key in ("ttl_ms", "margin_ms", "timeout_ms"):
            kwargs[key.removesuffix("_ms")] = int(value) / 1000
        elif key == "partitions":
            first, last = value.split("-")
            kwargs["partitions"] = (int(first), int(last))
        elif key == "hold_first":
            hold = value == "1"
        else:
            raise AssertionError(f"unknown option {key!r} in {options!r}")
    return kwargs, hold


def row_url(row, request):
    """The row's URL with its placeholders filled in from the session's servers."""
    url = row["url"]
    if "{pg" in url:
        server = request.getfixturevalue("pg")
        url = url.replace("{pg}", server.url).replace("{pg_port}", str(server.port))
    if "{redis" in url:
        server = request.getfixturevalue("redis")
        url = url.replace("{redis}", server.url).replace("{redis_port}", str(server.port))
        url = url.replace("{redis_tls_port}", str(server.tls_port))
    if "{ca}" in url or "{wrong_ca}" in url:
        certs = request.getfixturevalue("certs")
        url = url.replace("{wrong_ca}", str(certs / "wrong-ca.pem")).replace("{ca}", str(certs / "ca.pem"))
    url = url.replace("{closed_port}", str(free_port()))
    assert "{" not in url, url
    return url


@pytest.mark.parametrize("row", bad_rows())
def test_lease_bad_input(row, request, capfd):
    url = row_url(row, request)
    kwargs, hold = lease_kwargs(row["options"])
    secret = None if row["secret"] == "-" else row["secret"]
    held = None
    shown = []
    if hold:
        # The same namespace and range, held while the request runs. Where the row leaves the
        # TTL at its default, the hold takes the shortest: a fresh Redis namespace makes its
        # first grant wait one TTL, and the request fails at once either way.
        held = sno.Lease(url, **{"ttl": 1.0, **kwargs})
        shown.append(repr(held))
    try:
        with pytest.raises(sno.SnoError) as err:
            sno.Lease(url, **kwargs)
    finally:
        if held is not None:
            held.close()
            shown.append(repr(held))
    code = row["code"]
    assert err.value.code == code, str(err.value)
    assert type(err.value) is CLASSES[code]
    assert isinstance(err.value, sno.LeaseError) and isinstance(err.value, Exception)
    assert str(err.value).startswith("sno lease: ")
    if code == "lease_tls_failed":
        assert isinstance(err.value, ConnectionError) and "TLS" in str(err.value)
    if secret is not None:
        # Everything the failure shows: the message, the repr (with its args), any lease's repr,
        # and whatever reached stdout or stderr meanwhile. Not printed when found.
        out, errors = capfd.readouterr()
        shown += [str(err.value), repr(err.value), repr(err.value.args), out, errors]
        leaks = [i for i, text in enumerate(shown) if secret in text]
        assert not leaks, f"{row['case']}: the row's secret is shown (in items {leaks})"


SECRET_ROWS = [p for p in bad_rows() if p.values[0]["secret"] != "-" and "hold_first" not in p.values[0]["options"]]


@pytest.mark.parametrize("row", SECRET_ROWS)
def test_the_cli_shows_no_secret(row, request, tmp_path):
    """The row's URL as SNO_LEASE_URL of `sno new`, the Rust binary and the Python console
    entry: it fails with status 1, on one line of stderr, and the secret is nowhere."""
    from test_cli import _rust_binary

    url = row_url(row, request)
    env = clean_env(SNO_LEASE_URL=url)
    kwargs, _ = lease_kwargs(row["options"])
    if "namespace" in kwargs:
        env["SNO_LEASE_NAMESPACE"] = kwargs["namespace"]
    if "ttl" in kwargs:
        env["SNO_LEASE_TTL"] = f"{round(kwargs['ttl'] * 1000)}ms"
    if "partitions" in kwargs:
        env["SNO_LEASE_PARTITIONS"] = "-".join(map(str, kwargs["partitions"]))
    for command in ([str(_rust_binary()), "new"], [sys.executable, "-m", "sno", "new"]):
        done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, (command[0], done.returncode)
        assert done.stdout == "", command[0]
        assert done.stderr.startswith("sno") and done.stderr.count("\n") == 1, (command[0], done.stderr)
        assert row["secret"] not in done.stderr, f"{row['case']}: {command[0]} shows the row's secret"


# --- the process-wide generator, configured by the environment (in fresh interpreters) -------

CHILD = textwrap.dedent(
    """
    import json, sys
    import sno

    def answer(call):
        try:
            ids = call()
            return ["ok", sorted({i.partition for i in ids})]
        except sno.SnoError as e:
            return ["error", type(e).__name__, e.code, str(e)]

    out = [answer(lambda: [sno.new()]), answer(lambda: sno.new_many(100, 3))]
    if len(sys.argv) > 1:  # also a lease from the same variables, held with the process's
        with sno.Lease.from_env() as lease:
            out.append(["lease", lease.partition])
            print(json.dumps(out), flush=True)
            sys.stdin.read()  # until the test has looked at the store
    else:
        print(json.dumps(out), flush=True)
    """
)


def clean_env(**variables):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SNO_")}
    env.update(variables)
    return env


def run_child(env, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_sno_lease_url_leases_the_process_partition(store, tmp_path):
    ns = namespace()
    env = clean_env(
        SNO_LEASE_URL=store.url,
        SNO_LEASE_NAMESPACE=ns,
        SNO_LEASE_TTL="1s",
        SNO_LEASE_PARTITIONS="500-501",
    )
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, "hold"],
        env=env,
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = child.stdout.readline()
        assert line, child.stderr.read()
        first, batch, (_, leased) = json.loads(line)
        assert first[0] == "ok" and batch == first
        (process,) = first[1]
        # The process generator and Lease.from_env() each hold one of the two partitions ...
        assert {process, leased} == {500, 501}
        # ... both live: no third holder gets one.
        with pytest.raises(sno.NoFreePartitionError):
            sno.Lease(store.url, namespace=ns, ttl=1.0, partitions=(500, 501))
    finally:
        child.stdin.close()
        assert child.wait(timeout=60) == 0, child.stderr.read()
        child.stdout.close()
        child.stderr.close()


def test_sno_partition_fixes_the_process_partition(tmp_path):
    out = run_child(clean_env(SNO_PARTITION=" 1234 "), tmp_path)
    assert out == [["ok", [1234]], ["ok", [1234]]]


@pytest.mark.parametrize(
    "variables, cls, code",
    [
        ({"SNO_PARTITION": "1", "SNO_LEASE_URL": "{pg}"}, "ConfigError", "invalid_environment"),
        ({"SNO_PARTITION": "abc"}, "ConfigError", "invalid_environment"),
        ({"SNO_PARTITION": ""}, "ConfigError", "invalid_environment"),
        ({"SNO_PARTITION": "65536"}, "ConfigError", "invalid_environment"),
        ({"SNO_LEASE_URL": "{pg}", "SNO_LEASE_TTL": "abc"}, "LeaseConfigError", "lease_invalid_options"),
        ({"SNO_LEASE_URL": "{pg}", "SNO_LEASE_PARTITIONS": "9-2"}, "LeaseConfigError", "lease_invalid_options"),
        ({"SNO_LEASE_URL": "{pg}", "SNO_LEASE_NAMESPACE": "a b"}, "LeaseConfigError", "lease_invalid_options"),
        ({"SNO_LEASE_URL": "   "}, "LeaseConfigError", "lease_invalid_options"),
        ({"SNO_LEASE_URL": "mysql://127.0.0.1/db"}, "LeaseConfigError", "lease_invalid_url"),
    ],
    ids=[
        "both",
        "partition_not_a_number",
        "partition_empty",
        "partition_too_large",
        "ttl_invalid",
        "range_empty",
        "namespace_invalid",
        "url_blank",
        "url_unknown_scheme",
    ],
)
def test_an_invalid_environment_raises_at_every_use(variables, cls, code, pg, tmp_path):
    env = clean_env(**{k: v.replace("{pg}", pg.url) for k, v in variables.items()})
    out = run_child(env, tmp_path)
    # The first use and the next one both raise; neither falls back to a random partition.
    assert [answer[:3] for answer in out] == [["error", cls, code]] * 2, out
    assert out[0][3] == out[1][3]


FORK_CHILD = textwrap.dedent(
    """
    import json, os
    import sno

    parent = sno.new().partition
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            ids = [sno.new() for _ in range(1000)]
            answer = ["ok", sorted({i.partition for i in ids}), [str(i) for i in ids]]
        except BaseException as e:
            answer = ["error", type(e).__name__, str(e)]
        os.write(w, json.dumps(answer).encode())
        os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 1 << 16):
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    ours = [sno.new() for _ in range(1000)]
    print(json.dumps({
        "parent": parent,
        "parent_after": sorted({i.partition for i in ours}),
        "ours": [str(i) for i in ours],
        "child": json.loads(b"".join(chunks)),
        "status": os.waitstatus_to_exitcode(status),
    }))
    """
)


def test_a_fork_child_leases_its_own_partition(store, tmp_path):
    env = clean_env(
        SNO_LEASE_URL=store.url,
        SNO_LEASE_NAMESPACE=namespace(),
        SNO_LEASE_TTL="1s",
        SNO_LEASE_PARTITIONS="900-901",
    )
    done = subprocess.run(
        [sys.executable, "-c", FORK_CHILD],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["status"] == 0
    child = out["child"]
    assert child[0] == "ok", child
    (theirs,) = child[1]
    # Two partitions, both held at once: the child could only lease the one its parent does not hold.
    assert {out["parent"], theirs} == {900, 901}
    assert out["parent_after"] == [out["parent"]]
    assert not set(child[2]) & set(out["ours"])


def fork_and_run(body):
    """body() in a fork() child of this process; returns what it printed (or raised)."""
    r, w = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # a multi-threaded process forks
        pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = body()
        except BaseException as e:
            out = f"child raised {type(e).__name__}: {e}"
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return b"".join(chunks).decode()


def test_a_leased_generator_refuses_in_a_fork_child(pg):
    with sno.Lease(pg.url, namespace=namespace()) as lease:
        g = sno.Generator(lease=lease)
        g.new()

        def child():
            answers = []
            for call in (g.new, g.try_new, lambda: g.new_many(3)):
                try:
                    call()
                    answers.append("ok")
                except sno.SnoError as e:
                    answers.append(f"{type(e).__name__}:{e.code}")
            lease.close()  # the parent's lease: the child neither releases nor renews it
            answers.append(f"closed={lease.closed} expires_in={lease.expires_in} last_error={lease.last_error}")
            return " ".join(answers)

        closed = "closed=True expires_in=0.0 last_error=None"
        assert fork_and_run(child) == " ".join(["ForkedGeneratorError:forked"] * 3 + [closed])
        assert not lease.closed
        assert g.new().partition == lease.partition


# --- releasing the process lease at exit (atexit) and by hand ----------------------------------

MINT = textwrap.dedent(
    """
    import json
    import sno

    i = sno.new()
    print(json.dumps([i.partition, i.unix_ms, str(i)]), flush=True)
    """
)


def one_partition_env(url, ns):
    """The process lease of a namespace with one partition (5) and a 15 s TTL."""
    return clean_env(SNO_LEASE_URL=url, SNO_LEASE_NAMESPACE=ns, SNO_LEASE_TTL="15s", SNO_LEASE_PARTITIONS="5-5")


def test_a_process_that_exits_normally_releases_its_lease(pg, tmp_path):
    env = one_partition_env(pg.url, namespace())
    first = subprocess.run([sys.executable, "-c", MINT], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    started = time.monotonic()
    # Right after: the one partition is free at once (the first process released it at exit),
    # not one TTL (15 s) later; without the release this would fail with NoFreePartitionError.
    second = subprocess.run([sys.executable, "-c", MINT], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    took = time.monotonic() - started
    assert second.returncode == 0, second.stderr
    (p1, t1, id1), (p2, t2, id2) = json.loads(first.stdout), json.loads(second.stdout)
    assert (p1, p2) == (5, 5)
    assert t2 >= t1 and id2 > id1, (id1, id2)
    assert took < 5, f"the second process took {took:.1f} s"


RELEASE = textwrap.dedent(
    """
    import json, os, sys, time
    import sno

    url, ns = sys.argv[1], sys.argv[2]
    out = {"before": sno.release_process_lease()}
    first = sno.new()
    out["released"] = sno.release_process_lease()
    out["again"] = sno.release_process_lease()
    started = time.monotonic()
    lease = sno.Lease(url, namespace=ns, ttl=1.0, partitions=(5, 5), timeout=5.0)
    out["took"] = time.monotonic() - started
    out["other"] = lease.partition
    try:
        sno.new()
        out["while_held"] = "ok"
    except sno.SnoError as e:
        out["while_held"] = e.code
    lease.close()
    second = sno.new()
    out["ids"] = [str(first), str(second)]
    out["partitions"] = [first.partition, second.partition]
    print(json.dumps(out))
    """
)


def test_release_process_lease_frees_the_partition_at_once(pg, tmp_path):
    ns = namespace()
    done = subprocess.run(
        [sys.executable, "-c", RELEASE, pg.url, ns],
        env=one_partition_env(pg.url, ns),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["before"] is False, "nothing to release before the first ID"
    assert out["released"] is True and out["again"] is False
    assert out["other"] == 5 and out["took"] < 5, out
    # While another holder has the partition, the process generator finds none; once it is
    # released, the next sno.new() leases anew, after every ID so far.
    assert out["while_held"] == "lease_no_free_partition"
    assert out["partitions"] == [5, 5]
    first, second = out["ids"]
    assert second > first


def test_release_process_lease_without_a_lease(tmp_path):
    probe = "import sno; print(sno.release_process_lease(), sno.new().partition >= 0, sno.release_process_lease())"
    done = subprocess.run([sys.executable, "-c", probe], env=clean_env(), cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "False"]
    assert sno.release_process_lease.__doc__ and "release" in sno.release_process_lease.__doc__


def test_a_holder_waits_for_the_new_grant_after_an_outage_longer_than_its_window(request):
    """Issue #42, item 2, as a new user found it: a store away longer than the holder's window.
    With a TTL of 4 s the default maximum wait is 6 s; the holder mints until its window ends and
    waits, Redis answers again after 6 s away, within that wait, and the new grant's window opens
    one TTL later, past 6 s from the start of the wait (before the fix `new()` raised
    `LeasePendingError` there). A new grant gets a whole maximum wait of its own."""
    server = start_server("redis", request)  # its own server: the test restarts it
    with sno.Lease(server.url, namespace=namespace(), ttl=4.0) as lease:
        g = sno.Generator(lease=lease)
        assert g.max_wait_ms == 6000
        ids, errors = [g.new()], []
        first_token = lease.token
        end = time.monotonic() + 16

        def mint():
            try:
                while time.monotonic() < end:
                    ids.append(g.new())
                    time.sleep(0.01)
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)

        worker = threading.Thread(target=mint)
        worker.start()
        time.sleep(1)
        restarted = store_server("restart", "redis", server.path, 6)
        back = time.time_ns()
        worker.join(60)
        assert restarted.returncode == 0, restarted.stderr
        assert not worker.is_alive() and errors == []
        assert any(i.unix_ns > back for i in ids), "no ID after the store came back"
        assert lease.token > first_token
        assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_a_redis_restart_pauses_the_generator_with_lease_pending(request):
    """Issue #42, item 2: after a restart of the store, a holder mints on in its lost grant's
    window, then its window opens one TTL after the new epoch began: `try_new` says so with
    `LeasePendingError` (never a `ClockRegressionError`) and `new()` waits through it, by default
    up to one TTL and two seconds."""
    server = start_server("redis", request)  # its own server: the test restarts it
    with sno.Lease(server.url, namespace=namespace(), ttl=4.0) as lease:
        with sno.Lease(server.url, namespace=lease.namespace, ttl=4.0) as other:
            assert sno.Generator(lease=other).max_wait_ms == 6000  # the default: TTL + 2 s
        g = sno.Generator(lease=lease, max_wait_ms=100)  # chosen: kept
        assert g.max_wait_ms == 100
        before = g.new()
        restarted = store_server("restart", "redis", server.path)
        assert restarted.returncode == 0, restarted.stderr
        pending = None
        deadline = time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline, "never minted again after the restart"
            try:
                after = g.try_new()
                if pending is not None:
                    break
            except sno.LeasePendingError as e:
                pending = e
            except sno.LeaseExpiredError:
                pass  # the moment between the old window's end and the switch
            time.sleep(0.005)
        assert pending.code == "lease_pending" and isinstance(pending, sno.LeaseError)
        assert isinstance(pending, RuntimeError) and "restart or failover" in str(pending)
        assert isinstance(pending.partition, int) and pending.retry_at_unix_ns > 0
        assert after.unix_ns >= pending.retry_at_unix_ns and after > before
