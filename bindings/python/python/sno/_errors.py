"""The exception hierarchy. The native module raises these; every one carries ``.code``."""


class SnoError(Exception):
    """Base class of every libsno error; ``.code`` names the kind (e.g. ``"invalid_byte"``)."""

    code: str = "sno_error"


class DecodeError(SnoError, ValueError):
    """Text or bytes that are not a valid ID; ``.position`` (and ``.byte``) say where.

    ``.position`` is ``None`` where the whole value is at fault (``code`` ``"value_overflow"``:
    above the format's maximum; ``"not_version_7"``: a UUID of another version).
    From ``decode_many``, ``.index`` is the bad item and ``.position`` the byte within it.
    """

    position: "int | None"
    byte: "int | None"
    index: "int | None" = None


class ConfigError(SnoError, ValueError):
    """Invalid generator settings, snapshot or argument. ``.code`` says which:
    ``"invalid_argument"`` (an int argument outside its range; the message names it),
    ``"batch_too_large"`` (a count outside ``0 ..= MAX_BATCH``), ``"invalid_sequence_bounds"``,
    ``"sequence_out_of_range"``, ``"invalid_snapshot"`` (a snapshot field outside its range),
    ``"missing_snapshot_key"``, ``"unknown_snapshot_key"``, ``"snapshot_ahead"`` (a snapshot
    further ahead of the clock than a generator waits), ``"value_overflow"`` /
    ``"millis_out_of_range"`` (settings only the core checks), ``"partition_pool_exhausted"``."""


class TimeRangeError(SnoError, ValueError):
    """A time outside the format's range (sno: 2010-01-01 .. 2079-09-07T15:47:35.551999Z; the
    128-bit formats: 48-bit milliseconds since 1970), or (code ``"datetime_out_of_range"``) an
    ID's time that ``datetime`` cannot hold (after year 9999): read ``.unix_ms`` instead."""


class SequenceExhaustedError(SnoError, RuntimeError):
    """This 4 ms unit's sequence pool is used up; retry at ``.retry_at_unix_ns`` (``None``: never,
    the last unit of the sno range is used up)."""

    retry_at_unix_ns: "int | None" = None


class ClockRegressionError(SnoError, RuntimeError):
    """The clock went back into a period used by both timelines; retry at ``.retry_at_unix_ns``
    (``None``: never, past the end of the sno range). Also a Nanoflakes clock that went back
    (``"clock_rollback"``; retry when it is back at the last time used)."""

    retry_at_unix_ns: "int | None" = None


class RandomnessExhaustedError(SnoError, RuntimeError):
    """A generator used up one millisecond's randomness or counter (``try_new``; ``new`` after its
    maximum wait); retry at ``.retry_at_unix_ns`` (the next millisecond)."""

    retry_at_unix_ns: "int | None" = None


class ForkedGeneratorError(SnoError, RuntimeError):
    """A generator with an explicit partition was copied into a ``fork()`` child, where it would
    repeat its parent's IDs (code ``"forked"``; ``.partition`` is the inherited partition, or
    Nanoflakes generator id, or Ulid-Flake sid): give it one of its own in the child with
    ``repartition()``."""

    partition: "int | None" = None


class RandomnessUnavailableError(SnoError, OSError):
    """The operating system's randomness source cannot be read (code
    ``"randomness_unavailable"``)."""
