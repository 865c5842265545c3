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
  objects: ``uuid=`` a class stored as ``uuid``, ``bytea=`` one stored as ``bytea``, ``int8=``
  one stored as ``bigint``; a class with a param (a text part outside the binary form, which
  the column does not store: ``sno.TypeID``'s prefix) with the column's, as a pair:
  ``uuid=(sno.TypeID, "user")`` (``typeid_prefix="user"`` with ``uuid=sno.TypeID`` is the same). They apply to every
  column of that type read through the context. A value the class refuses (a ``bytea`` of the
  wrong length, a UUID that is not version 7 for ``sno.UUID7``, a negative ``bigint``) raises
  ``sno.DecodeError``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from psycopg import postgres
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg.types.string import ByteaLoader, BytesDumper

import sno
from sno._formats import _PARAMS
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


class _BinaryDumper(Dumper):
    # bytea's, uuid's and int8's binary forms are the ID's binary form (8 big-endian bytes with
    # the sign bit 0 are int8's); a subclass per column type sets `oid`.
    format = Format.BINARY

    def dump(self, obj: Any) -> Buffer | None:
        return obj.bytes  # type: ignore[no-any-return]


class _UuidTextDumper(Dumper):
    oid = _oid("uuid")

    def dump(self, obj: Any) -> Buffer | None:
        return obj.bytes.hex().encode()  # type: ignore[no-any-return]


class _Int8TextDumper(Dumper):
    oid = _oid("bigint")

    def dump(self, obj: Any) -> Buffer | None:
        return str(int(obj)).encode()


def _binary_dumper(column: str) -> type[Dumper]:
    return type(f"_{column.capitalize()}BinaryDumper", (_BinaryDumper,), {"oid": _oid(column)})


_DUMPERS: dict[str, tuple[type[Dumper], type[Dumper]]] = {
    "bytea": (_ByteaTextDumper, _binary_dumper("bytea")),
    "uuid": (_UuidTextDumper, _binary_dumper("uuid")),
    "bigint": (_Int8TextDumper, _binary_dumper("bigint")),
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
    stored as ``uuid``), ``bytea`` columns as ``bytea``, ``bigint`` columns as ``int8``; a class
    with a param as a pair with the column's (``uuid=(sno.TypeID, "user")``, or
    ``typeid_prefix``). ``None`` leaves psycopg's own loader."""
    adapters = context.adapters
    if typeid_prefix is not None:
        if uuid is not sno.TypeID:
            raise ValueError("typeid_prefix is for uuid=sno.TypeID")
        uuid = (uuid, typeid_prefix)
    loaders: list[tuple[str, type[_SnoLoader]]] = []
    for arg, value, column in (("uuid", uuid, "uuid"), ("bytea", bytea, "bytea"), ("int8", int8, "bigint")):
        if value is None:
            continue
        cls, param = value if isinstance(value, tuple) and len(value) == 2 else (value, None)
        cls = _loader_class(arg, cls, column)
        make: Callable[[bytes], Any] = cls.from_bytes
        if cls in _PARAMS:
            param_name, from_binary = _PARAMS[cls]
            if not isinstance(param, str):
                hint = " or typeid_prefix" if cls is sno.TypeID else ""
                raise ValueError(
                    f"register({arg}=sno.{cls.__name__}) needs the column's {param_name}: "
                    f'{arg}=(sno.{cls.__name__}, "…"){hint} ("" for none)'
                )
            make = functools.partial(getattr(cls, from_binary), param)
            make(bytes(cls.BINARY_LEN))  # a bad param: DecodeError, here
        elif param is not None or value is not cls:
            raise TypeError(f"register({arg}=...): sno.{cls.__name__} takes no param: pass the class alone")
        for base in _LOADERS[column]:
            name = f"{cls.__name__}{base.__name__[1:]}"
            loaders.append((column, type(name, (base,), {"make": staticmethod(make)})))
    for id_class in ID_CLASSES:
        for dumper in _DUMPERS[id_class.POSTGRES_TYPE]:
            adapters.register_dumper(id_class, dumper)
    for column, loader in loaders:
        adapters.register_loader(_oid(column), loader)
