"""SQLAlchemy 2 column types for every libsno ID class (``pip install sno[sqlalchemy]``):
``<Class>Type`` for ``sno.<Class>``, ``SnoIDType`` for ``sno.ID``:

>>> from sqlalchemy import Column, MetaData, Table
>>> from sno.sqlalchemy import SCRU128Type, ULIDType
>>> users = Table("users", MetaData(), Column("id", ULIDType(), primary_key=True),
...               Column("session", SCRU128Type()))

Each type stores its class in the column the core recommends (``cls.COLUMN_TYPE``, from
``Format::column_type()``), chosen per dialect: PostgreSQL ``uuid`` / ``bytea`` / ``bigint``;
SQLite ``BLOB`` (16 bytes for the 128-bit formats) / ``INTEGER``; other dialects the binary
form (``LargeBinary``) or ``BigInteger`` (their native UUID types may not sort as bytes).
``ORDER BY`` on the column is the IDs' order.

Parameters take a value of the class or its canonical text (decoded strictly, so
``table.c.id == "01ARZ3NDEKTSV4RRFFQ69G5FAV"`` works); ``None`` is ``NULL``. Anything else is a
``TypeError``, bad text a ``sno.DecodeError`` (SQLAlchemy wraps both in ``StatementError``).
Rows come back as values of the class; a stored value of the wrong length or one the format
refuses raises ``sno.DecodeError``. A class with a param (a text part outside the binary
form, such as a prefix) stores its binary form alone: its type takes the column's param
(``<Class>Type("user")``), refuses values of another one, and gives it back when reading.
"""

# The base classes (`ParamIDTypeBase` for a class with a param) and the types of the formats that
# take more than their class (sno's null_as_zero). sno/sqlalchemy.py, the module to import,
# re-exports them and adds the type of every other format: it is written by tests/surfaces from
# the core's format table.

from __future__ import annotations

import uuid
from typing import Any, ClassVar, Generic, TypeVar

from sqlalchemy.types import BigInteger, Integer, LargeBinary, TypeDecorator, TypeEngine, Uuid

import sno

T = TypeVar("T")


class IDTypeBase(TypeDecorator[T], Generic[T]):
    """The column type of one ID class (``id_class``); see the module's documentation."""

    impl = LargeBinary
    cache_ok = True
    id_class: ClassVar[Any]

    def __init_subclass__(cls, id_class: Any = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if id_class is not None:
            cls.id_class = id_class
            cls.cache_ok = True  # SQLAlchemy reads it from each class's own namespace
            if cls.__doc__ is None:
                cls.__doc__ = (
                    f"``sno.{id_class.__name__}`` in the column its format's table gives "
                    f"(PostgreSQL ``{id_class.POSTGRES_TYPE}``, SQLite ``{id_class.SQLITE_TYPE}``)."
                )

    def __init__(self) -> None:
        super().__init__()

    def load_dialect_impl(self, dialect: Any) -> TypeEngine[Any]:
        cls = self.id_class
        impl: TypeEngine[Any]
        if dialect.name == "postgresql":
            postgres: dict[str, TypeEngine[Any]] = {
                "uuid": Uuid(as_uuid=True, native_uuid=True),
                "bytea": LargeBinary(),
                "bigint": BigInteger(),
            }
            impl = postgres[cls.POSTGRES_TYPE]
        elif dialect.name == "sqlite":
            sqlite: dict[str, TypeEngine[Any]] = {"BLOB": LargeBinary(), "INTEGER": Integer()}
            impl = sqlite[cls.SQLITE_TYPE]
        else:
            impl = BigInteger() if cls.COLUMN_TYPE == "bigint" else LargeBinary(cls.BINARY_LEN)
        return dialect.type_descriptor(impl)

    def _check(self, value: Any) -> Any:
        """``value`` as a value of the class (its text decoded strictly), or ``TypeError``."""
        cls = self.id_class
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls.from_str(value)
        if cls is sno.UUID7 and isinstance(value, uuid.UUID):  # a UUIDv7 is equal to its uuid.UUID
            return cls.from_uuid(value)
        raise TypeError(
            f"{type(self).__name__} takes sno.{cls.__name__} or its text, "
            f"not {type(value).__module__}.{type(value).__qualname__}"
        )

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        if value is None:
            return None
        value = self._check(value)
        if self.id_class.COLUMN_TYPE == "bigint":
            return int(value)
        if dialect.name == "postgresql" and self.id_class.POSTGRES_TYPE == "uuid":
            return value.to_uuid()
        return value.bytes

    def process_literal_param(self, value: Any, dialect: Any) -> Any:
        """The value for SQL text (``literal_binds``): a UUID or an integer as the column type
        renders them; a binary form is never rendered (its escaping differs per dialect), bind
        it as a parameter."""
        bound = self.process_bind_param(value, dialect)
        if isinstance(bound, bytes):
            raise NotImplementedError(
                f"{type(self).__name__}: binary values are bound as parameters, not rendered as SQL literals"
            )
        return bound

    def _from_db(self, value: Any) -> Any:
        """The value of the class from what the driver returns for the column."""
        cls = self.id_class
        if isinstance(value, cls):  # a driver already adapting the class (sno.psycopg's loaders)
            return self._check(value)
        if type(value) in sno.ID_CLASSES and value.COLUMN_TYPE == cls.COLUMN_TYPE:
            # sno.psycopg's loader made another format's object for this column type (one class
            # per PostgreSQL type): the same bits, checked as this class.
            if cls.COLUMN_TYPE == "bigint":
                return cls.from_int(int(value))
            return self._from_binary(bytes(value))
        if cls.COLUMN_TYPE == "bigint":
            if isinstance(value, int) and not isinstance(value, bool):
                return cls.from_int(value)
        elif isinstance(value, uuid.UUID):
            return self._from_binary(value.bytes)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            return self._from_binary(bytes(value))
        raise TypeError(
            f"{type(self).__name__}: the column ({cls.COLUMN_TYPE}) gave "
            f"{type(value).__module__}.{type(value).__qualname__}, not sno.{cls.__name__}'s form"
        )

    def _from_binary(self, data: bytes) -> Any:
        return self.id_class.from_bytes(data)

    def process_result_value(self, value: Any, dialect: Any) -> Any:
        if value is None:
            return None
        return self._from_db(value)

    @property
    def python_type(self) -> type:
        return self.id_class


class SnoIDType(IDTypeBase[sno.ID], id_class=sno.ID):
    """``sno.ID`` in a ``bytea`` column (SQLite: ``BLOB``). ``null_as_zero=True`` reads ``NULL``
    and an empty value as the zero ID, as the Go original's ``Scanner`` does (by default
    ``NULL`` is ``None`` and an empty value a ``DecodeError``)."""

    def __init__(self, *, null_as_zero: bool = False) -> None:
        super().__init__()
        self.null_as_zero = null_as_zero

    def process_result_value(self, value: Any, dialect: Any) -> Any:
        if self.null_as_zero and (value is None or (isinstance(value, (bytes, memoryview)) and len(value) == 0)):
            return sno.ID.from_bytes(bytes(sno.ID.BINARY_LEN))
        return super().process_result_value(value, dialect)


class ParamIDTypeBase(IDTypeBase[T]):
    """The column type of an ID class with a param (``param``: a text part outside the binary
    form, such as a prefix; ``from_binary``: the class's constructor from the param and the
    binary form): the column's param is given to the type (it is not stored), values of another
    param are refused, and values read back get it."""

    _param_name: ClassVar[str]
    _from_binary_name: ClassVar[str]

    def __init_subclass__(cls, param: str = "", from_binary: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if param:
            cls._param_name, cls._from_binary_name = param, from_binary

    def __init__(self, param: str) -> None:
        if not isinstance(param, str):
            raise TypeError(f"{type(self).__name__}({self._param_name}): a str, not {type(param).__name__}")
        self._from_param(param, bytes(self.id_class.BINARY_LEN))  # a bad param: DecodeError
        super().__init__()
        self.param = param
        setattr(self, self._param_name, param)  # the param's own name too (`.prefix`)

    def _from_param(self, param: str, data: bytes) -> Any:
        return getattr(self.id_class, self._from_binary_name)(param, data)

    def _check(self, value: Any) -> Any:
        value = super()._check(value)
        if getattr(value, self._param_name) != self.param:
            raise ValueError(
                f"{type(self).__name__}({self.param!r}) takes {self.id_class.__name__}s with the "
                f"{self._param_name} {self.param!r}, not {getattr(value, self._param_name)!r} ({value})"
            )
        return value

    def _from_binary(self, data: bytes) -> Any:
        return self._from_param(self.param, data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.param!r})"
