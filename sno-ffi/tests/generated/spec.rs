//! What C says about each format beyond the core's table: the names of its C type and
//! functions (a published ABI: they never change) and the prose of their documentation. The
//! generator (`main.rs`) turns each entry and the core's `for_each_format!` row of the same name
//! into the common per-format surface. A format of the core without an entry here is reached
//! through the generic API (`sno_inspect`, `sno_parse_as`, …) alone.

/// How C holds a value of the format.
pub enum Repr {
    /// `struct { uint8_t bytes[binary_len]; }`, passed by pointer to `encode`.
    Bytes,
    /// A non-negative `int64_t` (`#[repr(transparent)]` over `i64`), passed by value;
    /// `encode` is the core type's method writing the fixed-length text.
    I64 {
        /// The core method that returns the fixed-length text as bytes.
        encode: &'static str,
    },
}

/// The C value type, where the generated file defines it.
pub struct Value {
    /// Its documentation.
    pub doc: &'static str,
    /// Its representation.
    pub repr: Repr,
    /// The name of the constant holding the fixed text length, and its documentation.
    pub text_const: (&'static str, &'static str),
}

/// The generator handle `<prefix>_generator` and its functions.
pub struct GeneratorSpec {
    /// The documentation of `<prefix>_generator_new(out)`; `None` where that function takes
    /// settings and is written by hand.
    pub new: Option<&'static str>,
    /// `<prefix>_generator_next`.
    pub next: &'static str,
    /// `<prefix>_generator_try_next`, where the format has one.
    pub try_next: Option<&'static str>,
    /// `<prefix>_generator_next_at`.
    pub next_at: &'static str,
}

/// `<prefix>_unix_ms`: the time of any value of the format.
pub struct UnixMs {
    /// The core type whose `from_bytes(..).unix_ms()` reads it.
    pub reader: &'static str,
    /// Its documentation.
    pub doc: &'static str,
    /// Whether the 0.2 ABI has it as `<prefix>_timestamp_ms` too (kept, deprecated).
    pub timestamp_ms_alias: bool,
}

/// One format's C surface.
pub struct Spec {
    /// The core's name of the format (`Format::name`).
    pub format: &'static str,
    /// The prefix of its functions (`sno_ulid`; sno's are `sno_id_*`).
    pub prefix: &'static str,
    /// The C value type.
    pub c_type: &'static str,
    /// The value type's definition, or `None` where it is written by hand (`sno_id`).
    pub value: Option<Value>,
    /// The length of the fixed text `encode` writes (the core's constant).
    pub text_len: usize,
    /// `<prefix>_new(out)` from the process-wide generator, where the format has one.
    pub new: Option<&'static str>,
    /// The name and documentation of the fixed-length encoder.
    pub encode: (&'static str, &'static str),
    /// Whether `<prefix>_encode_cstr` exists.
    pub encode_cstr: bool,
    /// The name and documentation of the strict decoder taking `error_position`.
    pub decode: (&'static str, &'static str),
    /// `<prefix>_unix_ms` (and, for the formats of 0.2, its deprecated name
    /// `<prefix>_timestamp_ms`).
    pub unix_ms: Option<UnixMs>,
    /// Whether `<prefix>_compare` exists (the byte formats; 64-bit values compare as numbers).
    pub compare: bool,
    /// The generator handle, where the format has one in C.
    pub generator: Option<GeneratorSpec>,
}

/// Every format with a per-format C surface, in the order the header lists them.
pub const SPECS: &[Spec] = &[
    Spec {
        format: "sno",
        prefix: "sno_id",
        c_type: "sno_id",
        value: None,
        text_len: sno_core::ENCODED_LEN,
        new: None,
        encode: (
            "encode",
            "Writes the 16-character text form to `out` (exactly SNO_ENCODED_LEN bytes, no NUL). Thread-safe.",
        ),
        encode_cstr: true,
        decode: (
            "decode_at",
            "sno_id_decode that also reports where decoding failed: on SNO_STATUS_INVALID_BYTE the position of the first bad byte, on SNO_STATUS_INVALID_LENGTH the length given, written to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: None,
        compare: true,
        generator: None,
    },
    Spec {
        format: "ulid",
        prefix: "sno_ulid",
        c_type: "sno_ulid",
        value: Some(Value {
            doc: "A ULID: 48-bit Unix milliseconds then 80 random bits, big-endian. Any 16 bytes are a ULID; byte order (memcmp) is time order.",
            repr: Repr::Bytes,
            text_const: (
                "SNO_ULID_ENCODED_LEN",
                "Characters in the text form of a ULID (no terminating NUL).",
            ),
        }),
        text_len: sno_core::ulid::ENCODED_LEN,
        new: Some(
            "A new ULID from the process-wide monotonic generator (fresh randomness each millisecond, +1 within one; reset after fork()). Sleeps into the next millisecond in the (2^-80-likely) event that one millisecond's randomness is used up. Thread-safe.",
        ),
        encode: (
            "encode",
            "Writes the 26-character upper-case text (no NUL). Thread-safe.",
        ),
        encode_cstr: true,
        decode: (
            "decode",
            "Strictly decodes `len` bytes: exactly 26 Crockford base32 characters in either case (no I, L, O, U), the first at most '7' (SNO_STATUS_VALUE_OVERFLOW above). On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: Some(UnixMs {
            reader: "sno_core::ulid::Ulid",
            doc: "The time: milliseconds since the Unix epoch (the top 48 bits). Thread-safe.",
            timestamp_ms_alias: true,
        }),
        compare: true,
        generator: Some(GeneratorSpec {
            new: Some(
                "Creates a monotonic ULID generator on the system clock and a per-thread CSPRNG. Free it with sno_ulid_generator_free. Thread-safe.",
            ),
            next: "The next ULID, greater than every earlier one of this generator (a clock that went back keeps the last timestamp); sleeps into the next millisecond if this one's randomness is used up. Thread-safe: share one generator between threads.",
            try_next: Some(
                "As sno_ulid_generator_next, but returns SNO_STATUS_RANDOMNESS_EXHAUSTED at once instead of sleeping. Thread-safe.",
            ),
            next_at: "The next ULID for an explicit time in Unix milliseconds (the clock is not read), with the same monotonic rules; outside 0..2^48 gives SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.",
        }),
    },
    Spec {
        format: "uuid7",
        prefix: "sno_uuid7",
        c_type: "sno_uuid7",
        value: Some(Value {
            doc: "A UUIDv7: 48-bit Unix milliseconds, version 7, 12 bits rand_a, variant 10, 62 bits rand_b, big-endian; byte order (memcmp) is time order. Functions taking one check the version and variant bits (SNO_STATUS_NOT_VERSION7) where the value is read as a UUIDv7; build one from raw bytes with sno_uuid7_from_bytes.",
            repr: Repr::Bytes,
            text_const: (
                "SNO_UUID7_ENCODED_LEN",
                "Characters in the hyphenated text form of a UUID (no terminating NUL).",
            ),
        }),
        text_len: sno_core::uuid7::ENCODED_LEN,
        new: Some(
            "A new UUIDv7 from the process-wide generator: RFC 9562 §6.2 Method 1 (a 42-bit counter seeded randomly each millisecond, 32 fresh random bits per UUID): unique within the process and strictly increasing in each thread (across threads, ordered by millisecond: each thread takes blocks of up to 64 values; a sno_uuid7_generator keeps one order across threads), reset after fork(). Never blocks. Thread-safe.",
        ),
        encode: (
            "encode",
            "Writes the 36-character hyphenated lower-case text (no NUL); SNO_STATUS_NOT_VERSION7 if `id` does not hold a UUIDv7. Thread-safe.",
        ),
        encode_cstr: true,
        decode: (
            "decode",
            "Strictly decodes an RFC 9562 string form: hyphenated (either case), or \"urn:uuid:\" followed by one. The UUID must be version 7 with the RFC variant (SNO_STATUS_NOT_VERSION7). On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: Some(UnixMs {
            reader: "sno_core::ulid::Ulid",
            doc: "The time: milliseconds since the Unix epoch (the top 48 bits). Thread-safe.",
            timestamp_ms_alias: true,
        }),
        compare: true,
        generator: Some(GeneratorSpec {
            new: Some(
                "Creates a UUIDv7 generator on the system clock and a per-thread CSPRNG. Free it with sno_uuid7_generator_free. Thread-safe.",
            ),
            next: "The next UUIDv7, greater than every earlier one of this generator (a clock that went back keeps the last timestamp; a counter overflow moves it 1 ms ahead). Never blocks. Thread-safe: share one generator between threads.",
            try_next: None,
            next_at: "The next UUIDv7 for an explicit time in Unix milliseconds (the clock is not read), with the same rules; outside 0..2^48 gives SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.",
        }),
    },
    Spec {
        format: "scru128",
        prefix: "sno_scru128",
        c_type: "sno_scru128",
        value: Some(Value {
            doc: "A SCRU128 ID: 48-bit Unix milliseconds, 24-bit counter_hi, 24-bit counter_lo, 32-bit entropy, big-endian. Any 16 bytes are one; byte order (memcmp) is time order.",
            repr: Repr::Bytes,
            text_const: (
                "SNO_SCRU128_ENCODED_LEN",
                "Characters in the text form of a SCRU128 ID (no terminating NUL).",
            ),
        }),
        text_len: sno_core::scru128::ENCODED_LEN,
        new: Some(
            "A new SCRU128 ID from the process-wide generator (the spec's algorithm with a 10 s rollback allowance; reset after fork()). Never blocks. Thread-safe.",
        ),
        encode: (
            "encode",
            "Writes the 25-character lower-case text (no NUL). Thread-safe.",
        ),
        encode_cstr: true,
        decode: (
            "decode",
            "Strictly decodes `len` bytes: exactly 25 characters of 0-9 and a-z in either case, at most \"f5lxx1zz5pnorynqglhzmsp33\" (SNO_STATUS_VALUE_OVERFLOW above). On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: Some(UnixMs {
            reader: "sno_core::scru128::Scru128Id",
            doc: "The time: milliseconds since the Unix epoch (the top 48 bits). Thread-safe.",
            timestamp_ms_alias: true,
        }),
        compare: true,
        generator: Some(GeneratorSpec {
            new: Some(
                "Creates a SCRU128 generator (10 s rollback allowance) on the system clock and a per-thread CSPRNG. Free it with sno_scru128_generator_free. Thread-safe.",
            ),
            next: "The next SCRU128 ID: greater than the previous one unless the clock went back more than 10 s, in which case the generator resets (the spec's default). Never blocks. Thread-safe: share one generator between threads.",
            try_next: None,
            next_at: "The next SCRU128 ID for an explicit time in Unix milliseconds (the clock is not read), with the same rules; outside 1..2^48-1 gives SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.",
        }),
    },
    Spec {
        format: "scru160",
        prefix: "sno_scru160",
        c_type: "sno_scru160",
        value: Some(Value {
            doc: "A SCRU160 ID: 48-bit Unix milliseconds, 16-bit counter, 16-bit random16, 80-bit random80, big-endian. Any 20 bytes are one; byte order (memcmp) is time order.",
            repr: Repr::Bytes,
            text_const: (
                "SNO_SCRU160_ENCODED_LEN",
                "Characters in the canonical (base32hex) text of a SCRU160 ID (no terminating NUL).",
            ),
        }),
        text_len: sno_core::scru160::ENCODED_LEN,
        new: Some(
            "A new SCRU160 ID from the process-wide generator (the reference algorithm: a random 15-bit counter per millisecond, +1 within one; reset after fork()). Sleeps into the next millisecond if one millisecond's 16-bit counter is used up. Thread-safe.",
        ),
        encode: (
            "encode",
            "Writes the 32-character upper-case base32hex text (no NUL). Thread-safe.",
        ),
        encode_cstr: true,
        decode: (
            "decode",
            "Strictly decodes `len` bytes: 32 base32hex characters (0-9, A-V) or 40 hex digits, either case; the length picks the form (SNO_STATUS_INVALID_LENGTH for any other). On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: Some(UnixMs {
            reader: "sno_core::scru160::Scru160Id",
            doc: "The time: milliseconds since the Unix epoch (the top 48 bits). Thread-safe.",
            timestamp_ms_alias: true,
        }),
        compare: true,
        generator: Some(GeneratorSpec {
            new: Some(
                "Creates a SCRU160 generator (10 s rollback allowance) on the system clock and a per-thread CSPRNG. Free it with sno_scru160_generator_free. Thread-safe.",
            ),
            next: "The next SCRU160 ID: greater than the previous one unless the clock went back more than 10 s, in which case the generator resets (as the reference does after giving up waiting). Sleeps into the next millisecond if this one's counter is used up. Thread-safe: share one generator between threads.",
            try_next: None,
            next_at: "The next SCRU160 ID for an explicit time in Unix milliseconds (the clock is not read), with the same rules; SNO_STATUS_RANDOMNESS_EXHAUSTED when that millisecond's counter is used up, SNO_STATUS_MILLIS_OUT_OF_RANGE outside 1..2^48-1. Thread-safe.",
        }),
    },
    Spec {
        format: "nanoflake",
        prefix: "sno_nanoflake",
        c_type: "sno_nanoflake",
        value: Some(Value {
            doc: "A Nanoflake: `timestamp << 22 | generator_id << 12 | sequence` (the spec text's layout, Twitter's). Valid values are 0 ..= INT64_MAX; functions taking one refuse a negative value with SNO_STATUS_VALUE_OVERFLOW. Numeric order is time order (per generator).",
            repr: Repr::I64 {
                encode: "encode_padded",
            },
            text_const: (
                "SNO_NANOFLAKE_MAX_ENCODED_LEN",
                "The longest text of a Nanoflake (13 base36 digits; no terminating NUL).",
            ),
        }),
        text_len: sno_core::nanoflake::MAX_ENCODED_LEN,
        new: None,
        encode: (
            "encode_padded",
            "Writes the 13-character zero-padded text (no NUL), which sorts like the values. Thread-safe.",
        ),
        encode_cstr: false,
        decode: (
            "decode",
            "Strictly decodes `len` bytes: 1 to 13 base36 digits (0-9, a-z, either case; leading zeros allowed), at most \"1y2p0ij32e8e7\" (SNO_STATUS_VALUE_OVERFLOW above); no sign, whitespace or prefix. On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: None,
        compare: false,
        generator: Some(GeneratorSpec {
            new: None,
            next: "The next Nanoflake: sequence 0 in a new millisecond, +1 within one. Waits for the next millisecond when 4096 were made in this one, and for the clock to catch up when it went back at most 1 s (further: SNO_STATUS_CLOCK_ROLLBACK). SNO_STATUS_MILLIS_OUT_OF_RANGE when the clock is before the epoch or 2^41 ms past it. Thread-safe: share one generator between threads.",
            try_next: Some(
                "As sno_nanoflake_generator_next, but never waits: SNO_STATUS_RANDOMNESS_EXHAUSTED when this millisecond's 4096 sequences are used, SNO_STATUS_CLOCK_ROLLBACK when the clock went back. Thread-safe.",
            ),
            next_at: "The next Nanoflake for an explicit time in Unix milliseconds (the clock is not read), with the rules of sno_nanoflake_generator_try_next. Thread-safe.",
        }),
    },
    Spec {
        format: "ulidflake",
        prefix: "sno_ulidflake",
        c_type: "sno_ulidflake",
        value: Some(Value {
            doc: "A Ulid-Flake: `timestamp << 20 | randomness` (stand-alone) or `timestamp << 20 | randomness << 5 | sid` (scalable). Valid values are 0 ..= INT64_MAX; functions taking one refuse a negative value with SNO_STATUS_VALUE_OVERFLOW. Numeric order is time order.",
            repr: Repr::I64 {
                encode: "encode_bytes",
            },
            text_const: (
                "SNO_ULIDFLAKE_ENCODED_LEN",
                "Characters in the text form of a Ulid-Flake (no terminating NUL).",
            ),
        }),
        text_len: sno_core::ulidflake::ENCODED_LEN,
        new: Some(
            "A new stand-alone Ulid-Flake (default epoch) from the process-wide generator (fresh randomness each millisecond, + a random 1..255 within one; reset after fork()). Sleeps into the next millisecond when one millisecond's randomness is used up. Thread-safe.",
        ),
        encode: (
            "encode",
            "Writes the 13-character upper-case text (no NUL). Thread-safe.",
        ),
        encode_cstr: true,
        decode: (
            "decode",
            "Strictly decodes `len` bytes: exactly 13 Crockford base32 characters (no I, L, O, U), either case, the first at most '7' (SNO_STATUS_VALUE_OVERFLOW above). On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: None,
        compare: false,
        generator: Some(GeneratorSpec {
            new: None,
            next: "The next Ulid-Flake: greater than the previous one (a clock that went back keeps the last timestamp). Sleeps into the next millisecond when this one's randomness is used up. Thread-safe: share one generator between threads.",
            try_next: Some(
                "As sno_ulidflake_generator_next, but returns SNO_STATUS_RANDOMNESS_EXHAUSTED at once (the spec's overflow error; the state is unchanged and a retry may fit) instead of sleeping. Thread-safe.",
            ),
            next_at: "The next Ulid-Flake for an explicit time in Unix milliseconds (the clock is not read), with the rules of sno_ulidflake_generator_try_next; before the epoch or 2^43 ms past it gives SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.",
        }),
    },
    Spec {
        format: "ksuid",
        prefix: "sno_ksuid",
        c_type: "sno_ksuid",
        value: Some(Value {
            doc: "A KSUID (segmentio/ksuid): 32-bit seconds since 2014-05-13T16:53:20Z, then a 128-bit payload, big-endian. Any 20 bytes are one; byte order (memcmp) is time order.",
            repr: Repr::Bytes,
            text_const: (
                "SNO_KSUID_ENCODED_LEN",
                "Characters in the text of a KSUID: base62 over 0-9A-Za-z (no terminating NUL).",
            ),
        }),
        text_len: sno_core::ksuid::ENCODED_LEN,
        new: Some(
            "A new KSUID from the process-wide generator: within one second the payload of the last one + 1, a fresh random payload in a new second (reset after fork()). Sleeps into the next second if one second's payloads are used up. Thread-safe.",
        ),
        encode: (
            "encode",
            "Writes the 27-character base62 text (no NUL). Thread-safe.",
        ),
        encode_cstr: true,
        decode: (
            "decode",
            "Strictly decodes `len` bytes: exactly 27 characters of 0-9A-Za-z, case-sensitive; a value above aWgEPTl1tmebfsQzFP4bxwgy80V (2^160 - 1) is SNO_STATUS_VALUE_OVERFLOW. On an invalid byte its position, on a wrong length the length given, goes to `error_position` (may be NULL). Thread-safe.",
        ),
        unix_ms: Some(UnixMs {
            reader: "sno_core::ksuid::Ksuid",
            doc: "The time: milliseconds since the Unix epoch (the start of its second). Thread-safe.",
            timestamp_ms_alias: false,
        }),
        compare: true,
        generator: Some(GeneratorSpec {
            new: Some(
                "Creates a KSUID generator on the system clock and a per-thread CSPRNG. Free it with sno_ksuid_generator_free. Thread-safe.",
            ),
            next: "The next KSUID: greater than every earlier one of this generator (a clock gone back keeps the last second). Sleeps into the next second if this one's payloads are used up. Thread-safe: share one generator between threads.",
            try_next: None,
            next_at: "The next KSUID for an explicit time in Unix milliseconds (the clock is not read; the second is what counts), with the same rules; SNO_STATUS_RANDOMNESS_EXHAUSTED when that second's payloads are used up, SNO_STATUS_MILLIS_OUT_OF_RANGE before 2014-05-13T16:53:20Z or past its 32-bit seconds. Thread-safe.",
        }),
    },
];
