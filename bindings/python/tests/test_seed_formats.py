"""sno.SCRU160, sno.Nanoflake and sno.UlidFlake: every vector row, the reference runs, the
generator rules, properties, errors, concurrency (threads; fork in test_formats.py) and the ``sno inspect`` CLI."""

import copy
import json
import pickle
import subprocess
import sys
import threading
from datetime import datetime, timezone

import pytest
from hypothesis import given, strategies as st

import sno
from sno import nanoflake, scru160, ulidflake
from _vectors import rows

NANO_EPOCH = 1640995200000
YEAR_9999_END_MS = 253402300799999
B32HEX = set("0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv")
CROCKFORD = set("0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz")


def expected_error(text, lengths, alphabet):
    """(code, position) a strict decoder must report, worked out without the library."""
    data = text.encode()
    if len(data) not in lengths:
        return ("invalid_length", len(data))
    for i, c in enumerate(data):
        if chr(c) not in alphabet:
            return ("invalid_byte", i)
    raise AssertionError(f"{text!r} has no bad byte")


def test_scru160_vector_rows():
    table = rows("scru160_vectors.tsv")
    assert len(table) == 297
    for r in table:
        s = sno.SCRU160.from_bytes(bytes.fromhex(r["hex"]))
        assert str(s) == r["base32hex"] and s.hex == r["hex"], r["note"]
        for text in (r["base32hex"], r["base32hex"].lower(), r["hex"], r["hex"].upper()):
            assert sno.SCRU160(text) == sno.SCRU160.from_str(text) == s
        assert (s.unix_ms, s.counter, s.random16) == (int(r["timestamp_ms"]), int(r["counter"]), int(r["random16"]))
        assert s.random80 == int(r["random80_hex"], 16)
        assert s.int == int(r["hex"], 16) and sno.SCRU160.from_int(s.int) == s
        # The reference inspector crashes on timestamps past year 9999; we read them.
        crashes = r["inspect_cli"].startswith("crash")
        assert crashes == (s.unix_ms > YEAR_9999_END_MS)
        if not crashes:
            assert s.timestamp == datetime.fromtimestamp(s.unix_ms / 1000, timezone.utc)


def test_scru160_invalid_rows():
    table = rows("scru160_invalid.tsv")
    assert len(table) == 24
    for r in table:
        text = json.loads(r["input_json"])
        if r["expected"] == "accept":
            s = sno.SCRU160(text)
            if r["scru160_inspect_cli"].startswith("accept:"):
                assert s.hex == r["scru160_inspect_cli"][7:]
            continue
        with pytest.raises(sno.DecodeError) as e:
            sno.SCRU160(text)
        is_hex = len(text.encode()) == 40
        want = expected_error(text, {40} if is_hex else {32}, set("0123456789abcdefABCDEF") if is_hex else B32HEX)
        assert (e.value.code, e.value.position) == want, r["case"]


def test_nanoflake_vector_rows():
    table = rows("nanoflakes_vectors.tsv")
    assert len(table) == 245
    for r in table:
        n = sno.Nanoflake(int(r["value"]))
        assert n.bytes == bytes.fromhex(r["hex"]) and int(n) == n.int == int(r["value"])
        assert str(n) == r["base36"], r["note"]
        assert sno.Nanoflake(r["base36"]) == sno.Nanoflake(r["base36"].upper()) == sno.Nanoflake(n.padded) == n
        assert n.padded == r["base36"].rjust(13, "0")
        assert (n.timestamp_ms, n.generator_id, n.sequence) == (
            int(r["timestamp_field"]),
            int(r["generator_id"]),
            int(r["sequence"]),
        )
        epoch = int(r["epoch_ms"])
        assert n.unix_ms_at(epoch) == int(r["unix_ms"])
        assert n.reference_timestamp_ms == int(r["ref_timestampValue"])
        assert epoch + n.reference_timestamp_ms == int(r["ref_creationTimeMillis"])
        assert sno.Nanoflake.from_bytes(n.bytes) == n


def test_nanoflake_invalid_rows():
    table = rows("nanoflakes_invalid.tsv")
    assert len(table) == 20
    for r in table:
        text, case, java = json.loads(r["input_json"]), r["case"], r["java_new_Nanoflake_radix36"]
        # Accepted rows, the decimal ("n/a") rows and "0x1f" (four base36 digits: padded text can
        # start with 0x) agree with Java's radix-36 parse; every other reject is refused.
        if r["expected"].startswith(("accept", "n/a")) or case == "format: 0x prefix":
            if java.startswith("accept:"):
                assert int(sno.Nanoflake(text)) == int(java[7:]), case
            else:
                with pytest.raises(sno.DecodeError):
                    sno.Nanoflake(text)
            continue
        with pytest.raises(sno.DecodeError) as e:
            sno.Nanoflake(text)
        if case.startswith("overflow"):
            assert e.value.code == "value_overflow" and e.value.position is None
        else:
            n = len(text.encode())
            alnum = set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
            assert (e.value.code, e.value.position) == expected_error(text, set(range(1, 14)) & {n}, alnum), case


def test_nanoflake_reference_run():
    """The Java run replayed through new_at_unix_ms, with the clock read off each ID."""
    table = rows("nanoflakes_generated.tsv")
    assert len(table) == 238
    g = nanoflake.Generator(NANO_EPOCH, 5)
    last = None
    for r in table:
        ts, seq = int(r["timestamp_field"]), int(r["sequence"])
        first = last[1] + 1 if last and last[0] == ts else 0
        if first == 0 and last and last[1] == 4095:
            with pytest.raises(sno.RandomnessExhaustedError):
                g.new_at_unix_ms(NANO_EPOCH + last[0])
        for _ in range(first, seq):
            g.new_at_unix_ms(NANO_EPOCH + ts)
        n = g.new_at_unix_ms(NANO_EPOCH + ts)
        assert int(n) == int(r["value"]) and str(n) == r["base36"], r["index"]
        assert n.reference_timestamp_ms == int(r["ref_timestampValue"])
        assert n.generator_id == int(r["generator_id"])
        last = (ts, seq)


def test_ulidflake_vector_rows():
    table = rows("ulidflake_vectors.tsv")
    assert len(table) == 223
    for r in table:
        f = sno.UlidFlake(int(r["value"]))
        assert f.bytes == bytes.fromhex(r["hex"]) and int(f) == int(r["value"])
        assert str(f) == r["ulidflake"], r["note"]
        assert sno.UlidFlake(r["ulidflake"].lower()) == sno.UlidFlake.from_str(r["ulidflake"]) == f
        assert f.timestamp_ms == int(r["timestamp_ms"]) and f.unix_ms == int(r["unix_ms"])
        assert f.randomness == int(r["randomness20"])
        assert (f.scalable_randomness, f.sid) == (int(r["scalable_randomness15"]), int(r["scalable_sid"]))
        assert f.unix_ms_at(0) == f.timestamp_ms


def test_ulidflake_invalid_rows():
    table = rows("ulidflake_invalid.tsv")
    assert len(table) == 27
    for r in table:
        text, case = json.loads(r["input_json"]), r["case"]
        if r["expected"].startswith("accept"):
            # Case-insensitive as the spec and the Python reference (Go's is not).
            assert int(sno.UlidFlake(text)) == int(r["python_UlidFlake_parse"][7:]), case
            continue
        with pytest.raises(sno.DecodeError) as e:
            sno.UlidFlake(text)
        if "overflow" in r["expected"]:
            assert e.value.code == "value_overflow", case
        else:
            assert (e.value.code, e.value.position) == expected_error(text, {13}, CROCKFORD), case


def test_ulidflake_reference_run_reads_back():
    """Every ID of the Go run reads back as its fields (the draws are replayed in Rust)."""
    table = rows("ulidflake_generated.tsv")
    assert len(table) == 210
    ok = [r for r in table if r["result"] == "ok"]
    assert len(table) - len(ok) == 28
    assert all(r["result"] == "error: overflow error" for r in table if r["result"] != "ok")
    values = []
    for r in ok:
        f = sno.UlidFlake(r["ulidflake"])
        assert (f.timestamp_ms, f.randomness) == (int(r["timestamp_ms"]), int(r["randomness20"]))
        values.append(f)
    assert values == sorted(values) and len(set(values)) == len(values)


def test_generator_rules():
    g = nanoflake.Generator(epoch_ms=1_000, generator_id=1023)
    a = g.new_at_unix_ms(5_000)
    assert (a.timestamp_ms, a.generator_id, a.sequence) == (4_000, 1023, 0)
    with pytest.raises(sno.ClockRegressionError) as e:
        g.new_at_unix_ms(4_999)
    assert e.value.code == "clock_rollback"
    assert g.new_at_unix_ms(5_000).sequence == 1
    with pytest.raises(sno.TimeRangeError):
        g.new_at_unix_ms(999)
    for bad in [(0, 1024), (-1, 0)]:
        with pytest.raises(sno.ConfigError):
            nanoflake.Generator(*bad)
    live = nanoflake.Generator(NANO_EPOCH, 1)
    assert live.new() < live.new() < live.try_new()

    s = ulidflake.Generator(sid=7, entropy_size=2)
    values = []
    with pytest.raises(sno.RandomnessExhaustedError):
        while True:
            values.append(s.new_at_unix_ms(ulidflake.DEFAULT_EPOCH_MS + 9))
    assert values == sorted(values) and values[0].sid == 7 and values[-1].timestamp_ms == 9
    assert s.new_at_unix_ms(ulidflake.DEFAULT_EPOCH_MS + 10) > values[-1]
    for bad in [{"sid": 32}, {"sid": 1, "entropy_size": 3}, {"entropy_size": 0}, {"epoch_ms": -5}]:
        with pytest.raises(sno.ConfigError):
            ulidflake.Generator(**bad)
    d = ulidflake.Generator()
    assert d.new() < d.new() < d.try_new()

    g160 = scru160.Generator()
    x, y = g160.new_at_unix_ms(1631540490683), g160.new_at_unix_ms(1631540490683)
    assert y.counter == x.counter + 1 and x.counter < 0x8000
    with pytest.raises(sno.TimeRangeError):
        g160.new_at_unix_ms(0)


@pytest.mark.parametrize("cls", [sno.SCRU160, sno.Nanoflake, sno.UlidFlake])
def test_value_behaviour_and_wrong_types(cls):
    v = {sno.SCRU160: scru160.new, sno.Nanoflake: lambda: nanoflake.Generator(0, 1).new(),
         sno.UlidFlake: ulidflake.new}[cls]()
    assert pickle.loads(pickle.dumps(v)) == v and copy.deepcopy(v) is v
    assert cls(str(v)) == cls(v) == cls.from_bytes(bytes(v)) == v
    assert hash(v) == hash(cls(str(v))) and v != str(v)
    assert repr(v).startswith(f"sno.{cls.__name__}('{v}'")
    for wrong in [1.5, None, [1]]:
        with pytest.raises(TypeError):
            cls(wrong)
    with pytest.raises(sno.DecodeError) as e:
        cls.from_bytes(b"\x00" * 3)
    assert e.value.code == "invalid_length"
    if cls is not sno.SCRU160:
        with pytest.raises(sno.DecodeError):
            cls(-1)
        with pytest.raises(sno.DecodeError):  # value_overflow, not an OverflowError (#21)
            cls(2**63)
        with pytest.raises(sno.DecodeError):
            cls.from_bytes(b"\x80" + b"\x00" * 7)


@given(st.integers(0, 2**63 - 1), st.integers(0, 2**63 - 1))
def test_64_bit_round_trips_and_order(a, b):
    for cls in (sno.Nanoflake, sno.UlidFlake):
        x, y = cls(a), cls(b)
        assert cls(str(x)) == x and cls(str(x).swapcase()) == x and cls(bytes(x)) == x
        assert (x < y) == (a < b)
    assert (sno.UlidFlake(a) < sno.UlidFlake(b)) == (str(sno.UlidFlake(a)) < str(sno.UlidFlake(b)))
    assert (a < b) == (sno.Nanoflake(a).padded < sno.Nanoflake(b).padded)


@given(st.binary(min_size=20, max_size=20), st.binary(min_size=20, max_size=20))
def test_scru160_round_trips_and_order(a, b):
    x, y = sno.SCRU160.from_bytes(a), sno.SCRU160.from_bytes(b)
    assert sno.SCRU160(str(x).lower()) == sno.SCRU160(x.hex.upper()) == x
    assert (x < y) == (a < b) == (str(x) < str(y)) == (x.hex < y.hex)


@given(st.text(max_size=45))
def test_arbitrary_text_never_crashes(text):
    for cls in (sno.SCRU160, sno.Nanoflake, sno.UlidFlake):
        try:
            v = cls(text)
        except sno.DecodeError as e:
            assert e.code in ("invalid_length", "invalid_byte", "value_overflow")
        else:
            assert str(v).lstrip("0").lower() == text.lstrip("0").lower() or len(text) == 40


@pytest.mark.parametrize("make", ["scru160", "nanoflake", "ulidflake"])
def test_threads_share_a_generator(make):
    g = {"scru160": scru160.Generator, "nanoflake": lambda: nanoflake.Generator(NANO_EPOCH, 9),
         "ulidflake": ulidflake.Generator}[make]()
    out = [[] for _ in range(6)]

    def work(slot):
        out[slot] = [g.new() for _ in range(10000)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for values in out:
        assert values == sorted(values)
    everything = [v for values in out for v in values]
    assert len(set(everything)) == len(everything)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sno", *args], capture_output=True, text=True)


def test_cli_inspect_every_format():
    out = run_cli(
        "inspect",
        "00CMXB6TAK4SA",
        "05ttup1hncpnh30vek64kdqt9bsnu4c4",
        "jnxxr658jlkw",
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
        "0372hg16csmsm50l8dikcvukc",
        "--nanoflake-epoch",
        "1640995200000",
    )
    # 00CMXB6TAK4SA (also a Nanoflake) and jnxxr658jlkw (only a Nanoflake) are ambiguous:
    # every reading is printed, the ambiguity is said on stderr, and the status is 1.
    assert out.returncode == 1, out.stderr
    assert "00CMXB6TAK4SA: sno: the text reads as more than one format (Nanoflake, Ulid-Flake)" in out.stderr
    assert "jnxxr658jlkw: sno: the text reads only as a Nanoflake" in out.stderr
    text = out.stdout
    assert "00CMXB6TAK4SA format=ulidflake " in text and "time=2024-06-06T06:06:06.666Z" in text
    assert " format=scru160 " in text and "time=2021-09-13T13:41:30.683Z" in text and " counter=13176 " in text
    assert "jnxxr658jlkw format=nanoflake " in text and " generator_id=5 " in text and "time=2041-07-22T11:41:41.244Z" in text
    assert " format=ulid " in text and "time=2016-07-30T23:54:10.259Z" in text
    assert " format=uuid7 " in text and "time=2022-02-22T19:22:22.000Z" in text
    assert " format=scru128 " in text and " counter_hi=8268596 " in text
    # Past year 9999: the number of milliseconds, no ISO time.
    past = run_cli("inspect", "VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV")
    assert past.returncode == 0 and " unix_ms=281474976710655 " in past.stdout and "time=" not in past.stdout
    bad = run_cli("inspect", "00CMXB6TAK4S-", "x" * 50)
    assert bad.returncode == 1 and "position 12" in bad.stderr and "the text (50 bytes) is an ID of no format" in bad.stderr


@pytest.mark.parametrize("name", ["sno", "sno.ulid", "sno.uuid7", "sno.scru128", "sno.scru160", "sno.nanoflake", "sno.ulidflake", "sno.ksuid"])
def test_module_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


def test_repr_times_up_to_year_9999():
    u = sno.ULID.from_int((253402300799999 << 80) | 5)
    assert "time='9999-12-31T23:59:59.999Z'" in repr(u)
    assert "unix_ms=253402300800000" in repr(sno.ULID.from_int(253402300800000 << 80))
    assert "time='2500-01-01T00:00:00.000Z'" in repr(sno.SCRU160.from_int(16725225600000 << 112))
