"""Every row of testdata/bad_input.tsv against sno.ID.from_str and sno.ID(str) (the Python layer)."""

import json

import pytest

import sno
from _vectors import VECTORS

ALPHABET = set("23456789abcdefghijklmnopqrstuvwx")


def cases():
    return list(_cases())


def _cases():
    lines = [l for l in (VECTORS.parent / "bad_input.tsv").read_text(encoding="utf-8").splitlines() if not l.startswith("#")]
    assert lines[0] == "case\tinput\texpand\trust\tc\tpython\tnode"
    for line in lines[1:]:
        name, text, expand, _rust, _c, python, _node = line.split("\t")
        if python != "-":
            yield pytest.param(json.loads(text), expand, python, id=name)


def inputs(text, expand):
    """The Python values of a row: str inputs, with bytes 0x80-0xFF as the code points U+0080-U+00FF."""
    kind, _, arg = expand.replace("@", ":").partition(":")
    if expand == "-":
        return [text]
    if kind == "repeat":
        return [text * int(arg)]
    if kind in ("ascii", "high"):
        p, codes = int(arg), range(0x80) if kind == "ascii" else range(0x80, 0x100)
        return [text[:p] + chr(b) + text[p + 1 :] for b in codes if chr(b) not in ALPHABET]
    if kind == "type":
        return [{"bytes": text.encode(), "int": 5, "null": None}[arg]]
    raise AssertionError(f"unknown expansion {expand}")


def answer(parse, value):
    try:
        parse(value)
    except sno.DecodeError as e:
        return f"DecodeError@{e.position}"
    except TypeError:
        return "TypeError"
    return "ok"


@pytest.mark.parametrize("text,expand,expected", cases())
def test_row(text, expand, expected):
    values = inputs(text, expand)
    assert values
    for value in values:
        assert answer(sno.ID.from_str, value) == expected, repr(value)
        if isinstance(value, str):  # sno.ID(bytes) is the 10-byte binary form, not text
            assert answer(sno.ID, value) == expected, repr(value)
