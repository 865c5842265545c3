//! What C says about its statuses beyond the core's error table (`sno_core::ErrorKind`: the
//! number, name and one-line summary of every core and lease error): the statuses of the C layer
//! alone, and for the others the C functions that return them and what to do. The generator
//! (`c/mod.rs`) writes the `sno_status` enum from the two.

/// A status of the C layer alone: no core error has it.
pub struct CStatus {
    /// The Rust variant (cbindgen writes `SNO_STATUS_` and its upper snake case).
    pub variant: &'static str,
    /// Its number (fixed, never reused).
    pub number: u8,
    /// `sno_status_str`'s description.
    pub summary: &'static str,
    /// Its documentation.
    pub doc: &'static str,
}

/// The C layer's own statuses.
pub const C_ONLY: &[CStatus] = &[
    CStatus {
        variant: "Ok",
        number: 0,
        summary: "ok",
        doc: "Success.",
    },
    CStatus {
        variant: "NullArgument",
        number: 1,
        summary: "a required pointer argument is NULL",
        doc: "A required pointer argument was NULL.",
    },
    CStatus {
        variant: "BufferTooSmall",
        number: 13,
        summary: "output buffer too small",
        doc: "An output buffer is too small.",
    },
    CStatus {
        variant: "Panic",
        number: 255,
        summary: "internal panic caught at the C boundary",
        doc: "Reserved: a Rust panic was caught at the boundary (a bug; please report it).",
    },
];

/// What C adds to a core error kind's summary, by the kind's name (`ErrorKind`'s `Debug`).
/// `InvalidLength` and `ClockRollback` have their figures written by the generator from the
/// core (each format's lengths, the rollback limit).
pub const NOTES: &[(&str, &str)] = &[
    (
        "LeasedGenerator",
        "The call does not apply to a leased generator (sno_generator_new_leased): its partition belongs to the lease (sno_generator_repartition, an explicit partition in the options), and it mints only at the present time inside the lease (sno_generator_next_at_unix_ns, sno_generator_snapshot).",
    ),
    (
        "InvalidByte",
        "sno's alphabet is `23456789abcdefghijklmnopqrstuvwx`; each format's is in docs/formats.md.",
    ),
    (
        "SequenceExhausted",
        "Returned by try_next, and by next when the retry lies beyond the generator's maximum wait (5 s by default) or never comes.",
    ),
    (
        "ClockRegression",
        "Returned by try_next, and by next when the retry lies beyond the generator's maximum wait (5 s by default).",
    ),
    (
        "ValueOverflow",
        "A text encoding a number above the format's maximum (a ULID or Ulid-Flake starting above '7', a SCRU128 above \"f5lxx1zz5pnorynqglhzmsp33\", a Nanoflake above 2^63-1), a negative 64-bit ID, or a field or setting above its width.",
    ),
    (
        "MillisOutOfRange",
        "A millisecond time outside the format's range (48 bits; for Nanoflakes and Ulid-Flake, before the epoch or past the timestamp field), or a negative epoch.",
    ),
    (
        "RandomnessExhausted",
        "A generator used up what one millisecond offers (ULID or Ulid-Flake randomness, SCRU160 counter, Nanoflakes sequence): returned by try_next; next waits for the next millisecond, within its maximum wait (5 s by default).",
    ),
    (
        "Forked",
        "A generator with an explicit partition was inherited across fork(): give it a partition of its own (sno_generator_repartition) before minting in the child.",
    ),
    (
        "LeaseExpired",
        "Renewals are failing, or the lease was lost or freed (sno_lease_free). No ID is minted outside a lease; sno_generator_next waits (within its maximum wait) for a renewal while the lease is alive, and answers at once once it is freed.",
    ),
    (
        "LeasePending",
        "The lease's window starts later than the clock reads: a grant made after a restart or failover of the lease store starts one TTL after it (and a partition's next holder after its last one's IDs). The call can be retried at the time sno_last_error_message names; sno_generator_next of a leased generator waits for it (by default its maximum wait is at least one TTL and two seconds).",
    ),
    (
        "InvalidEnvironment",
        "An environment variable that configures the process-wide generator (sno_new): SNO_PARTITION not a number 0..=65535 (or empty), or both SNO_PARTITION and SNO_LEASE_URL set. sno_last_error_message names the variable.",
    ),
    (
        "LeaseInvalidUrl",
        "sno_last_error_message names the part, never echoes the URL or its password. Known schemes: postgres://, postgresql://, redis://, rediss://, redis+unix://, unix://; a CA file is `sslrootcert=` or `ssl_ca_certs=`. A refused certificate is SNO_STATUS_LEASE_TLS_FAILED.",
    ),
    (
        "LeaseInvalidOptions",
        "Also from the SNO_LEASE_* variables.",
    ),
    ("LeaseUnreachable", "Retrying may succeed."),
    ("LeaseNoFreePartition", "Retrying may succeed."),
    (
        "LeaseStore",
        "Privileges, an unexpected schema, a Redis error; sno_last_error_message has the store's words.",
    ),
    (
        "MissingPartition",
        "Not returned by this library, which is built with `std`.",
    ),
    (
        "UnknownFormat",
        "From sno_format_from_name, and for a `format` outside the sno_format values.",
    ),
    ("UnrecognizedFormat", "From sno_detect and sno_inspect."),
    (
        "AmbiguousFormat",
        "From sno_detect and sno_inspect: a text that several formats accept, or only a Nanoflake, whose short variable-length text any word can match.",
    ),
    (
        "InvalidPrefix",
        "A TypeID prefix is at most 63 characters of `a-z` and `_`, not starting or ending with `_`.",
    ),
    (
        "UnknownClock",
        "A clock number or name that is no sno_clock (`\"precise\"`, `\"fast\"`).",
    ),
    (
        "LeaseTlsFailed",
        "Not signed by a CA of `sslrootcert=` / `ssl_ca_certs=` or of the system, not valid for the host name connected to, expired, or a failed handshake. Not transient: the certificate, the CA file or the URL must change. sno_last_error_message says which check failed.",
    ),
];
