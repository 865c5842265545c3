"""psycopg 3 adapters for the libsno ID classes (``pip install sno[psycopg]``):

>>> import psycopg, sno, sno.psycopg
>>> conn = psycopg.connect(url)                                     # doctest: +SKIP
>>> sno.psycopg.register(conn, uuid=sno.ULID, bytea=sno.ID)         # doctest: +SKIP
>>> conn.execute("INSERT INTO t (id) VALUES (%s)", [sno.ulid.new()])  # doctest: +SKIP

``register(context, *, uuid=None, bytea=None, int8=None, typeid_prefix=None)`` adds to a
connection, cursor or ``psycopg.adapters`` (any ``AdaptContext``):

- **dumpers** for every ID class, so a value is a query parameter as such: in the column type
  the core recommends for its format (``cls.POSTGRES_TYPE``: ``uuid``, ``bytea`` or ``bigint``,
  as docs/databases.md lists them; a TypeID is sent as its UUID, without the prefix); text and
  binary both;
- **loaders**, only where asked, so that columns of a PostgreSQL type come back as libsno
  objects: ``uuid=`` a class stored as ``uuid`` (``sno.TypeID`` with ``typeid_prefix``),
  ``bytea=`` one stored as ``bytea``, ``int8=`` one stored as ``bigint``. They apply to every
  column of that type read through the context. A value the class refuses (a ``bytea`` of the
  wrong length, a UUID that is not version 7 for ``sno.UUID7``, a negative ``bigint``) raises
  ``sno.DecodeError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from psycopg import postgres
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg.types.string import ByteaLoader, BytesDumper

import sno
from sno._sno import ID_CLASSES

__all__ = ["register"]


def _oid(column: str) -> int:
    """The OID of a PostgreSQL type, by the name the core gives it (``cls.POSTGRES_TYPE``)."""
    info = postgres.types.get(column)
    if info is None:  # pragma: no cover - psycopg knows every built-in type
        raise LookupError(f"psycopg knows no PostgreSQL type {column!r}")
    return info.oid


# Dumpers: the same for every class of a column type (they read `.bytes` / `int()`).


class _ByteaTextDumper(BytesDumper):
    def dump(self, obj: Any) -> Buffer | None:
        return super().dump(obj.bytes)


class _ByteaBinaryDumper(Dumper):
    oid = _oid("bytea")
    format = Format.BINARY

    def dump(self, obj: Any) -> Buffer | None:
        return obj.bytes  # type: ignore[no-any-return]


class _UuidTextDumper(Dumper):
    oid = _oid("uuid")

    def dump(self, obj: Any) -> Buffer | None:
        return obj.bytes.hex().encode()  # type: ignore[no-any-return]


class _UuidBinaryDumper(Dumper):
    oid = _oid("uuid")
    format = Format.BINARY

    def dump(self, obj: Any) -> Buffer | None:
        return obj.bytes  # type: ignore[no-any-return]


class _Int8TextDumper(Dumper):
    oid = _oid("bigint")

    def dump(self, obj: Any) -> Buffer | None:
        return str(int(obj)).encode()


class _Int8BinaryDumper(Dumper):
    oid = _oid("bigint")
    format = Format.BINARY

    def dump(self, obj: Any) -> Buffer | None:
        # The binary form is 8 big-endian bytes with the sign bit 0: int8's binary form.
        return obj.bytes  # type: ignore[no-any-return]


_DUMPERS: dict[str, tuple[type[Dumper], type[Dumper]]] = {
    "bytea": (_ByteaTextDumper, _ByteaBinaryDumper),
    "uuid": (_UuidTextDumper, _UuidBinaryDumper),
    "bigint": (_Int8TextDumper, _Int8BinaryDumper),
}


# Loaders: `make` builds the value from the binary form (a subclass per registration sets it).


class _SnoLoader(Loader):
    make: Callable[[bytes], Any]


class _ByteaTextLoader(ByteaLoader, _SnoLoader):
    def load(self, data: Buffer) -> Any:
        return self.make(bytes(super().load(bytes(data))))


class _BinaryLoader(_SnoLoader):
    # bytea's, uuid's and int8's binary forms are the ID's binary form (the core refuses a
    # wrong length, and int8's sign bit set).
    format = Format.BINARY

    def load(self, data: Buffer) -> Any:
        return self.make(bytes(data))


class _UuidTextLoader(_SnoLoader):
    def load(self, data: Buffer) -> Any:
        return self.make(bytes.fromhex(bytes(data).decode("ascii").replace("-", "")))


class _Int8TextLoader(_SnoLoader):
    def load(self, data: Buffer) -> Any:
        return self.make(int(bytes(data)).to_bytes(8, "big", signed=True))


_LOADERS: dict[str, tuple[type[_SnoLoader], type[_SnoLoader]]] = {
    "bytea": (_ByteaTextLoader, _BinaryLoader),
    "uuid": (_UuidTextLoader, _BinaryLoader),
    "bigint": (_Int8TextLoader, _BinaryLoader),
}


def _loader_class(arg: str, cls: Any, column: str) -> Any:
    if not (isinstance(cls, type) and cls in ID_CLASSES):
        raise TypeError(f"register({arg}=...) takes a libsno ID class, not {cls!r}")
    if cls.POSTGRES_TYPE != column:
        raise ValueError(
            f"register({arg}=sno.{cls.__name__}): sno.{cls.__name__} is stored as "
            f"{cls.POSTGRES_TYPE}, not {column}"
        )
    return cls


def register(
    context: Any,
    *,
    uuid: Any = None,
    bytea: Any = None,
    int8: Any = None,
    typeid_prefix: str | None = None,
) -> None:
    """Registers the dumpers of every ID class on ``context`` (a connection, a cursor or
    ``psycopg.adapters``) and the loaders asked for: ``uuid`` columns as ``uuid`` (a class
    stored as ``uuid``; ``sno.TypeID`` needs ``typeid_prefix``), ``bytea`` columns as
    ``bytea``, ``bigint`` columns as ``int8``. ``None`` leaves psycopg's own loader."""
    adapters = context.adapters
    if typeid_prefix is not None and uuid is not sno.TypeID:
        raise ValueError("typeid_prefix is for uuid=sno.TypeID")
    loaders: list[tuple[str, type[_SnoLoader]]] = []
    for arg, cls, column in (("uuid", uuid, "uuid"), ("bytea", bytea, "bytea"), ("int8", int8, "bigint")):
        if cls is None:
            continue
        cls = _loader_class(arg, cls, column)
        make: Callable[[bytes], Any]
        if cls is sno.TypeID:
            if typeid_prefix is None:
                raise ValueError('register(uuid=sno.TypeID) needs typeid_prefix ("" for none)')
            prefix = typeid_prefix
            sno.TypeID.from_uuid(prefix, bytes(16))  # a bad prefix: DecodeError, here

            def make(data: bytes, prefix: str = prefix) -> Any:
                return sno.TypeID.from_uuid(prefix, data)

        else:
            make = cls.from_bytes
        for base in _LOADERS[column]:
            name = f"{cls.__name__}{base.__name__[1:]}"
            loaders.append((column, type(name, (base,), {"make": staticmethod(make)})))
    for id_class in ID_CLASSES:
        for dumper in _DUMPERS[id_class.POSTGRES_TYPE]:
            adapters.register_dumper(id_class, dumper)
    for column, loader in loaders:
        adapters.register_loader(_oid(column), loader)
