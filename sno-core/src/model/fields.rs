//! The values of a format's named fields, read from a value with the format's
//! [`FieldSpec`]s, and the arguments a value is made from.

use core::fmt;

use crate::describe::{FieldInput, FieldKind, FieldSpec, MAX_FIELDS, Unit};
use crate::error::Error;

/// The `bits` bits (at most 128) of `bytes` starting at bit `at` (from the most significant bit
/// of the first byte), as a number; bits past the end read as zero.
fn read_bits(bytes: &[u8], at: u8, bits: u8) -> u128 {
    let (mut at, end) = (usize::from(at), usize::from(at) + usize::from(bits));
    let mut value = 0u128;
    while at < end {
        let offset = at % 8;
        let take = (8 - offset).min(end - at);
        let byte = bytes.get(at / 8).copied().unwrap_or(0);
        let chunk = (byte >> (8 - offset - take)) & (0xFF >> (8 - take));
        value = (value << take) | u128::from(chunk);
        at += take;
    }
    value
}

/// The arguments of a [`FromFields::from_inputs`](super::FromFields::from_inputs) call read by
/// position, each checked against its [`FieldInput`]: what the formats' implementations use.
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

/// The value of a named field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValue<'a> {
    /// An unsigned number (fields are at most 128 bits wide).
    Uint(u128),
    /// A flag (the sno tick-tock bit).
    Bool(bool),
    /// Text (the part of a value outside its binary form).
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

    /// The field `spec` states, with its value in a value's binary form `binary` (its text
    /// part `text`, for a text field).
    pub fn read(spec: &FieldSpec, binary: &[u8], text: &'a str) -> Field<'a> {
        let value = match spec.kind {
            FieldKind::Uint { bits } => FieldValue::Uint(read_bits(binary, spec.at, bits)),
            FieldKind::Bool => FieldValue::Bool(read_bits(binary, spec.at, 1) == 1),
            FieldKind::Text => FieldValue::Text(text),
        };
        Field {
            name: spec.name,
            value,
            unit: spec.unit,
            bits: spec.bits(),
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

    /// The fields `specs` state, read from a value's binary form `binary` and its text part
    /// `text` ([`IdFormat::fields`](super::IdFormat::fields)).
    pub fn read(specs: &[FieldSpec], binary: &[u8], text: &'a str) -> Fields<'a> {
        let mut items = [Field::uint("", 0, 0, Unit::None); MAX_FIELDS];
        for (item, spec) in items.iter_mut().zip(specs) {
            *item = Field::read(spec, binary, text);
        }
        Fields {
            items,
            len: specs.len().min(MAX_FIELDS),
        }
    }

    /// The field named `name`.
    pub fn get(&self, name: &str) -> Option<&Field<'a>> {
        self.iter().find(|f| f.name == name)
    }
}

impl<'a> core::ops::Deref for Fields<'a> {
    type Target = [Field<'a>];
    fn deref(&self) -> &[Field<'a>] {
        crate::bytes::at(&self.items, ..self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_read_across_bytes_and_past_the_end() {
        let bytes = [0b1010_1100, 0xFF, 0x01];
        assert_eq!(read_bits(&bytes, 0, 3), 0b101);
        assert_eq!(read_bits(&bytes, 3, 9), 0b0_1100_1111);
        assert_eq!(read_bits(&bytes, 4, 20), 0xC_FF01);
        assert_eq!(read_bits(&bytes, 20, 8), 0x10);
        assert_eq!(read_bits(&[0xFF; 20], 32, 128), u128::MAX);
    }
}
