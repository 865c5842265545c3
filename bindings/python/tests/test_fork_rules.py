"""Generators inherited across os.fork(): a default-partitioned sno.Generator takes a fresh
partition in the child; one with an explicit partition (or a Nanoflakes generator, whose IDs only
its generator id keeps apart) raises sno.ForkedGeneratorError there until it is repartitioned,
instead of silently repeating the parent's IDs."""

import os
import subprocess
import sys
import textwrap

import pytest

import sno
from sno import nanoflake


def in_child(body):
    """Runs body() in a fork() child and returns the text it produced."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = body()
        except BaseException as e:  # report anything, never run the parent's test code
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


def test_default_generator_takes_a_fresh_partition_in_the_child():
    g = sno.Generator()
    parent = g.new().partition
    theirs = in_child(lambda: " ".join(str(g.new()) for _ in range(2000))).split()
    ours = {str(g.new()) for _ in range(2000)}
    assert len(theirs) == 2000
    assert all(sno.ID.from_str(t).partition != parent for t in theirs)
    assert not ours.intersection(theirs)
    assert g.partition == parent


def test_explicit_partition_refuses_in_the_child_until_repartitioned():
    g = sno.Generator(partition=258)
    g.new()

    def child():
        answers = []
        for call in (g.new, g.try_new, lambda: g.new_many(3)):
            try:
                call()
                answers.append("ok")
            except Exception as e:  # ForkedGeneratorError is an Exception
                answers.append(f"{type(e).__name__}:{e.code}")
        g.repartition(772)
        answers.append(str(g.new().partition))
        return " ".join(answers)

    assert in_child(child) == " ".join(["ForkedGeneratorError:forked"] * 3 + ["772"])
    assert g.new().partition == 258


@pytest.mark.parametrize(
    "make,field",
    [
        (lambda: nanoflake.Generator(1_700_000_000_000, 7), "generator_id"),  # only its id keeps it apart
        (lambda: sno.ulidflake.Generator(sid=3), "sid"),  # a sid and 15 random bits per millisecond
    ],
    ids=["nanoflake", "scalable ulidflake"],
)
def test_a_generator_with_its_own_id_refuses_in_the_child_until_given_another(make, field):
    g = make()
    own = getattr(g.new(), field)

    def child():
        try:
            g.new()
            answer = "ok"
        except sno.ForkedGeneratorError as e:
            answer = f"{e.code}"
        g.repartition(own + 1)
        return f"{answer} {getattr(g.new(), field)}"

    assert in_child(child) == f"forked {own + 1}"
    assert getattr(g.new(), field) == own


def test_an_explicit_generator_alone_in_a_fresh_process_refuses_in_the_child():
    # Nothing else of the library has run in this interpreter: the generator itself must make
    # the child notice the fork (before: it repeated the parent's IDs silently).
    code = textwrap.dedent(
        """
        import os, sys
        import sno
        g = sno.Generator(partition=5)
        g.new()
        pid = os.fork()
        if pid == 0:
            try:
                g.new()
                os._exit(1)
            except sno.ForkedGeneratorError:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
