"""pydantic v2: every ID class as a model field type. Python mode validates what the
constructor takes (text strictly, bytes, the class, uuid.UUID / int where the constructor takes
them) and dumps the objects; JSON mode takes and writes the canonical text; bad input is a
ValidationError with the core's message; the JSON schema is a string with the pattern and
lengths."""

import re
import uuid
from typing import Optional

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

import sno
from _ids import generator

CLASSES = list(sno.ID_CLASSES)


class Row(BaseModel):
    sno_id: sno.ID
    ulid: sno.ULID
    uuid7: sno.UUID7
    scru128: sno.SCRU128
    scru160: sno.SCRU160
    nanoflake: sno.Nanoflake
    ulidflake: sno.UlidFlake
    typeid: sno.TypeID
    ksuid: sno.KSUID
    parent: Optional[sno.ULID] = None


def new_row():
    values = [generator(cls)() for cls in CLASSES]
    return dict(zip(list(Row.model_fields)[: len(CLASSES)], values))


def test_model_round_trips_in_python_and_json_mode():
    values = new_row()
    row = Row(**values)
    for name, value in values.items():
        assert getattr(row, name) == value and type(getattr(row, name)) is type(value)
    # Python mode keeps the objects.
    dumped = row.model_dump()
    assert dumped == {**values, "parent": None}
    assert Row.model_validate(dumped) == row
    # JSON mode writes the canonical text, and reads it back.
    text = row.model_dump_json()
    assert Row.model_validate_json(text) == row
    as_json = row.model_dump(mode="json")
    assert as_json == {**{k: str(v) for k, v in values.items()}, "parent": None}
    assert Row.model_validate(as_json) == row
    # From text in Python mode too.
    assert Row(**{k: str(v) for k, v in values.items()}) == row


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_validation_takes_text_bytes_and_the_class(cls):
    adapter = TypeAdapter(cls)
    x = generator(cls)()
    assert adapter.validate_python(x) is x
    assert adapter.validate_python(str(x)) == x
    from_bytes = adapter.validate_python(bytes(x))
    assert bytes(from_bytes) == bytes(x) and type(from_bytes) is cls
    assert adapter.validate_json(f'"{x}"') == x
    assert adapter.dump_json(x) == f'"{x}"'.encode()
    assert adapter.dump_python(x) is x and adapter.dump_python(x, mode="json") == str(x)
    if cls.BINARY_LEN == 16 and cls is not sno.TypeID:
        assert adapter.validate_python(x.to_uuid()) == x


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_bad_input_is_a_validation_error_with_the_core_message(cls):
    adapter = TypeAdapter(cls)
    x = generator(cls)()
    bad_text = str(x) + "!"
    with pytest.raises(sno.DecodeError) as core:
        cls.from_str(bad_text)
    for attempt in (lambda: adapter.validate_python(bad_text), lambda: adapter.validate_json(f'"{bad_text}"')):
        with pytest.raises(ValidationError) as e:
            attempt()
        assert str(core.value) in str(e.value)
    with pytest.raises(sno.DecodeError) as core:
        cls.from_bytes(bytes(x)[:-1])
    with pytest.raises(ValidationError) as e:
        adapter.validate_python(bytes(x)[:-1])
    assert str(core.value) in str(e.value)
    # Wrong types: a clear message, not a TypeError escaping pydantic.
    with pytest.raises(ValidationError) as e:
        adapter.validate_python(3.5)
    assert f"sno.{cls.__name__}()" in str(e.value) and "float" in str(e.value)
    with pytest.raises(ValidationError) as e:
        adapter.validate_json("12")
    assert "is a string, not int" in str(e.value)
    with pytest.raises(ValidationError):
        adapter.validate_python(None)


def test_uuid7_takes_a_uuid_of_version_7_only():
    adapter = TypeAdapter(sno.UUID7)
    with pytest.raises(ValidationError) as e:
        adapter.validate_python(uuid.uuid4())
    assert "not a UUIDv7" in str(e.value)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_json_schema_is_a_string_with_the_pattern_and_lengths(cls):
    for mode in ("validation", "serialization"):
        schema = TypeAdapter(cls).json_schema(mode=mode)
        assert schema == {
            "type": "string",
            "pattern": cls.TEXT_PATTERN,
            "minLength": cls.TEXT_MIN_LEN,
            "maxLength": cls.TEXT_MAX_LEN,
        }
    x = generator(cls)()
    assert re.fullmatch(cls.TEXT_PATTERN, str(x))
    assert cls.TEXT_MIN_LEN <= len(str(x)) <= cls.TEXT_MAX_LEN


def test_model_json_schema_names_every_field():
    schema = Row.model_json_schema()
    props = schema["properties"]
    assert props["ulid"]["pattern"] == sno.ULID.TEXT_PATTERN
    assert props["typeid"]["maxLength"] == sno.TypeID.TEXT_MAX_LEN
    assert {"type": "null"} in props["parent"]["anyOf"]
    assert set(schema["required"]) == set(Row.model_fields) - {"parent"}
