"""Every value class has the surface the core's format model gives it (one generic layer in the
binding): constructors, int and bytes round trips, ``to_uuid()`` on the 128-bit formats, the
named fields with the core's names (each a property), ``unix_ms`` / ``unix_ns`` / ``timestamp``
properties, ``from_fields`` and ``repr`` from the fields."""

import inspect
import uuid
from datetime import datetime, timezone

import pytest

import sno
import sno._sno
from sno import ksuid, nanoflake, scru128, scru160, typeid, ulid, ulidflake, uuid7

# The core's field names of each format, in layout order (sno-core: `IdFormat::fields`).
FIELDS = {
    sno.ID: ["units", "tick_tock", "meta", "partition", "sequence"],
    sno.ULID: ["unix_ms", "randomness"],
    sno.UUID7: ["unix_ms", "version", "rand_a", "variant", "rand_b"],
    sno.SCRU128: ["unix_ms", "counter_hi", "counter_lo", "entropy"],
    sno.SCRU160: ["unix_ms", "counter", "random16", "random80"],
    sno.Nanoflake: ["timestamp_ms", "generator_id", "sequence"],
    sno.UlidFlake: ["timestamp_ms", "randomness", "scalable_randomness", "sid"],
    sno.TypeID: ["prefix", "unix_ms", "version", "rand_a", "variant", "rand_b"],
    sno.KSUID: ["timestamp_secs", "payload"],
}
BINARY_LEN = {
    sno.ID: 10,
    sno.ULID: 16,
    sno.UUID7: 16,
    sno.SCRU128: 16,
    sno.SCRU160: 20,
    sno.Nanoflake: 8,
    sno.UlidFlake: 8,
    sno.TypeID: 16,
    sno.KSUID: 20,
}
MAKE = {
    sno.ID: sno.new,
    sno.ULID: ulid.new,
    sno.UUID7: uuid7.new,
    sno.SCRU128: scru128.new,
    sno.SCRU160: scru160.new,
    sno.Nanoflake: nanoflake.Generator(epoch_ms=1_640_995_200_000, generator_id=5).new,
    sno.UlidFlake: ulidflake.new,
    sno.TypeID: lambda: typeid.new("user"),
    sno.KSUID: ksuid.new,
}
# What the binary form (and so `int`, `from_bytes`, `from_int`, a `uuid.UUID`) leaves out.
BINARY_LACKS = {sno.TypeID: "prefix"}
CLASSES = list(FIELDS)


def values(cls):
    """New values, and the smallest and largest of the binary form where they are values."""
    out = [MAKE[cls]() for _ in range(3)]
    for raw in (bytes(BINARY_LEN[cls]), b"\x7f" + b"\xff" * (BINARY_LEN[cls] - 1)):
        try:
            out.append(cls.from_bytes(raw))
        except sno.DecodeError:
            pass
    return out


def test_every_value_class_is_covered():
    """A format the core registers gets a class here; this test names it for the table above."""
    classes = {obj for obj in vars(sno._sno).values() if isinstance(obj, type) and hasattr(obj, "fields")}
    assert classes == set(CLASSES)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_int_round_trip(cls):
    for x in values(cls):
        n = int(x)
        assert n == x.int == int.from_bytes(bytes(x), "big") and isinstance(n, int)
        whole = cls.from_bytes(bytes(x))
        assert (whole == x) == (cls not in BINARY_LACKS or x.fields()[BINARY_LACKS[cls]] == "")
        assert cls.from_int(n) == cls.from_int(x.int) == whole and bytes(whole) == bytes(x)
        assert cls.from_bytes(n.to_bytes(BINARY_LEN[cls], "big")) == whole
    for bad in (-1, 1 << (8 * BINARY_LEN[cls]), 1 << 200):
        with pytest.raises(sno.DecodeError) as e:
            cls.from_int(bad)
        assert e.value.code == "value_overflow"
    with pytest.raises(TypeError):
        cls.from_int("5")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_constructors_and_text(cls):
    for x in values(cls):
        text = str(x)
        assert cls(text) == cls.from_str(text) == cls.parse(text) == x
        assert cls(x) == x and cls(bytes(x)) == cls.from_bytes(x.bytes) == cls.from_int(int(x))
        assert (cls(int(x)) == x) if BINARY_LEN[cls] == 8 else True
    if BINARY_LEN[cls] != 8:
        with pytest.raises(TypeError):
            cls(int(values(cls)[0]))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_to_uuid_on_every_128_bit_format(cls):
    assert hasattr(cls, "to_uuid") == (BINARY_LEN[cls] == 16)
    if BINARY_LEN[cls] != 16:
        with pytest.raises(TypeError):
            cls(uuid.uuid4())
        return
    for x in values(cls):
        u = x.to_uuid()
        assert isinstance(u, uuid.UUID) and u.bytes == bytes(x) and u.int == int(x)
        assert cls(u) == cls.from_bytes(bytes(x))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_fields_are_the_cores_and_each_a_property(cls):
    for x in values(cls):
        fields = x.fields()
        assert list(fields) == FIELDS[cls]
        for name, value in fields.items():
            if name == "unix_ms" and x.unix_ms is None:
                continue  # a TypeID of another UUID version: no time, the bits are a field
            attr = name
            assert inspect.isgetsetdescriptor(vars(cls)[attr]), attr
            assert getattr(x, attr) == value and type(getattr(x, attr)) is type(value), attr
        # from_fields takes the fields by their names (UUIDv7's version and variant are fixed;
        # a Ulid-Flake's randomness holds its scalable randomness and sid), by keyword or in
        # the order of its signature.
        params = inspect.signature(cls.from_fields).parameters
        assert set(params) <= set(fields)
        if cls is sno.TypeID and x.version != 7:  # from_fields makes a UUIDv7
            assert cls.from_fields(**{k: fields[k] for k in params}).version == 7
            continue
        assert cls.from_fields(**{k: fields[k] for k in params}) == x
        assert cls.from_fields(*[fields[k] for k in params]) == x


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_unix_ms_unix_ns_and_timestamp_are_properties(cls):
    for name in ("unix_ms", "unix_ns", "timestamp"):
        assert inspect.isgetsetdescriptor(vars(cls)[name]), name
    for x in values(cls):
        if cls is sno.TypeID and x.version != 7:  # only a UUIDv7 holds a time
            assert x.unix_ms is x.unix_ns is x.timestamp is None
            continue
        if cls is sno.Nanoflake:  # no epoch in the value: unix_ms_at(epoch_ms)
            assert x.unix_ms is x.unix_ns is x.timestamp is None
            assert x.unix_ms_at(1000) == 1000 + x.timestamp_ms
            continue
        assert isinstance(x.unix_ms, int) and x.unix_ns == min(x.unix_ms * 1_000_000, 2**63 - 1)  # saturated
        if x.unix_ms <= 253_402_300_799_999:
            assert x.timestamp == datetime.fromtimestamp(x.unix_ms / 1000, timezone.utc)
        if "unix_ms" in FIELDS[cls]:
            assert x.fields()["unix_ms"] == x.unix_ms


def test_ulidflake_unix_ms_is_a_property_with_the_default_epoch():
    f = sno.UlidFlake("00CMXB6TAK4SA")
    assert f.unix_ms == f.unix_ms_at() == f.unix_ms_at(ulidflake.DEFAULT_EPOCH_MS)
    assert f.unix_ms == ulidflake.DEFAULT_EPOCH_MS + f.timestamp_ms
    assert f.unix_ms_at(0) == f.timestamp_ms


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_repr_is_built_from_the_fields(cls):
    for x in values(cls):
        r = repr(x)
        assert r.startswith(f"sno.{cls.__name__}('{x}'") and r.endswith(")")
        for name, value in x.fields().items():
            if name in ("units", "timestamp_ms", "timestamp_secs", "unix_ms") and x.unix_ms is not None:
                # Shown as time='…' (or unix_ms=… past year 9999), not as the raw field.
                assert name == "unix_ms" or f", {name}=" not in r, (name, r)
                continue
            shown = value if isinstance(value, (bool, int)) else f"'{value}'"
            assert f", {name}={shown}" in r, (name, r)
        if x.unix_ms is not None:
            assert ", time='" in r or f", unix_ms={x.unix_ms}" in r


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_from_fields_checks_widths_with_core_errors(cls):
    x = values(cls)[0]
    fields = x.fields()
    params = list(inspect.signature(cls.from_fields).parameters)
    for name in params:
        if isinstance(fields[name], (bool, str)):
            continue
        with pytest.raises((sno.DecodeError, sno.TimeRangeError)) as e:
            cls.from_fields(**{k: (1 << 130 if k == name else fields[k]) for k in params})
        assert e.value.code in ("value_overflow", "timestamp_overflow", "millis_out_of_range")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_from_fields_refuses_arguments_as_python_does(cls):
    x = values(cls)[0]
    fields = x.fields()
    params = list(inspect.signature(cls.from_fields).parameters)
    given = {k: fields[k] for k in params}
    with pytest.raises(TypeError, match="missing required argument"):
        cls.from_fields(**{k: v for k, v in given.items() if k != params[-1]})
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        cls.from_fields(**given, nonsense=1)
    with pytest.raises(TypeError, match="multiple values"):
        cls.from_fields(given[params[0]], **given)
    with pytest.raises(TypeError, match="positional arguments"):
        cls.from_fields(*given.values(), 1)
    number = next(k for k in params if type(fields[k]) is int)
    with pytest.raises(TypeError):
        cls.from_fields(**{**given, number: "1"})
    with pytest.raises(sno.DecodeError) as e:
        cls.from_fields(**{**given, number: -1})
    assert e.value.code == "value_overflow"


def test_detect_finds_the_format_or_says_why_not():
    # The core's detection, as `sno inspect` uses it.
    assert sno.detect("brpk4q72xwf2m63l") == sno.ID("brpk4q72xwf2m63l")
    assert type(sno.detect("01ARZ3NDEKTSV4RRFFQ69G5FAV")) is sno.ULID
    assert type(sno.detect("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")) is sno.UUID7
    assert type(sno.detect("0372hg16csmsm50l8dikcvukc")) is sno.SCRU128
    assert type(sno.detect("05TTUP1HNCPNH30VEK64KDQT9BSNU4C4")) is sno.SCRU160
    t = sno.detect("user_01h455vb4pex5vsknk084sn02q")
    assert type(t) is sno.TypeID and t.prefix == "user"
    for text, code in [
        ("00CMXB6TAK4SA", "ambiguous_format"),  # Ulid-Flake and Nanoflake
        ("hello", "ambiguous_format"),  # only a Nanoflake: any short word is one
        ("01h455vb4pex5vsknk084sn02q", "ambiguous_format"),  # ULID and prefix-less TypeID
        ("not an id!", "unrecognized_format"),
    ]:
        with pytest.raises(sno.DecodeError) as info:
            sno.detect(text)
        assert info.value.code == code, text
        assert info.value.position is None and info.value.byte is None
    with pytest.raises(sno.DecodeError) as info:
        sno.TypeID("User_01h455vb4pex5vsknk084sn02q")
    assert info.value.code == "invalid_prefix" and info.value.position is None
    with pytest.raises(TypeError):
        sno.detect(b"brpk4q72xwf2m63l")
