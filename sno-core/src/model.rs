//! The one model every format follows: the [`IdFormat`] trait each ID type implements, the
//! [`Format`] table that lists them, their [named fields](Field), and
//! [`AnyId`](crate::AnyId), a value of any format with the single
//! [format detection](crate::AnyId::detect) that the CLI and every binding use.
//!
//! A format is described once, in its own module (layout, codec, generator) plus one
//! `impl IdFormat` next to it; its row in [`Format`]'s table and in
//! [`for_each_format!`](crate::for_each_format) makes it known to `AnyId`, the C ABI, Python,
//! Node and the CLI ([docs/adding-a-format.md](https://github.com/libsno/libsno/blob/main/docs/adding-a-format.md)).
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
pub use crate::format::{Format, FormatSet};

/// Room for the longest text of any format (a TypeID: a 63-character prefix, `_`, 26
/// characters).
pub const MAX_TEXT_LEN: usize = 90;
/// The longest binary form of any format (20 bytes).
pub const MAX_BINARY_LEN: usize = 20;
/// The most named fields any format has.
pub const MAX_FIELDS: usize = 6;

/// What every ID type of the crate is: a `Copy` value with a strict text codec, a binary form,
/// a time, and named fields. `Ord` is time order (then the other fields, as the bytes sort).
///
/// Generic code (the C ABI, the Python and Node bindings, the CLI) is written once over this
/// trait; each format's own methods (constructors from fields, conversions) stay inherent.
///
/// The types also have inherent methods of the same names with their exact types
/// (`Ulid::unix_ms() -> u64`, `Id::unix_ms() -> i64`, `TypeId::unix_ms() -> Option<u64>`); a
/// method call on a concrete type picks those, generic code and `IdFormat::unix_ms(&id)` this
/// trait's `Option<i64>`.
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
    fn unix_ns(&self) -> Option<i64> {
        self.unix_ms().map(|ms| ms.saturating_mul(1_000_000))
    }

    /// The old name of [`unix_ns`](Self::unix_ns).
    #[deprecated(since = "0.2.0", note = "renamed `unix_ns`")]
    fn unix_nanos(&self) -> Option<i64> {
        self.unix_ns()
    }

    /// The named fields, in layout order (most significant first).
    fn fields(&self) -> Fields<'_>;
}

/// A format whose process-wide generator needs no argument (`<format>::try_new()`): what
/// [`AnyId::try_new`](crate::AnyId::try_new) calls for the formats the table marks so
/// (`process_generator: true`). sno's process-wide generator takes a meta byte
/// ([`crate::new`]), TypeID's a prefix: they are not among them.
#[cfg(feature = "std")]
pub trait ProcessWide: IdFormat {
    /// The next value of the process-wide generator, waiting (bounded) through a used-up
    /// millisecond: `<format>::try_new()`.
    ///
    /// # Errors
    /// As `<format>::try_new()`.
    fn try_new() -> Result<Self, Error>;

    /// The same without waiting: `<format>::try_new_nonblocking()`.
    ///
    /// # Errors
    /// As `<format>::try_new_nonblocking()`.
    fn try_new_nonblocking() -> Result<Self, Error>;
}

/// A core name (snake case: a field's, a [`Setting`](crate::Setting)'s) written in camel case,
/// as JavaScript names it: the one conversion the Node binding and its generated declarations
/// share.
///
/// ```
/// use sno_core::model::CamelCase;
/// assert_eq!(CamelCase("epoch_ms").to_string(), "epochMs");
/// assert_eq!(CamelCase("random16").to_string(), "random16");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CamelCase<'a>(pub &'a str);

impl fmt::Display for CamelCase<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut upper = false;
        for c in self.0.chars() {
            if c == '_' {
                upper = true;
            } else if core::mem::take(&mut upper) {
                fmt::Write::write_char(f, c.to_ascii_uppercase())?;
            } else {
                fmt::Write::write_char(f, c)?;
            }
        }
        Ok(())
    }
}

/// What kind of value a field of [`FromFields::INPUTS`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldKind {
    /// An unsigned number of at most `bits` bits ([`FieldValue::Uint`]).
    Uint {
        /// The field's width.
        bits: u8,
    },
    /// A flag ([`FieldValue::Bool`]).
    Bool,
    /// Text ([`FieldValue::Text`]).
    Text,
}

/// One field a value is made from ([`FromFields::INPUTS`]): its name (that of the field in
/// [`IdFormat::fields`]) and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldInput {
    /// The field's name, snake case (the bindings write it in their own case).
    pub name: &'static str,
    /// What it takes.
    pub kind: FieldKind,
}

impl FieldInput {
    /// A number field of `bits` bits.
    pub const fn uint(name: &'static str, bits: u8) -> FieldInput {
        FieldInput {
            name,
            kind: FieldKind::Uint { bits },
        }
    }
}

/// A format whose values can be made from their named fields: the bindings' generic
/// `from_fields` ([`AnyId::from_fields`](crate::AnyId::from_fields)) reads
/// [`INPUTS`](Self::INPUTS) by name and calls [`from_inputs`](Self::from_inputs), each
/// format's own `from_fields` underneath.
///
/// ```
/// use sno_core::model::{FieldValue, FromFields};
/// use sno_core::ulid::Ulid;
///
/// let names: Vec<_> = Ulid::INPUTS.iter().map(|f| f.name).collect();
/// assert_eq!(names, ["unix_ms", "randomness"]);
/// let id = Ulid::from_inputs(&[FieldValue::Uint(1), FieldValue::Uint(2)])?;
/// assert_eq!((id.unix_ms(), id.randomness()), (1, 2));
/// # Ok::<(), sno_core::Error>(())
/// ```
pub trait FromFields: IdFormat {
    /// The fields a value is made from, in order: the format's [`fields`](IdFormat::fields)
    /// less those it computes (UUIDv7's version and variant, a Ulid-Flake's views of its
    /// randomness).
    const INPUTS: &'static [FieldInput];

    /// The value of `args`, one per [`INPUTS`](Self::INPUTS) entry, in that order.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an argument missing or of another kind than its
    /// input's; [`Error::ValueOverflow`] for a number above its field's width; the format's
    /// own `from_fields` errors (a time outside its range).
    fn from_inputs(args: &[FieldValue<'_>]) -> Result<Self, Error>;
}

/// The arguments of a [`FromFields::from_inputs`] call read by position, each checked against
/// its [`FieldInput`]: what the formats' implementations use.
///
/// ```
/// use sno_core::model::{FieldInput, FieldValue, Inputs};
///
/// const INPUTS: &[FieldInput] = &[FieldInput::uint("sequence", 16)];
/// let args = [FieldValue::Uint(70_000)];
/// let read = Inputs::new(&args, INPUTS);
/// assert_eq!(read.uint::<u32>(0), Ok(70_000));
/// assert_eq!(read.uint::<u16>(0), Err(sno_core::Error::ValueOverflow));
/// assert!(read.flag(0).is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a, 'v> {
    args: &'a [FieldValue<'v>],
    inputs: &'static [FieldInput],
}

impl<'a, 'v> Inputs<'a, 'v> {
    /// `args` as the arguments of `inputs`.
    pub const fn new(args: &'a [FieldValue<'v>], inputs: &'static [FieldInput]) -> Self {
        Inputs { args, inputs }
    }

    fn wrong(&self, index: usize, reason: &'static str) -> Error {
        Error::InvalidArgument {
            name: self.inputs.get(index).map_or("field", |f| f.name),
            reason,
        }
    }

    /// Argument `index` as a number of type `T`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if it is missing or not a number, [`Error::ValueOverflow`]
    /// above `T`'s range (a field's exact width is checked by the format's `from_fields`).
    pub fn uint<T: TryFrom<u128>>(&self, index: usize) -> Result<T, Error> {
        match self.args.get(index) {
            Some(FieldValue::Uint(v)) => T::try_from(*v).map_err(|_| Error::ValueOverflow),
            _ => Err(self.wrong(index, "must be a non-negative integer")),
        }
    }

    /// Argument `index` as a flag.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if it is missing or not a flag.
    pub fn flag(&self, index: usize) -> Result<bool, Error> {
        match self.args.get(index) {
            Some(FieldValue::Bool(b)) => Ok(*b),
            _ => Err(self.wrong(index, "must be a boolean")),
        }
    }

    /// Argument `index` as text.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if it is missing or not text.
    pub fn text(&self, index: usize) -> Result<&'v str, Error> {
        match self.args.get(index) {
            Some(FieldValue::Text(t)) => Ok(t),
            _ => Err(self.wrong(index, "must be a string")),
        }
    }
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
    /// An unsigned number (fields are at most 128 bits wide).
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
    /// Seconds since the format's epoch.
    EpochSecs,
    /// No unit: a counter, random bits, an identifier, a flag or text.
    None,
}

impl Unit {
    /// A stable name: `"unix_ms"`, `"sno_units"`, `"epoch_ms"`, `"epoch_s"`, `"none"`.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::UnixMs => "unix_ms",
            Unit::SnoUnits => "sno_units",
            Unit::EpochMs => "epoch_ms",
            Unit::EpochSecs => "epoch_s",
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
        debug_assert!(
            fields.len() <= MAX_FIELDS,
            "a format has more than MAX_FIELDS fields"
        );
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
