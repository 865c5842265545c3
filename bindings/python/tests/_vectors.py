"""Shared helpers: the repository's test-data folder and a literal TSV reader."""

import pathlib


VECTORS = pathlib.Path(__file__).resolve().parents[3] / "testdata" / "vectors"
ALPHABET = b"23456789abcdefghijklmnopqrstuvwx"


def rows(name):
    """Every row of a vector file as a dict (tabs split literally, no quoting)."""
    lines = (VECTORS / name).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    out = []
    for line in lines[1:]:
        cells = line.split("\t")
        assert len(cells) == len(header), line
        out.append(dict(zip(header, cells)))
    return out


def expected_error(data):
    """(kind, position) our strict decoder must report, worked out without the library."""
    if len(data) != 16:
        return ("invalid_length", len(data))
    for i, c in enumerate(data):
        if c not in ALPHABET:
            return ("invalid_byte", i)
    return None

