//! What a format states about itself as data, in the format table
//! ([`for_each_format!`](crate::for_each_format)): its named fields ([`FieldSpec`]: where each
//! lies in the binary form, its unit, whether a value is made from it) and its documentation
//! ([`About`]). Below the table and the model, which read them; the bindings' generators write
//! each binding's per-field surface from them.

/// Room for the longest text of any format (a 63-character prefix, `_`, 26 characters).
pub const MAX_TEXT_LEN: usize = 90;
/// The longest binary form of any format (20 bytes).
pub const MAX_BINARY_LEN: usize = 20;
/// The most named fields any format has.
pub const MAX_FIELDS: usize = 6;

/// What kind of value a field holds (and a value is made from).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldKind {
    /// An unsigned number of at most `bits` bits ([`FieldValue::Uint`](crate::FieldValue::Uint)).
    Uint {
        /// The field's width.
        bits: u8,
    },
    /// A flag ([`FieldValue::Bool`](crate::FieldValue::Bool)): one bit.
    Bool,
    /// Text ([`FieldValue::Text`](crate::FieldValue::Text)): the part of a value outside its binary form.
    Text,
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

    /// Whether the field is a time (its value counts milliseconds, seconds or sno units).
    pub const fn is_time(self) -> bool {
        !matches!(self, Unit::None)
    }
}

/// One named field of a format, as the format states it once, in layout order
/// ([`IdFormat::FIELDS`](crate::Format::fields)): its name, kind, unit, where its bits lie in
/// the binary form, whether a value is made from it, and a few words of documentation. A
/// value's [`fields`](crate::IdFormat::fields), the [`FieldInput`]s of
/// [`from_fields`](crate::FromFields) and every binding's per-field surface are read from it.
///
/// ```
/// use sno_core::{FieldKind, Format, Unit};
///
/// let time = Format::Ulid.fields()[0];
/// assert_eq!((time.name, time.kind, time.unit), ("unix_ms", FieldKind::Uint { bits: 48 }, Unit::UnixMs));
/// assert_eq!((time.at, time.bits(), time.input), (0, 48, true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldSpec {
    /// The name (snake case; the bindings write it in their own case).
    pub name: &'static str,
    /// What it holds.
    pub kind: FieldKind,
    /// What a number counts.
    pub unit: Unit,
    /// Its first bit in the binary form, counted from the most significant bit of the first
    /// byte (0 for text, which lies outside the binary form).
    pub at: u8,
    /// Whether a value is made from it ([`FromFields::INPUTS`](crate::FromFields::INPUTS)):
    /// not a field the format computes (UUIDv7's version and variant) nor a second reading of
    /// other fields' bits (a Ulid-Flake's scalable view).
    pub input: bool,
    /// The value every value of the format has in this field, for a field the format computes
    /// as a constant (UUIDv7's version 7 and variant `0b10`): what
    /// [`from_fields`](crate::AnyId::from_fields) writes there.
    pub constant: Option<u8>,
    /// What it is, in a few words ("the generator id").
    pub doc: &'static str,
}

/// A description (`doc`) as a build keeps it: the text, or empty in the web build without
/// `std`, whose modules read no description (the bindings' generators and `sno describe` do)
/// and would otherwise carry every one (docs/wasm.md, "Sizes").
pub(crate) const fn described(doc: &'static str) -> &'static str {
    if cfg!(all(feature = "web", not(feature = "std"))) {
        ""
    } else {
        doc
    }
}

impl FieldSpec {
    /// A number of `bits` bits starting at bit `at`, made from (an input).
    pub const fn uint(name: &'static str, at: u8, bits: u8, unit: Unit, doc: &'static str) -> Self {
        FieldSpec {
            name,
            kind: FieldKind::Uint { bits },
            unit,
            at,
            input: true,
            constant: None,
            doc: described(doc),
        }
    }

    /// A one-bit flag at bit `at`.
    pub const fn flag(name: &'static str, at: u8, doc: &'static str) -> Self {
        FieldSpec {
            kind: FieldKind::Bool,
            ..FieldSpec::uint(name, at, 1, Unit::None, doc)
        }
    }

    /// Text outside the binary form (the value's [`param`](crate::IdFormat::param)).
    pub const fn text(name: &'static str, doc: &'static str) -> Self {
        FieldSpec {
            kind: FieldKind::Text,
            ..FieldSpec::uint(name, 0, 0, Unit::None, doc)
        }
    }

    /// The same field, read again from other fields' bits: not an input.
    pub const fn derived(self) -> Self {
        FieldSpec {
            input: false,
            ..self
        }
    }

    /// The same field, which the format computes as `value` in every value: not an input.
    pub const fn constant(self, value: u8) -> Self {
        FieldSpec {
            input: false,
            constant: Some(value),
            ..self
        }
    }

    /// The width in bits (1 for a flag, 0 for text).
    pub const fn bits(&self) -> u8 {
        match self.kind {
            FieldKind::Uint { bits } => bits,
            FieldKind::Bool => 1,
            FieldKind::Text => 0,
        }
    }
}

/// The [`FieldInput`]s of `specs` (those marked as inputs, in order), at most [`MAX_FIELDS`]:
/// what [`FromFields::INPUTS`](crate::FromFields::INPUTS) is made of.
#[derive(Clone, Copy, Debug)]
pub struct InputList {
    items: [FieldInput; MAX_FIELDS],
    len: usize,
}

impl InputList {
    /// The inputs of `specs`.
    pub const fn of(specs: &[FieldSpec]) -> InputList {
        let mut items = [FieldInput::uint("", 0); MAX_FIELDS];
        let (mut i, mut len) = (0, 0);
        while i < specs.len() {
            if specs[i].input {
                items[len] = FieldInput {
                    name: specs[i].name,
                    kind: specs[i].kind,
                };
                len += 1;
            }
            i += 1;
        }
        InputList { items, len }
    }

    /// The inputs, in order.
    pub const fn as_slice(&self) -> &[FieldInput] {
        self.items.split_at(self.len).0
    }
}

/// One field a value is made from ([`FromFields::INPUTS`](crate::FromFields::INPUTS)): its
/// name (that of the field in [`IdFormat::fields`](crate::IdFormat::fields)) and kind.
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

/// A format's documentation ([`Format::about`](crate::Format::about)), in prose every binding's
/// documentation is written from. Errors are named by their codes in backquotes
/// (`` `value_overflow` ``), which each binding writes in its own form
/// (`SNO_STATUS_VALUE_OVERFLOW`, `ERR_SNO_VALUE_OVERFLOW`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct About {
    /// What the format is, where its specification lives, and what the fields do not say (how
    /// it sorts): the lead of the bindings' documentation of its class.
    pub summary: &'static str,
    /// The canonical text, as encoders write it: "26 upper-case Crockford base32 characters".
    pub text: &'static str,
    /// What the strict decoder accepts, and its errors.
    pub decode: &'static str,
    /// How a generator orders its values and when it waits or refuses ("" without one).
    pub generation: &'static str,
    /// What the process-wide generator adds to [`generation`](Self::generation) ("" for
    /// nothing).
    pub process_wide: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_leave_out_derived_fields() {
        const SPECS: [FieldSpec; 3] = [
            FieldSpec::uint("a", 0, 8, Unit::None, ""),
            FieldSpec::uint("b", 8, 4, Unit::None, "").derived(),
            FieldSpec::flag("c", 12, ""),
        ];
        let list = InputList::of(&SPECS);
        let names: [&str; 2] = [list.as_slice()[0].name, list.as_slice()[1].name];
        assert_eq!(names, ["a", "c"]);
        assert_eq!(list.as_slice()[1].kind, FieldKind::Bool);
    }
}
