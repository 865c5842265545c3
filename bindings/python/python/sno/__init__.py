"""libsno for Python: compact, sortable, unique sno IDs.

>>> import sno
>>> a, b = sno.new(), sno.new()
>>> a < b and len(str(a)) == 16
True
>>> sno.ID.from_str(str(a)) == a
True
"""

from datetime import datetime as _datetime, timezone as _timezone

from sno._sno import (
    BINARY_LEN,
    ENCODED_LEN,
    ClockRegressionError,
    ConfigError,
    DecodeError,
    ID,
    SequenceExhaustedError,
    SnoError,
    TimeRangeError,
    __version__,
    new,
    new_many,
)
from sno._sno import Generator as _NativeGenerator

__all__ = [
    "BINARY_LEN",
    "ENCODED_LEN",
    "ClockRegressionError",
    "ConfigError",
    "DecodeError",
    "Generator",
    "ID",
    "SequenceExhaustedError",
    "SnoError",
    "TimeRangeError",
    "__version__",
    "new",
    "new_many",
]

_EPOCH = _datetime(1970, 1, 1, tzinfo=_timezone.utc)


class Generator:
    """A thread-safe sno generator with its own partition and sequence bounds.

    ``Generator(partition=None, sequence_min=0, sequence_max=65535, snapshot=None)``: without a
    partition a per-process default is used; ``snapshot`` (a dict from :meth:`snapshot`) restores
    a saved state. After ``os.fork()`` build a new generator in the child with its own partition.
    """

    __slots__ = ("_native", "new", "try_new")

    def __init__(self, partition=None, sequence_min=0, sequence_max=65535, snapshot=None):
        if snapshot is not None and not isinstance(snapshot, dict):
            raise TypeError("snapshot must be a dict returned by Generator.snapshot()")
        self._native = _NativeGenerator(partition, sequence_min, sequence_max, snapshot)
        # Bound native methods: no Python frame between the caller and Rust.
        self.new = self._native.new
        self.try_new = self._native.try_new

    def new_with_time(self, meta, time):
        """An ID for ``time`` (an aware ``datetime``), with its own wrapping sequence."""
        if not isinstance(time, _datetime):
            raise TypeError(f"time must be a datetime, not {type(time).__name__}")
        if time.tzinfo is None or time.utcoffset() is None:
            raise TypeError("time must be timezone-aware (e.g. datetime.now(timezone.utc))")
        micros = (time - _EPOCH) // _timedelta_us
        return self._native.new_with_unix_ns(meta, micros * 1000)

    def snapshot(self):
        """The state as a dict of ints; it round-trips through ``json``."""
        return self._native.snapshot()

    def stats(self):
        """Counters of overflows, regressions and waits."""
        return self._native.stats()

    @property
    def partition(self):
        """The partition stamped into every ID."""
        return self._native.partition

    @property
    def sequence_min(self):
        """Lower sequence bound."""
        return self._native.sequence_min

    @property
    def sequence_max(self):
        """Upper sequence bound."""
        return self._native.sequence_max

    @property
    def capacity(self):
        """IDs per 4 ms unit."""
        return self._native.capacity

    def __repr__(self):
        return repr(self._native)


from datetime import timedelta as _timedelta  # noqa: E402

_timedelta_us = _timedelta(microseconds=1)
