//! Every format's value surface (`formats.wasm`), written once over the core's model of any
//! format ([`AnyId`]), what a format has beyond it included (the core's `Extras`, named by the
//! table): one export, `sno_op`, whose first argument says what to do ([`Op`]), so that the
//! core's dispatch over the formats is in the module once.

use alloc::vec::Vec;

use sno_core::model::{MAX_BINARY_LEN, MAX_TEXT_LEN};
use sno_core::{AnyId, Error as SnoError, FieldKind, FieldValue, Format};

use crate::errors::{Class, Fail, R, range_error};
use crate::io::{call, put, put_camel, put_decimal, put_int, put_uint};

/// What `sno_op` does with its input (`formats.js` names the same numbers). "The value" is the
/// input decoded strictly as a value of the format given.
#[derive(Clone, Copy)]
#[repr(u32)]
enum Op {
    /// The value's canonical text (`parse`).
    Canonical = 0,
    /// The value's binary form (`bytes`; `bigint` is read from it).
    Bytes = 1,
    /// The canonical text of the binary form (`fromBytes`).
    FromBytes = 2,
    /// The canonical text of the value whose binary form is the integer of these hexadecimal
    /// digits (JavaScript's `value.toString(16)`: `fromBigInt`).
    FromHex = 3,
    /// The value's named fields, one line each: the JavaScript name, `=`, the value (a
    /// number's decimal digits, a flag's `0` or `1`, a text); JavaScript reads each as the
    /// table's `kind` says.
    Fields = 4,
    /// `unixMs unixNs` (Unix milliseconds and nanoseconds), or nothing for a value that does
    /// not carry its epoch.
    Time = 5,
    /// The value made from its fields (`fromFields`): one input line per field the format is
    /// made from (`AnyId::inputs`, in order; JavaScript checked each value's type): a number's
    /// decimal digits (a minus sign first for a negative bigint), a flag's `0` or `1`, a text.
    FromFields = 6,
    /// The 128 bits as a hyphenated lower-case UUID (`uuid`).
    Uuid = 7,
    /// `index text` of the one format the input is written in (the core's detection).
    Detect = 8,
    /// Milliseconds since 1970 of a value of a format with an epoch, made with the epoch `arg`
    /// (`unixMsAt`, `dateAt`: an integer in the `Date` range, JavaScript checked).
    UnixMsAt = 9,
    /// The canonical text of a value in any form the format's lenient decoder takes
    /// (`parseLenient`; the core's `Extras::lenient`).
    Lenient = 10,
    /// The value's text form named on the line after the value's text (the table's
    /// `textForms`: the core's `Extras::texts`).
    TextForm = 11,
    /// The value's number named on the line after the value's text (the table's `numbers`: the
    /// core's `Extras::numbers`), in decimal digits.
    Number = 12,
    /// `<`, `=` or `>`: the order of two values (`a\nb`; the core's order of the format's
    /// values, for a format whose text order is not value order).
    Compare = 13,
    /// The value of a format with a param (the table's `param`: the core's `Extras::param`)
    /// of a param and a binary form (`from<Binary>`): the param, a newline, then a text of the
    /// param's source format (`t` first; `arg` is that format's index) or the bytes of a binary
    /// form (`b` first).
    WithParam = 14,
    /// The 16 bytes of a hyphenated UUID text (either case, any version: `fromUuid`).
    UuidBytes = 15,
    /// The index of the first invalid 16-byte sno text of the input (texts end to end), or
    /// nothing when all are valid: one batch decode (`decodeMany`).
    FirstInvalid = 16,
}

impl Op {
    const ALL: [Op; 17] = [
        Op::Canonical,
        Op::Bytes,
        Op::FromBytes,
        Op::FromHex,
        Op::Fields,
        Op::Time,
        Op::FromFields,
        Op::Uuid,
        Op::Detect,
        Op::UnixMsAt,
        Op::Lenient,
        Op::TextForm,
        Op::Number,
        Op::Compare,
        Op::WithParam,
        Op::UuidBytes,
        Op::FirstInvalid,
    ];
}

/// The format at `index` of `Format::ALL` (JavaScript passes only its own indexes).
pub(crate) fn format_arg(index: u32) -> R<Format> {
    Format::ALL
        .get(index as usize)
        .copied()
        .ok_or(range_error("unknown format index"))
}

/// The canonical text of `id`.
pub(crate) fn put_text(out: &mut Vec<u8>, id: &AnyId) {
    put(out, id.text().as_bytes());
}

/// The value of a hexadecimal digit.
fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// The input split at its first newline.
fn two(input: &[u8]) -> (&[u8], &[u8]) {
    let at = input
        .iter()
        .position(|b| *b == b'\n')
        .unwrap_or(input.len());
    let (a, b) = input.split_at(at);
    (a, b.get(1..).unwrap_or_default())
}

/// The value of `format` (a format with a param) of `param` and a binary form, with the core's
/// errors in its order (as the native package): the param's refusal is about the argument (a
/// `RangeError`), told by its kind (a comparison of whole errors would cost 580 B).
pub(crate) fn with_param(format: Format, param: &str, binary: &[u8]) -> R<AnyId> {
    AnyId::with_param(format, param, binary)
        .ok_or(range_error("the format's values have no param"))?
        .map_err(|e| match format.check_param(param) {
            Some(Err(refusal)) if refusal.kind() == e.kind() => Fail::Argument(e),
            _ => Fail::Core(e),
        })
}

/// `param` checked by the rules of `format`'s param: its refusal is about the argument.
pub(crate) fn check_param(format: Format, param: &str) -> R<()> {
    format
        .check_param(param)
        .ok_or(range_error("the format's values have no param"))?
        .map_err(Fail::Argument)
}

/// Does `op` (a number of [`Op`]) for `format` (an index of `Format::ALL`) on the input; `arg`
/// is `UnixMsAt`'s epoch or `WithParam`'s source format.
#[unsafe(no_mangle)]
pub extern "C" fn sno_op(op: u32, format: u32, len: usize, arg: f64) -> i32 {
    call(len, |input, out| {
        let op = *Op::ALL
            .get(op as usize)
            .ok_or(range_error("unknown operation"))?;
        let format = format_arg(format)?;
        match op {
            Op::Canonical => put_text(out, &AnyId::parse_as(format, input)?),
            Op::Bytes => put(out, AnyId::parse_as(format, input)?.as_slice()),
            Op::FromBytes => put_text(out, &AnyId::from_slice_as(format, input)?),
            Op::FromHex => put_text(out, &from_hex(format, input)?),
            Op::Fields => {
                let id = AnyId::parse_as(format, input)?;
                for field in id.fields().iter() {
                    put_camel(out, field.name);
                    put(out, b"=");
                    match field.value {
                        FieldValue::Uint(v) => put_uint(out, v),
                        FieldValue::Bool(b) => put(out, if b { b"1" } else { b"0" }),
                        FieldValue::Text(t) => put(out, t.as_bytes()),
                    }
                    put(out, b"\n");
                }
            }
            Op::Time => {
                let id = AnyId::parse_as(format, input)?;
                if let (Some(ms), Some(ns)) = (id.unix_ms(), id.unix_ns()) {
                    put_int(out, ms);
                    put(out, b" ");
                    put_int(out, ns);
                }
            }
            Op::FromFields => put_text(out, &from_fields(format, input)?),
            Op::Uuid => {
                let bytes: [u8; 16] = AnyId::parse_as(format, input)?
                    .as_slice()
                    .try_into()
                    .map_err(|_| range_error("the format's values are not 128 bits"))?;
                put(out, &sno_core::uuid7::uuid_text(&bytes));
            }
            Op::Detect => {
                let id = AnyId::detect(input)?;
                let index = Format::ALL
                    .iter()
                    .position(|f| *f == id.format())
                    .unwrap_or(0);
                put_decimal(out, false, index as u64);
                put(out, b" ");
                put_text(out, &id);
            }
            Op::UnixMsAt => {
                let ms = AnyId::parse_as(format, input)?
                    .unix_ms_at(arg as i64)
                    .ok_or(range_error("the format's values carry their epoch"))?;
                put_int(out, ms);
            }
            Op::Lenient => put_text(out, &AnyId::parse_lenient_as(format, input)?),
            Op::TextForm => {
                let (text, name) = two(input);
                let mut buf = [0u8; MAX_TEXT_LEN];
                let len = AnyId::parse_as(format, text)?
                    .write_text_form(crate::io::ascii_text(name), &mut buf)
                    .ok_or(range_error("unknown text form"))?;
                put(out, buf.get(..len).unwrap_or_default());
            }
            Op::Number => {
                let (text, name) = two(input);
                let number = AnyId::parse_as(format, text)?
                    .number(crate::io::ascii_text(name))
                    .ok_or(range_error("unknown number"))?;
                put_decimal(out, false, number);
            }
            Op::Compare => {
                let (a, b) = two(input);
                let order = AnyId::parse_as(format, a)?.cmp(&AnyId::parse_as(format, b)?);
                put(
                    out,
                    match order {
                        core::cmp::Ordering::Less => b"<",
                        core::cmp::Ordering::Equal => b"=",
                        core::cmp::Ordering::Greater => b">",
                    },
                );
            }
            Op::WithParam => {
                let source = format_arg(arg as u32)?;
                let (param, rest) = two(input);
                let param = crate::io::ascii_text(param);
                let from_text;
                let binary = match rest.split_first() {
                    Some((b't', text)) => {
                        from_text = AnyId::parse_as(source, text)?;
                        from_text.as_slice()
                    }
                    Some((_, bytes)) => bytes,
                    None => &[],
                };
                put_text(out, &with_param(format, param, binary)?);
            }
            Op::UuidBytes => put(out, &sno_core::uuid7::uuid_bytes(input)?),
            Op::FirstInvalid => {
                let mut ids = Vec::new();
                crate::io::put_many(&mut ids, input.len() / sno_core::ENCODED_LEN, || {
                    sno_core::Id::ZERO
                });
                if let Err(e) = sno_core::Id::decode_many(input, &mut ids) {
                    let index = sno_core::Id::batch_index(&e).ok_or(e)?;
                    put_decimal(out, false, index as u64);
                }
            }
        }
        Ok(())
    })
}

/// The value of `format` whose binary form is the integer of the hexadecimal digits `input`: a
/// `RangeError` `ERR_SNO_VALUE_OVERFLOW` for a negative integer or one wider than the binary
/// form, or where the format refuses the value as above its maximum.
fn from_hex(format: Format, input: &[u8]) -> R<AnyId> {
    let width = format.binary_len();
    let start = input.iter().position(|c| *c != b'0').unwrap_or(input.len());
    let digits = input.get(start..).unwrap_or_default();
    if digits.first() == Some(&b'-') || digits.len() > 2 * width {
        return Err(Fail::Argument(SnoError::ValueOverflow));
    }
    let mut bytes = [0u8; MAX_BINARY_LEN];
    for (i, c) in digits.iter().rev().enumerate() {
        let d = hex_digit(*c).ok_or(Fail::Own {
            class: Class::TypeError,
            code: "ERR_INVALID_ARG_TYPE",
            message: "fromBigInt(value): value must be a bigint",
        })?;
        if let Some(byte) = bytes.get_mut(width - 1 - i / 2) {
            *byte |= d << (4 * (i % 2));
        }
    }
    AnyId::from_slice_as(format, bytes.get(..width).unwrap_or_default()).map_err(|e| match e {
        SnoError::ValueOverflow => Fail::Argument(e),
        e => Fail::Core(e),
    })
}

/// The value of `format` made from the fields of `input` (see [`Op::FromFields`]): the core's
/// `AnyId::from_fields`; its refusal (a number above its field's width, a time outside the
/// format's range) is about the fields given, a `RangeError`.
fn from_fields(format: Format, input: &[u8]) -> R<AnyId> {
    let mut lines = input.split(|&b| b == b'\n').map(crate::io::ascii_text);
    AnyId::from_fields(format, |input| field_value(input.kind, lines.next()))?
        .map_err(Fail::Argument)
}

/// A field's value read from its line of text (absent: empty). Not inlined: one copy serves the
/// `from_fields` of every format.
#[inline(never)]
fn field_value(kind: FieldKind, line: Option<&str>) -> R<FieldValue<'_>> {
    let value = line.unwrap_or_default();
    Ok(match kind {
        FieldKind::Bool => FieldValue::Bool(value == "1"),
        FieldKind::Text => FieldValue::Text(value),
        _ => FieldValue::Uint(
            value
                .parse::<u128>()
                .map_err(|_| Fail::Argument(SnoError::ValueOverflow))?,
        ),
    })
}
