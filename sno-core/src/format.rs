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

/// Calls `$callback!` with the table of every format, in [`Format::ALL`] order, one row per
/// format:
///
/// ```text
/// Variant {
///     ty: <the ID type>,            name: "stable lower-case name",  display: "Name in prose",
///     binary_len: <bytes>,          max_text_len: <chars>,           min_text_len: <chars>,
///     column: <ColumnType variant>, pattern: "<anchored regular expression of every accepted text>",
///     text_order: <texts sort as values>, epoch: <Epoch variant>,
///     process_generator: <has one>,   generator: <has a generator of its settings alone>,
///     settings: [<Setting variants>], required: [<the settings without a default>],
///     python_class: "ULID",         node_class: "Ulid",  (the value class's name in each binding)
/// }
/// ```
///
/// The facts are those of [`Format`]'s methods of the same names. A callback that needs only
/// some of them matches the rest as `$($fact:ident: $value:tt),*`; the C ABI, the Python and
/// Node bindings and the CLI build their per-format surface from this one table.
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
                binary_len: 10, max_text_len: 16, min_text_len: 16, column: Bytes,
                pattern: "^[2-9a-x]{16}$",
                text_order: true, epoch: Fixed, process_generator: false, generator: false,
                settings: [Meta, Partition], required: [],
                python_class: "ID", node_class: "Id",
            },
            Ulid {
                ty: $crate::ulid::Ulid, name: "ulid", display: "ULID",
                binary_len: 16, max_text_len: 26, min_text_len: 26, column: Uuid,
                pattern: "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$",
                text_order: true, epoch: Fixed, process_generator: true, generator: true,
                settings: [], required: [],
                python_class: "ULID", node_class: "Ulid",
            },
            Uuid7 {
                ty: $crate::uuid7::Uuid7, name: "uuid7", display: "UUIDv7",
                binary_len: 16, max_text_len: 45, min_text_len: 36, column: Uuid,
                pattern: "^(?:[Uu][Rr][Nn]:[Uu][Uu][Ii][Dd]:)?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-7[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$",
                text_order: true, epoch: Fixed, process_generator: true, generator: true,
                settings: [], required: [],
                python_class: "UUID7", node_class: "Uuid7",
            },
            Scru128 {
                ty: $crate::scru128::Scru128Id, name: "scru128", display: "SCRU128",
                binary_len: 16, max_text_len: 25, min_text_len: 25, column: Uuid,
                pattern: "^[0-9A-Za-z]{25}$",
                text_order: true, epoch: Fixed, process_generator: true, generator: true,
                settings: [], required: [],
                python_class: "SCRU128", node_class: "Scru128",
            },
            Scru160 {
                ty: $crate::scru160::Scru160Id, name: "scru160", display: "SCRU160",
                binary_len: 20, max_text_len: 40, min_text_len: 32, column: Bytes,
                pattern: "^(?:[0-9A-Va-v]{32}|[0-9A-Fa-f]{40})$",
                text_order: true, epoch: Fixed, process_generator: true, generator: true,
                settings: [], required: [],
                python_class: "SCRU160", node_class: "Scru160",
            },
            Nanoflake {
                ty: $crate::nanoflake::Nanoflake, name: "nanoflake", display: "Nanoflake",
                binary_len: 8, max_text_len: 13, min_text_len: 1, column: BigInt,
                pattern: "^[0-9A-Za-z]{1,13}$",
                text_order: false, epoch: Required, process_generator: false, generator: true,
                settings: [EpochMs, GeneratorId], required: [EpochMs, GeneratorId],
                python_class: "Nanoflake", node_class: "Nanoflake",
            },
            UlidFlake {
                ty: $crate::ulidflake::UlidFlake, name: "ulidflake", display: "Ulid-Flake",
                binary_len: 8, max_text_len: 13, min_text_len: 13, column: BigInt,
                pattern: "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$",
                text_order: true, epoch: Optional, process_generator: true, generator: true,
                settings: [EpochMs, Sid, EntropySize], required: [],
                python_class: "UlidFlake", node_class: "UlidFlake",
            },
            TypeId {
                ty: $crate::typeid::TypeId, name: "typeid", display: "TypeID",
                binary_len: 16, max_text_len: 90, min_text_len: 26, column: Uuid,
                pattern: "^(?:[a-z](?:[a-z_]{0,61}[a-z])?_)?[0-7][0-9a-hjkmnp-tv-z]{25}$",
                text_order: false, epoch: Fixed, process_generator: false, generator: false,
                settings: [Prefix], required: [],
                python_class: "TypeID", node_class: "TypeId",
            },
            Ksuid {
                ty: $crate::ksuid::Ksuid, name: "ksuid", display: "KSUID",
                binary_len: 20, max_text_len: 27, min_text_len: 27, column: Bytes,
                pattern: "^[0-9A-Za][0-9A-Za-z]{26}$",
                text_order: true, epoch: Fixed, process_generator: true, generator: true,
                settings: [], required: [],
                python_class: "KSUID", node_class: "Ksuid",
            },
        }
    };
}

macro_rules! define_format {
    ($($variant:ident {
        ty: $ty:ty, name: $name:literal, display: $display:literal,
        binary_len: $bin:literal, max_text_len: $text:literal, min_text_len: $min:literal, column: $column:ident,
        pattern: $pattern:literal,
        text_order: $text_order:literal, epoch: $epoch:ident, process_generator: $process:literal, generator: $generator:literal,
        settings: [$($setting:ident),*], required: [$($required:ident),*],
        python_class: $python:literal, node_class: $node:literal $(,)?
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
