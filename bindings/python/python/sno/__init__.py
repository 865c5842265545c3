"""libsno for Python: compact, sortable, unique sno IDs, and every other format of the core
(``sno.ID_CLASSES``), each with a module of its own (``sno.ulid``, …).

>>> import sno
>>> a, b = sno.new(), sno.new()
>>> a < b and len(str(a)) == 16
True
>>> sno.ID.from_str(str(a)) == a
True
>>> sno.ulid.new() < sno.ulid.new()
True
"""

from datetime import datetime as _datetime, timezone as _timezone
import warnings as _warnings

from sno._errors import (
    ClockRegressionError,
    ConfigError,
    DecodeError,
    ForkedGeneratorError,
    LeaseAuthenticationError,
    LeaseConfigError,
    LeaseError,
    LeaseExpiredError,
    LeasePendingError,
    LeaseStoreError,
    LeaseTlsError,
    LeaseUnreachableError,
    NoFreePartitionError,
    RandomnessExhaustedError,
    RandomnessUnavailableError,
    SequenceExhaustedError,
    SnoError,
    TimeRangeError,
)
from sno._sno import (
    BINARY_LEN,
    ENCODED_LEN,
    ID_CLASSES,
    MAX_BATCH,
    Lease,
    __version__,
    decode_many,
    detect,
    encode_many,
    new,
    new_many,
    release_process_lease,
)
from sno._sno import Generator as _NativeGenerator
from sno import _formats
from sno._formats import *  # noqa: F403 (every format's value class and module)
from sno._json import json_default
from sno._signals import release_on_signals

__all__ = [
    "BINARY_LEN",
    "ENCODED_LEN",
    "ClockRegressionError",
    "ConfigError",
    "DecodeError",
    "ForkedGeneratorError",
    "Generator",
    "ID_CLASSES",
    "Lease",
    "LeaseAuthenticationError",
    "LeaseConfigError",
    "LeaseError",
    "LeaseExpiredError",
    "LeasePendingError",
    "LeaseStoreError",
    "LeaseTlsError",
    "LeaseUnreachableError",
    "MAX_BATCH",
    "NoFreePartitionError",
    "RandomnessExhaustedError",
    "RandomnessUnavailableError",
    "SequenceExhaustedError",
    "SnoError",
    "TimeRangeError",
    "__version__",
    "decode_many",
    "detect",
    "encode_many",
    "json_default",
    "new",
    "new_many",
    "release_on_signals",
    "release_process_lease",
]
__all__ += _formats.__all__

_EPOCH = _datetime(1970, 1, 1, tzinfo=_timezone.utc)


class Generator(_NativeGenerator):
    """A thread-safe sno generator with its own partition and sequence bounds, or a lease's.

    ``Generator(partition=None, sequence_min=0, sequence_max=65535, snapshot=None, *,
    max_wait_ms=5000, lease=None)``: without a partition a per-process default is used (renewed
    in a ``fork()`` child); ``snapshot`` (a dict from :meth:`snapshot`) restores a saved state, and
    is refused (``ConfigError``, code ``"snapshot_ahead"``) when it reaches more than
    ``max_wait_ms`` ahead of the clock. ``new`` waits at most ``max_wait_ms`` (interruptibly, GIL
    released), then raises what ``try_new`` would. A generator with an explicit partition raises
    ``ForkedGeneratorError`` in a ``fork()`` child until :meth:`repartition` gives it its own.

    ``lease`` (a :class:`Lease`) makes the lease's self-fencing generator (one per lease): it
    stamps the leased partition, mints only while the lease covers the clock, and raises
    ``LeaseExpiredError`` once the lease is closed. It keeps the lease open while it lives.
    ``partition``, ``snapshot``, :meth:`repartition`, :meth:`snapshot` and IDs for a given time
    do not apply to it (``ConfigError``, code ``"leased_generator"``).
    """

    __slots__ = ()

    def new_at_time(self, meta, time):
        """An ID for ``time`` (an aware ``datetime``), with its own wrapping sequence; a time
        outside 2010 .. 2079-09-07 raises ``TimeRangeError``."""
        if not isinstance(time, _datetime):
            raise TypeError(f"time must be a datetime, not {type(time).__name__}")
        if time.tzinfo is None or time.utcoffset() is None:
            raise TypeError("time must be timezone-aware (e.g. datetime.now(timezone.utc))")
        micros = (time - _EPOCH) // _timedelta_us
        return self.new_at_unix_ns(meta, micros * 1000)

    def new_with_time(self, meta, time):
        """The old name of :meth:`new_at_time` (a ``DeprecationWarning``)."""
        _warnings.warn(
            "new_with_time is deprecated: renamed new_at_time", DeprecationWarning, stacklevel=2
        )
        return self.new_at_time(meta, time)


from datetime import timedelta as _timedelta  # noqa: E402
import atexit as _atexit  # noqa: E402

# The process lease (SNO_LEASE_URL) is released when the interpreter exits normally: the next
# process gets its partition at once instead of one TTL later.
_atexit.register(release_process_lease)

_timedelta_us = _timedelta(microseconds=1)
