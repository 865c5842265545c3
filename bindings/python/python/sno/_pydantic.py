"""pydantic v2 support of the ID classes (``class User(BaseModel): id: sno.ULID``). The native
classes' ``__get_pydantic_core_schema__`` / ``__get_pydantic_json_schema__`` call these, so
pydantic-core is imported only when pydantic builds a schema, never by ``import sno``.

Validation: in Python mode what the class's constructor takes (the canonical text, decoded
strictly; the binary form as ``bytes``; a value of the class; a ``uuid.UUID`` for the 128-bit
formats and an ``int`` for the 64-bit ones); in JSON mode the text only. Bad text is a
``ValidationError`` carrying the core's message. Serialization: the object itself in Python
mode (``model_dump()``), the canonical text in JSON mode (``model_dump_json()``,
``model_dump(mode="json")``). JSON schema: a string with the format's pattern and lengths.
"""

from typing import Any


def core_schema(cls: type, source: Any, handler: Any) -> Any:
    from pydantic_core import PydanticCustomError, core_schema as cs

    def from_python(value: Any) -> Any:
        if type(value) is cls:
            return value
        try:
            return cls(value)
        except TypeError as e:
            raise PydanticCustomError("sno_type", "{message}", {"message": str(e)}) from None

    def from_json(value: Any) -> Any:
        if not isinstance(value, str):
            raise PydanticCustomError(
                "sno_type",
                "{message}",
                {"message": f"sno.{cls.__name__} in JSON is a string, not {type(value).__name__}"},
            )
        return cls.from_str(value)  # type: ignore[attr-defined]

    return cs.json_or_python_schema(
        json_schema=cs.no_info_plain_validator_function(from_json),
        python_schema=cs.no_info_plain_validator_function(from_python),
        serialization=cs.plain_serializer_function_ser_schema(str, when_used="json"),
    )


def json_schema(cls: Any, core_schema: Any, handler: Any) -> dict[str, Any]:
    return {
        "type": "string",
        "pattern": cls.TEXT_PATTERN,
        "minLength": cls.TEXT_MIN_LEN,
        "maxLength": cls.TEXT_MAX_LEN,
    }
