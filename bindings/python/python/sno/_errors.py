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
    """Invalid generator settings or snapshot."""


class TimeRangeError(SnoError, ValueError):
    """A time outside the format's range (sno: 2010-01-01 .. 2079-09-07T15:47:35.551999Z; the
    128-bit formats: 48-bit milliseconds since 1970)."""


class SequenceExhaustedError(SnoError, RuntimeError):
    """This 4 ms unit's sequence pool is used up; retry at ``.retry_at_unix_ns``."""

    retry_at_unix_ns: int


class ClockRegressionError(SnoError, RuntimeError):
    """The clock went back into a period used by both timelines; retry at ``.retry_at_unix_ns``."""

    retry_at_unix_ns: int


class RandomnessExhaustedError(SnoError, RuntimeError):
    """A ULID generator used up one millisecond's 80 random bits (``try_new`` only)."""
