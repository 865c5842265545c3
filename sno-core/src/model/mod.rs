//! The one model every format follows: the [`IdFormat`] trait each ID type implements, the
//! [`Format`] table that lists them, their [named fields](FieldSpec), what each has beyond the
//! model ([`Extras`]), and [`AnyId`](crate::AnyId), a value of any format with the single
//! [format detection](crate::AnyId::detect) that the CLI and every binding use.
//!
//! A format is described once, in its own module (layout, codec, generator) plus one
//! `impl IdFormat` next to it, which states what it has beyond the model as data
//! ([`IdFormat::EXTRAS`]); its row in [`Format`]'s table
//! ([`for_each_format!`](crate::for_each_format)), with its fields and documentation, makes it
//! known to `AnyId`, and the bindings' generators write the C ABI's, Python's and Node's surfaces
//! of it
//! ([docs/adding-a-format.md](https://github.com/libsno/libsno/blob/main/docs/adding-a-format.md)).
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

mod extras;
mod fields;

pub use crate::describe::{
    About, FieldInput, FieldKind, FieldSpec, InputList, MAX_BINARY_LEN, MAX_FIELDS, MAX_TEXT_LEN,
    Unit,
};
pub(crate) use extras::put;
pub use extras::{EpochTime, Extras, Lenient, Number, Param, ParamFacts, TextForm};
pub(crate) use fields::compose;
pub use fields::{Field, FieldValue, Fields, Inputs};

/// What every ID type of the crate is: a `Copy` value with a strict text codec, a binary form,
/// a time, and named fields. `Ord` is time order (then the other fields, as the bytes sort).
///
/// Generic code (the C ABI, the Python and Node bindings, the CLI) is written once over this
/// trait; each format's own methods (constructors from fields, conversions) stay inherent.
///
/// The types also have inherent methods of the same names with their exact types
/// (`Ulid::unix_ms() -> u64`, `Id::unix_ms() -> i64`, an `Option` where a value may carry no
/// time); a method call on a concrete type picks those, generic code and `IdFormat::unix_ms(&id)`
/// this trait's `Option<i64>`.
pub trait IdFormat:
    Copy + Eq + Ord + Hash + fmt::Debug + fmt::Display + FromStr<Err = Error> + Send + Sync + 'static
{
    /// The format's entry in the [`Format`] table.
    const FORMAT: Format;

    /// What the format has beyond the model (none by default).
    const EXTRAS: Extras<Self> = Extras::NONE;

    /// Strictly decodes the text form(s) of the format.
    ///
    /// # Errors
    /// The format's decoding errors: [`Error::InvalidLength`], [`Error::InvalidByte`],
    /// [`Error::ValueOverflow`], …
    fn decode(text: &[u8]) -> Result<Self, Error>;

    /// Decodes the forms the format's lenient decoder takes ([`Extras::lenient`]: UUIDv7's bare
    /// and braced hex), or strictly for a format without one.
    ///
    /// ```
    /// use sno_core::{IdFormat, ulid::Ulid, uuid7::Uuid7};
    /// let id = <Uuid7 as IdFormat>::decode_lenient(b"017f22e279b07cc398c4dc0c0c07398f")?;
    /// assert_eq!(id.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    /// assert!(<Ulid as IdFormat>::decode_lenient(b"01ARZ3NDEKTSV4RRFFQ69G5FAV").is_ok());
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// The format's decoding error.
    fn decode_lenient(text: &[u8]) -> Result<Self, Error> {
        match Self::EXTRAS.lenient {
            Some(lenient) => (lenient.decode)(text),
            None => Self::decode(text),
        }
    }

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

    /// The part of the value outside its binary form ([`Param`]: a prefix); empty
    /// for the other formats.
    fn param(&self) -> &str {
        ""
    }

    /// The named fields, in layout order (most significant first): the format's
    /// [`fields`](Format::fields) read from the value.
    fn fields(&self) -> Fields<'_> {
        Fields::read(Self::FORMAT.fields(), self.as_slice(), self.param())
    }
}

/// A format whose process-wide generator needs no argument (`<format>::try_new()`): what
/// [`AnyId::try_new`](crate::AnyId::try_new) calls for the formats the table marks so
/// (`process_generator: true`). sno's process-wide generator takes a meta byte
/// ([`crate::new`]), a format with a [`Param`] takes it: they are not among them.
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

/// Values made from their named fields, for every format: the numbers written into the bits
/// the format's [fields](Format::fields) state (its constant fields' values beside them), then
/// the format's own constructor of a binary form (and text part); the bindings' generic
/// `from_fields` ([`AnyId::from_fields`](crate::AnyId::from_fields)) reads
/// [`INPUTS`](Self::INPUTS) by name the same way. The table is all it reads, so a format
/// states nothing more for it.
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
    /// The fields a value is made from, in order: the format's [`fields`](Format::fields)
    /// less those it computes (UUIDv7's version and variant) or reads again (a Ulid-Flake's
    /// views of its randomness).
    const INPUTS: &'static [FieldInput] = InputsOf::<Self>::SLICE;

    /// The value of `args`, one per [`INPUTS`](Self::INPUTS) entry, in that order.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an argument missing or of another kind than its
    /// input's (every argument is checked first); then, field by field, a number above its
    /// field's width: [`Error::ValueOverflow`], or the format's time error for its time field
    /// (sno's [`Error::TimestampOverflow`], [`Error::MillisOutOfRange`]); last the format's
    /// own refusal of the text part (its [`Param`]'s check).
    fn from_inputs(args: &[FieldValue<'_>]) -> Result<Self, Error> {
        let made = fields::compose(Self::FORMAT, args)?;
        let binary = crate::bytes::at(&made.binary, ..Self::FORMAT.binary_len());
        match (made.text, Self::EXTRAS.param) {
            (Some(text), Some(param)) => (param.with)(text, binary),
            _ => Self::from_slice(binary),
        }
    }
}

impl<T: IdFormat> FromFields for T {}

/// The [`FromFields::INPUTS`] of `T`, made from its format's fields at compile time.
struct InputsOf<T>(T);

impl<T: IdFormat> InputsOf<T> {
    const LIST: InputList = InputList::of(T::FORMAT.fields());
    const SLICE: &'static [FieldInput] = Self::LIST.as_slice();
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
        unsafe {
            core::str::from_utf8_unchecked(crate::bytes::at(&self.buf, ..usize::from(self.len)))
        }
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

/// `impl IdFormat` for a type with inherent `decode`, `from_slice`, `as_bytes` and a
/// fixed-length `encode`; `$unix_ms` is a closure over `&Self`, and the items in braces (the
/// format's `EXTRAS`, if any) complete the impl.
macro_rules! fixed_text_format {
    ($ty:ty, $format:ident, $text:expr, unix_ms = $unix_ms:expr, { $($items:tt)* }) => {
        impl $crate::model::IdFormat for $ty {
            const FORMAT: $crate::model::Format = $crate::model::Format::$format;
            $($items)*
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
        }
    };
}
pub(crate) use fixed_text_format;
