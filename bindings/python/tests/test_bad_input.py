"""Every row of testdata/bad_input.tsv against the Python layer: text rows against sno.ID.from_str
and sno.ID(str), call:* rows against the API call each names (answer Class[:code])."""

import builtins
import json
import time
from datetime import datetime

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
        if python != "-" and not expand.startswith("call:"):
            yield pytest.param(json.loads(text), expand, python, id=name)


def call_cases():
    lines = [l for l in (VECTORS.parent / "bad_input.tsv").read_text(encoding="utf-8").splitlines() if not l.startswith("#")]
    rows = [line.split("\t") for line in lines[1:]]
    return [
        pytest.param(json.loads(text), expand.removeprefix("call:"), python, id=name)
        for name, text, expand, _rust, _c, python, _node in rows
        if python != "-" and expand.startswith("call:")
    ]


MODULES = {
    "sno": sno,
    "ulid": sno.ulid,
    "uuid7": sno.uuid7,
    "scru128": sno.scru128,
    "scru160": sno.scru160,
    "nanoflake": sno.nanoflake,
    "ulidflake": sno.ulidflake,
    "ksuid": sno.ksuid,
}
VALUES = {
    "sno": sno.ID,
    "ulid": sno.ULID,
    "uuid7": sno.UUID7,
    "scru128": sno.SCRU128,
    "scru160": sno.SCRU160,
    "nanoflake": sno.Nanoflake,
    "ulidflake": sno.UlidFlake,
    "ksuid": sno.KSUID,
}
# The Go/serde snapshot field names of call:restore_snapshot rows, as Python spells them.
SNAPSHOT_KEYS = {"sequenceMin": "sequence_min", "sequenceMax": "sequence_max", "wallHi": "wall_hi", "wallSafe": "wall_safe"}
EPOCH_2010_NS = 1_262_304_000 * 10**9


def now_units():
    return (time.time_ns() - EPOCH_2010_NS) // 4_000_000


def restore_snapshot(arg):
    now = now_units()
    snapshot = {
        SNAPSHOT_KEYS.get(k, k): now + int(v.removeprefix("now+")) if isinstance(v, str) else v for k, v in arg.items()
    }
    sno.Generator(snapshot=snapshot)


def generator(fmt):
    return sno.Generator if fmt == "sno" else MODULES[fmt].Generator


def call(op, arg):
    """Runs the API call of a call:OP row with its JSON argument."""
    name, _, fmt = op.partition(":")
    if name == "new_many":
        return MODULES[fmt].new_many(arg)
    if name == "restore_snapshot":
        return restore_snapshot(arg)
    if name == "generator_partition":
        return sno.Generator(partition=arg)
    if name == "new_meta":
        return sno.new(meta=arg)
    if name == "ulidflake_sid":
        return sno.ulidflake.Generator(sid=arg)
    if name == "generator_kwargs":
        return generator(fmt)(**arg)
    if name == "new_with_unix_ns":
        return sno.Generator().new_at_unix_ns(0, arg)
    if name == "new_with_time":
        return sno.Generator().new_at_time(0, datetime.fromisoformat(arg))
    if name == "new_at":
        return generator(fmt)().new_at_unix_ms(arg)
    if name == "from_int":
        return VALUES[fmt].from_int(arg)
    if name == "timestamp":
        return VALUES[fmt](arg).timestamp
    raise AssertionError(f"unknown call {op}")


@pytest.mark.parametrize("arg,op,expected", call_cases())
def test_call_row(arg, op, expected):
    # `except Exception` on purpose: a PanicException (a BaseException) must fail the test.
    try:
        call(op, arg)
    except Exception as e:
        got = e
    else:
        got = None
    if expected == "ok":
        assert got is None, repr(got)
        return
    cls, _, code = expected.partition(":")
    klass = getattr(sno, cls, None) or getattr(builtins, cls)
    assert isinstance(got, klass), repr(got)
    if code:
        assert got.code == code, repr(got)


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
    if kind == "lone-surrogate":
        p = int(arg)
        return [text[:p] + "\ud800" + text[p + 1 :], text[:p] + "\udfff" + text[p + 1 :]]
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
