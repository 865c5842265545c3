"""The package's public names and signatures against the committed baseline (surface.txt).

A deliberate change rewrites it: SNO_UPDATE_SURFACE=1 pytest tests/test_surface.py, committed
with a CHANGELOG line that says what changed.
"""

import difflib
import os
from pathlib import Path

from _surface import surface

BASELINE = Path(__file__).with_name("surface.txt")


def test_public_surface_is_the_baseline():
    current = surface()
    if os.environ.get("SNO_UPDATE_SURFACE") == "1":
        BASELINE.write_text(current)
    baseline = BASELINE.read_text()
    diff = "".join(
        difflib.unified_diff(
            baseline.splitlines(keepends=True), current.splitlines(keepends=True), "surface.txt", "this build"
        )
    )
    assert not diff, (
        "the public surface of `sno` changed; if on purpose, rewrite tests/surface.txt with "
        "SNO_UPDATE_SURFACE=1 and say so in CHANGELOG.md:\n" + diff
    )
