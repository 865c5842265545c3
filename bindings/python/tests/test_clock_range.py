"""testdata/clock_out_of_range.tsv: every process-wide generator with the system clock faked by
libfaketime (Debian's `faketime`) to times inside and outside each format's range answers `ok` or
the typed error's code, never a PanicException."""

import shutil
import subprocess
import sys

import pytest

from _vectors import VECTORS

PROBE = """
import sno
def answer(new):
    try:
        new()
    except sno.SnoError as e:
        return e.code
    return "ok"
news = [sno.new, sno.ulid.new, sno.uuid7.new, sno.scru128.new, sno.scru160.new, sno.ulidflake.new]
print("\\t".join(answer(n) for n in news))
"""


def rows():
    lines = [l for l in (VECTORS.parent / "clock_out_of_range.tsv").read_text(encoding="utf-8").splitlines() if not l.startswith("#")]
    assert lines[0] == "faketime\tsno\tulid\tuuid7\tscru128\tscru160\tulidflake"
    return [line.split("\t") for line in lines[1:]]


@pytest.mark.parametrize("row", rows(), ids=lambda r: r[0])
def test_process_wide_generators_under_a_faked_clock(row):
    faketime = shutil.which("faketime")
    assert faketime, "Debian's faketime is required (apt-get install faketime; .ci/run installs it)"
    when, *expected = row
    # PYTHONHASHSEED: a fixed hash seed keeps the interpreter's start-up independent of the clock.
    done = subprocess.run(
        [faketime, when, sys.executable, "-c", PROBE],
        capture_output=True, text=True, timeout=60, env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip("\n").split("\t") == expected


def test_the_last_unit_of_the_range_can_never_be_retried():
    # faketime starts the clock in the last 4 ms unit (2079-09-07T15:47:35.548Z ...) and slows
    # it down 100 000 times: a used-up pool there has no next unit to wait for.
    code = """
import sno
g = sno.Generator(partition=1, sequence_min=0, sequence_max=3)
for _ in range(4):
    g.new()
for call in (g.try_new, g.new):
    try:
        call()
        print("made an ID")
    except sno.SequenceExhaustedError as e:
        print(e.code, e.retry_at_unix_ns)
"""
    done = subprocess.run(
        [shutil.which("faketime") or "faketime", "-f", "@2079-09-07 15:47:35.550 x0.00001", sys.executable, "-c", code],
        capture_output=True, text=True, timeout=60, env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["sequence_exhausted None"] * 2
