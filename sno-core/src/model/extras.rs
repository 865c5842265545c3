//! What a format has beyond the model, stated once beside its type ([`Extras`]: other text
//! forms, a lenient decoder, numbers besides its fields, the formats of the same bits, a text
//! part outside the binary form, its time for a given epoch): data (names, lengths,
//! documentation) with the functions behind it. The bindings' generators read it and write
//! each binding's surface of it; a format with none has [`Extras::NONE`].

use crate::error::Error;
use crate::format::{Format, Setting};

use crate::describe::{MAX_TEXT_LEN, described};

/// Another text form of a format's values (SCRU160's 40 hex digits, a Nanoflake's 13
/// zero-padded digits, a prefixed value's suffix): a getter or an encoder of this name in each binding.
#[derive(Clone, Copy, Debug)]
pub struct TextForm<T: 'static> {
    /// The name (snake case): `hex`, `padded`, `suffix`.
    pub name: &'static str,
    /// Its length in characters (always the same).
    pub len: usize,
    /// What it is.
    pub doc: &'static str,
    /// Writes it into the buffer, returning its length (`len`).
    pub write: fn(&T, &mut [u8; MAX_TEXT_LEN]) -> usize,
}

impl<T> TextForm<T> {
    /// A text form: its name, length, documentation and writer.
    pub const fn new(
        name: &'static str,
        len: usize,
        doc: &'static str,
        write: fn(&T, &mut [u8; MAX_TEXT_LEN]) -> usize,
    ) -> Self {
        TextForm {
            name,
            len,
            doc: described(doc),
            write,
        }
    }
}

/// Copies `text` to the start of `buf`, returning its length: what a [`TextForm`]'s `write`
/// does with a fixed-length text.
pub(crate) fn put(buf: &mut [u8; MAX_TEXT_LEN], text: &[u8]) -> usize {
    let len = text.len().min(MAX_TEXT_LEN);
    crate::bytes::copy(
        crate::bytes::at_mut(buf, ..len),
        crate::bytes::at(text, ..len),
    );
    len
}

/// A decoder that takes forms besides those of the strict one (UUIDv7's bare and braced hex).
#[derive(Clone, Copy, Debug)]
pub struct Lenient<T: 'static> {
    /// What it accepts beyond the strict decoder.
    pub doc: &'static str,
    /// The decoder.
    pub decode: fn(&[u8]) -> Result<T, Error>,
}

/// A number read from a value besides its named fields (a Nanoflake's timestamp as its
/// reference implementations read it).
#[derive(Clone, Copy, Debug)]
pub struct Number<T: 'static> {
    /// The name (snake case).
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// Reads it.
    pub read: fn(&T) -> u64,
}

/// A text part of a value outside its binary form (a prefix), given when a value is made from
/// a binary form or generated, and named by a [`Setting`] and a text field of the same name:
/// its facts and the functions behind them.
#[derive(Clone, Copy, Debug)]
pub struct Param<T: 'static> {
    /// What it is, as the bindings' generators read it ([`Format::param_facts`]).
    pub facts: ParamFacts,
    /// Checks a value of it.
    pub check: fn(&str) -> Result<(), Error>,
    /// The value of the part and a binary form (any binary form of the format).
    pub with: fn(&str, &[u8]) -> Result<T, Error>,
}

/// What a [`Param`] is, for any format ([`Format::param_facts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamFacts {
    /// The setting (and field) that names it.
    pub setting: Setting,
    /// What it is and its rules, errors by their codes.
    pub doc: &'static str,
    /// Its most characters.
    pub max_len: usize,
    /// What the binary form is called (`uuid`): the bindings name the constructor of a value
    /// from the param and a binary form `from_<binary>`.
    pub binary: &'static str,
    /// The format whose process-wide generator gives a new value's binary form.
    pub source: Format,
}

/// The time of a value whose epoch the caller knows (the formats whose
/// [`epoch`](Format::epoch) is not fixed).
#[derive(Clone, Copy, Debug)]
pub struct EpochTime<T: 'static> {
    /// Milliseconds since 1970 of a value made with the epoch given (saturating).
    pub unix_ms_at: fn(&T, i64) -> i64,
    /// The default epoch in Unix milliseconds, for a format that has one.
    pub default_ms: Option<i64>,
}

/// What a format has beyond the model ([`IdFormat::EXTRAS`](super::IdFormat::EXTRAS)).
///
/// ```
/// use sno_core::IdFormat;
/// use sno_core::scru160::Scru160Id;
///
/// let hex = Scru160Id::EXTRAS.texts[0];
/// let id: Scru160Id = "0000000000000000000000000000000F".parse()?;
/// let mut buf = [0u8; sno_core::model::MAX_TEXT_LEN];
/// let len = (hex.write)(&id, &mut buf);
/// assert_eq!((hex.name, &buf[..len]), ("hex", &b"000000000000000000000000000000000000000f"[..]));
/// # Ok::<(), sno_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Extras<T: 'static> {
    /// Other text forms.
    pub texts: &'static [TextForm<T>],
    /// A decoder of more forms than the strict one.
    pub lenient: Option<Lenient<T>>,
    /// Numbers besides the named fields.
    pub numbers: &'static [Number<T>],
    /// Formats whose values are the same bits in the same layout: a value converts to each
    /// (to one with a [`Param`], given the param). Listed on one side of a pair; the relation
    /// is symmetric ([`Format::same_bits`](crate::Format::same_bits)).
    pub same_bits: &'static [Format],
    /// A text part outside the binary form.
    pub param: Option<Param<T>>,
    /// The time for a given epoch.
    pub epoch: Option<EpochTime<T>>,
}

impl<T> Extras<T> {
    /// Nothing beyond the model.
    pub const NONE: Extras<T> = Extras {
        texts: &[],
        lenient: None,
        numbers: &[],
        same_bits: &[],
        param: None,
        epoch: None,
    };

    /// The text form named `name`.
    pub fn text(&self, name: &str) -> Option<&TextForm<T>> {
        self.texts.iter().find(|t| t.name == name)
    }

    /// The number named `name`.
    pub fn number(&self, name: &str) -> Option<&Number<T>> {
        self.numbers.iter().find(|n| n.name == name)
    }
}
