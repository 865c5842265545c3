//! The one error type of the crate.

use core::fmt;

use crate::time::{MAX_TIMESTAMP, units_to_unix_ns};

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
    /// A call that does not apply to a leased generator (`sno_lease::SnoGenerator`): an
    /// explicit partition or a snapshot (its partition and its window are the lease's), an ID
    /// for a given time (it mints only inside its lease's window), a snapshot of its state.
    LeasedGenerator {
        /// What was asked for.
        call: &'static str,
        /// Why a leased generator refuses it.
        reason: &'static str,
    },
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
    /// `TypeError`: a call that does not apply to the object it was made on.
    TypeError,
}

impl JsClass {
    /// The class's name in JavaScript.
    pub const fn name(self) -> &'static str {
        match self {
            JsClass::Error => "Error",
            JsClass::RangeError => "RangeError",
            JsClass::TypeError => "TypeError",
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

            /// The JavaScript class of the thrown error: `RangeError` for a value out of its range,
            /// `TypeError` for a call the object does not take (a leased generator's refusals),
            /// `Error` for the rest. A binding also throws its own `TypeError` for an argument of
            /// the wrong type, before any core error can arise.
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
    LeasedGenerator => 34, "leased_generator", "ERR_SNO_LEASED_GENERATOR", ["ConfigError", TypeError, "55000"], "not available on a leased generator";
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

/// An error message written in pieces (text, and integers in decimal) to a sink, without
/// `core::fmt`: the web build's module then holds none of its formatting machinery (docs/wasm.md,
/// "Sizes"); `Display` writes the same pieces to its formatter.
struct Message<'a>(&'a mut dyn FnMut(&str));

impl Message<'_> {
    /// Writes `s`.
    fn s(&mut self, s: &str) -> &mut Self {
        (self.0)(s);
        self
    }

    /// Writes `n` in decimal (a minus sign first when negative), as `Display` writes integers.
    fn n(&mut self, n: i128) -> &mut Self {
        // u128::MAX has 39 digits; a sign makes 40. Written from the end, without indexing
        // that could panic (a panic's message would bring `core::fmt` back into the module).
        let mut buf = [0u8; 40];
        let mut at = buf.len();
        let mut put = |byte: u8| {
            at -= 1;
            if let Some(slot) = buf.get_mut(at) {
                *slot = byte;
            }
        };
        let mut rest = n.unsigned_abs();
        loop {
            // Nine digits at a time, each chunk by 64-bit divisions only (no 128-bit division
            // routine); the last chunk without its leading zeros (at least one digit).
            let (quotient, mut chunk) = div_rem_1e9(rest);
            rest = quotient;
            for _ in 0..9 {
                put(b'0' + (chunk % 10) as u8);
                chunk /= 10;
                if chunk == 0 && rest == 0 {
                    break;
                }
            }
            if rest == 0 {
                break;
            }
        }
        if n < 0 {
            put(b'-');
        }
        let digits = buf.get(at..).unwrap_or_default();
        // SAFETY: `buf` holds ASCII only (zeros, and the digits and '-' `put` wrote): UTF-8. Not
        // `str::from_utf8`, whose validation would be in the web build's modules for this alone.
        self.s(unsafe { core::str::from_utf8_unchecked(digits) })
    }

    /// How a `retry_at` unit reads: its Unix nanoseconds, or "never" past the range.
    fn retry_at(&mut self, units: u64) -> &mut Self {
        if units > MAX_TIMESTAMP {
            self.s("never: the sno time range ends 2079-09-07T15:47:35.552Z")
        } else {
            self.s("retry at unit ")
                .n(units.into())
                .s(" (")
                .n(units_to_unix_ns(units).into())
                .s(" ns since 1970)")
        }
    }
}

/// `n` divided by 10^9: the quotient and the remainder, by 32-bit limbs (each step a 64-bit
/// division).
fn div_rem_1e9(n: u128) -> (u128, u32) {
    const D: u64 = 1_000_000_000;
    let mut quotient = 0u128;
    let mut rem = 0u64;
    for shift in [96, 64, 32, 0] {
        // rem < D < 2^32: the limb with the remainder above it fits 64 bits, and its quotient 32.
        let limb = (rem << 32) | u64::from((n >> shift) as u32);
        quotient |= u128::from(limb / D) << shift;
        rem = limb % D;
    }
    (quotient, rem as u32)
}

impl Error {
    /// Writes the error's message (its `Display`, exactly) to `out` in pieces, without
    /// `core::fmt`: how the web build's module writes it (docs/wasm.md, "Sizes").
    ///
    /// ```
    /// use sno_core::Error;
    ///
    /// let e = Error::InvalidLength { expected: 16, actual: 3 };
    /// let mut message = String::new();
    /// e.write_message(&mut |piece| message.push_str(piece));
    /// assert_eq!(message, e.to_string());
    /// ```
    pub fn write_message(&self, out: &mut dyn FnMut(&str)) {
        let m = &mut Message(out);
        m.s("sno: ");
        match *self {
            Error::InvalidLength { expected, actual } => {
                m.s("invalid length ")
                    .n(actual as i128)
                    .s(", expected ")
                    .n(expected as i128)
                    .s(" bytes");
            }
            Error::InvalidByte { position, byte } => {
                m.s("invalid byte ");
                if byte.is_ascii_graphic() {
                    let text = [b'\'', byte, b'\''];
                    // SAFETY: quotes around an ASCII graphic byte: ASCII, so UTF-8.
                    m.s(unsafe { core::str::from_utf8_unchecked(&text) });
                } else {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let text = [
                        b'0',
                        b'x',
                        HEX[usize::from(byte >> 4)],
                        HEX[usize::from(byte & 15)],
                    ];
                    // SAFETY: "0x" and two digits of HEX: ASCII, so UTF-8.
                    m.s(unsafe { core::str::from_utf8_unchecked(&text) });
                }
                m.s(" at position ")
                    .n(position as i128)
                    .s(": not in the alphabet");
            }
            Error::TimestampOverflow { units } => {
                m.s("timestamp ")
                    .n(units.into())
                    .s(" exceeds the 39-bit maximum ")
                    .n(MAX_TIMESTAMP.into());
            }
            Error::TimeOutOfRange { unix_nanos } => {
                m.s("time ").n(unix_nanos.into()).s(
                    " ns since 1970 is outside 2010-01-01T00:00:00Z..=2079-09-07T15:47:35.551999999Z",
                );
            }
            Error::ClockOutOfRange { units } => {
                m.s("the clock reads ")
                    .n(units.into())
                    .s(" units since 2010, outside the sno range");
            }
            Error::InvalidSequenceBounds { min, max } => {
                m.s("sequence bounds ")
                    .n(min.into())
                    .s("..=")
                    .n(max.into())
                    .s(" leave a pool of ")
                    .n(i128::from(max) - i128::from(min) + 1)
                    .s(" values, at least 4 are required");
            }
            Error::SequenceOutOfRange { sequence, min, max } => {
                m.s("sequence ")
                    .n(sequence.into())
                    .s(" is outside the bounds ")
                    .n(min.into())
                    .s("..=")
                    .n(max.into());
            }
            Error::InvalidSnapshot { field, value } => {
                m.s("snapshot field `")
                    .s(field)
                    .s("` holds ")
                    .n(value.into())
                    .s(", outside 0..=549755813887");
            }
            Error::PartitionPoolExhausted => {
                m.s("the process created 65536 default-partitioned generators; pass explicit partitions");
            }
            #[cfg(not(all(feature = "web", not(feature = "std"))))]
            Error::MissingPartition => {
                m.s("no partition given, and no_std builds have no default");
            }
            Error::SequenceExhausted { retry_at } => {
                m.s("sequence pool exhausted in this 4 ms unit; ")
                    .retry_at(retry_at);
            }
            Error::ValueOverflow => {
                m.s("the value is above the format's maximum (or a field above its width)");
            }
            Error::NotVersion7 { version, variant } => {
                m.s("not a UUIDv7: version ")
                    .n(version.into())
                    .s(", variant bits ");
                // In binary, at least two digits.
                let mut bits = [b'0'; 8];
                let width = (8 - variant.leading_zeros() as usize).max(2);
                for (i, bit) in bits.iter_mut().take(width).enumerate() {
                    *bit = b'0' + ((variant >> (width - 1 - i)) & 1);
                }
                let bits = bits.get(..width).unwrap_or_default();
                // SAFETY: '0' and '1' only: ASCII, so UTF-8.
                m.s(unsafe { core::str::from_utf8_unchecked(bits) })
                    .s(" (7 and 10 required)");
            }
            Error::MillisOutOfRange { unix_millis } => {
                m.s("timestamp ")
                    .n(unix_millis.into())
                    .s(" ms since 1970 is outside the millisecond range of the format");
            }
            Error::RandomnessExhausted { unix_millis } => {
                m.s("the monotonic counter or randomness of millisecond ")
                    .n(unix_millis.into())
                    .s(" is used up; retry from the next one");
            }
            Error::ClockRollback {
                last_unix_millis,
                unix_millis,
            } => {
                m.s("the clock moved back from ")
                    .n(last_unix_millis.into())
                    .s(" ms to ")
                    .n(unix_millis.into())
                    .s(" ms, beyond what the generator allows");
            }
            Error::ClockRegression { retry_at } => {
                m.s("the clock moved back into a period already used by both timelines; ")
                    .retry_at(retry_at);
            }
            Error::BatchTooLarge { requested, max } => {
                if requested < 0 {
                    m.s("a batch count cannot be negative (")
                        .n(requested)
                        .s("); 0 ..= ")
                        .n(max.into())
                        .s(" IDs per call");
                } else if requested == i128::MAX {
                    m.s("a batch count beyond 2^127 is above the maximum of ")
                        .n(max.into())
                        .s(" per call");
                } else {
                    m.s("a batch of ")
                        .n(requested)
                        .s(" IDs is above the maximum of ")
                        .n(max.into())
                        .s(" per call");
                }
            }
            Error::SnapshotAhead { units, clock_units } => {
                m.s("the snapshot reaches unit ")
                    .n(units.into())
                    .s(", ")
                    .n((units as i64)
                        .saturating_sub(clock_units)
                        .saturating_mul(4)
                        .into())
                    .s(" ms ahead of the clock (unit ")
                    .n(clock_units.into())
                    .s("), beyond the generator's maximum wait");
            }
            #[cfg(not(all(feature = "web", not(feature = "std"))))]
            Error::Forked { partition } => {
                m.s("this generator (partition ")
                    .n(partition.into())
                    .s(") was copied into a fork() child and would repeat its parent's IDs; give it a partition of its own (a leased generator: lease anew in the child; the process-wide generator with SNO_PARTITION: lease with SNO_LEASE_URL instead)");
            }
            #[cfg(not(all(feature = "web", not(feature = "std"))))]
            Error::RandomnessUnavailable => {
                m.s("the operating system's randomness source cannot be read");
            }
            #[cfg(not(all(feature = "web", not(feature = "std"))))]
            Error::LeaseExpired { partition } => {
                m.s("the lease on partition ")
                    .n(partition.into())
                    .s(" does not cover the clock (renewal failing, lease lost or closed): an open lease mints again once it is renewed or a new partition is leased, a closed one never");
            }
            #[cfg(not(all(feature = "web", not(feature = "std"))))]
            Error::LeasePending {
                partition,
                retry_at,
            } => {
                m.s("the lease on partition ")
                    .n(partition.into())
                    .s(" starts later than the clock reads: its grant follows a restart or failover of the lease store (whose first grants start one TTL after it) or a holder that minted up to then; ")
                    .retry_at(retry_at);
            }
            Error::InvalidArgument { name, reason } => {
                m.s(name).s(" ").s(reason);
            }
            // What the web build (no std) cannot raise: no lease, no fork(), no environment
            // read, a default partition and the host's randomness. Its modules write the kind's
            // one-line summary instead of the message's text (docs/wasm.md, "Sizes").
            #[cfg(all(feature = "web", not(feature = "std")))]
            Error::MissingPartition => {
                m.s(const { ErrorKind::MissingPartition.summary() });
            }
            #[cfg(all(feature = "web", not(feature = "std")))]
            Error::Forked { .. } => {
                m.s(const { ErrorKind::Forked.summary() });
            }
            #[cfg(all(feature = "web", not(feature = "std")))]
            Error::RandomnessUnavailable => {
                m.s(const { ErrorKind::RandomnessUnavailable.summary() });
            }
            #[cfg(all(feature = "web", not(feature = "std")))]
            Error::LeaseExpired { .. } => {
                m.s(const { ErrorKind::LeaseExpired.summary() });
            }
            #[cfg(all(feature = "web", not(feature = "std")))]
            Error::LeasePending { .. } => {
                m.s(const { ErrorKind::LeasePending.summary() });
            }
            #[cfg(all(feature = "web", not(feature = "std")))]
            Error::LeasedGenerator { .. } => {
                m.s(const { ErrorKind::LeasedGenerator.summary() });
            }
            #[cfg(not(all(feature = "web", not(feature = "std"))))]
            Error::LeasedGenerator { call, reason } => {
                m.s(call).s(" is not for a leased generator: ").s(reason);
            }
            #[cfg(all(feature = "web", not(feature = "std")))]
            Error::InvalidEnvironment { .. } => {
                m.s(const { ErrorKind::InvalidEnvironment.summary() });
            }
            #[cfg(not(all(feature = "web", not(feature = "std"))))]
            Error::InvalidEnvironment { variable, reason } => {
                m.s("environment variable ").s(variable).s(": ").s(reason);
            }
            Error::UnknownFormat => {
                m.s("unknown format name (");
                for (i, format) in crate::format::Format::ALL.iter().enumerate() {
                    m.s(if i == 0 { "" } else { ", " }).s(format.name());
                }
                m.s(" are known)");
            }
            Error::UnrecognizedFormat { length } => {
                m.s("the text (")
                    .n(length as i128)
                    .s(" bytes) is an ID of no format libsno knows");
            }
            Error::AmbiguousFormat { candidates } => {
                let one = candidates.len() == 1;
                m.s(if one {
                    "the text reads only as a "
                } else {
                    "the text reads as more than one format ("
                });
                // The candidates' display names joined by ", " (`FormatSet`'s `Display`).
                for (i, format) in candidates.iter().enumerate() {
                    m.s(if i == 0 { "" } else { ", " }).s(format.display_name());
                }
                m.s(if one {
                    ", whose short variable-length text any word can match: name the format to read it"
                } else {
                    "): name the format"
                });
            }
            Error::InvalidPrefix { reason } => {
                m.s("invalid TypeID prefix: ").s(reason);
            }
            Error::UnknownClock => {
                m.s("unknown clock name (\"precise\" and \"fast\" are known)");
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut result = Ok(());
        self.write_message(&mut |piece| {
            if result.is_ok() {
                result = f.write_str(piece);
            }
        });
        result
    }
}

impl core::error::Error for Error {}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::Error;
    use crate::format::{Format, FormatSet};

    /// Every variant's message (and every branch of one), as written before the messages were
    /// written without `core::fmt`: `Display` and `write_message` give these texts exactly.
    #[test]
    fn messages() {
        let samples = [
            (
                Error::InvalidLength {
                    expected: 16,
                    actual: 3,
                },
                "sno: invalid length 3, expected 16 bytes",
            ),
            (
                Error::InvalidByte {
                    position: 7,
                    byte: b'!',
                },
                "sno: invalid byte '!' at position 7: not in the alphabet",
            ),
            (
                Error::InvalidByte {
                    position: 0,
                    byte: b' ',
                },
                "sno: invalid byte 0x20 at position 0: not in the alphabet",
            ),
            (
                Error::InvalidByte {
                    position: 12,
                    byte: 0xff,
                },
                "sno: invalid byte 0xff at position 12: not in the alphabet",
            ),
            (
                Error::InvalidByte {
                    position: 1,
                    byte: 0x0a,
                },
                "sno: invalid byte 0x0a at position 1: not in the alphabet",
            ),
            (
                Error::TimestampOverflow { units: u64::MAX },
                "sno: timestamp 18446744073709551615 exceeds the 39-bit maximum 549755813887",
            ),
            (
                Error::TimeOutOfRange {
                    unix_nanos: i64::MIN,
                },
                "sno: time -9223372036854775808 ns since 1970 is outside 2010-01-01T00:00:00Z..=2079-09-07T15:47:35.551999999Z",
            ),
            (
                Error::TimeOutOfRange { unix_nanos: 0 },
                "sno: time 0 ns since 1970 is outside 2010-01-01T00:00:00Z..=2079-09-07T15:47:35.551999999Z",
            ),
            (
                Error::ClockOutOfRange { units: -5 },
                "sno: the clock reads -5 units since 2010, outside the sno range",
            ),
            (
                Error::InvalidSequenceBounds { min: 10, max: 12 },
                "sno: sequence bounds 10..=12 leave a pool of 3 values, at least 4 are required",
            ),
            (
                Error::InvalidSequenceBounds { min: 12, max: 10 },
                "sno: sequence bounds 12..=10 leave a pool of -1 values, at least 4 are required",
            ),
            (
                Error::SequenceOutOfRange {
                    sequence: 70000,
                    min: 0,
                    max: 65535,
                },
                "sno: sequence 70000 is outside the bounds 0..=65535",
            ),
            (
                Error::InvalidSnapshot {
                    field: "wall_hi",
                    value: -1,
                },
                "sno: snapshot field `wall_hi` holds -1, outside 0..=549755813887",
            ),
            (
                Error::PartitionPoolExhausted,
                "sno: the process created 65536 default-partitioned generators; pass explicit partitions",
            ),
            (
                Error::MissingPartition,
                "sno: no partition given, and no_std builds have no default",
            ),
            (
                Error::SequenceExhausted { retry_at: 1 },
                "sno: sequence pool exhausted in this 4 ms unit; retry at unit 1 (1262304000004000000 ns since 1970)",
            ),
            (
                Error::SequenceExhausted { retry_at: 1 << 39 },
                "sno: sequence pool exhausted in this 4 ms unit; never: the sno time range ends 2079-09-07T15:47:35.552Z",
            ),
            (
                Error::ClockRegression {
                    retry_at: 549_755_813_887,
                },
                "sno: the clock moved back into a period already used by both timelines; retry at unit 549755813887 (3461327255548000000 ns since 1970)",
            ),
            (
                Error::ClockRegression { retry_at: u64::MAX },
                "sno: the clock moved back into a period already used by both timelines; never: the sno time range ends 2079-09-07T15:47:35.552Z",
            ),
            (
                Error::ValueOverflow,
                "sno: the value is above the format's maximum (or a field above its width)",
            ),
            (
                Error::NotVersion7 {
                    version: 4,
                    variant: 0b10,
                },
                "sno: not a UUIDv7: version 4, variant bits 10 (7 and 10 required)",
            ),
            (
                Error::NotVersion7 {
                    version: 15,
                    variant: 0,
                },
                "sno: not a UUIDv7: version 15, variant bits 00 (7 and 10 required)",
            ),
            (
                Error::NotVersion7 {
                    version: 7,
                    variant: 0xff,
                },
                "sno: not a UUIDv7: version 7, variant bits 11111111 (7 and 10 required)",
            ),
            (
                Error::MillisOutOfRange { unix_millis: -1 },
                "sno: timestamp -1 ms since 1970 is outside the millisecond range of the format",
            ),
            (
                Error::RandomnessExhausted {
                    unix_millis: 1_700_000_000_000,
                },
                "sno: the monotonic counter or randomness of millisecond 1700000000000 is used up; retry from the next one",
            ),
            (
                Error::ClockRollback {
                    last_unix_millis: 20,
                    unix_millis: u64::MAX,
                },
                "sno: the clock moved back from 20 ms to 18446744073709551615 ms, beyond what the generator allows",
            ),
            (
                Error::BatchTooLarge {
                    requested: -3,
                    max: 1 << 20,
                },
                "sno: a batch count cannot be negative (-3); 0 ..= 1048576 IDs per call",
            ),
            (
                Error::BatchTooLarge {
                    requested: i128::MIN,
                    max: 1 << 20,
                },
                "sno: a batch count cannot be negative (-170141183460469231731687303715884105728); 0 ..= 1048576 IDs per call",
            ),
            (
                Error::BatchTooLarge {
                    requested: i128::MAX,
                    max: 1 << 20,
                },
                "sno: a batch count beyond 2^127 is above the maximum of 1048576 per call",
            ),
            (
                Error::BatchTooLarge {
                    requested: i128::MAX - 1,
                    max: 1 << 20,
                },
                "sno: a batch of 170141183460469231731687303715884105726 IDs is above the maximum of 1048576 per call",
            ),
            (
                Error::BatchTooLarge {
                    requested: 1_000_001,
                    max: u64::MAX,
                },
                "sno: a batch of 1000001 IDs is above the maximum of 18446744073709551615 per call",
            ),
            (
                Error::SnapshotAhead {
                    units: 900,
                    clock_units: -100,
                },
                "sno: the snapshot reaches unit 900, 4000 ms ahead of the clock (unit -100), beyond the generator's maximum wait",
            ),
            (
                Error::SnapshotAhead {
                    units: u64::MAX,
                    clock_units: i64::MIN,
                },
                "sno: the snapshot reaches unit 18446744073709551615, 9223372036854775807 ms ahead of the clock (unit -9223372036854775808), beyond the generator's maximum wait",
            ),
            (
                Error::Forked { partition: 65535 },
                "sno: this generator (partition 65535) was copied into a fork() child and would repeat its parent's IDs; give it a partition of its own (a leased generator: lease anew in the child; the process-wide generator with SNO_PARTITION: lease with SNO_LEASE_URL instead)",
            ),
            (
                Error::RandomnessUnavailable,
                "sno: the operating system's randomness source cannot be read",
            ),
            (
                Error::LeaseExpired { partition: 3 },
                "sno: the lease on partition 3 does not cover the clock (renewal failing, lease lost or closed): an open lease mints again once it is renewed or a new partition is leased, a closed one never",
            ),
            (
                Error::LeasePending {
                    partition: 0,
                    retry_at: 12345,
                },
                "sno: the lease on partition 0 starts later than the clock reads: its grant follows a restart or failover of the lease store (whose first grants start one TTL after it) or a holder that minted up to then; retry at unit 12345 (1262304049380000000 ns since 1970)",
            ),
            (
                Error::LeasePending {
                    partition: 9,
                    retry_at: u64::MAX,
                },
                "sno: the lease on partition 9 starts later than the clock reads: its grant follows a restart or failover of the lease store (whose first grants start one TTL after it) or a holder that minted up to then; never: the sno time range ends 2079-09-07T15:47:35.552Z",
            ),
            (
                Error::InvalidEnvironment {
                    variable: "SNO_PARTITION",
                    reason: "not a number",
                },
                "sno: environment variable SNO_PARTITION: not a number",
            ),
            (
                Error::UnknownFormat,
                "sno: unknown format name (sno, ulid, uuid7, scru128, scru160, nanoflake, ulidflake, typeid, ksuid are known)",
            ),
            (
                Error::UnrecognizedFormat { length: 0 },
                "sno: the text (0 bytes) is an ID of no format libsno knows",
            ),
            (
                Error::AmbiguousFormat {
                    candidates: FormatSet::EMPTY.with(Format::Nanoflake),
                },
                "sno: the text reads only as a Nanoflake, whose short variable-length text any word can match: name the format to read it",
            ),
            (
                Error::AmbiguousFormat {
                    candidates: FormatSet::EMPTY
                        .with(Format::Ulid)
                        .with(Format::Uuid7)
                        .with(Format::Ksuid),
                },
                "sno: the text reads as more than one format (ULID, UUIDv7, KSUID): name the format",
            ),
            (
                Error::AmbiguousFormat {
                    candidates: FormatSet::EMPTY,
                },
                "sno: the text reads as more than one format (): name the format",
            ),
            (
                Error::InvalidPrefix {
                    reason: "longer than 63 characters",
                },
                "sno: invalid TypeID prefix: longer than 63 characters",
            ),
            (
                Error::UnknownClock,
                "sno: unknown clock name (\"precise\" and \"fast\" are known)",
            ),
            (
                Error::LeasedGenerator {
                    call: "a snapshot",
                    reason: "its lease, not a saved state, keeps its IDs unique",
                },
                "sno: a snapshot is not for a leased generator: its lease, not a saved state, keeps its IDs unique",
            ),
            (
                Error::InvalidArgument {
                    name: "generator_id",
                    reason: "must be in 0 ..= 1023",
                },
                "sno: generator_id must be in 0 ..= 1023",
            ),
        ];
        for (e, text) in samples {
            assert_eq!(alloc::format!("{e}"), text);
            let mut written = alloc::string::String::new();
            e.write_message(&mut |piece| written.push_str(piece));
            assert_eq!(written, text);
            // Every variant's details fit in `Details`.
            let mut details = 0;
            e.for_each_detail(|_| details += 1);
            assert_eq!(e.details().iter().count(), details, "{e}");
        }
    }
}
