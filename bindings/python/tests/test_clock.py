"""The opt-in fast clock: ``clock="fast"`` on every generator class, ``SNO_CLOCK`` for the
process-wide generators, and the errors for anything else. No timing assertions: the speed-up is
measured by bench/bench.py."""

import os
import subprocess
import sys
import time

import pytest

import sno
from sno import ksuid, nanoflake, scru128, scru160, ulid, ulidflake, uuid7


def test_a_fast_generator_never_reads_ahead_and_stays_increasing():
    g = sno.Generator(clock="fast")
    last = None
    for _ in range(20_000):
        i = g.new()
        assert i.unix_ns <= time.time_ns()
        assert last is None or last < i
        last = i


def test_used_up_units_are_waited_through_on_the_fast_clock():
    g = sno.Generator(sequence_min=0, sequence_max=3, clock="fast")
    ids = [g.new() for _ in range(100)]
    assert ids == sorted(ids) and len(set(ids)) == 100
    assert ids[-1].unix_ms - ids[0].unix_ms >= 24 * 4


@pytest.mark.parametrize(
    "make",
    [
        lambda clock: ulid.Generator(clock=clock),
        lambda clock: uuid7.Generator(clock=clock),
        lambda clock: scru128.Generator(clock=clock),
        lambda clock: scru160.Generator(clock=clock),
        lambda clock: nanoflake.Generator(1_704_067_200_000, 3, clock=clock),
        lambda clock: ulidflake.Generator(clock=clock),
        lambda clock: ksuid.Generator(clock=clock),
    ],
)
def test_every_format_generator_takes_a_clock(make):
    for clock in ("fast", "FAST", "precise", None):
        g = make(clock)
        values = [g.new() for _ in range(5_000)]
        assert values == sorted(values) and len(set(values)) == len(values)
    with pytest.raises(sno.ConfigError) as e:
        make("slow")
    assert e.value.code == "unknown_clock" and "fast" in str(e.value)
    with pytest.raises(TypeError):
        make(1)


def test_unknown_clocks_are_config_errors():
    for bad in ("", "slow", "fast ", "coarse"):
        with pytest.raises(sno.ConfigError) as e:
            sno.Generator(clock=bad)
        assert isinstance(e.value, ValueError)
        assert e.value.code == "unknown_clock"
    with pytest.raises(TypeError):
        sno.Generator(clock=b"fast")


CHILD = """
import sno, sys
from sno import ksuid, scru128, scru160, ulid, ulidflake, uuid7
answers = set()
for new in (sno.new, ulid.new, uuid7.new, scru128.new, scru160.new, ulidflake.new, ksuid.new):
    try:
        ids = [new() for _ in range(1000)]
        assert ids == sorted(ids)
        answers.add("ok")
    except sno.ConfigError as e:
        answers.add(f"{e.code} {e.variable}")
print(*answers)
"""


def run_child(value):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SNO_")}
    if value is not None:
        env["SNO_CLOCK"] = value
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_sno_clock_selects_the_process_wide_clock():
    for value in (None, "precise", "fast", "Fast"):
        assert run_child(value) == "ok", value
    for bad in ("", "slow", "1"):
        assert run_child(bad) == "invalid_environment SNO_CLOCK", bad
