"""The exception hierarchy. The native module raises these; every one carries ``.code``."""


class SnoError(Exception):
    """Base class of every libsno error; ``.code`` names the kind (e.g. ``"invalid_byte"``)."""

    code: str = "sno_error"


class DecodeError(SnoError, ValueError):
    """Text or bytes that are not a sno ID; ``.position`` (and ``.byte``) say where.

    From ``decode_many``, ``.index`` is the bad item and ``.position`` the byte within it.
    """

    position: int
    byte: "int | None"
    index: "int | None" = None


class ConfigError(SnoError, ValueError):
    """Invalid generator settings or snapshot."""


class TimeRangeError(SnoError, ValueError):
    """A time outside 2010-01-01 .. 2079-09-07T15:47:35.551999Z."""


class SequenceExhaustedError(SnoError, RuntimeError):
    """This 4 ms unit's sequence pool is used up; retry at ``.retry_at_unix_ns``."""

    retry_at_unix_ns: int


class ClockRegressionError(SnoError, RuntimeError):
    """The clock went back into a period used by both timelines; retry at ``.retry_at_unix_ns``."""

    retry_at_unix_ns: int
