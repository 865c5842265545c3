"""Every row of sno_codec.tsv, sno_decode_invalid.tsv, sno_decode_api.tsv and sno_newwithtime.tsv."""

import datetime as dt

import pytest

import sno
from _vectors import expected_error, rows


def test_codec_rows(codec_rows):
    assert len(codec_rows) == 5974
    for r in codec_rows:
        raw = bytes.fromhex(r["hex"])
        id_ = sno.ID.from_bytes(raw)
        assert str(id_) == r["encoded"], r["label"]
        assert sno.ID.from_str(r["encoded"]) == id_
        assert sno.ID(r["encoded"]) == id_
        assert bytes(id_) == raw and id_.bytes == raw
        assert id_.units == int(r["ts_units"])
        assert int(id_.tick_tock) == int(r["tick"])
        assert id_.unix_ns == int(r["unix_ns"])
        assert id_.timestamp.isoformat(timespec="milliseconds").replace("+00:00", "Z") == r["time_utc"]
        assert id_.timestamp.tzinfo is dt.timezone.utc
        assert (id_.meta, id_.partition, id_.sequence) == (int(r["meta"]), int(r["partition"]), int(r["sequence"]))
        assert id_.is_zero() == (raw == bytes(10))


def test_codec_rows_batched(codec_rows):
    ids = [sno.ID.from_bytes(bytes.fromhex(r["hex"])) for r in codec_rows]
    texts = [r["encoded"] for r in codec_rows]
    assert sno.encode_many(ids) == texts
    assert sno.decode_many(texts) == ids
    # Every batch length up to 9: the SIMD kernels' tails.
    for n in range(10):
        assert sno.encode_many(ids[:n]) == texts[:n]
        assert sno.decode_many(iter(texts[:n])) == ids[:n]


def test_invalid_rows_batched():
    """Each invalid row in the middle of a valid batch: same error as alone, plus the index."""
    good = "brpk4q72xwf2m63l"
    for r in rows("sno_decode_invalid.tsv"):
        text = bytes.fromhex(r["input_hex"]).decode("latin-1")
        want = expected_error(text.encode("utf-8"))
        batch = [good] * 5 + [text] + [good] * 3
        if want is None:
            assert sno.decode_many(batch)[5] == sno.ID.from_str(text)
            continue
        with pytest.raises(sno.DecodeError) as e:
            sno.decode_many(batch)
        assert (e.value.code, e.value.position, e.value.index) == (*want, 5), r["label"]
        assert str(e.value).startswith("item 5: ")


def test_invalid_rows_are_rejected_with_position():
    table = rows("sno_decode_invalid.tsv")
    assert len(table) == 625
    rejected = 0
    for r in table:
        data = bytes.fromhex(r["input_hex"])
        want = expected_error(data)
        text = data.decode("latin-1")
        if want is None:
            assert sno.ID.from_str(text).bytes.hex() == r["result_amd64_simd"], r["label"]
            continue
        rejected += 1
        # str input: latin-1 maps each byte to one code point; non-ASCII becomes 2 UTF-8 bytes.
        utf8 = text.encode("utf-8")
        want_str = expected_error(utf8)
        with pytest.raises(sno.DecodeError) as e:
            sno.ID.from_str(text)
        assert (e.value.code, e.value.position) == want_str, r["label"]
        if want_str[0] == "invalid_byte":
            assert e.value.byte == utf8[want_str[1]]
        if data.isascii():
            assert want_str == want
    assert rejected == 625 - sum(1 for r in table if expected_error(bytes.fromhex(r["input_hex"])) is None)


def test_decode_api_rows():
    table = rows("sno_decode_api.tsv")
    assert len(table) == 69
    for r in table:
        api, kind = r["api"], r["input_kind"]
        data = bytes.fromhex(r["input_hex"]) if r["input_hex"] not in ("", "-") else b""
        binary = api in ("FromBinaryBytes", "ID.UnmarshalBinary") or (api == "ID.Scan" and kind.startswith("[]byte"))
        text = api in ("FromEncodedString", "FromEncodedBytes", "ID.UnmarshalText") or (api == "ID.Scan" and kind == "string")
        if binary:
            if len(data) == 10:
                assert sno.ID.from_bytes(data).bytes.hex() == r["result"]
            else:
                with pytest.raises(sno.DecodeError) as e:
                    sno.ID.from_bytes(data)
                assert (e.value.code, e.value.position) == ("invalid_length", len(data))
        elif text:
            want = expected_error(data)
            if want is None:
                assert r["error"] == "-"
                assert sno.ID.from_str(data.decode()).bytes.hex() == r["result"]
            else:
                with pytest.raises(sno.DecodeError) as e:
                    sno.ID.from_str(data.decode())
                assert (e.value.code, e.value.position) == want
        else:
            # Scan of another type: Python reports the wrong type as TypeError.
            value = {"<nil>": None, "int64": 69, "float64": 3.5, "bool": True,
                     "time.Time": dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)}.get(kind)
            if kind == "sno.ID":
                assert sno.ID(sno.ID("2622222222222222")) == sno.ID("2622222222222222")
            else:
                with pytest.raises(TypeError):
                    sno.ID(value)


def _generator_for(label):
    partition = int(label[1:5], 16)
    parts = label.split("_")
    if parts[-1].isdigit() and parts[-2].isdigit():
        return sno.Generator(partition=partition, sequence_min=int(parts[-2]), sequence_max=int(parts[-1]))
    return sno.Generator(partition=partition)


def test_new_with_time_rows():
    table = rows("sno_newwithtime.tsv")
    assert len(table) == 40
    gens = {}
    refused = 0
    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    for r in table:
        gen = gens.setdefault(r["generator"], _generator_for(r["generator"]))
        ns = int(r["input_unix_ns"])
        meta = int(r["meta"])
        in_range = 1262304000000000000 <= ns <= 3461327255551999999
        if ns % 1000 == 0:
            when = epoch + dt.timedelta(microseconds=ns // 1000)
            call = lambda: gen.new_at_time(meta, when)  # noqa: E731
        else:
            call = lambda: gen.new_at_unix_ns(meta, ns)  # noqa: E731
        if in_range:
            assert call().bytes.hex() == r["hex"], r
        else:
            refused += 1
            with pytest.raises(sno.TimeRangeError):
                call()
    assert refused == 6


def test_snapshot_bounds_rows():
    table = rows("sno_snapshot_bounds.tsv")
    for r in table:
        lo, hi, seq = int(r["in_sequence_min"]), int(r["in_sequence_max"]), int(r["in_sequence"])
        snap = {"partition": 0, "sequence_min": lo, "sequence_max": hi, "sequence": seq,
                "now": 0, "wall_hi": 0, "wall_safe": 0, "drifts": 0}
        pool = int(r["error"].rsplit("pool: ", 1)[1]) if "pool: " in r["error"] else None
        if r["error"] == "-" and seq <= int(r["SequenceMax"]):
            g = sno.Generator(snapshot=snap)
            assert (g.sequence_min, g.sequence_max, g.capacity) == (int(r["SequenceMin"]), int(r["SequenceMax"]), int(r["Cap"]))
            assert g.new().sequence == int(r["first_New_sequence"])
        elif pool is not None and pool >= 4 and "underflows" not in r["error"]:
            assert sno.Generator(snapshot=snap).capacity == pool  # the documented minimum is 4
        else:
            with pytest.raises(sno.ConfigError):
                sno.Generator(snapshot=snap)
