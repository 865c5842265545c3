"""Without the operating system's randomness source (getrandom(2) failing for a CSPRNG seed and
/dev/urandom missing, through the preloaded sno-ffi/tests/c/fail_random.c), the random-based
formats raise sno.RandomnessUnavailableError (an Exception), never a PanicException; sno IDs,
which need no seed, are still made."""

import pathlib
import shutil
import subprocess
import sys

SOURCE = pathlib.Path(__file__).resolve().parents[3] / "sno-ffi" / "tests" / "c" / "fail_random.c"

PROBE = """
import sno
print(len(str(sno.new())))
for new in (sno.ulid.new, sno.uuid7.new, sno.scru128.new, sno.scru160.new, sno.ulidflake.new, sno.ksuid.new):
    try:
        new()
        print("made a value")
    except sno.RandomnessUnavailableError as e:
        print(type(e).__name__, e.code, isinstance(e, Exception))
"""


def test_random_formats_report_the_missing_source(tmp_path):
    cc = shutil.which("cc")
    assert cc, "a C compiler is needed to build the preloaded library"
    library = tmp_path / "libfail_random.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", str(SOURCE), "-o", str(library)], check=True)
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True, text=True, timeout=60,
        env={"LD_PRELOAD": str(library), "PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "16"
    assert lines[1:] == ["RandomnessUnavailableError randomness_unavailable True"] * 6
