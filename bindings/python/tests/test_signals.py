"""sno.release_on_signals(): SIGINT (Ctrl-C), SIGTERM and SIGHUP release the process lease, then
the process ends as it would have; the `sno` console script (python -m sno) calls it, as the sno
binary releases on those signals. Against a real PostgreSQL with 600 s grants: a partition freed
only by its grant's expiry would still show as held."""

import os
import signal
import subprocess
import sys
import textwrap
import uuid

import pytest

import sno

TTL = "600s"

# Leases on SNO_LEASE_URL, says so, then waits for a signal (time.sleep is interrupted by one,
# and the Python handlers run). argv: the call before the lease ("release" or "none"), then
# "graceful" to install a SIGTERM handler of the application's first.
HOLDER = textwrap.dedent(
    """
    import signal, sys, time
    import sno

    if "graceful" in sys.argv:
        def graceful(signum, frame):
            print("graceful", flush=True)
            sys.exit(3)
        signal.signal(signal.SIGTERM, graceful)
    if "release" in sys.argv:
        sno.release_on_signals()
        handlers = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
        sno.release_on_signals()  # idempotent: the same handlers
        assert handlers == [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
    print(sno.new().partition, flush=True)
    time.sleep(600)
    """
)


def held(pg, ns, partition):
    """Whether the store holds a live grant of `partition` in `ns`."""
    sql = (
        "SELECT count(*) FROM sno_partition_leases WHERE namespace = '%s' AND partition = %d "
        "AND expires_at > clock_timestamp()" % (ns, partition)
    )
    done = subprocess.run(
        ["psql", "-qtA", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "postgres", "-d", "postgres", "-c", sql],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip() == "1"


def start(pg, partition, argv, ignored=()):
    """A process leasing `partition` (600 s) in a namespace of its own, as a terminal starts one
    (the three signals at their default, whatever this test runner ignores), `ignored` ignored as
    `nohup` starts one; returns it and the namespace once it holds the lease."""
    ns = f"py-signals-{uuid.uuid4().hex[:12]}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SNO_")}
    env.update(
        SNO_LEASE_URL=pg.url,
        SNO_LEASE_NAMESPACE=ns,
        SNO_LEASE_TTL=TTL,
        SNO_LEASE_PARTITIONS=f"{partition}-{partition}",
    )

    def as_a_terminal_starts_it():
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN if s in ignored else signal.SIG_DFL)

    child = subprocess.Popen(
        argv,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=as_a_terminal_starts_it,
    )
    first = child.stdout.readline()
    assert first, child.stderr.read()
    assert held(pg, ns, partition)
    return child, ns, first.decode()


def end(child, *signals):
    for s in signals:
        child.send_signal(s)
    try:
        return child.wait(timeout=60)
    finally:
        child.stdout.close()
        child.stderr.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_release_on_signals_releases_then_the_signal_ends_the_process(pg, sig):
    child, ns, first = start(pg, 21, [sys.executable, "-c", HOLDER, "release"])
    assert first.strip() == "21"
    # SIGINT: Python's KeyboardInterrupt, which (uncaught) ends the process by SIGINT too.
    assert end(child, sig) == -sig
    assert not held(pg, ns, 21), "the 600 s grant was released at once"


def test_without_it_a_signal_keeps_the_partition_for_the_ttl(pg):
    child, ns, _ = start(pg, 22, [sys.executable, "-c", HOLDER, "none"])
    assert end(child, signal.SIGTERM) == -signal.SIGTERM
    assert held(pg, ns, 22), "the documented default: no exit hook runs"


def test_a_handler_of_the_application_runs_after_the_release(pg):
    child, ns, _ = start(pg, 23, [sys.executable, "-c", HOLDER, "graceful", "release"])
    child.send_signal(signal.SIGTERM)
    assert child.stdout.readline() == b"graceful\n"
    assert end(child) == 3, "the application's handler decided: sys.exit(3)"
    assert not held(pg, ns, 23)


def test_an_ignored_signal_stays_ignored(pg):
    child, ns, _ = start(pg, 24, [sys.executable, "-c", HOLDER, "release"], ignored=(signal.SIGHUP,))
    # nohup: SIGHUP changes nothing; SIGTERM still releases and ends the process.
    assert end(child, signal.SIGHUP, signal.SIGTERM) == -signal.SIGTERM
    assert not held(pg, ns, 24)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_the_console_script_releases_on_signals(pg, sig):
    # `sno new -n 16777216 | a reader that stopped`: the command blocks writing when signalled.
    child, ns, first = start(pg, 25, [sys.executable, "-m", "sno", "new", "-n", "16777216"])
    assert sno.ID.from_str(first.strip()).partition == 25
    child.send_signal(sig)
    # As the binary: nothing printed (no KeyboardInterrupt traceback for Ctrl-C), the status the
    # signal's.
    assert child.stderr.read() == b""
    assert end(child) == -sig
    assert not held(pg, ns, 25), "the 600 s grant was released at once"
