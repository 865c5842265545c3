//! The one error type of the crate.

use core::fmt;

use crate::time::{MAX_TIMESTAMP, units_to_unix_ns};

/// How a `retry_at` unit reads in a message: its Unix nanoseconds, or "never" past the range.
struct RetryAt(u64);

impl fmt::Display for RetryAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 > MAX_TIMESTAMP {
            f.write_str("never: the sno time range ends 2079-09-07T15:47:35.552Z")
        } else {
            write!(
                f,
                "retry at unit {} ({} ns since 1970)",
                self.0,
                units_to_unix_ns(self.0)
            )
        }
    }
}

/// Everything that can go wrong in sno-core. Each variant carries what a caller needs to act on
/// it, and [`Error::code`] gives a stable machine-readable name used by the bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The input has the wrong length (16 bytes for sno text, 10 for its binary form; each
    /// format's documentation gives its lengths).
    InvalidLength {
        /// The required length: for a format with two text forms (SCRU160: 32 or 40) the one
        /// nearer to the length given; for variable-length text (Nanoflakes: 1 ..= 13) the bound
        /// that was crossed.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// A byte of the text form is outside the format's alphabet (for sno
    /// `23456789abcdefghijklmnopqrstuvwx`).
    InvalidByte {
        /// Zero-based position of the first offending byte.
        position: usize,
        /// The offending byte.
        byte: u8,
    },
    /// A timestamp above [`MAX_TIMESTAMP`](crate::time::MAX_TIMESTAMP) units.
    TimestampOverflow {
        /// The timestamp given, in 4 ms units.
        units: u64,
    },
    /// A time outside 2010-01-01T00:00:00Z ..= 2079-09-07T15:47:35.551999999Z.
    TimeOutOfRange {
        /// The time given, in Unix nanoseconds (saturated to the `i64` range). Error fields
        /// keep their names (a field cannot carry a deprecated alias): `unix_ns` elsewhere.
        unix_nanos: i64,
    },
    /// The generator's clock reads a time outside the sno range.
    ClockOutOfRange {
        /// The clock reading, in 4 ms units since 2010 (negative before 2010).
        units: i64,
    },
    /// Sequence bounds that leave a pool of fewer than 4 values.
    InvalidSequenceBounds {
        /// Lower bound (after defaulting and ordering).
        min: u16,
        /// Upper bound (after defaulting and ordering).
        max: u16,
    },
    /// A snapshot's current sequence lies outside its bounds.
    SequenceOutOfRange {
        /// The sequence given.
        sequence: u32,
        /// Lower bound.
        min: u16,
        /// Upper bound.
        max: u16,
    },
    /// A snapshot field holds a value outside its range.
    InvalidSnapshot {
        /// The field's name, as in the snapshot's serialised form.
        field: &'static str,
        /// The value given.
        value: i64,
    },
    /// The process created 65 536 default-partitioned generators already.
    PartitionPoolExhausted,
    /// A generator built without `std` needs an explicit partition (there is no entropy source).
    MissingPartition,
    /// The sequence pool of the current 4 ms unit is used up; retry from unit `retry_at`.
    SequenceExhausted {
        /// First time unit in which a retry can succeed.
        retry_at: u64,
    },
    /// The clock went back into a period that already holds IDs in both timelines; retry from
    /// unit `retry_at`.
    ClockRegression {
        /// First time unit in which a retry can succeed.
        retry_at: u64,
    },
    /// The text encodes a number above the format's maximum (a ULID or Ulid-Flake starting above
    /// `7`, a SCRU128 above `f5lxx1zz5pnorynqglhzmsp33`, a Nanoflake above 2^63 − 1), a 64-bit
    /// value is negative, or a field or setting is given above its width (a Nanoflakes
    /// generator id above 1023, a Ulid-Flake `sid` above 31, …).
    ValueOverflow,
    /// A UUID that is well formed but not version 7 with the RFC 9562 variant.
    NotVersion7 {
        /// The version nibble found.
        version: u8,
        /// The top two variant bits found (`0b10` is required).
        variant: u8,
    },
    /// A millisecond timestamp outside the format's range: 48 bits for ULID, UUIDv7, SCRU128 and
    /// SCRU160 (whose generators also refuse the reserved 0 and 2^48 − 1); for the epoch-based
    /// 64-bit formats, a clock before the epoch or past the timestamp field (41 bits for
    /// Nanoflakes, 43 for Ulid-Flake); for the epoch-based second formats, a clock before the epoch or past
    /// the seconds field.
    MillisOutOfRange {
        /// The timestamp given, in ms since 1970.
        unix_millis: i64,
    },
    /// A monotonic generator has used up what one millisecond offers: the 80-bit randomness of a
    /// ULID, the 16-bit counter of a SCRU160, the 12-bit sequence of a Nanoflake, the 20-bit
    /// (or 15-bit) randomness of a Ulid-Flake, a 128-bit payload counted per second (then
    /// `unix_millis` is that second's last millisecond). The generator's state is unchanged.
    RandomnessExhausted {
        /// The millisecond whose randomness is exhausted; retry from the next one.
        unix_millis: u64,
    },
    /// The clock went back: further than a SCRU128 generator's rollback allowance
    /// (`next_at_or_abort`), or at all for a Nanoflakes generator (the spec's "refuse").
    ClockRollback {
        /// The last timestamp used, in ms since 1970.
        last_unix_millis: u64,
        /// The timestamp given.
        unix_millis: u64,
    },
    /// A batch asked for more IDs than [`MAX_BATCH`](crate::MAX_BATCH), or for a negative
    /// count: checked before anything is allocated or generated.
    BatchTooLarge {
        /// The count asked for (saturated to the `i128` range).
        requested: i128,
        /// The largest count one call accepts.
        max: u64,
    },
    /// A restored snapshot's marks lie further ahead of the clock than the generator's maximum
    /// wait ([`GeneratorBuilder::max_wait`](crate::GeneratorBuilder::max_wait)): restoring it
    /// could only make every call fail or sleep until the clock got there.
    SnapshotAhead {
        /// The snapshot's highest mark (`wall_hi` or `wall_safe`), in 4 ms units since 2010.
        units: u64,
        /// The clock reading at restore, in 4 ms units since 2010.
        clock_units: i64,
    },
    /// A generator with an explicit partition was copied into a `fork()` child, where it would
    /// repeat the IDs its parent makes: it refuses to mint until it is given a partition of its
    /// own ([`Generator::repartition`](crate::Generator::repartition)).
    Forked {
        /// The partition inherited from the parent (for a Nanoflakes generator its generator
        /// id, for a scalable Ulid-Flake generator its sid).
        partition: u16,
    },
    /// The operating system's randomness source could not be read (no `getrandom`, no
    /// `/dev/urandom`): a random-based generator has no safe seed.
    RandomnessUnavailable,
    /// A leased generator's lease does not cover the clock: its renewal failed for longer than
    /// the lease's safety margin allows, or the lease was lost or closed. No ID is minted
    /// outside a lease (that could repeat another holder's IDs); minting resumes when the lease
    /// is renewed or a new partition is leased.
    LeaseExpired {
        /// The partition of the lease that ran out.
        partition: u16,
    },
    /// A leased generator's window starts later than its clock reads: the grant it mints under
    /// follows a lease store's restart or failover (whose first grants start one TTL after it),
    /// or a holder of the partition that minted up to that time. Retryable: minting resumes at
    /// unit `retry_at`, and a leased generator's blocking `next` waits for it.
    LeasePending {
        /// The partition of the grant.
        partition: u16,
        /// The first time unit the grant may stamp.
        retry_at: u64,
    },
    /// An environment variable that configures the process-wide generator holds a value it
    /// cannot use (`SNO_PARTITION=abc`), or asks for something this build cannot do.
    InvalidEnvironment {
        /// The variable's name.
        variable: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A format name that is not one of [`Format::ALL`](crate::Format::ALL)'s names.
    UnknownFormat,
    /// A text that no format's strict decoder accepts ([`AnyId::detect`](crate::AnyId::detect)).
    UnrecognizedFormat {
        /// The text's length in bytes.
        length: usize,
    },
    /// A text that several formats accept, or only a Nanoflake (whose variable-length base36
    /// text any short word matches): [`AnyId::detect`](crate::AnyId::detect) cannot choose;
    /// name the format.
    AmbiguousFormat {
        /// The formats that accept the text.
        candidates: crate::format::FormatSet,
    },
    /// A TypeID prefix that breaks the spec's rules (at most 63 characters of `[a-z_]`, not
    /// starting or ending with `_`).
    InvalidPrefix {
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// A clock name that is not one of [`ClockKind::ALL`](crate::ClockKind::ALL)'s names
    /// (`"precise"`, `"fast"`).
    UnknownClock,
    /// An argument outside what its parameter takes: a generator setting out of its range or
    /// missing where the format requires it ([`AnyGenerator`](crate::AnyGenerator)), a field
    /// of [`AnyId::from_fields`](crate::AnyId::from_fields) of the wrong kind.
    InvalidArgument {
        /// The parameter's name (a [`Setting`](crate::Setting)'s or a field's, snake case).
        name: &'static str,
        /// What it must be.
        reason: &'static str,
    },
}

/// The JavaScript class an error kind is thrown as ([`ErrorKind::js_class`]).
///
/// ```
/// use sno_core::{ErrorKind, JsClass};
///
/// let kind = ErrorKind::TimeOutOfRange;
/// assert_eq!(kind.js_class(), JsClass::RangeError);
/// assert_eq!(kind.js_class().name(), "RangeError");
/// assert_eq!(kind.python_class(), "TimeRangeError");
/// assert_eq!(kind.sqlstate(), "22008");
/// assert_eq!(ErrorKind::InvalidByte.sqlstate(), "22P02");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JsClass {
    /// `Error`.
    Error,
    /// `RangeError`: a value outside what it may be.
    RangeError,
}

impl JsClass {
    /// The class's name in JavaScript.
    pub const fn name(self) -> &'static str {
        match self {
            JsClass::Error => "Error",
            JsClass::RangeError => "RangeError",
        }
    }
}

/// The one table of error kinds: variant, C status number (`sno_status`), stable code, Node.js
/// code, then `[Python exception class, JavaScript class, PostgreSQL SQLSTATE]`, and the
/// one-line summary (C's `sno_status_str`). Every layer reads its category from it: Python's
/// exception class and `code`, Node's class and `ERR_SNO_…` code, the extension's SQLSTATE, C's
/// status ([`ErrorKind::python_class`], [`ErrorKind::js_class`], [`ErrorKind::sqlstate`],
/// [`ErrorKind::status`]); the full message is the error's `Display`.
macro_rules! error_table {
    (
        $($variant:ident => $status:literal, $code:literal, $js:literal,
            [$py:literal, $js_class:ident, $sql:literal], $summary:literal;)*
        @lease
        $($lease:ident => $lease_status:literal, $lease_code:literal, $lease_js:literal,
            [$lease_py:literal, $lease_js_class:ident, $lease_sql:literal], $lease_summary:literal;)*
    ) => {
        /// The kind of an [`Error`], without its data; and the kinds of the lease errors
        /// (`sno_lease::Error::kind`), whose data lives in that crate.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorKind {
            $(
                #[doc = concat!("[`Error::", stringify!($variant), "`]: ", $summary, ".")]
                $variant,
            )*
            $(
                #[doc = concat!("A lease error (`sno_lease::Error`): ", $lease_summary, ".")]
                $lease,
            )*
        }

        impl ErrorKind {
            /// Every kind, in table order (the lease errors' last).
            pub const ALL: &'static [ErrorKind] = &[$(ErrorKind::$variant,)* $(ErrorKind::$lease),*];

            /// The stable snake-case code (`"invalid_length"`, …).
            pub const fn code(self) -> &'static str {
                match self { $(ErrorKind::$variant => $code,)* $(ErrorKind::$lease => $lease_code),* }
            }

            /// The Node.js-style code: `ERR_SNO_` and the upper-case [`code`](Self::code).
            pub const fn js_code(self) -> &'static str {
                match self { $(ErrorKind::$variant => $js,)* $(ErrorKind::$lease => $lease_js),* }
            }

            /// The class of the Python exception (of `sno`: `DecodeError`, `ConfigError`, …).
            pub const fn python_class(self) -> &'static str {
                match self { $(ErrorKind::$variant => $py,)* $(ErrorKind::$lease => $lease_py),* }
            }

            /// The JavaScript class of the thrown error (`Error`, or `RangeError` for a value out of
            /// its range); a binding throws `TypeError` for an argument of the wrong type before
            /// any core error can arise.
            pub const fn js_class(self) -> JsClass {
                match self { $(ErrorKind::$variant => JsClass::$js_class,)* $(ErrorKind::$lease => JsClass::$lease_js_class),* }
            }

            /// The PostgreSQL SQLSTATE the extension raises it with (`22P02`, `55000`, …).
            pub const fn sqlstate(self) -> &'static str {
                match self { $(ErrorKind::$variant => $sql,)* $(ErrorKind::$lease => $lease_sql),* }
            }

            /// The C status number (`sno_status`; never reused).
            pub const fn status(self) -> u8 {
                match self { $(ErrorKind::$variant => $status,)* $(ErrorKind::$lease => $lease_status),* }
            }

            /// A one-line summary without the error's data (C's `sno_status_str`).
            pub const fn summary(self) -> &'static str {
                match self { $(ErrorKind::$variant => $summary,)* $(ErrorKind::$lease => $lease_summary),* }
            }

            /// Whether the kind is a lease error's (`sno_lease::Error`), not an [`Error`]'s.
            pub const fn is_lease(self) -> bool {
                match self { $(ErrorKind::$lease => true,)* _ => false }
            }

            /// The kind of C status number `status`.
            pub const fn from_status(status: u8) -> Option<ErrorKind> {
                match status {
                    $($status => Some(ErrorKind::$variant),)*
                    $($lease_status => Some(ErrorKind::$lease),)*
                    _ => None,
                }
            }
        }

        impl Error {
            /// The error's kind (its entry in the error table).
            pub const fn kind(&self) -> ErrorKind {
                match self { $(Error::$variant { .. } => ErrorKind::$variant),* }
            }
        }
    };
}

error_table! {
    InvalidLength => 2, "invalid_length", "ERR_SNO_INVALID_LENGTH", ["DecodeError", Error, "22P02"], "invalid length for the format";
    InvalidByte => 3, "invalid_byte", "ERR_SNO_INVALID_BYTE", ["DecodeError", Error, "22P02"], "invalid byte: not in the format's alphabet";
    TimestampOverflow => 4, "timestamp_overflow", "ERR_SNO_TIMESTAMP_OVERFLOW", ["TimeRangeError", Error, "22008"], "timestamp above 2^39-1 units";
    TimeOutOfRange => 5, "time_out_of_range", "ERR_SNO_TIME_OUT_OF_RANGE", ["TimeRangeError", RangeError, "22008"], "time outside 2010-01-01 ..= 2079-09-07T15:47:35.551999999Z";
    ClockOutOfRange => 6, "clock_out_of_range", "ERR_SNO_CLOCK_OUT_OF_RANGE", ["TimeRangeError", Error, "22008"], "the system clock reads a time outside the sno range";
    InvalidSequenceBounds => 7, "invalid_sequence_bounds", "ERR_SNO_INVALID_SEQUENCE_BOUNDS", ["ConfigError", RangeError, "22023"], "sequence bounds leave fewer than 4 values";
    SequenceOutOfRange => 8, "sequence_out_of_range", "ERR_SNO_SEQUENCE_OUT_OF_RANGE", ["ConfigError", RangeError, "22023"], "snapshot sequence outside its bounds";
    InvalidSnapshot => 9, "invalid_snapshot", "ERR_SNO_INVALID_SNAPSHOT", ["ConfigError", RangeError, "22023"], "snapshot time field outside 0..=2^39-1";
    PartitionPoolExhausted => 10, "partition_pool_exhausted", "ERR_SNO_PARTITION_POOL_EXHAUSTED", ["ConfigError", Error, "53000"], "65536 default partitions used in this process";
    SequenceExhausted => 11, "sequence_exhausted", "ERR_SNO_SEQUENCE_EXHAUSTED", ["SequenceExhaustedError", Error, "55000"], "sequence pool of this 4 ms unit exhausted";
    ClockRegression => 12, "clock_regression", "ERR_SNO_CLOCK_REGRESSION", ["ClockRegressionError", Error, "55000"], "clock regressed into a period used by both timelines";
    ValueOverflow => 15, "value_overflow", "ERR_SNO_VALUE_OVERFLOW", ["DecodeError", Error, "22P02"], "value above the format's maximum";
    NotVersion7 => 16, "not_version_7", "ERR_SNO_NOT_VERSION_7", ["DecodeError", Error, "22P02"], "not a version 7 UUID with the RFC 9562 variant";
    MillisOutOfRange => 17, "millis_out_of_range", "ERR_SNO_MILLIS_OUT_OF_RANGE", ["TimeRangeError", Error, "22008"], "millisecond time outside the format's range";
    RandomnessExhausted => 18, "randomness_exhausted", "ERR_SNO_RANDOMNESS_EXHAUSTED", ["RandomnessExhaustedError", Error, "55000"], "this millisecond's randomness, counter or sequence is used up";
    ClockRollback => 19, "clock_rollback", "ERR_SNO_CLOCK_ROLLBACK", ["ClockRegressionError", Error, "55000"], "the clock went back";
    BatchTooLarge => 20, "batch_too_large", "ERR_SNO_BATCH_TOO_LARGE", ["ConfigError", RangeError, "53000"], "batch count above SNO_MAX_BATCH (16777216) per call";
    SnapshotAhead => 21, "snapshot_ahead", "ERR_SNO_SNAPSHOT_AHEAD", ["ConfigError", RangeError, "22023"], "snapshot further ahead of the clock than the generator's maximum wait";
    Forked => 22, "forked", "ERR_SNO_FORKED", ["ForkedGeneratorError", Error, "55000"], "generator inherited across fork(): give it a partition of its own";
    RandomnessUnavailable => 23, "randomness_unavailable", "ERR_SNO_RANDOMNESS_UNAVAILABLE", ["RandomnessUnavailableError", Error, "58000"], "the operating system's randomness source cannot be read";
    LeaseExpired => 24, "lease_expired", "ERR_SNO_LEASE_EXPIRED", ["LeaseExpiredError", Error, "55000"], "the lease does not cover the clock (renewals failing, lease lost or freed)";
    LeasePending => 42, "lease_pending", "ERR_SNO_LEASE_PENDING", ["LeasePendingError", Error, "55000"], "the lease's window starts later than the clock reads (a grant after a store restart or failover)";
    InvalidArgument => 14, "invalid_argument", "ERR_SNO_INVALID_ARGUMENT", ["ConfigError", RangeError, "22023"], "argument out of range";
    InvalidEnvironment => 25, "invalid_environment", "ERR_SNO_INVALID_ENVIRONMENT", ["ConfigError", Error, "22023"], "an SNO_* environment variable holds a value it cannot use";
    MissingPartition => 35, "missing_partition", "ERR_SNO_MISSING_PARTITION", ["ConfigError", Error, "55000"], "no partition given, and no_std builds have no default";
    UnknownFormat => 36, "unknown_format", "ERR_SNO_UNKNOWN_FORMAT", ["ConfigError", Error, "22023"], "unknown format name";
    UnrecognizedFormat => 37, "unrecognized_format", "ERR_SNO_UNRECOGNIZED_FORMAT", ["DecodeError", Error, "22P02"], "the text is an ID of no known format";
    AmbiguousFormat => 38, "ambiguous_format", "ERR_SNO_AMBIGUOUS_FORMAT", ["DecodeError", Error, "22P02"], "the text reads as more than one format: name the format";
    InvalidPrefix => 39, "invalid_prefix", "ERR_SNO_INVALID_PREFIX", ["DecodeError", Error, "22P02"], "invalid TypeID prefix";
    UnknownClock => 40, "unknown_clock", "ERR_SNO_UNKNOWN_CLOCK", ["ConfigError", Error, "22023"], "unknown clock name: expected \"precise\" or \"fast\"";
    @lease
    LeaseInvalidUrl => 26, "lease_invalid_url", "ERR_SNO_LEASE_INVALID_URL", ["LeaseConfigError", Error, "22023"], "invalid lease store URL (malformed, unknown scheme or sslmode, unreadable CA file)";
    LeaseInvalidOptions => 27, "lease_invalid_options", "ERR_SNO_LEASE_INVALID_OPTIONS", ["LeaseConfigError", RangeError, "22023"], "invalid lease option (namespace, TTL, margin, timeout or partition range)";
    LeaseUnreachable => 28, "lease_unreachable", "ERR_SNO_LEASE_UNREACHABLE", ["LeaseUnreachableError", Error, "08001"], "the lease store cannot be reached or did not answer in time";
    LeaseAuthenticationFailed => 29, "lease_authentication_failed", "ERR_SNO_LEASE_AUTHENTICATION_FAILED", ["LeaseAuthenticationError", Error, "28000"], "the lease store refused the credentials";
    LeaseNoFreePartition => 30, "lease_no_free_partition", "ERR_SNO_LEASE_NO_FREE_PARTITION", ["NoFreePartitionError", Error, "53000"], "every partition of the lease range is held by a live lease";
    LeaseStore => 31, "lease_store", "ERR_SNO_LEASE_STORE", ["LeaseStoreError", Error, "38000"], "the lease store answered with an error";
    LeaseLost => 32, "lease_lost", "ERR_SNO_LEASE_LOST", ["LeaseError", Error, "55000"], "the lease expired and its partition was granted to another holder";
    LeaseUnavailable => 33, "lease_unavailable", "ERR_SNO_LEASE_UNAVAILABLE", ["LeaseError", Error, "55000"], "the lease is closed or already drives a generator";
    LeaseTlsFailed => 41, "lease_tls_failed", "ERR_SNO_LEASE_TLS_FAILED", ["LeaseTlsError", Error, "08001"], "the TLS connection to the lease store failed (certificate refused or handshake failed)";
}

impl Error {
    /// A stable, machine-readable name of the error kind (`"invalid_length"`, …): the `code` of
    /// Python exceptions, and in upper case after `ERR_SNO_` the `code` of JavaScript errors.
    pub const fn code(&self) -> &'static str {
        self.kind().code()
    }

    /// Whether the error says when to call again: [`SequenceExhausted`](Error::SequenceExhausted),
    /// [`ClockRegression`](Error::ClockRegression), [`LeasePending`](Error::LeasePending),
    /// [`RandomnessExhausted`](Error::RandomnessExhausted) and
    /// [`ClockRollback`](Error::ClockRollback). [`retry_at_unix_ns`](Self::retry_at_unix_ns)
    /// then tells when, or that no retry can succeed.
    pub const fn is_retryable(&self) -> bool {
        matches!(
            self,
            Error::SequenceExhausted { .. }
                | Error::ClockRegression { .. }
                | Error::LeasePending { .. }
                | Error::RandomnessExhausted { .. }
                | Error::ClockRollback { .. }
        )
    }

    /// For a [retryable](Self::is_retryable) error, the Unix time in nanoseconds from which a
    /// retry can succeed: the next 4 ms unit or the end of a regression (sno), the next
    /// millisecond (used-up randomness), the last time used (a clock that went back). `None`
    /// for every other error, and when no retry can ever succeed (`retry_at` past
    /// [`MAX_TIMESTAMP`](crate::time::MAX_TIMESTAMP): the sno time range ends
    /// 2079-09-07T15:47:35.552Z; or a millisecond past the `i64` nanosecond range, 2262).
    ///
    /// ```
    /// use sno_core::Error;
    /// assert_eq!(Error::SequenceExhausted { retry_at: 1 }.retry_at_unix_ns(), Some(1_262_304_000_004_000_000));
    /// assert_eq!(Error::SequenceExhausted { retry_at: 1 << 39 }.retry_at_unix_ns(), None);
    /// assert_eq!(Error::RandomnessExhausted { unix_millis: 7 }.retry_at_unix_ns(), Some(8_000_000));
    /// ```
    pub const fn retry_at_unix_ns(&self) -> Option<i64> {
        match *self {
            Error::SequenceExhausted { retry_at }
            | Error::ClockRegression { retry_at }
            | Error::LeasePending { retry_at, .. } => {
                if retry_at > MAX_TIMESTAMP {
                    None
                } else {
                    Some(units_to_unix_ns(retry_at))
                }
            }
            Error::RandomnessExhausted { unix_millis } => {
                millis_to_nanos(unix_millis.saturating_add(1))
            }
            Error::ClockRollback {
                last_unix_millis, ..
            } => millis_to_nanos(last_unix_millis),
            _ => None,
        }
    }

    /// The old name of [`retry_at_unix_ns`](Self::retry_at_unix_ns).
    #[deprecated(since = "0.2.0", note = "renamed `retry_at_unix_ns`")]
    pub const fn retry_at_unix_nanos(&self) -> Option<i64> {
        self.retry_at_unix_ns()
    }
}

/// Unix milliseconds as nanoseconds, if `i64` holds them.
const fn millis_to_nanos(millis: u64) -> Option<i64> {
    if millis > (i64::MAX / 1_000_000) as u64 {
        None
    } else {
        Some(millis as i64 * 1_000_000)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::InvalidLength { expected, actual } => {
                write!(f, "sno: invalid length {actual}, expected {expected} bytes")
            }
            Error::InvalidByte { position, byte } => {
                write!(f, "sno: invalid byte ")?;
                if byte.is_ascii_graphic() {
                    write!(f, "'{}'", byte as char)?;
                } else {
                    write!(f, "0x{byte:02x}")?;
                }
                write!(f, " at position {position}: not in the alphabet")
            }
            Error::TimestampOverflow { units } => {
                write!(f, "sno: timestamp {units} exceeds the 39-bit maximum {}", crate::time::MAX_TIMESTAMP)
            }
            Error::TimeOutOfRange { unix_nanos } => write!(
                f,
                "sno: time {unix_nanos} ns since 1970 is outside 2010-01-01T00:00:00Z..=2079-09-07T15:47:35.551999999Z"
            ),
            Error::ClockOutOfRange { units } => {
                write!(f, "sno: the clock reads {units} units since 2010, outside the sno range")
            }
            Error::InvalidSequenceBounds { min, max } => write!(
                f,
                "sno: sequence bounds {min}..={max} leave a pool of {} values, at least 4 are required",
                i32::from(max) - i32::from(min) + 1
            ),
            Error::SequenceOutOfRange { sequence, min, max } => {
                write!(f, "sno: sequence {sequence} is outside the bounds {min}..={max}")
            }
            Error::InvalidSnapshot { field, value } => {
                write!(f, "sno: snapshot field `{field}` holds {value}, outside 0..=549755813887")
            }
            Error::PartitionPoolExhausted => f.write_str(
                "sno: the process created 65536 default-partitioned generators; pass explicit partitions",
            ),
            Error::MissingPartition => f.write_str("sno: no partition given, and no_std builds have no default"),
            Error::SequenceExhausted { retry_at } => write!(
                f,
                "sno: sequence pool exhausted in this 4 ms unit; {}",
                RetryAt(retry_at)
            ),
            Error::ValueOverflow => {
                f.write_str("sno: the value is above the format's maximum (or a field above its width)")
            }
            Error::NotVersion7 { version, variant } => write!(
                f,
                "sno: not a UUIDv7: version {version}, variant bits {variant:02b} (7 and 10 required)"
            ),
            Error::MillisOutOfRange { unix_millis } => write!(
                f,
                "sno: timestamp {unix_millis} ms since 1970 is outside the millisecond range of the format"
            ),
            Error::RandomnessExhausted { unix_millis } => write!(
                f,
                "sno: the monotonic counter or randomness of millisecond {unix_millis} is used up; retry from the next one"
            ),
            Error::ClockRollback {
                last_unix_millis,
                unix_millis,
            } => write!(
                f,
                "sno: the clock moved back from {last_unix_millis} ms to {unix_millis} ms, beyond what the generator allows"
            ),
            Error::ClockRegression { retry_at } => write!(
                f,
                "sno: the clock moved back into a period already used by both timelines; {}",
                RetryAt(retry_at)
            ),
            Error::BatchTooLarge { requested, max } => {
                if requested < 0 {
                    write!(f, "sno: a batch count cannot be negative ({requested}); 0 ..= {max} IDs per call")
                } else if requested == i128::MAX {
                    write!(f, "sno: a batch count beyond 2^127 is above the maximum of {max} per call")
                } else {
                    write!(f, "sno: a batch of {requested} IDs is above the maximum of {max} per call")
                }
            }
            Error::SnapshotAhead { units, clock_units } => write!(
                f,
                "sno: the snapshot reaches unit {units}, {} ms ahead of the clock (unit {clock_units}), beyond the generator's maximum wait",
                (units as i64).saturating_sub(clock_units).saturating_mul(4)
            ),
            Error::Forked { partition } => write!(
                f,
                "sno: this generator (partition {partition}) was copied into a fork() child and would repeat its parent's IDs; give it a partition of its own (a leased generator: lease anew in the child; the process-wide generator with SNO_PARTITION: lease with SNO_LEASE_URL instead)"
            ),
            Error::RandomnessUnavailable => {
                f.write_str("sno: the operating system's randomness source cannot be read")
            }
            Error::LeaseExpired { partition } => write!(
                f,
                "sno: the lease on partition {partition} does not cover the clock (renewal failing, lease lost or closed): an open lease mints again once it is renewed or a new partition is leased, a closed one never"
            ),
            Error::LeasePending { partition, retry_at } => write!(
                f,
                "sno: the lease on partition {partition} starts later than the clock reads: its grant follows a restart or failover of the lease store (whose first grants start one TTL after it) or a holder that minted up to then; {}",
                RetryAt(retry_at)
            ),
            Error::InvalidArgument { name, reason } => write!(f, "sno: {name} {reason}"),
            Error::InvalidEnvironment { variable, reason } => {
                write!(f, "sno: environment variable {variable}: {reason}")
            }
            Error::UnknownFormat => {
                f.write_str("sno: unknown format name (")?;
                for (i, format) in crate::format::Format::ALL.iter().enumerate() {
                    f.write_str(if i == 0 { "" } else { ", " })?;
                    f.write_str(format.name())?;
                }
                f.write_str(" are known)")
            }
            Error::UnrecognizedFormat { length } => write!(
                f,
                "sno: the text ({length} bytes) is an ID of no format libsno knows"
            ),
            Error::AmbiguousFormat { candidates } => {
                if candidates.len() == 1 {
                    write!(f, "sno: the text reads only as a {candidates}, whose short variable-length text any word can match: name the format to read it")
                } else {
                    write!(f, "sno: the text reads as more than one format ({candidates}): name the format")
                }
            }
            Error::InvalidPrefix { reason } => write!(f, "sno: invalid TypeID prefix: {reason}"),
            Error::UnknownClock => f.write_str(
                "sno: unknown clock name (\"precise\" and \"fast\" are known)",
            ),
        }
    }
}

impl core::error::Error for Error {}
