//! The one model every format follows: the [`IdFormat`] trait each ID type implements, the
//! [`Format`] table that lists them, their [named fields](Field), and [`AnyId`], a value of
//! any format with the single [format detection](AnyId::detect) that the CLI and every binding
//! use.
//!
//! A format is described once, in its own module (layout, codec, generator) plus one
//! `impl IdFormat` next to it; the line that registers it in [`for_each_format!`](crate::for_each_format) makes it
//! known to `Format`, `AnyId`, the C ABI, Python, Node and the CLI.
//!
//! ```
//! use sno_core::{AnyId, Format, IdFormat, ulid::Ulid};
//! let id: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse()?;
//! assert_eq!(Ulid::FORMAT.name(), "ulid");
//! assert_eq!(id.unix_ms(), 1_469_922_850_259); // inherent: the format's own type
//! assert_eq!(IdFormat::unix_ms(&id), Some(1_469_922_850_259)); // the model's: any format
//! let names: Vec<&str> = id.fields().iter().map(|f| f.name).collect();
//! assert_eq!(names, ["unix_ms", "randomness"]);
//!
//! let any = AnyId::detect(b"01ARZ3NDEKTSV4RRFFQ69G5FAV")?;
//! assert_eq!(any.format(), Format::Ulid);
//! assert_eq!(any.text().as_str(), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
//! # Ok::<(), sno_core::Error>(())
//! ```

use core::fmt;
use core::hash::Hash;
use core::str::FromStr;

use crate::error::Error;

/// Room for the longest text of any format (a TypeID: a 63-character prefix, `_`, 26
/// characters).
pub const MAX_TEXT_LEN: usize = 90;
/// The longest binary form of any format (SCRU160: 20 bytes).
pub const MAX_BINARY_LEN: usize = 20;
/// The most named fields any format has.
pub const MAX_FIELDS: usize = 6;

/// What every ID type of the crate is: a `Copy` value with a strict text codec, a binary form,
/// a time, and named fields. `Ord` is time order (then the other fields, as the bytes sort).
///
/// Generic code (the C ABI, the Python and Node bindings, the CLI) is written once over this
/// trait; each format's own methods (constructors from fields, conversions) stay inherent.
pub trait IdFormat:
    Copy + Eq + Ord + Hash + fmt::Debug + fmt::Display + FromStr<Err = Error> + Send + Sync + 'static
{
    /// The format's entry in the [`Format`] table.
    const FORMAT: Format;

    /// Strictly decodes the text form(s) of the format.
    ///
    /// # Errors
    /// The format's decoding errors: [`Error::InvalidLength`], [`Error::InvalidByte`],
    /// [`Error::ValueOverflow`], …
    fn decode(text: &[u8]) -> Result<Self, Error>;

    /// Takes the binary form ([`Format::binary_len`] bytes).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for another length; [`Error::NotVersion7`] or
    /// [`Error::ValueOverflow`] for bytes that are not a value of the format.
    fn from_slice(bytes: &[u8]) -> Result<Self, Error>;

    /// The binary form, borrowed.
    fn as_slice(&self) -> &[u8];

    /// Writes the canonical text into `buf` and returns its length (at most
    /// [`MAX_TEXT_LEN`]).
    fn write_text(&self, buf: &mut [u8; MAX_TEXT_LEN]) -> usize;

    /// The canonical text, on the stack.
    fn text(&self) -> Text {
        let mut text = Text {
            buf: [0; MAX_TEXT_LEN],
            len: 0,
        };
        text.len = self.write_text(&mut text.buf) as u8;
        text
    }

    /// Milliseconds since 1970 (for sno, the start of its 4 ms unit), or `None` when the
    /// value does not carry its epoch (Nanoflakes: [`nanoflake::Nanoflake::unix_ms_at`](crate::nanoflake::Nanoflake::unix_ms_at)).
    fn unix_ms(&self) -> Option<i64>;

    /// Nanoseconds since 1970 (saturating), or `None` as for [`unix_ms`](Self::unix_ms).
    fn unix_nanos(&self) -> Option<i64> {
        self.unix_ms().map(|ms| ms.saturating_mul(1_000_000))
    }

    /// The named fields, in layout order (most significant first).
    fn fields(&self) -> Fields<'_>;
}

/// The canonical text of an ID, held on the stack ([`IdFormat::text`]).
#[derive(Clone, Copy)]
pub struct Text {
    buf: [u8; MAX_TEXT_LEN],
    len: u8,
}

impl Text {
    /// The text.
    pub fn as_str(&self) -> &str {
        // SAFETY: `IdFormat::write_text` writes ASCII only (every alphabet of the crate is ASCII,
        // `Alphabet::new` asserts it; prefixes are checked to be `[a-z_]`).
        unsafe { core::str::from_utf8_unchecked(&self.buf[..usize::from(self.len)]) }
    }
}

impl core::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The value of a named field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValue<'a> {
    /// An unsigned number (fields are at most 80 bits wide).
    Uint(u128),
    /// A flag (the sno tick-tock bit).
    Bool(bool),
    /// Text (a TypeID prefix).
    Text(&'a str),
}

impl fmt::Display for FieldValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldValue::Uint(v) => write!(f, "{v}"),
            FieldValue::Bool(b) => write!(f, "{b}"),
            FieldValue::Text(t) => f.write_str(t),
        }
    }
}

/// What a number field counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unit {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    UnixMs,
    /// sno time units: 4 ms since 2010-01-01T00:00:00Z.
    SnoUnits,
    /// Milliseconds since the format's (or the application's) epoch.
    EpochMs,
    /// No unit: a counter, random bits, an identifier, a flag or text.
    None,
}

impl Unit {
    /// A stable name: `"unix_ms"`, `"sno_units"`, `"epoch_ms"`, `"none"`.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::UnixMs => "unix_ms",
            Unit::SnoUnits => "sno_units",
            Unit::EpochMs => "epoch_ms",
            Unit::None => "none",
        }
    }
}

/// A named field of an ID: `unix_ms`, `sequence`, `partition`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field<'a> {
    /// The field's name (snake case; the bindings write it in their own case).
    pub name: &'static str,
    /// Its value.
    pub value: FieldValue<'a>,
    /// What it counts.
    pub unit: Unit,
    /// Its width in bits (0 for text).
    pub bits: u8,
}

impl<'a> Field<'a> {
    /// A number field.
    pub const fn uint(name: &'static str, value: u128, bits: u8, unit: Unit) -> Field<'a> {
        Field {
            name,
            value: FieldValue::Uint(value),
            unit,
            bits,
        }
    }
}

/// The named fields of one ID (at most [`MAX_FIELDS`]), on the stack; derefs to a slice.
#[derive(Clone, Copy, Debug)]
pub struct Fields<'a> {
    items: [Field<'a>; MAX_FIELDS],
    len: usize,
}

impl<'a> Fields<'a> {
    /// The given fields (at most [`MAX_FIELDS`]; more is a bug of the format's impl).
    pub fn new(fields: &[Field<'a>]) -> Fields<'a> {
        let mut items = [Field::uint("", 0, 0, Unit::None); MAX_FIELDS];
        let len = fields.len().min(MAX_FIELDS);
        items[..len].copy_from_slice(&fields[..len]);
        Fields { items, len }
    }

    /// The field named `name`.
    pub fn get(&self, name: &str) -> Option<&Field<'a>> {
        self.iter().find(|f| f.name == name)
    }
}

impl<'a> core::ops::Deref for Fields<'a> {
    type Target = [Field<'a>];
    fn deref(&self) -> &[Field<'a>] {
        &self.items[..self.len]
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

/// Calls `$callback!` with the table of every format, one `Variant(Type, "name", "Display
/// name", binary_len, text_len)` per format; `text_len` is the longest text. The bindings build
/// their per-format surface from this one list.
///
/// ```
/// macro_rules! names {
///     ($($variant:ident($ty:ty, $name:literal, $display:literal, $bin:expr, $text:expr)),* $(,)?) => {
///         [$($name),*]
///     };
/// }
/// assert_eq!(sno_core::for_each_format!(names)[..2], ["sno", "ulid"]);
/// ```
#[macro_export]
macro_rules! for_each_format {
    ($callback:ident) => {
        $callback! {
            Sno($crate::Id, "sno", "sno", 10, 16),
            Ulid($crate::ulid::Ulid, "ulid", "ULID", 16, 26),
            Uuid7($crate::uuid7::Uuid7, "uuid7", "UUIDv7", 16, 45),
            Scru128($crate::scru128::Scru128Id, "scru128", "SCRU128", 16, 25),
            Scru160($crate::scru160::Scru160Id, "scru160", "SCRU160", 20, 40),
            Nanoflake($crate::nanoflake::Nanoflake, "nanoflake", "Nanoflake", 8, 13),
            UlidFlake($crate::ulidflake::UlidFlake, "ulidflake", "Ulid-Flake", 8, 13),
            TypeId($crate::typeid::TypeId, "typeid", "TypeID", 16, 90),
        }
    };
}

macro_rules! define_formats {
    ($($variant:ident($ty:ty, $name:literal, $display:literal, $bin:expr, $text:expr)),* $(,)?) => {
        /// Every format the crate speaks.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Format {
            $(
                #[doc = concat!($display, ": [`", stringify!($ty), "`].")]
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
        }

        /// A value of any format.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum AnyId {
            $(
                #[doc = concat!("A ", $display, ".")]
                $variant($ty),
            )*
        }

        $(
            impl From<$ty> for AnyId {
                fn from(id: $ty) -> AnyId {
                    AnyId::$variant(id)
                }
            }
        )*

        impl AnyId {
            /// Strictly decodes `text` as a value of `format`.
            ///
            /// # Errors
            /// The format's decoding error.
            pub fn parse_as(format: Format, text: &[u8]) -> Result<AnyId, Error> {
                match format { $(Format::$variant => <$ty as IdFormat>::decode(text).map(AnyId::$variant)),* }
            }

            /// Takes the binary form of a value of `format`.
            ///
            /// # Errors
            /// As [`IdFormat::from_slice`].
            pub fn from_slice_as(format: Format, bytes: &[u8]) -> Result<AnyId, Error> {
                match format { $(Format::$variant => <$ty as IdFormat>::from_slice(bytes).map(AnyId::$variant)),* }
            }

            /// The value's format.
            pub const fn format(&self) -> Format {
                match self { $(AnyId::$variant(_) => Format::$variant),* }
            }

            /// The binary form, borrowed.
            pub fn as_slice(&self) -> &[u8] {
                match self { $(AnyId::$variant(id) => IdFormat::as_slice(id)),* }
            }

            /// The canonical text.
            pub fn text(&self) -> Text {
                match self { $(AnyId::$variant(id) => IdFormat::text(id)),* }
            }

            /// As [`IdFormat::unix_ms`].
            pub fn unix_ms(&self) -> Option<i64> {
                match self { $(AnyId::$variant(id) => IdFormat::unix_ms(id)),* }
            }

            /// As [`IdFormat::unix_nanos`].
            pub fn unix_nanos(&self) -> Option<i64> {
                match self { $(AnyId::$variant(id) => IdFormat::unix_nanos(id)),* }
            }

            /// As [`IdFormat::fields`].
            pub fn fields(&self) -> Fields<'_> {
                match self { $(AnyId::$variant(id) => IdFormat::fields(id)),* }
            }
        }
    };
}

for_each_format!(define_formats);

impl FromStr for Format {
    type Err = Error;

    /// A format by its [name](Format::name) or [display name](Format::display_name), in any
    /// case; `uuidv7` and `ulid-flake` also work.
    fn from_str(s: &str) -> Result<Format, Error> {
        Format::ALL
            .into_iter()
            .find(|f| {
                s.eq_ignore_ascii_case(f.name())
                    || s.eq_ignore_ascii_case(f.display_name())
                    || (*f == Format::Uuid7 && s.eq_ignore_ascii_case("uuid"))
            })
            .ok_or(Error::UnknownFormat)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.display_name())
    }
}

impl AnyId {
    /// Every format whose strict decoder accepts `text`.
    pub fn candidates(text: &[u8]) -> FormatSet {
        Format::ALL
            .into_iter()
            .filter(|f| AnyId::parse_as(*f, text).is_ok())
            .fold(FormatSet::EMPTY, FormatSet::with)
    }

    /// The one format `text` is written in.
    ///
    /// A text is recognised when exactly one format accepts it **and** that format's text is
    /// recognisable: Nanoflakes (1 to 13 base36 digits, no fixed length) accept almost any
    /// short word, so a text that only a Nanoflake reads is reported as ambiguous too; pass the
    /// format ([`parse_as`](Self::parse_as), `--format nanoflake`) to read it.
    ///
    /// # Errors
    /// * [`Error::AmbiguousFormat`] with the candidates when several formats accept the text
    ///   (a 13-character text can be a Ulid-Flake and a Nanoflake), or only a Nanoflake does;
    /// * [`Error::UnrecognizedFormat`] when none does.
    ///
    /// ```
    /// use sno_core::{AnyId, Error, Format, FormatSet};
    /// assert_eq!(AnyId::detect(b"brpk4q72xwf2m63l")?.format(), Format::Sno);
    /// assert_eq!(
    ///     AnyId::detect(b"hello"),
    ///     Err(Error::AmbiguousFormat { candidates: FormatSet::EMPTY.with(Format::Nanoflake) })
    /// );
    /// assert_eq!(AnyId::detect(b"!"), Err(Error::UnrecognizedFormat { length: 1 }));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn detect(text: &[u8]) -> Result<AnyId, Error> {
        let candidates = AnyId::candidates(text);
        let mut formats = candidates.iter();
        match (formats.next(), formats.next()) {
            (None, _) => Err(Error::UnrecognizedFormat { length: text.len() }),
            (Some(Format::Nanoflake), None) | (Some(_), Some(_)) => {
                Err(Error::AmbiguousFormat { candidates })
            }
            (Some(format), None) => AnyId::parse_as(format, text),
        }
    }
}

impl fmt::Display for AnyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.text().as_str())
    }
}

/// `impl IdFormat` for a type with inherent `decode`, `from_slice`, `as_bytes` and a
/// fixed-length `encode`; `$fields` and `$unix_ms` are closures over `&Self`.
macro_rules! fixed_text_format {
    ($ty:ty, $format:ident, $text:expr, unix_ms = $unix_ms:expr, fields = $fields:expr) => {
        impl $crate::model::IdFormat for $ty {
            const FORMAT: $crate::model::Format = $crate::model::Format::$format;
            fn decode(text: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::decode(text)
            }
            fn from_slice(bytes: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::from_slice(bytes)
            }
            fn as_slice(&self) -> &[u8] {
                self.as_bytes()
            }
            fn write_text(&self, buf: &mut [u8; $crate::model::MAX_TEXT_LEN]) -> usize {
                const { assert!($text <= $crate::model::MAX_TEXT_LEN) };
                if let Some(out) = buf.first_chunk_mut::<{ $text }>() {
                    self.encode(out);
                }
                $text
            }
            fn unix_ms(&self) -> Option<i64> {
                #[allow(clippy::redundant_closure_call, reason = "the macro takes a closure")]
                ($unix_ms)(self)
            }
            fn fields(&self) -> $crate::model::Fields<'_> {
                #[allow(clippy::redundant_closure_call, reason = "the macro takes a closure")]
                $crate::model::Fields::new(&($fields)(self))
            }
        }
    };
}
pub(crate) use fixed_text_format;
