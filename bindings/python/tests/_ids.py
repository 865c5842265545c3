"""IDs of every format generated in order, for the interop and database tests."""

import sno
from sno import ksuid, nanoflake, scru128, scru160, ulid, ulidflake, uuid7

# The TypeID prefix the tests' TypeID columns stand for.
PREFIX = "user"


def generator(cls):
    """A function giving the next value of `cls` from a monotonic generator of its own (sno:
    a fixed partition; TypeID: the process-wide UUIDv7 generator, with the prefix)."""
    if cls is sno.ID:
        return sno.Generator(partition=0x0102).new
    if cls is sno.Nanoflake:
        return nanoflake.Generator(epoch_ms=1_640_995_200_000, generator_id=7).new
    if cls is sno.TypeID:
        return lambda: sno.TypeID.new(PREFIX)
    module = {
        sno.ULID: ulid,
        sno.UUID7: uuid7,
        sno.SCRU128: scru128,
        sno.SCRU160: scru160,
        sno.UlidFlake: ulidflake,
        sno.KSUID: ksuid,
    }[cls]
    return module.Generator().new


def in_order(cls, n):
    """`n` values of `cls` generated in order; checked to be strictly increasing."""
    make = generator(cls)
    ids = [make() for _ in range(n)]
    assert sorted(ids) == ids and len(set(ids)) == n, f"{cls.__name__}: not generated in order"
    return ids
