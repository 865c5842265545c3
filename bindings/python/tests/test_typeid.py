"""sno.TypeID against the spec's own cases (testdata/vectors/typeid_valid.tsv and
typeid_invalid.tsv, transcribed from jetify-com/typeid's valid.yml and invalid.yml), and its
extras: new(prefix), prefix, suffix, uuid, from_uuid."""

import pickle
import uuid

import pytest

import sno
from sno import typeid
from _vectors import rows

VALID = rows("typeid_valid.tsv")
INVALID = rows("typeid_invalid.tsv")


@pytest.mark.parametrize("r", VALID, ids=lambda r: r["name"])
def test_valid_cases(r):
    u = uuid.UUID(r["uuid"])
    t = sno.TypeID(r["typeid"])
    assert str(t) == r["typeid"] and t.prefix == r["prefix"] and t.uuid == u == t.to_uuid()
    assert t.suffix == r["typeid"].rpartition("_")[2]
    assert sno.TypeID.from_uuid(r["prefix"], u) == t == sno.TypeID.from_uuid(r["prefix"], u.bytes)
    assert t.int == u.int and bytes(t) == u.bytes and t.fields()["prefix"] == r["prefix"]
    assert sno.TypeID.parse(r["typeid"]) == t and pickle.loads(pickle.dumps(t)) == t
    # The binary form is the UUID alone: the prefix does not travel in it.
    assert sno.TypeID.from_bytes(bytes(t)) == sno.TypeID(u) == sno.TypeID.from_uuid("", u)
    assert sno.TypeID.from_bytes(bytes(t)).prefix == ""
    if u.version == 7 and u.variant == uuid.RFC_4122:
        assert t.unix_ms == sno.UUID7(u).unix_ms and t.timestamp == sno.UUID7(u).timestamp
        assert ", time='" in repr(t)
    else:
        assert t.unix_ms is None and t.timestamp is None


@pytest.mark.parametrize("r", INVALID, ids=lambda r: r["name"])
def test_invalid_cases(r):
    with pytest.raises(sno.DecodeError) as e:
        sno.TypeID(r["typeid"])
    assert e.value.code == r["error_code"]
    prefix = r["typeid"].rpartition("_")[0]
    if r["error_code"] == "invalid_prefix" and prefix:  # "_…": an empty prefix with a "_"
        with pytest.raises(sno.DecodeError) as e:
            sno.TypeID.from_uuid(prefix, uuid.UUID(int=0))
        assert e.value.code == "invalid_prefix"


def test_new_makes_uuid7_and_checks_the_prefix():
    a, b = typeid.new("user"), sno.TypeID.new("user")
    assert a < b and a.prefix == b.prefix == "user" and str(a).startswith("user_")
    assert sno.UUID7(a.uuid).unix_ms == a.unix_ms and a.version == 7 and a.variant == 2
    assert sno.TypeID.new("").prefix == "" and len(str(sno.TypeID.new(""))) == 26
    for bad in ("User", "_user", "user_", "a" * 64, "us3r", "usér", "\ud800"):
        with pytest.raises(sno.DecodeError) as e:
            typeid.new(bad)
        assert e.value.code == "invalid_prefix", bad
    with pytest.raises(TypeError):
        typeid.new(5)


def test_order_is_prefix_then_uuid_and_text_order():
    values = [sno.TypeID(r["typeid"]) for r in VALID]
    assert sorted(values) == sorted(values, key=str)


def test_from_uuid_takes_a_uuid_its_bytes_a_uuid7_a_ulid_or_text():
    with pytest.raises(sno.DecodeError) as e:
        sno.TypeID.from_uuid("user", b"\x00" * 15)
    assert e.value.code == "invalid_length"
    want = sno.TypeID("user_01h455vb4pex5vsknk084sn02q")
    text = "01890a5d-ac96-774b-bcce-b302099a8057"
    u7 = sno.UUID7(text)
    # As Node's TypeId.fromUuid: a UUIDv7 value or its text, as well as uuid.UUID and bytes.
    assert sno.TypeID.from_uuid("user", text) == want
    assert sno.TypeID.from_uuid("user", u7) == want
    assert sno.TypeID.from_uuid("user", sno.ULID(bytes(u7))) == want
    assert sno.TypeID.from_uuid("user", uuid.UUID(text)) == want
    with pytest.raises(sno.DecodeError) as e:
        sno.TypeID.from_uuid("user", "not-a-uuid")
    assert e.value.code == "invalid_length"
    with pytest.raises(TypeError) as t:
        sno.TypeID.from_uuid("user", 42)
    # Every form it takes, named.
    assert str(t.value) == (
        "TypeID.from_uuid(prefix, uuid): uuid must be a uuid.UUID, its 16 bytes, a sno.ULID,"
        " a sno.UUID7 or a UUIDv7's text, got int"
    )


def test_module_docstring_examples():
    import doctest

    result = doctest.testmod(typeid)
    assert result.failed == 0 and result.attempted > 0
