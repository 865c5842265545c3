"""The exception hierarchy. The native module raises these; every one carries ``.code``."""


class SnoError(Exception):
    """Base class of every libsno error; ``.code`` names the kind (e.g. ``"invalid_byte"``)."""

    code: str = "sno_error"


class DecodeError(SnoError, ValueError):
    """Text or bytes that are not a valid ID; ``.position`` (and ``.byte``) say where.

    ``.position`` is ``None`` where the whole value is at fault (``code`` ``"value_overflow"``:
    above the format's maximum; ``"not_version_7"``: a UUID of another version;
    ``"invalid_prefix"``: a prefix its format refuses; ``"unrecognized_format"``,
    ``"ambiguous_format"``: ``sno.detect`` found no format, or several).
    From ``decode_many``, ``.index`` is the bad item and ``.position`` the byte within it.
    """

    position: "int | None" = None
    byte: "int | None" = None
    index: "int | None" = None


class ConfigError(SnoError, ValueError):
    """Invalid generator settings, snapshot or argument. ``.code`` says which:
    ``"invalid_argument"`` (an int argument outside its range; the message names it),
    ``"batch_too_large"`` (a count outside ``0 ..= MAX_BATCH``; ``.max`` is ``MAX_BATCH``),
    ``"invalid_sequence_bounds"``,
    ``"sequence_out_of_range"``, ``"invalid_snapshot"`` (a snapshot field outside its range),
    ``"missing_snapshot_key"``, ``"unknown_snapshot_key"``, ``"snapshot_ahead"`` (a snapshot
    further ahead of the clock than a generator waits), ``"value_overflow"`` /
    ``"millis_out_of_range"`` (settings only the core checks), ``"partition_pool_exhausted"``,
    ``"invalid_environment"`` (``SNO_PARTITION`` holds no partition number, ``Lease.from_env()``
    without ``SNO_LEASE_URL``; ``.variable`` names the variable), ``"leased_generator"`` (what a
    leased generator cannot do: an explicit partition or snapshot, ``repartition``,
    ``snapshot()``, an ID for a given time)."""

    variable: "str | None" = None
    max: "int | None" = None


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


class LeaseError(SnoError):
    """Base class of the errors of leased partitions (``sno.Lease``, ``Generator(lease=...)``,
    the process-wide generator with ``SNO_LEASE_URL``). Raised as such for ``"lease_unavailable"``
    (the lease is closed, or already drives a generator: one lease, one generator) and, as
    ``Lease.last_error``, ``"lease_lost"`` (the lease expired and was granted to another holder;
    ``.partition``)."""

    partition: "int | None" = None


class LeaseConfigError(LeaseError, ConfigError):
    """A lease that cannot be asked for: ``"lease_invalid_url"`` (malformed: the message names
    the part, never echoes the URL; an unknown scheme or ``sslmode``; a CA file that cannot be
    read) or ``"lease_invalid_options"`` (namespace, TTL, margin, timeout or partition range out
    of range; a ``SNO_LEASE_*`` variable that holds none of these; ``SNO_PARTITION`` and
    ``SNO_LEASE_URL`` both set)."""


class LeaseUnreachableError(LeaseError, ConnectionError):
    """The store cannot be reached, or did not answer within the timeout
    (``"lease_unreachable"``). Retrying later may succeed."""


class LeaseAuthenticationError(LeaseError, PermissionError):
    """The store refused the credentials (``"lease_authentication_failed"``)."""


class LeaseTlsError(LeaseError, ConnectionError):
    """The TLS connection to the store failed (``"lease_tls_failed"``): its certificate was
    refused (not signed by a CA of ``sslrootcert=`` / ``ssl_ca_certs=`` or of the system, not
    valid for the host name connected to, expired), or the handshake failed. Not transient: the
    certificate, the CA file or the URL must change."""


class NoFreePartitionError(LeaseError, RuntimeError):
    """Every partition of the range is held by a live lease (``"lease_no_free_partition"``);
    ``.namespace``, ``.first`` and ``.last`` say which."""

    namespace: "str | None" = None
    first: "int | None" = None
    last: "int | None" = None


class LeaseStoreError(LeaseError, RuntimeError):
    """The store answered with an error: missing privileges, an unexpected schema, a Redis
    error (``"lease_store"``)."""


class LeaseExpiredError(LeaseError, RuntimeError):
    """A leased generator's lease does not cover the clock: renewals failing, the lease lost or
    closed (``"lease_expired"``; ``.partition``). No ID is minted until it is renewed or a new
    partition is leased; ``new()`` waits for that within ``max_wait_ms``."""


class LeasePendingError(LeaseError, RuntimeError):
    """A leased generator's window opens later than its clock reads (``"lease_pending"``;
    ``.partition``, ``.retry_at_unix_ns``): its grant follows a restart or failover of the
    store, whose first grants start one TTL after it. ``new()`` waits for it within
    ``max_wait_ms`` (by default at least one TTL and two seconds)."""

    retry_at_unix_ns: "int | None" = None
