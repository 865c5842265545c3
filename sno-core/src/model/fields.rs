//! The values of a format's named fields, read from a value with the format's
//! [`FieldSpec`]s, and the arguments a value is made from.

use core::fmt;

use crate::describe::{FieldInput, FieldKind, FieldSpec, MAX_BINARY_LEN, MAX_FIELDS, Unit};
use crate::error::Error;
use crate::format::Format;

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

/// Writes the low `bits` bits of `value` into `bytes` at bit `at`, where [`read_bits`] reads
/// them (the bits there are zero: they are or-ed in); bits past the end are left out.
fn write_bits(bytes: &mut [u8], at: u8, bits: u8, value: u128) {
    let (mut at, end) = (usize::from(at), usize::from(at) + usize::from(bits));
    while at < end {
        let offset = at % 8;
        let take = (8 - offset).min(end - at);
        let chunk = (value >> (end - at - take)) as u8 & (0xFF >> (8 - take));
        if let Some(byte) = bytes.get_mut(at / 8) {
            *byte |= chunk << (8 - offset - take);
        }
        at += take;
    }
}

/// A value's binary form and text part as [`compose`] makes them from its fields.
pub(crate) struct Composed<'v> {
    /// The binary form, in the first [`Format::binary_len`] bytes.
    pub binary: [u8; MAX_BINARY_LEN],
    /// The text part (a [`Param`](super::Param): a prefix), for a format with a text field.
    pub text: Option<&'v str>,
}

/// The binary form and text part of a value of `format` made from `args`, one per input of its
/// [fields](Format::fields), in order (the format's table is all it reads: each number is
/// written into its bits, each constant field's value into its own, a text field's value kept
/// as the text part); the format's own constructor of a binary form and text part finishes
/// the value ([`FromFields::from_inputs`](super::FromFields::from_inputs),
/// [`AnyId::from_fields`](crate::AnyId::from_fields)).
///
/// # Errors
/// Every argument is checked against its input first: [`Error::InvalidArgument`] for one
/// missing or of another kind. Then field by field, in layout order, a number above its
/// field's width: the format's time error for its time field where the number fits 64 bits
/// (sno: [`Error::TimestampOverflow`]; milliseconds: [`Error::MillisOutOfRange`], at the
/// format's default epoch for a field counted from one), [`Error::ValueOverflow`] otherwise.
pub(crate) fn compose<'v>(format: Format, args: &[FieldValue<'v>]) -> Result<Composed<'v>, Error> {
    let mut given = args.iter();
    for spec in format.fields().iter().filter(|spec| spec.input) {
        match (spec.kind, given.next()) {
            (FieldKind::Uint { .. }, Some(FieldValue::Uint(_)))
            | (FieldKind::Bool, Some(FieldValue::Bool(_)))
            | (FieldKind::Text, Some(FieldValue::Text(_))) => {}
            (kind, _) => return Err(wrong_kind(spec.name, kind)),
        }
    }
    let mut made = Composed {
        binary: [0; MAX_BINARY_LEN],
        text: None,
    };
    let mut given = args.iter();
    for spec in format.fields() {
        let value = match (spec.input, spec.constant) {
            (true, _) => given.next().copied(),
            (false, Some(constant)) => Some(FieldValue::Uint(constant.into())),
            (false, None) => None,
        };
        match (spec.kind, value) {
            (FieldKind::Uint { bits }, Some(FieldValue::Uint(v))) => {
                if bits < 128 && v >> bits != 0 {
                    return Err(too_wide(format, spec.unit, v));
                }
                write_bits(&mut made.binary, spec.at, bits, v);
            }
            (FieldKind::Bool, Some(FieldValue::Bool(b))) => {
                write_bits(&mut made.binary, spec.at, 1, b.into());
            }
            (FieldKind::Text, Some(FieldValue::Text(t))) => made.text = Some(t),
            _ => {}
        }
    }
    Ok(made)
}

/// The error of an argument for the input `name` missing or not of its `kind`.
fn wrong_kind(name: &'static str, kind: FieldKind) -> Error {
    Error::InvalidArgument {
        name,
        reason: match kind {
            FieldKind::Uint { .. } => "must be a non-negative integer",
            FieldKind::Bool => "must be a boolean",
            FieldKind::Text => "must be a string",
        },
    }
}

/// The error of the number `value`, above the width of `format`'s field counted in `unit`.
fn too_wide(format: Format, unit: Unit, value: u128) -> Error {
    let Ok(v) = u64::try_from(value) else {
        return Error::ValueOverflow;
    };
    match unit {
        Unit::SnoUnits => Error::TimestampOverflow { units: v },
        Unit::UnixMs => Error::MillisOutOfRange {
            unix_millis: v as i64,
        },
        Unit::EpochMs => Error::MillisOutOfRange {
            unix_millis: match format.epoch_time() {
                Some(Some(epoch_ms)) => epoch_ms.saturating_add(v as i64),
                _ => v as i64,
            },
        },
        Unit::EpochSecs | Unit::None => Error::ValueOverflow,
    }
}

/// The arguments of a [`FromFields::from_inputs`](super::FromFields::from_inputs) call read by
/// position, each checked against its [`FieldInput`].
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

    fn wrong(&self, index: usize, kind: FieldKind) -> Error {
        wrong_kind(self.inputs.get(index).map_or("field", |f| f.name), kind)
    }

    /// Argument `index` as a number of type `T`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if it is missing or not a number, [`Error::ValueOverflow`]
    /// above `T`'s range (a field's exact width is checked by the format's `from_fields`).
    pub fn uint<T: TryFrom<u128>>(&self, index: usize) -> Result<T, Error> {
        match self.args.get(index) {
            Some(FieldValue::Uint(v)) => T::try_from(*v).map_err(|_| Error::ValueOverflow),
            _ => Err(self.wrong(index, FieldKind::Uint { bits: 128 })),
        }
    }

    /// Argument `index` as a flag.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if it is missing or not a flag.
    pub fn flag(&self, index: usize) -> Result<bool, Error> {
        match self.args.get(index) {
            Some(FieldValue::Bool(b)) => Ok(*b),
            _ => Err(self.wrong(index, FieldKind::Bool)),
        }
    }

    /// Argument `index` as text.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if it is missing or not text.
    pub fn text(&self, index: usize) -> Result<&'v str, Error> {
        match self.args.get(index) {
            Some(FieldValue::Text(t)) => Ok(t),
            _ => Err(self.wrong(index, FieldKind::Text)),
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

    #[test]
    fn bits_written_are_read_back() {
        let mut bytes = [0u8; 20];
        for (at, bits, value) in [
            (0, 3, 0b101),
            (3, 9, 0b1_0110_0111),
            (12, 20, 0xA_BCDE),
            (32, 128, u128::MAX - 5),
        ] {
            write_bits(&mut bytes, at, bits, value);
            assert_eq!(read_bits(&bytes, at, bits), value, "at {at}, {bits} bits");
        }
        assert_eq!(
            read_bits(&bytes, 0, 32),
            0b1011_0110_0111_1010_1011_1100_1101_1110
        );
        let mut short = [0u8; 2];
        write_bits(&mut short, 8, 16, 0xFFFF);
        assert_eq!(short, [0, 0xFF]);
    }
}
