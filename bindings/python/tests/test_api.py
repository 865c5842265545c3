"""Value semantics, errors, types, snapshots and the CLI."""

import copy
import json
import pickle
import subprocess
import sys

import pytest

import sno


def test_value_semantics():
    a, b = sno.new(), sno.new()
    assert a < b and a <= b and b > a and a != b
    assert a == sno.ID(str(a)) and hash(a) == hash(sno.ID(str(a)))
    assert len({a, sno.ID(bytes(a)), b}) == 2
    assert (a == str(a)) is False and (a != bytes(a)) is True
    with pytest.raises(TypeError):
        a < str(b)  # noqa: B015
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.copy(a) is a and copy.deepcopy(a) is a
    with pytest.raises(AttributeError):
        a.meta = 3
    r = repr(sno.ID("brpk4q72xwf2m63l"))
    assert r == "sno.ID('brpk4q72xwf2m63l', time='2031-05-08T23:03:34.976Z', meta=255, partition=39434, sequence=4147, tick_tock=False)"


def test_wrong_types_raise_type_error():
    for bad in (None, 3, 3.5, ["x"], bytearray(10)):
        with pytest.raises(TypeError):
            sno.ID(bad)
    with pytest.raises(TypeError):
        sno.ID.from_str(b"brpk4q72xwf2m63l")
    with pytest.raises(TypeError):
        sno.ID.from_bytes("brpk4q72xwf2m63l")
    with pytest.raises(TypeError):
        sno.new("0")
    with pytest.raises(sno.ConfigError):  # an int, out of range: not an OverflowError (#21)
        sno.new(256)
    with pytest.raises(TypeError):
        sno.Generator(snapshot=[1, 2])
    with pytest.raises(TypeError):
        sno.Generator().new_at_time(0, 1234)


def test_error_details():
    with pytest.raises(sno.DecodeError) as e:
        sno.ID.from_str("brpk4q72xwf2m6zl")
    assert (e.value.position, e.value.byte, e.value.code) == (14, ord("z"), "invalid_byte")
    assert isinstance(e.value, ValueError) and isinstance(e.value, sno.SnoError)
    assert issubclass(sno.SequenceExhaustedError, RuntimeError) and issubclass(sno.ClockRegressionError, sno.SnoError)
    with pytest.raises(sno.DecodeError) as e:
        sno.ID.from_str("brpk")
    assert (e.value.position, e.value.byte, e.value.code) == (4, None, "invalid_length")
    with pytest.raises(sno.ConfigError) as e:
        sno.Generator(sequence_min=5, sequence_max=7)
    assert e.value.code == "invalid_sequence_bounds"
    with pytest.raises(sno.ConfigError):
        sno.Generator(partition=70000)


def test_generator_exhaustion_and_waiting():
    g = sno.Generator(partition=7, sequence_min=0, sequence_max=3)
    made, errors = [], []
    for _ in range(12):
        try:
            made.append(g.try_new())
        except sno.SequenceExhaustedError as e:
            # The ID made just before this error is in the exhausted unit; retry is after it.
            errors.append((e, made[-1]))
    assert 4 <= len(made) < 12 and errors
    first, before = errors[0]
    # (IDs made after the error may already be in the next unit, so compare with `before`.)
    assert first.code == "sequence_exhausted" and first.retry_at_unix_ns > before.unix_ns
    blocking = [g.new(1) for _ in range(20)]
    assert blocking == sorted(blocking) and len(set(blocking)) == 20
    stats = g.stats()
    assert stats["overflows"] >= len(errors) and stats["overflow_episodes"] >= 1


def test_snapshot_round_trips_through_json():
    g = sno.Generator(partition=0x0102, sequence_min=10, sequence_max=500)
    last = [g.new() for _ in range(5)][-1]
    snap = json.loads(json.dumps(g.snapshot()))
    assert snap["partition"] == 0x0102 and snap["sequence_min"] == 10
    restored = sno.Generator(snapshot=snap)
    assert restored.new() > last
    moved = sno.Generator(snapshot=snap, partition=9)
    assert moved.partition == 9
    with pytest.raises(sno.ConfigError):
        sno.Generator(snapshot={**snap, "wall_hi": -1})
    # Time fields past 2^39 - 1: the core's check, or beyond 64 bits the field's own range.
    for value, shown in [(2**39, "549755813887"), (2**64, "9223372036854775807")]:
        with pytest.raises(sno.ConfigError, match=shown) as raised:
            sno.Generator(snapshot={**snap, "wall_safe": value})
        assert raised.value.code == "invalid_snapshot"
    # The fields are checked in their order: the first bad one is reported.
    with pytest.raises(sno.ConfigError, match='"partition" = 70000 is outside 0..=65535'):
        sno.Generator(snapshot={**snap, "partition": 70000, "sequence": "x"})
    assert sno.Generator(partition=3).stats() == dict.fromkeys(
        ["overflows", "overflow_episodes", "drifts", "regressions", "waits"], 0
    )
    with pytest.raises(sno.ConfigError):
        sno.Generator(snapshot={**snap, "bogus": 1})
    with pytest.raises(sno.ConfigError):
        sno.Generator(snapshot={k: v for k, v in snap.items() if k != "drifts"})


def test_new_many():
    ids = sno.new_many(1000, meta=5)
    assert len(ids) == 1000 and ids == sorted(ids) and len(set(ids)) == 1000
    assert all(i.meta == 5 for i in ids)
    assert sno.new_many(0) == []
    texts = sno.new_many(1000, meta=5, as_str=True)
    assert all(type(t) is str and len(t) == 16 for t in texts)
    assert texts == sorted(texts) and len(set(texts)) == 1000
    assert texts[0] > str(ids[-1])
    assert all(sno.ID(t).meta == 5 for t in texts)


def test_batch_codec_types_and_errors():
    ids = sno.new_many(3)
    assert sno.encode_many(i for i in ids) == [str(i) for i in ids]
    assert sno.encode_many([]) == [] and sno.decode_many([]) == []
    with pytest.raises(TypeError):
        sno.encode_many([ids[0], "x"])
    with pytest.raises(TypeError):
        sno.encode_many(5)
    with pytest.raises(TypeError):
        sno.decode_many([str(ids[0]), b"2222222222222222"])
    with pytest.raises(sno.DecodeError) as e:
        sno.decode_many([str(ids[0]), "2222"])
    assert (e.value.code, e.value.index, e.value.position) == ("invalid_length", 1, 4)
    with pytest.raises(sno.DecodeError) as e:
        sno.decode_many([str(ids[0]), str(ids[1]), "22222222222222é2"])
    assert (e.value.code, e.value.index, e.value.position) == ("invalid_length", 2, 17)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sno", *args], capture_output=True, text=True)


def test_cli_new_and_inspect():
    out = run_cli("new", "-n", "3", "--meta", "7", "--partition", "258")
    assert out.returncode == 0, out.stderr
    ids = [sno.ID(line) for line in out.stdout.split()]
    assert len(ids) == 3 and all(i.meta == 7 and i.partition == 258 for i in ids)
    out = run_cli("inspect", "brpk4q72xwf2m63l")
    assert out.returncode == 0
    assert "2031-05-08T23:03:34.976Z" in out.stdout and "39434" in out.stdout and "4147" in out.stdout
    bad = run_cli("inspect", "BRPK4Q72XWF2M63L")
    assert bad.returncode == 1 and "position 0" in bad.stderr
    assert run_cli("new", "--meta", "300").returncode == 2


def test_stubs_match_the_runtime():
    out = subprocess.run([sys.executable, "-m", "mypy.stubtest", "sno"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_deprecated_names_warn_and_give_what_their_new_names_give():
    """The 0.2 names of minting at a given time: a DeprecationWarning, then the new name's value."""
    from datetime import datetime, timezone

    when = datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    ns = int(when.timestamp()) * 1_000_000_000
    g = sno.Generator()
    with pytest.warns(DeprecationWarning, match="renamed new_at_unix_ns"):
        old = g.new_with_unix_ns(1, ns)
    assert old.unix_ms == g.new_at_unix_ns(1, ns).unix_ms and old.meta == 1
    with pytest.warns(DeprecationWarning, match="renamed new_at_time"):
        assert g.new_with_time(1, when).unix_ms == old.unix_ms
    ms = 1_800_000_000_000
    for generator, time in (
        (sno.ulid.Generator(), "unix_ms"),
        (sno.nanoflake.Generator(0, 1), "timestamp_ms"),
        (sno.ulidflake.Generator(), "unix_ms"),
    ):
        with pytest.warns(DeprecationWarning, match="renamed new_at_unix_ms"):
            assert getattr(generator.new_at(ms), time) == ms
        assert getattr(generator.new_at_unix_ms(ms + 1), time) == ms + 1
