//! The format table: every format the crate speaks, once ([`for_each_format!`](crate::for_each_format)),
//! and what is made from it here: [`Format`], its facts, and [`FormatSet`].
//!
//! The table names each format's ID type (`$crate::ulid::Ulid`, …) beside its facts, yet this
//! module sits below the formats' modules (errors name formats): the rows are tokens handed to a
//! callback macro, and only a callback that uses the type depends on the formats' modules
//! ([`AnyId`](crate::AnyId), above them); [`Format`]'s callback uses the facts alone.
//! The module-graph test (`tests/module-graph/` at the repository root) counts a table row's
//! paths where a callback expands them.

use core::fmt;

use crate::describe::{About, FieldSpec, Unit};

/// Calls `$callback!` with the table of every format, in [`Format::ALL`] order, one row per
/// format:
///
/// ```text
/// Variant {
///     ty: <the ID type>,            name: "stable lower-case name",  display: "Name in prose",
///     binary_len: <bytes>,          max_text_len: <chars>,
///     generator: <has a generator of its settings alone>,  process_generator: <has one>,
///     python_class: "ULID",         node_class: "Ulid",  (the value class's name in each binding)
///     min_text_len: <chars>,        column: <ColumnType variant>,
///     text_order: <texts sort as values>, epoch: <Epoch variant>,
///     pattern: "<anchored regular expression of every accepted text>",
///     settings: [<Setting variants>], required: [<the settings without a default>],
///     fields: [("unix_ms", 0, 48, UnixMs, "milliseconds since 1970"), …],  (see below)
///     about: { summary: "…", text: "…", decode: "…", generation: "…", process_wide: "…" },  (an `About`)
/// }
/// ```
///
/// Each field is `(name, first bit, bits, Unit variant, "doc")`, with a last word for a field
/// that is not a plain input number: `flag` (a one-bit flag), `text` (the text part outside the
/// binary form), `derived` (read again from other fields' bits), `constant(N)` (the value
/// `N` in every value, computed): a [`FieldSpec`].
///
/// The facts are those of [`Format`]'s methods of the same names. A callback that needs only
/// some of them matches the ones it needs as far as the last of them and the rest as
/// `$($fact:ident: $value:tt),*` (the facts most callbacks need come first); the C ABI, the
/// Python and Node bindings and the CLI build their per-format surface from this one table.
///
/// ```
/// macro_rules! names {
///     ($($variant:ident { ty: $ty:ty, name: $name:literal $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
///         [$($name),*]
///     };
/// }
/// assert_eq!(sno_core::for_each_format!(names)[..2], ["sno", "ulid"]);
/// ```
#[macro_export]
macro_rules! for_each_format {
    ($callback:ident) => {
        $callback! {
            Sno {
                ty: $crate::Id, name: "sno", display: "sno",
                binary_len: 10, max_text_len: 16, generator: false, process_generator: false,
                python_class: "ID", node_class: "Id",
                min_text_len: 16, column: Bytes, text_order: true, epoch: Fixed,
                pattern: "^[2-9a-x]{16}$",
                settings: [Meta, Partition], required: [],
                fields: [
                    ("units", 0, 39, SnoUnits, "4 ms units since 2010"),
                    ("tick_tock", 39, 1, None, "flips when the generator survives a clock regression", flag),
                    ("meta", 40, 8, None, "the meta byte, the caller's"),
                    ("partition", 48, 16, None, "the partition"),
                    ("sequence", 64, 16, None, "the sequence within the 4 ms unit"),
                ],
                about: {
                    summary: "A sno ID (the format of muyo/sno): sortable by time in 4 ms units since 2010, unique by its 16-bit partition and its sequence within a unit",
                    text: "16 characters of 23456789abcdefghijklmnopqrstuvwx",
                    decode: "exactly 16 characters of 23456789abcdefghijklmnopqrstuvwx (`invalid_length`, `invalid_byte`)",
                    generation: "a sequence per 4 ms unit and partition; a used-up sequence pool is `sequence_exhausted` and a clock that went back into a used period `clock_regression`, which `next` waits through",
                    process_wide: "",
                },
            },
            Ulid {
                ty: $crate::ulid::Ulid, name: "ulid", display: "ULID",
                binary_len: 16, max_text_len: 26, generator: true, process_generator: true,
                python_class: "ULID", node_class: "Ulid",
                min_text_len: 26, column: Uuid, text_order: true, epoch: Fixed,
                pattern: "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$",
                settings: [], required: [],
                fields: [
                    ("unix_ms", 0, 48, UnixMs, "milliseconds since 1970"),
                    ("randomness", 48, 80, None, "random bits, +1 within a millisecond"),
                ],
                about: {
                    summary: "A ULID (github.com/ulid/spec): 48-bit Unix milliseconds and 80 random bits, sortable by time",
                    text: "26 upper-case Crockford base32 characters",
                    decode: "exactly 26 Crockford base32 characters in either case (no I, L, O, U), the first at most '7' (`value_overflow` above)",
                    generation: "fresh randomness each millisecond, +1 within one; a clock that went back keeps the last timestamp; a millisecond whose randomness is used up (a 2^-80 chance) is `randomness_exhausted`, which `next` waits through",
                    process_wide: "each thread takes blocks of up to 64 values: unique in the process, strictly increasing per thread, ordered by millisecond across threads",
                },
            },
            Uuid7 {
                ty: $crate::uuid7::Uuid7, name: "uuid7", display: "UUIDv7",
                binary_len: 16, max_text_len: 45, generator: true, process_generator: true,
                python_class: "UUID7", node_class: "Uuid7",
                min_text_len: 36, column: Uuid, text_order: true, epoch: Fixed,
                pattern: "^(?:[Uu][Rr][Nn]:[Uu][Uu][Ii][Dd]:)?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-7[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$",
                settings: [], required: [],
                fields: [
                    ("unix_ms", 0, 48, UnixMs, "milliseconds since 1970"),
                    ("version", 48, 4, None, "the UUID version, 7", constant(7)),
                    ("rand_a", 52, 12, None, "the counter's high 12 bits"),
                    ("variant", 64, 2, None, "the RFC 9562 variant, 0b10", constant(2)),
                    ("rand_b", 66, 62, None, "the counter's low 30 bits, then 32 random bits"),
                ],
                about: {
                    summary: "A UUID of version 7 (RFC 9562): 48-bit Unix milliseconds, a 42-bit counter and 32 random bits, sortable by time",
                    text: "36 lower-case hex digits and hyphens (RFC 9562)",
                    decode: "an RFC 9562 string form: hyphenated hex digits (either case), or \"urn:uuid:\" followed by one; the UUID must be version 7 with the RFC variant (`not_version_7`)",
                    generation: "RFC 9562 Method 1: a 42-bit counter seeded randomly each millisecond and 32 fresh random bits per UUID; a clock that went back keeps the last timestamp, a counter overflow moves it 1 ms ahead; never waits",
                    process_wide: "each thread takes blocks of up to 64 values: unique in the process, strictly increasing per thread, ordered by millisecond across threads",
                },
            },
            Scru128 {
                ty: $crate::scru128::Scru128Id, name: "scru128", display: "SCRU128",
                binary_len: 16, max_text_len: 25, generator: true, process_generator: true,
                python_class: "SCRU128", node_class: "Scru128",
                min_text_len: 25, column: Uuid, text_order: true, epoch: Fixed,
                pattern: "^[0-9A-Za-z]{25}$",
                settings: [], required: [],
                fields: [
                    ("unix_ms", 0, 48, UnixMs, "milliseconds since 1970"),
                    ("counter_hi", 48, 24, None, "the high counter, reset each second"),
                    ("counter_lo", 72, 24, None, "the low counter, +1 within a millisecond"),
                    ("entropy", 96, 32, None, "random bits, fresh in each ID"),
                ],
                about: {
                    summary: "A SCRU128 ID (github.com/scru128/spec): 48-bit Unix milliseconds, a 48-bit counter and 32 random bits, sortable by time",
                    text: "25 lower-case base36 characters",
                    decode: "exactly 25 characters of 0-9 and a-z in either case, at most \"f5lxx1zz5pnorynqglhzmsp33\" (`value_overflow` above)",
                    generation: "the spec's algorithm with a 10 s rollback allowance: greater than the previous value unless the clock went back more than 10 s, when the generator resets; times 1 ..= 2^48 - 2 ms (`millis_out_of_range` outside); never waits",
                    process_wide: "each thread takes blocks of up to 64 values: unique in the process, strictly increasing per thread, ordered by millisecond across threads",
                },
            },
            Scru160 {
                ty: $crate::scru160::Scru160Id, name: "scru160", display: "SCRU160",
                binary_len: 20, max_text_len: 40, generator: true, process_generator: true,
                python_class: "SCRU160", node_class: "Scru160",
                min_text_len: 32, column: Bytes, text_order: true, epoch: Fixed,
                pattern: "^(?:[0-9A-Va-v]{32}|[0-9A-Fa-f]{40})$",
                settings: [], required: [],
                fields: [
                    ("unix_ms", 0, 48, UnixMs, "milliseconds since 1970"),
                    ("counter", 48, 16, None, "the counter, +1 within a millisecond"),
                    ("random16", 64, 16, None, "random bits, fresh each millisecond"),
                    ("random80", 80, 80, None, "random bits, fresh in each ID"),
                ],
                about: {
                    summary: "A SCRU160 ID (deprecated by SCRU128; for existing data): 48-bit Unix milliseconds, a 16-bit counter and 96 random bits",
                    text: "32 upper-case base32hex characters",
                    decode: "32 base32hex characters (0-9, A-V) or 40 hex digits, either case; the length picks the form (`invalid_length` for any other)",
                    generation: "the reference algorithm: a random 15-bit counter each millisecond, +1 within one; greater than the previous value unless the clock went back more than 10 s, when the generator resets; a millisecond whose counter is used up is `randomness_exhausted`, which `next` waits through; times 1 ..= 2^48 - 2 ms (`millis_out_of_range` outside)",
                    process_wide: "",
                },
            },
            Nanoflake {
                ty: $crate::nanoflake::Nanoflake, name: "nanoflake", display: "Nanoflake",
                binary_len: 8, max_text_len: 13, generator: true, process_generator: false,
                python_class: "Nanoflake", node_class: "Nanoflake",
                min_text_len: 1, column: BigInt, text_order: false, epoch: Required,
                pattern: "^[0-9A-Za-z]{1,13}$",
                settings: [EpochMs, GeneratorId], required: [EpochMs, GeneratorId],
                fields: [
                    ("timestamp_ms", 1, 41, EpochMs, "milliseconds since the epoch"),
                    ("generator_id", 42, 10, None, "the generator id"),
                    ("sequence", 52, 12, None, "the sequence within the millisecond"),
                ],
                about: {
                    summary: "A Nanoflake (Snowflake's layout in 63 bits): milliseconds since the application's epoch, a 10-bit generator id and a 12-bit sequence",
                    text: "1 to 13 lower-case base36 digits, without padding",
                    decode: "1 to 13 base36 digits (0-9, a-z, either case; leading zeros allowed), at most \"1y2p0ij32e8e7\" (`value_overflow` above); no sign, whitespace or prefix",
                    generation: "sequence 0 in a new millisecond, +1 within one; 4096 made in one millisecond is `randomness_exhausted` and a clock that went back `clock_rollback`, which `next` waits through (a clock gone back at most 1 s); a clock before the epoch or 2^41 ms past it is `millis_out_of_range`",
                    process_wide: "",
                },
            },
            UlidFlake {
                ty: $crate::ulidflake::UlidFlake, name: "ulidflake", display: "Ulid-Flake",
                binary_len: 8, max_text_len: 13, generator: true, process_generator: true,
                python_class: "UlidFlake", node_class: "UlidFlake",
                min_text_len: 13, column: BigInt, text_order: true, epoch: Optional,
                pattern: "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$",
                settings: [EpochMs, Sid, EntropySize], required: [],
                fields: [
                    ("timestamp_ms", 1, 43, EpochMs, "milliseconds since the epoch"),
                    ("randomness", 44, 20, None, "a stand-alone value's randomness"),
                    ("scalable_randomness", 44, 15, None, "a scalable value's randomness", derived),
                    ("sid", 59, 5, None, "a scalable value's scalability id", derived),
                ],
                about: {
                    summary: "A Ulid-Flake (63 bits, ULID's text alphabet): milliseconds since an epoch (2024-01-01 by default) and randomness, sortable by time",
                    text: "13 upper-case Crockford base32 characters",
                    decode: "exactly 13 Crockford base32 characters (no I, L, O, U), either case, the first at most '7' (`value_overflow` above)",
                    generation: "fresh randomness each millisecond, a random 1 ..= 255 added within one; a clock that went back keeps the last timestamp; a millisecond whose randomness is used up is `randomness_exhausted` (the state unchanged: a retry may fit), which `next` waits through; times before the epoch or 2^43 ms past it are `millis_out_of_range`",
                    process_wide: "stand-alone values of the default epoch",
                },
            },
            TypeId {
                ty: $crate::typeid::TypeId, name: "typeid", display: "TypeID",
                binary_len: 16, max_text_len: 90, generator: false, process_generator: false,
                python_class: "TypeID", node_class: "TypeId",
                min_text_len: 26, column: Uuid, text_order: false, epoch: FixedWhenPresent,
                pattern: "^(?:[a-z](?:[a-z_]{0,61}[a-z])?_)?[0-7][0-9a-hjkmnp-tv-z]{25}$",
                settings: [Prefix], required: [],
                fields: [
                    ("prefix", 0, 0, None, "the type prefix", text),
                    ("unix_ms", 0, 48, UnixMs, "milliseconds since 1970"),
                    ("version", 48, 4, None, "the UUID version, 7", constant(7)),
                    ("rand_a", 52, 12, None, "the counter's high 12 bits"),
                    ("variant", 64, 2, None, "the RFC 9562 variant, 0b10", constant(2)),
                    ("rand_b", 66, 62, None, "the counter's low 30 bits, then 32 random bits"),
                ],
                about: {
                    summary: "A TypeID (jetify-com/typeid, spec v0.3): a type prefix, `_`, and a UUID as 26 lower-case Crockford base32 characters (`user_01h455vb4pex5vsknk084sn02q`); any UUID is a valid suffix, and generation makes UUIDv7s; ordered by prefix, then by UUID",
                    text: "the prefix, '_' and 26 lower-case Crockford base32 characters (the 26 alone without a prefix)",
                    decode: "a prefix of at most 63 characters of a-z and '_', neither first nor last (`invalid_prefix`), '_', then exactly 26 lower-case Crockford base32 characters, the first at most '7' (`value_overflow` above)",
                    generation: "",
                    process_wide: "",
                },
            },
            Ksuid {
                ty: $crate::ksuid::Ksuid, name: "ksuid", display: "KSUID",
                binary_len: 20, max_text_len: 27, generator: true, process_generator: true,
                python_class: "KSUID", node_class: "Ksuid",
                min_text_len: 27, column: Bytes, text_order: true, epoch: Fixed,
                pattern: "^[0-9A-Za][0-9A-Za-z]{26}$",
                settings: [], required: [],
                fields: [
                    ("timestamp_secs", 0, 32, EpochSecs, "seconds since 2014-05-13T16:53:20Z"),
                    ("payload", 32, 128, None, "random bits, +1 within a second"),
                ],
                about: {
                    summary: "A KSUID (github.com/segmentio/ksuid): 32-bit seconds since 2014-05-13T16:53:20Z and a 128-bit payload, sortable by time",
                    text: "27 base62 characters (0-9A-Za-z)",
                    decode: "exactly 27 characters of 0-9A-Za-z, case-sensitive; a value above aWgEPTl1tmebfsQzFP4bxwgy80V (2^160 - 1) is `value_overflow`",
                    generation: "within one second the payload of the last value + 1, a fresh random payload in a new second; a clock that went back keeps the last second; a second whose payloads are used up is `randomness_exhausted`, which `next` waits through; times before 2014-05-13T16:53:20Z or past its 32-bit seconds are `millis_out_of_range`",
                    process_wide: "",
                },
            },
        }
    };
}

/// One field of the table as a [`FieldSpec`]: a number, or what its last word says.
macro_rules! field_spec {
    ($name:literal, $at:literal, $bits:literal, $unit:ident, $doc:literal) => {
        FieldSpec::uint($name, $at, $bits, Unit::$unit, $doc)
    };
    ($name:literal, $at:literal, $bits:literal, $unit:ident, $doc:literal, derived) => {
        FieldSpec::uint($name, $at, $bits, Unit::$unit, $doc).derived()
    };
    ($name:literal, $at:literal, $bits:literal, $unit:ident, $doc:literal, constant($value:literal)) => {
        FieldSpec::uint($name, $at, $bits, Unit::$unit, $doc).constant($value)
    };
    ($name:literal, $at:literal, $bits:literal, $unit:ident, $doc:literal, flag) => {
        FieldSpec::flag($name, $at, $doc)
    };
    ($name:literal, $at:literal, $bits:literal, $unit:ident, $doc:literal, text) => {
        FieldSpec::text($name, $doc)
    };
}

macro_rules! define_format {
    ($($variant:ident {
        ty: $ty:ty, name: $name:literal, display: $display:literal,
        binary_len: $bin:literal, max_text_len: $text:literal, generator: $generator:literal, process_generator: $process:literal,
        python_class: $python:literal, node_class: $node:literal,
        min_text_len: $min:literal, column: $column:ident, text_order: $text_order:literal, epoch: $epoch:ident,
        pattern: $pattern:literal,
        settings: [$($setting:ident),*], required: [$($required:ident),*],
        fields: [$(($fname:literal, $at:literal, $fbits:literal, $unit:ident, $fdoc:literal $(, $fkind:ident $(($fvalue:literal))?)?)),* $(,)?],
        about: { summary: $about_summary:literal, text: $about_text:literal, decode: $about_decode:literal, generation: $about_generation:literal, process_wide: $about_process:literal $(,)? } $(,)?
    }),* $(,)?) => {
        /// Every format the crate speaks.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Format {
            $(
                #[doc = concat!($display, ".")]
                $variant,
            )*
        }

        impl Format {
            /// Every format, in table order.
            pub const ALL: [Format; [$($name),*].len()] = [$(Format::$variant),*];

            /// The stable lower-case name (`"sno"`, `"ulid"`, `"uuid7"`, …): the CLI's
            /// `--format`, JSON's `"format"`.
            pub const fn name(self) -> &'static str {
                match self { $(Format::$variant => $name),* }
            }

            /// The name in prose (`"ULID"`, `"UUIDv7"`, `"Ulid-Flake"`, …).
            pub const fn display_name(self) -> &'static str {
                match self { $(Format::$variant => $display),* }
            }

            /// The name of the format's value class in the Python binding: acronyms in
            /// capitals, as Python names them (`"ID"`, `"ULID"`, `"UUID7"`, `"UlidFlake"`).
            /// The Python stubs and modules are generated from it.
            ///
            /// ```
            /// use sno_core::Format;
            /// assert_eq!(Format::Uuid7.python_class(), "UUID7");
            /// ```
            pub const fn python_class(self) -> &'static str {
                match self { $(Format::$variant => $python),* }
            }

            /// The name of the format's value class in the Node binding: one capital per word
            /// (`"Id"`, `"Ulid"`, `"Uuid7"`, `"UlidFlake"`). The declarations and ESM export
            /// lists are generated from it.
            ///
            /// ```
            /// use sno_core::Format;
            /// assert_eq!(Format::Sno.node_class(), "Id");
            /// ```
            pub const fn node_class(self) -> &'static str {
                match self { $(Format::$variant => $node),* }
            }

            /// The length of the binary form in bytes.
            pub const fn binary_len(self) -> usize {
                match self { $(Format::$variant => $bin),* }
            }

            /// The length of the longest text form.
            pub const fn max_text_len(self) -> usize {
                match self { $(Format::$variant => $text),* }
            }

            /// The length of the shortest text [`decode`](crate::IdFormat::decode) accepts (the
            /// longest is [`max_text_len`](Format::max_text_len)).
            pub const fn min_text_len(self) -> usize {
                match self { $(Format::$variant => $min),* }
            }

            /// The database column that stores the format so that `ORDER BY` on it is time
            /// order and values round-trip exactly (see [`ColumnType`]).
            ///
            /// ```
            /// use sno_core::{ColumnType, Format};
            ///
            /// assert_eq!(Format::Sno.column_type(), ColumnType::Bytes);
            /// assert_eq!(Format::Ulid.column_type().postgres(), "uuid");
            /// assert_eq!(Format::Nanoflake.column_type().sqlite(), "INTEGER");
            /// ```
            pub const fn column_type(self) -> ColumnType {
                match self { $(Format::$variant => ColumnType::$column),* }
            }

            /// A regular expression (anchored, ECMAScript / Python / Rust `regex` syntax)
            /// matching every text [`decode`](crate::IdFormat::decode) accepts: the alphabet
            /// (either case where the decoder takes both), the length, the first character
            /// bounded where a longer value would overflow, and the other forms the decoder
            /// takes (UUIDv7's `urn:uuid:`, SCRU160's 40 hex digits). A description for schemas
            /// (JSON schema, OpenAPI): a text that matches can still be refused (a TypeID suffix
            /// above 2^128, a Nanoflake above 2^63 − 1); the decoder decides.
            ///
            /// ```
            /// use sno_core::Format;
            ///
            /// assert_eq!(Format::Sno.text_pattern(), "^[2-9a-x]{16}$");
            /// assert_eq!(Format::Sno.min_text_len(), 16);
            /// ```
            pub const fn text_pattern(self) -> &'static str {
                match self { $(Format::$variant => $pattern),* }
            }

            /// Whether the canonical texts sort as the values do (a fixed length over an
            /// alphabet in ascending order): then comparing texts compares IDs. Nanoflakes
            /// (variable length) and TypeIDs (a prefix first) do not.
            ///
            /// ```
            /// use sno_core::Format;
            /// assert!(Format::Ulid.text_order() && !Format::TypeId.text_order());
            /// ```
            pub const fn text_order(self) -> bool {
                match self { $(Format::$variant => $text_order),* }
            }

            /// Where the format's time counts from ([`Epoch`]).
            pub const fn epoch(self) -> Epoch {
                match self { $(Format::$variant => Epoch::$epoch),* }
            }

            /// Whether the format has a process-wide generator that needs no argument
            /// (`<format>::new()`, `try_new()`, and [`AnyId::try_new`](crate::AnyId::try_new));
            /// sno's process-wide generator takes a meta byte ([`crate::new`]) and TypeID's a
            /// prefix, so they are not counted here.
            pub const fn has_process_generator(self) -> bool {
                match self { $(Format::$variant => $process),* }
            }

            /// Whether the format has a monotonic generator taking only the format's
            /// [`settings`](Self::settings) (sno's [`Generator`](crate::Generator) has more: a
            /// lease, a snapshot, sequence bounds; TypeID has none, its process-wide generator
            /// takes the prefix).
            pub const fn has_generator(self) -> bool {
                match self { $(Format::$variant => $generator),* }
            }

            /// The settings the format's generation takes (its generator's, or for TypeID the
            /// prefix of its process-wide generator), in table order.
            ///
            /// ```
            /// use sno_core::{Format, Setting};
            /// assert_eq!(Format::Nanoflake.settings(), [Setting::EpochMs, Setting::GeneratorId]);
            /// assert_eq!(Format::Nanoflake.required_settings(), [Setting::EpochMs, Setting::GeneratorId]);
            /// assert!(Format::Ulid.settings().is_empty());
            /// ```
            pub const fn settings(self) -> &'static [Setting] {
                match self { $(Format::$variant => &[$(Setting::$setting),*]),* }
            }

            /// The [`settings`](Self::settings) without a default: a generator needs them.
            pub const fn required_settings(self) -> &'static [Setting] {
                match self { $(Format::$variant => &[$(Setting::$required),*]),* }
            }

            /// The named fields, in layout order (most significant first): where each lies in
            /// the binary form, its unit, whether a value is made from it. A value's
            /// [`fields`](crate::IdFormat::fields), [`FromFields::INPUTS`](crate::FromFields::INPUTS)
            /// and the bindings' per-field surfaces are read from them.
            ///
            /// ```
            /// use sno_core::Format;
            /// let names: Vec<_> = Format::Ksuid.fields().iter().map(|f| f.name).collect();
            /// assert_eq!(names, ["timestamp_secs", "payload"]);
            /// ```
            // Not inlined: a copy inlined into another crate would carry a second copy of the
            // tables (and of their names) into a build that links both (the web build's
            // modules: docs/wasm.md, "Sizes").
            #[inline(never)]
            pub const fn fields(self) -> &'static [FieldSpec] {
                match self { $(Format::$variant => {
                    const FIELDS: &[FieldSpec] = &[$(field_spec!($fname, $at, $fbits, $unit, $fdoc $(, $fkind $(($fvalue))?)?)),*];
                    FIELDS
                }),* }
            }

            /// The format's documentation, which the bindings' documentation is written from.
            pub const fn about(self) -> About {
                match self { $(Format::$variant => About {
                    summary: $about_summary,
                    text: $about_text,
                    decode: $about_decode,
                    generation: $about_generation,
                    process_wide: $about_process,
                }),* }
            }
        }
    };
}

/// Where a format's time counts from ([`Format::epoch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Epoch {
    /// A fixed epoch of the format (1970 for the Unix-millisecond formats, 2010 for sno,
    /// 2014-05-13T16:53:20Z for KSUID): a value knows its time.
    Fixed,
    /// A default epoch the application may replace (Ulid-Flake: 2024-01-01): a value's time
    /// holds for the default, `unix_ms_at(epoch)` reads it for another.
    Optional,
    /// The application's own epoch, which a value does not carry (Nanoflakes): its time is
    /// read with `unix_ms_at(epoch)`.
    Required,
    /// A fixed epoch, in the values that carry a time at all (TypeID: any UUID is a valid
    /// suffix, and only a version-7 one has a time): the others' time is absent (`None`).
    FixedWhenPresent,
}

impl Epoch {
    /// Whether a value's time is read for an epoch the application may give (`unix_ms_at`):
    /// [`Optional`](Epoch::Optional) and [`Required`](Epoch::Required).
    ///
    /// ```
    /// use sno_core::{Epoch, Format};
    /// assert!(Format::Nanoflake.epoch().takes_application_epoch());
    /// assert!(Format::UlidFlake.epoch().takes_application_epoch());
    /// assert!(!Format::Ulid.epoch().takes_application_epoch());
    /// assert!(!Format::TypeId.epoch().takes_application_epoch());
    /// assert_eq!(Format::TypeId.epoch(), Epoch::FixedWhenPresent);
    /// ```
    pub const fn takes_application_epoch(self) -> bool {
        matches!(self, Epoch::Optional | Epoch::Required)
    }
}

/// A setting of a format's generation ([`Format::settings`]); its [`name`](Setting::name) is the
/// snake-case name the bindings write in their own case (`epochMs` in JavaScript).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Setting {
    /// sno: the meta byte of each ID.
    Meta,
    /// sno: the 16-bit partition.
    Partition,
    /// The application's epoch in Unix milliseconds (Nanoflakes, Ulid-Flake).
    EpochMs,
    /// The Nanoflakes generator id, 0 ..= 1023.
    GeneratorId,
    /// The Ulid-Flake scalable version's id, 0 ..= 31.
    Sid,
    /// Random bytes per same-millisecond Ulid-Flake increment, 1 ..= 3.
    EntropySize,
    /// The TypeID prefix.
    Prefix,
}

impl Setting {
    /// What the setting is and the values it takes, in a phrase the bindings' documentation of
    /// each generator's settings is written from.
    ///
    /// ```
    /// use sno_core::Setting;
    /// assert_eq!(Setting::GeneratorId.doc(), "0 ..= 1023, distinct per generator (and process)");
    /// ```
    pub const fn doc(self) -> &'static str {
        match self {
            Setting::Meta => "the meta byte of each value, 0 ..= 255",
            Setting::Partition => "the partition, 0 ..= 65535",
            Setting::EpochMs => "the application's epoch in Unix milliseconds, not negative",
            Setting::GeneratorId => "0 ..= 1023, distinct per generator (and process)",
            Setting::Sid => "the scalable version's id, 0 ..= 31 (omitted: stand-alone values)",
            Setting::EntropySize => {
                "random bytes per same-millisecond increment, 1 ..= 3 (1 ..= 2 with a sid)"
            }
            Setting::Prefix => "the type prefix",
        }
    }

    /// The stable snake-case name (`"epoch_ms"`, `"generator_id"`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Setting::Meta => "meta",
            Setting::Partition => "partition",
            Setting::EpochMs => "epoch_ms",
            Setting::GeneratorId => "generator_id",
            Setting::Sid => "sid",
            Setting::EntropySize => "entropy_size",
            Setting::Prefix => "prefix",
        }
    }
}

crate::for_each_format!(define_format);

/// How a format is stored in a database column: the recommended column type, chosen so that
/// `ORDER BY` on the column is the IDs' order (time order) and every value round-trips exactly.
///
/// Every format's binary form sorts as the ID (big-endian, time first), so a byte-wise
/// comparing column keeps the order; the 64-bit formats keep their sign bit 0, so a signed
/// 64-bit integer column keeps it too. The database integrations of the bindings all follow
/// this table; `docs/databases.md` has it with the text alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ColumnType {
    /// The binary form as a byte string (PostgreSQL `bytea`, SQLite `BLOB`): sno (10 bytes),
    /// SCRU160 and KSUID (20 bytes).
    Bytes,
    /// The 128 bits as a UUID (PostgreSQL `uuid`, which compares byte-wise; SQLite `BLOB` of
    /// 16 bytes): ULID, UUIDv7, SCRU128 and TypeID's suffix (the prefix is not stored).
    Uuid,
    /// The 64 bits as a signed 64-bit integer (PostgreSQL `bigint`, SQLite `INTEGER`):
    /// Nanoflakes and Ulid-Flake, whose sign bit is always 0.
    BigInt,
}

impl ColumnType {
    /// The stable lower-case name (`"bytes"`, `"uuid"`, `"bigint"`), as the bindings' format
    /// tables give it.
    pub const fn name(self) -> &'static str {
        match self {
            ColumnType::Bytes => "bytes",
            ColumnType::Uuid => "uuid",
            ColumnType::BigInt => "bigint",
        }
    }

    /// The PostgreSQL column type: `bytea`, `uuid` or `bigint`.
    pub const fn postgres(self) -> &'static str {
        match self {
            ColumnType::Bytes => "bytea",
            ColumnType::Uuid => "uuid",
            ColumnType::BigInt => "bigint",
        }
    }

    /// The SQLite column type: `BLOB` (binary form, UUIDs as 16 bytes) or `INTEGER`.
    pub const fn sqlite(self) -> &'static str {
        match self {
            ColumnType::Bytes | ColumnType::Uuid => "BLOB",
            ColumnType::BigInt => "INTEGER",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.display_name())
    }
}

/// A set of [`Format`]s (the candidates of an ambiguous text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FormatSet(u16);

impl FormatSet {
    /// No format.
    pub const EMPTY: FormatSet = FormatSet(0);

    /// The set with `format` added.
    pub const fn with(self, format: Format) -> FormatSet {
        FormatSet(self.0 | 1 << format as u16)
    }

    /// Whether `format` is in the set.
    pub const fn contains(self, format: Format) -> bool {
        self.0 & (1 << format as u16) != 0
    }

    /// How many formats the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The formats, in [`Format::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Format> {
        Format::ALL.into_iter().filter(move |f| self.contains(*f))
    }
}

impl fmt::Display for FormatSet {
    /// The display names joined by `", "`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, format) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(format.display_name())?;
        }
        Ok(())
    }
}
