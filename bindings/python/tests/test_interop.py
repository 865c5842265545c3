"""What every ID class gives the code around it: ``int`` / ``from_int``, ``to_uuid`` /
``from_uuid`` on the 128-bit formats, equality with ``uuid.UUID`` (a UUIDv7 is a UUID; the
others are not), ``sno.json_default`` (json, orjson, msgspec), the class attributes the
database integrations read (from the core's column-type table), the JSON-schema text
patterns, and that ``import sno`` imports none of the optional integrations."""

import json
import re
import subprocess
import sys
import uuid

import msgspec
import orjson
import pytest
from hypothesis import given, settings, strategies as st

import sno
from _ids import PREFIX, generator

CLASSES = list(sno.ID_CLASSES)
UUID_CLASSES = [c for c in CLASSES if c.BINARY_LEN == 16]


def test_id_classes_are_every_value_class_in_the_core_table_order():
    assert [c.FORMAT for c in CLASSES] == [
        "sno", "ulid", "uuid7", "scru128", "scru160", "nanoflake", "ulidflake", "typeid", "ksuid",
    ]
    assert CLASSES == [
        sno.ID, sno.ULID, sno.UUID7, sno.SCRU128, sno.SCRU160, sno.Nanoflake, sno.UlidFlake, sno.TypeID, sno.KSUID,
    ]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_int_round_trips(cls):
    x = generator(cls)()
    n = int(x)
    assert n == x.int == int.from_bytes(bytes(x), "big") and n >= 0
    back = cls.from_int(n)
    if cls is sno.TypeID:  # the binary form (and so the int) leaves the prefix out
        assert back == sno.TypeID.from_uuid("", x.uuid) and back.prefix == ""
    else:
        assert back == x
    with pytest.raises(sno.DecodeError) as e:
        cls.from_int(-1)
    assert e.value.code == "value_overflow"
    with pytest.raises(sno.DecodeError):
        cls.from_int(1 << (8 * cls.BINARY_LEN))


def test_column_types_follow_the_binary_forms():
    """The core's table, as the classes give it: 8-byte formats are bigint, the 16-byte ones
    uuid, the others (sno, SCRU160, KSUID) bytes; each with its PostgreSQL and SQLite names."""
    want = {
        "bigint": ("bigint", "INTEGER"),
        "uuid": ("uuid", "BLOB"),
        "bytes": ("bytea", "BLOB"),
    }
    for cls in CLASSES:
        kind = {8: "bigint", 16: "uuid"}.get(cls.BINARY_LEN, "bytes")
        assert cls.COLUMN_TYPE == kind, cls
        assert (cls.POSTGRES_TYPE, cls.SQLITE_TYPE) == want[kind], cls
    assert sno.ID.COLUMN_TYPE == sno.SCRU160.COLUMN_TYPE == sno.KSUID.COLUMN_TYPE == "bytes"
    assert sno.TypeID.COLUMN_TYPE == "uuid"


@pytest.mark.parametrize("cls", UUID_CLASSES, ids=lambda c: c.__name__)
def test_to_uuid_and_from_uuid(cls):
    x = generator(cls)()
    u = x.to_uuid()
    assert type(u) is uuid.UUID and u.bytes == bytes(x) and u.int == int(x)
    if cls is sno.TypeID:
        assert sno.TypeID.from_uuid(PREFIX, u) == x
        return
    assert cls.from_uuid(u) == x == cls(u)
    with pytest.raises(TypeError, match="uuid.UUID"):
        cls.from_uuid(str(u))
    with pytest.raises(TypeError):
        cls.from_uuid(bytes(x))


def test_from_uuid_is_strict_where_the_format_is():
    with pytest.raises(sno.DecodeError) as e:
        sno.UUID7.from_uuid(uuid.uuid4())
    assert e.value.code == "not_version_7"
    top = uuid.UUID(int=(1 << 128) - 1)  # every 128-bit value is a ULID and a SCRU128
    assert int(sno.ULID.from_uuid(top)) == int(sno.SCRU128.from_uuid(top)) == top.int


def test_uuid7_equals_the_uuid_of_its_value():
    """A UUIDv7 is a UUID: equal to the uuid.UUID with the same 128 bits, hashed the same (so
    either finds the other in a dict or set), and ordered with it."""
    a, b = sno.uuid7.new(), sno.uuid7.new()
    ua, ub = uuid.UUID(bytes=bytes(a)), uuid.UUID(bytes=bytes(b))
    assert a == ua and ua == a and not (a != ua) and not (ua != a)
    assert hash(a) == hash(ua) and {ua: 1}[a] == 1 and {a: 2}[ua] == 2 and len({a, ua}) == 1
    assert a != ub and ub != a and hash(a) == hash(sno.UUID7(str(a)))
    assert a < ub and ua < b and b > ua and ub >= a and a <= ua and ua >= a
    assert sorted([ub, a, b, ua]) == [a, ua, b, ub] or sorted([ub, a, b, ua]) == [ua, a, b, ub]
    assert a != str(a) and a != int(a) and a != bytes(a)
    with pytest.raises(TypeError):
        a < int(b)
    with pytest.raises(TypeError):
        a < sno.ULID(bytes(b))


@pytest.mark.parametrize("cls", [sno.ULID, sno.SCRU128, sno.TypeID], ids=lambda c: c.__name__)
def test_other_128_bit_formats_are_not_uuids(cls):
    """ULID, SCRU128 and TypeID are not UUIDs: never equal to a uuid.UUID, even of the same
    128 bits (convert with to_uuid()); nor equal to a UUID7 of the same bits."""
    x = generator(cls)()
    u = x.to_uuid()
    assert x != u and u != x and not (x == u)
    with pytest.raises(TypeError):
        x < u
    if cls is not sno.TypeID:
        v7 = sno.UUID7(sno.uuid7.new().to_uuid())
        assert cls(v7.to_uuid()) != v7


ALL_KINDS = [
    sno.ID("brpk4q72xwf2m63l"),
    sno.ULID("01ARZ3NDEKTSV4RRFFQ69G5FAV"),
    sno.UUID7("01890a5d-ac96-774b-bcce-b302099a8057"),
    sno.SCRU128("036z951mhjikzik2gsl81gr7l"),
    sno.SCRU160.from_bytes(bytes(range(20))),
    sno.Nanoflake(2588350721531334656),
    sno.UlidFlake("01HRW8N3S4000"),
    sno.TypeID("user_01h455vb4pex5vsknk084sn02q"),
    sno.KSUID("0ujtsYcgvSTl8PAuAdqWYSMnLOv"),
]


def test_json_default_writes_the_canonical_text():
    assert {type(x) for x in ALL_KINDS} == set(CLASSES)
    out = json.dumps({"ids": ALL_KINDS}, default=sno.json_default)
    texts = json.loads(out)["ids"]
    assert texts == [str(x) for x in ALL_KINDS]
    assert [type(x).from_str(t) for x, t in zip(ALL_KINDS, texts)] == ALL_KINDS


def test_json_default_refuses_other_objects_as_json_does():
    for bad in (object(), {1, 2}, b"\x00", uuid.uuid4()):
        with pytest.raises(TypeError) as e:
            json.dumps([bad], default=sno.json_default)
        with pytest.raises(TypeError) as plain:
            json.dumps([bad])
        assert str(e.value) == str(plain.value)


def test_orjson_and_msgspec_take_json_default():
    want = json.dumps([str(x) for x in ALL_KINDS], separators=(",", ":")).encode()
    assert orjson.dumps(ALL_KINDS, default=sno.json_default) == want
    assert msgspec.json.encode(ALL_KINDS, enc_hook=sno.json_default) == want
    with pytest.raises(TypeError):
        orjson.dumps([object()], default=sno.json_default)
    with pytest.raises(TypeError):
        msgspec.json.encode([object()], enc_hook=sno.json_default)
    # Decoding: msgspec hands a typed field's string to dec_hook; the class's from_str reads it.
    def dec_hook(cls, value):
        return cls.from_str(value)

    ulid = sno.ulid.new()
    data = msgspec.json.encode({"id": ulid}, enc_hook=sno.json_default)
    assert msgspec.json.decode(data, type=dict[str, sno.ULID], dec_hook=dec_hook) == {"id": ulid}
    with pytest.raises(msgspec.ValidationError, match="invalid length 2"):
        msgspec.json.decode(b'{"id": "xx"}', type=dict[str, sno.ULID], dec_hook=dec_hook)


def test_importing_sno_imports_no_integration():
    code = (
        "import sys, sno, json\n"
        "x = sno.ULID(sno.ulid.new().to_uuid())\n"
        "json.dumps([x], default=sno.json_default)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pydantic', 'pydantic_core', 'sqlalchemy', 'psycopg', 'psycopg_binary', 'orjson', 'msgspec')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    # The integrations import theirs only when imported themselves.
    code = "import sys, sno.sqlalchemy, sno.psycopg; print('sqlalchemy' in sys.modules, 'psycopg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True"


# Text from each format's alphabet and others, around its lengths: what from_str accepts
# matches TEXT_PATTERN (the pattern describes the accepted texts for JSON schemas; it may be
# looser, never stricter).
TEXT = st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-", max_size=40)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_text_pattern_matches_every_accepted_text(cls):
    pattern = re.compile(cls.TEXT_PATTERN)
    make = generator(cls)
    for _ in range(200):
        x = make()
        for text in {str(x), str(x).upper(), str(x).lower()}:
            try:
                cls.from_str(text)
            except sno.DecodeError:
                continue
            assert pattern.fullmatch(text), text
            assert cls.TEXT_MIN_LEN <= len(text) <= cls.TEXT_MAX_LEN

    @settings(max_examples=300, deadline=None)
    @given(TEXT, st.data())
    def accepted_text_matches(text, data):
        # Half the time a valid text with one character changed, to get near the edges.
        if data.draw(st.booleans()):
            base = str(make())
            i = data.draw(st.integers(0, len(base) - 1))
            c = data.draw(st.sampled_from("0789AIOUZaiouz_-"))
            text = base[:i] + c + base[i + 1 :]
        try:
            cls.from_str(text)
        except sno.DecodeError:
            return
        assert pattern.fullmatch(text), text
        assert cls.TEXT_MIN_LEN <= len(text) <= cls.TEXT_MAX_LEN

    accepted_text_matches()
