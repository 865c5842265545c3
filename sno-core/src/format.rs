//! The [`Format`] table: every format the crate speaks, by name and size, and [`FormatSet`].
//! It sits below everything else (errors name formats), so it knows formats by name only: the
//! list with the ID types, [`for_each_format!`](crate::for_each_format), sits above the formats'
//! modules (in `any.rs`) and repeats these rows with the type added; `tests/model.rs` checks that
//! the two agree, and the compiler that they list the same variants (`AnyId` matches on
//! `Format`).

use core::fmt;

macro_rules! define_format {
    ($($variant:ident($name:literal, $display:literal, $bin:expr, $text:expr, $column:ident)),* $(,)?) => {
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

            /// The length of the binary form in bytes.
            pub const fn binary_len(self) -> usize {
                match self { $(Format::$variant => $bin),* }
            }

            /// The length of the longest text form.
            pub const fn max_text_len(self) -> usize {
                match self { $(Format::$variant => $text),* }
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
        }

    };
}

define_format! {
    Sno("sno", "sno", 10, 16, Bytes),
    Ulid("ulid", "ULID", 16, 26, Uuid),
    Uuid7("uuid7", "UUIDv7", 16, 45, Uuid),
    Scru128("scru128", "SCRU128", 16, 25, Uuid),
    Scru160("scru160", "SCRU160", 20, 40, Bytes),
    Nanoflake("nanoflake", "Nanoflake", 8, 13, BigInt),
    UlidFlake("ulidflake", "Ulid-Flake", 8, 13, BigInt),
    TypeId("typeid", "TypeID", 16, 90, Uuid),
}

impl Format {
    /// A regular expression (anchored, ECMAScript / Python / Rust `regex` syntax) matching every
    /// text [`decode`](crate::IdFormat::decode) accepts: the alphabet (either case where the
    /// decoder takes both), the length, the first character bounded where a longer value would
    /// overflow, and the other forms the decoder takes (UUIDv7's `urn:uuid:`, SCRU160's 40 hex
    /// digits). A description for schemas (JSON schema, OpenAPI): a text that matches can still
    /// be refused (a TypeID suffix above 2^128, a Nanoflake above 2^63 − 1); the decoder decides.
    ///
    /// ```
    /// use sno_core::Format;
    ///
    /// assert_eq!(Format::Sno.text_pattern(), "^[2-9a-x]{16}$");
    /// assert_eq!(Format::Sno.min_text_len(), 16);
    /// ```
    pub const fn text_pattern(self) -> &'static str {
        match self {
            Format::Sno => "^[2-9a-x]{16}$",
            Format::Ulid => "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$",
            Format::Uuid7 => {
                "^(?:[Uu][Rr][Nn]:[Uu][Uu][Ii][Dd]:)?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-7[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$"
            }
            Format::Scru128 => "^[0-9A-Za-z]{25}$",
            Format::Scru160 => "^(?:[0-9A-Va-v]{32}|[0-9A-Fa-f]{40})$",
            Format::Nanoflake => "^[0-9A-Za-z]{1,13}$",
            Format::UlidFlake => "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$",
            Format::TypeId => "^(?:[a-z](?:[a-z_]{0,61}[a-z])?_)?[0-7][0-9a-hjkmnp-tv-z]{25}$",
        }
    }

    /// The length of the shortest text [`decode`](crate::IdFormat::decode) accepts (the longest
    /// is [`max_text_len`](Format::max_text_len)).
    pub const fn min_text_len(self) -> usize {
        match self {
            Format::Nanoflake => 1,
            Format::TypeId => 26,
            Format::Uuid7 => 36,
            Format::Scru160 => 32,
            other => other.max_text_len(),
        }
    }
}

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
    /// The binary form as a byte string (PostgreSQL `bytea`, SQLite `BLOB`): sno (10 bytes)
    /// and SCRU160 (20 bytes).
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
