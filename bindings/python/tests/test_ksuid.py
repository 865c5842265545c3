"""sno.KSUID against testdata/vectors/ksuid_*.tsv (segmentio/ksuid, svix-ksuid, cyksuid and npm
ksuid agree on every valid row; the error codes are sno-core's strict decoder's), and its own
surface: the fields ``timestamp_secs`` (``.timestamp`` is the datetime) and ``payload``,
``from_fields``, the generator's rule (ULID's, with seconds), the range of its clock, errors."""

import copy
import json
import pickle
import shutil
import subprocess
import sys
import threading
import uuid
from datetime import datetime, timezone

import pytest
from hypothesis import given, strategies as st

import sno
from sno import ksuid
from _vectors import rows

EPOCH_S = 1_400_000_000  # 2014-05-13T16:53:20Z
LAST_S = EPOCH_S + 2**32 - 1  # 2150-06-19T23:21:35Z
BASE62 = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
VECTORS = rows("ksuid_vectors.tsv")
INVALID = rows("ksuid_invalid.tsv")


def test_vector_rows():
    assert len(VECTORS) == 41
    for r in VECTORS:
        raw = bytes.fromhex(r["hex"])
        k = sno.KSUID.from_bytes(raw)
        assert str(k) == r["ksuid"], r["note"]
        assert sno.KSUID(r["ksuid"]) == sno.KSUID.from_str(r["ksuid"]) == sno.KSUID.parse(r["ksuid"]) == k
        assert k.bytes == bytes(k) == raw and sno.KSUID(raw) == k
        assert k.int == int(k) == int(r["hex"], 16) and sno.KSUID.from_int(k.int) == k
        assert k.timestamp_secs == int(r["timestamp"]) and k.payload == int(r["payload_hex"], 16)
        assert k.fields() == {"timestamp_secs": int(r["timestamp"]), "payload": int(r["payload_hex"], 16)}
        assert sno.KSUID.from_fields(timestamp_secs=k.timestamp_secs, payload=k.payload) == k
        assert k.unix_ms == int(r["unix_ms"]) == (int(r["unix_secs"])) * 1000
        assert k.unix_ns == k.unix_ms * 1_000_000
        assert k.timestamp == datetime.fromtimestamp(int(r["unix_secs"]), timezone.utc)


@pytest.mark.parametrize("r", INVALID, ids=lambda r: r["case"])
def test_invalid_rows(r):
    text = json.loads(r["input_json"])
    if r["expected"] == "accept":
        k = sno.KSUID(text)
        assert str(k) == text  # case-sensitive: every accepted text is canonical
        return
    with pytest.raises(sno.DecodeError) as e:
        sno.KSUID.from_str(text)
    assert e.value.code == r["error_code"]
    data = text.encode()
    if e.value.code == "invalid_length":
        assert len(data) != 27 and (e.value.position, e.value.byte) == (len(data), None)
    elif e.value.code == "invalid_byte":
        first_bad = next(i for i, c in enumerate(data) if chr(c) not in BASE62)
        assert (e.value.position, e.value.byte) == (first_bad, data[first_bad])
    else:
        assert len(data) == 27 and set(text) <= BASE62 and e.value.position is None
        assert sum(sorted(BASE62).index(c) * 62**i for i, c in enumerate(reversed(text))) >= 2**160


def test_case_is_part_of_the_value():
    k = sno.KSUID("0ujtsYcgvSTl8PAuAdqWYSMnLOv")
    upper, lower = sno.KSUID("0UJTSYCGVSTL8PAUADQWYSMNLOV"), sno.KSUID("0ujtsycgvstl8pauadqwysmnlov")
    assert len({k, upper, lower}) == 3 and upper < k < lower


def test_repr_shows_the_time_not_the_raw_timestamp():
    k = sno.KSUID("0ujtsYcgvSTl8PAuAdqWYSMnLOv")
    assert repr(k) == (
        "sno.KSUID('0ujtsYcgvSTl8PAuAdqWYSMnLOv', time='2017-10-10T04:00:47.000Z', "
        f"payload={0xB5A1CD34B5F99D1154FB6853345C9735})"
    )
    top = sno.KSUID.from_bytes(b"\xff" * 20)
    assert repr(top).startswith("sno.KSUID('aWgEPTl1tmebfsQzFP4bxwgy80V', time='2150-06-19T23:21:35.000Z', ")
    assert top.timestamp == datetime(2150, 6, 19, 23, 21, 35, tzinfo=timezone.utc)


def test_from_fields_checks_each_width():
    k = sno.KSUID.from_fields(timestamp_secs=2**32 - 1, payload=2**128 - 1)
    assert k == sno.KSUID.from_bytes(b"\xff" * 20)
    assert sno.KSUID.from_fields(0, 2**127).payload == 2**127  # above i128: the whole u128 range
    for timestamp, payload in [(2**32, 0), (-1, 0), (0, 2**128), (0, -1), (0, 2**200), (0, -(2**200))]:
        with pytest.raises(sno.DecodeError) as e:
            sno.KSUID.from_fields(timestamp_secs=timestamp, payload=payload)
        assert (e.value.code, e.value.position) == ("value_overflow", None), (timestamp, payload)
    for bad in [("1", 0), (0, "1"), (0, 1.0)]:
        with pytest.raises(TypeError):
            sno.KSUID.from_fields(*bad)


def test_wrong_types_and_lengths():
    k = ksuid.new()
    for bad in (5, int(k), None, 1.5, bytearray(20), uuid.uuid4(), ["x"]):
        with pytest.raises(TypeError):
            sno.KSUID(bad)
    with pytest.raises(TypeError):
        sno.KSUID.from_str(bytes(27))
    with pytest.raises(sno.DecodeError) as e:
        sno.KSUID.from_bytes(bytes(19))
    assert (e.value.code, e.value.position) == ("invalid_length", 19)
    for bad in (-1, 2**160):
        with pytest.raises(sno.DecodeError) as e:
            sno.KSUID.from_int(bad)
        assert e.value.code == "value_overflow"
    assert sno.KSUID.from_int(2**160 - 1) == sno.KSUID("aWgEPTl1tmebfsQzFP4bxwgy80V")
    assert not hasattr(k, "to_uuid") and not hasattr(sno.KSUID, "from_uuid")
    with pytest.raises(TypeError):
        k < str(k)


def test_generation_and_value_behaviour():
    a, b = ksuid.new(), ksuid.new()
    assert a < b and isinstance(a, sno.KSUID) and len(str(a)) == 27 and str(a) < str(b)
    now_s = datetime.now(timezone.utc).timestamp()
    assert abs(a.unix_ms / 1000 - now_s) < 5 and a.unix_ms % 1000 == 0
    assert a.timestamp_secs == a.unix_ms // 1000 - EPOCH_S
    many = ksuid.new_many(1000)
    assert many == sorted(many) and len(set(many)) == 1000 and many[0] > b
    texts = ksuid.new_many(100, as_str=True)
    assert all(type(t) is str and len(t) == 27 for t in texts) and texts == sorted(texts)
    assert sno.KSUID(texts[0]) > many[-1] and ksuid.new_many(0) == []
    assert pickle.loads(pickle.dumps(a)) == a and copy.copy(a) is a and copy.deepcopy(a) is a
    assert hash(sno.KSUID(str(a))) == hash(a) and {a: 1}[sno.KSUID.from_bytes(bytes(a))] == 1
    assert a != str(a) and a != bytes(a) and a != int(a)
    assert sno.detect(str(a)) == a and type(sno.detect(str(a))) is sno.KSUID
    with pytest.raises(sno.ConfigError) as e:
        ksuid.new_many(-1)
    assert e.value.code == "batch_too_large" and e.value.max == sno.MAX_BATCH


def test_generator_rule_is_ulids_with_seconds():
    g = ksuid.Generator()
    assert repr(g) == "sno.KSUIDGenerator()"
    second = (EPOCH_S + 100_000_000) * 1000  # 2017-07-14T02:40:00Z
    first = g.new_at_unix_ms(second + 5)
    assert first.timestamp_secs == 100_000_000 and first.unix_ms == second
    # The same second, and a clock gone back: the last second's payload + 1, never out of order.
    run = [first] + [g.new_at_unix_ms(t) for t in (second + 999, second + 500, second - 60_000, second)]
    assert [k.timestamp_secs for k in run] == [100_000_000] * 5
    assert [k.payload - first.payload for k in run] == [0, 1, 2, 3, 4]
    # A new second: a fresh payload (equal to the next one with probability 2**-128).
    later = g.new_at_unix_ms(second + 1000)
    assert later.timestamp_secs == 100_000_001 and later > run[-1] and later.payload != run[-1].payload + 1
    assert g.new_at_unix_ms(second + 1999).payload == later.payload + 1
    # Every generator draws its own payloads.
    assert ksuid.Generator().new_at_unix_ms(second).payload != first.payload
    live = ksuid.Generator(clock="fast")
    assert live.new() < live.try_new() < live.new()


def test_generator_range_is_the_32_bit_seconds():
    g = ksuid.Generator()
    assert g.new_at_unix_ms(EPOCH_S * 1000).bytes[:4] == bytes(4)
    assert g.new_at_unix_ms(LAST_S * 1000 + 999).timestamp_secs == 2**32 - 1
    for unix_ms in (EPOCH_S * 1000 - 1, 0, -1, (LAST_S + 1) * 1000, 2**63 - 1, 2**64, -(2**70)):
        with pytest.raises(sno.TimeRangeError) as e:
            ksuid.Generator().new_at_unix_ms(unix_ms)
        assert e.value.code == "millis_out_of_range", unix_ms


PROBE = """
import sno
for new in (sno.ksuid.new, sno.ulid.new):
    try:
        print(new().timestamp.isoformat())
    except sno.SnoError as e:
        print(e.code)
"""


@pytest.mark.parametrize(
    "when,expected",
    [
        ("2014-05-13 16:53:19", "millis_out_of_range"),
        ("2014-05-13 16:53:20", "2014-05-13T16:53:20+00:00"),
        ("2024-02-29 12:00:00", "2024-02-29T12:00:00+00:00"),
        ("2150-06-19 23:21:35", "2150-06-19T23:21:35+00:00"),
        ("2150-06-19 23:21:36", "millis_out_of_range"),
        ("1969-12-31 23:59:00", "millis_out_of_range"),
    ],
)
def test_process_wide_generator_under_a_faked_clock(when, expected):
    """The system clock (libfaketime, slowed down 100 000 times so that it stays in the second)
    inside and outside KSUID's range: the value of that second, or the typed error."""
    faketime = shutil.which("faketime")
    assert faketime, "Debian's faketime is required (apt-get install faketime; .ci/run installs it)"
    done = subprocess.run(
        [faketime, "-f", f"@{when} x0.00001", sys.executable, "-c", PROBE],
        capture_output=True, text=True, timeout=60,
        env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin", "TZ": "UTC"},
    )
    assert done.returncode == 0, done.stderr
    got_ksuid, got_ulid = done.stdout.split()
    assert got_ksuid == expected
    # ULID's range (1970 .. 10889) holds every time above after 1970: the clock was faked as asked.
    assert got_ulid == ("millis_out_of_range" if when < "1970" else when.replace(" ", "T") + "+00:00")


def test_threads_share_a_generator():
    g = ksuid.Generator()
    out = [[] for _ in range(6)]

    def work(slot):
        out[slot] = [g.new() for _ in range(10000)] + [ksuid.new() for _ in range(2000)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for values in out:
        assert values[:10000] == sorted(values[:10000]) and values[10000:] == sorted(values[10000:])
    everything = [v for values in out for v in values]
    assert len(set(everything)) == len(everything)


RAW20 = st.binary(min_size=20, max_size=20)


@given(RAW20, RAW20)
def test_round_trips_and_text_order_is_byte_order(x, y):
    a, b = sno.KSUID.from_bytes(x), sno.KSUID.from_bytes(y)
    assert sno.KSUID.from_str(str(a)) == a and sno.KSUID.from_int(a.int) == a and bytes(a) == x
    assert sno.KSUID.from_fields(**a.fields()) == a and a.payload == int.from_bytes(x[4:], "big")
    assert (a < b) == (x < y) == (str(a) < str(b))


@given(st.text(max_size=40))
def test_arbitrary_text_never_crashes(text):
    try:
        k = sno.KSUID(text)
    except sno.DecodeError as e:
        assert e.code in ("invalid_length", "invalid_byte", "value_overflow")
    else:
        assert str(k) == text
