//! Every format's value surface, written once over the core's model (`IdFormat`): strict
//! decoding to the canonical text, the binary form, the integer, the named fields, the time,
//! the order, and the process-wide generators. Each export takes the format's index in
//! `Format::ALL`; [`dispatch`] runs the generic operation with that format's type (every
//! format of the table in `formats.wasm`, sno alone in `sno.wasm`).

use std::fmt::Write;

#[cfg(feature = "formats")]
use sno_core::AnyId;
use sno_core::model::MAX_TEXT_LEN;
use sno_core::{Error as SnoError, FieldInput, FieldKind, FieldValue, Format, IdFormat};

use crate::errors::{Fail, R, range_error, type_error};
use crate::io::call;

/// An operation written once over [`IdFormat`], run by [`dispatch`] for one format's type.
pub(crate) trait Op {
    /// What the operation gives.
    type Out;
    /// Runs the operation with `T`, the type of the format asked for.
    fn run<T: IdFormat>(self) -> R<Self::Out>;
}

#[cfg(feature = "formats")]
macro_rules! define_dispatch {
    ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {
        /// Runs `op` with the type of `format` (one arm per entry of the core's format table).
        pub(crate) fn dispatch<O: Op>(format: Format, op: O) -> R<O::Out> {
            match format {
                $(Format::$variant => op.run::<$ty>(),)*
                other => Err(range_error(format!("format {other} is not in this build's table"))),
            }
        }
    };
}
#[cfg(feature = "formats")]
sno_core::for_each_format!(define_dispatch);

/// Runs `op` with sno's type: `sno.wasm` holds no other format.
#[cfg(not(feature = "formats"))]
pub(crate) fn dispatch<O: Op>(format: Format, op: O) -> R<O::Out> {
    match format {
        Format::Sno => op.run::<sno_core::Id>(),
        other => Err(range_error(format!("format {other} is not in sno.wasm"))),
    }
}

/// The format at `index` of `Format::ALL`, or a `RangeError`.
pub(crate) fn format_arg(index: u32) -> R<Format> {
    Format::ALL
        .get(index as usize)
        .copied()
        .ok_or_else(|| range_error(format!("unknown format index {index}")))
}

/// Runs the operation `$op` for the format at `$index` on the input, writing what it gives.
macro_rules! run {
    ($index:expr, $op:ident, $len:expr) => {
        call($len, |input, out| {
            dispatch(format_arg($index)?, $op(input, out))
        })
    };
}

/// The canonical text of `id` appended to `out`.
pub(crate) fn put_text<T: IdFormat>(id: &T, out: &mut Vec<u8>) {
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = id.write_text(&mut buf);
    out.extend_from_slice(&buf[..len]);
}

/// Text input as `&str` (JavaScript writes UTF-8; lone surrogates become U+FFFD).
fn text(input: &[u8]) -> &str {
    core::str::from_utf8(input).unwrap_or_default()
}

macro_rules! op {
    ($name:ident, |$t:ident, $input:ident, $out:ident| $body:expr) => {
        struct $name<'a>(&'a [u8], &'a mut Vec<u8>);
        impl Op for $name<'_> {
            type Out = ();
            fn run<$t: IdFormat>(self) -> R<()> {
                let ($input, $out) = (self.0, self.1);
                $body
            }
        }
    };
}

op!(Canonical, |T, input, out| {
    put_text(&T::decode(input)?, out);
    Ok(())
});

/// Strictly decodes the text and writes its canonical text (`parse`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_canonical(format: u32, len: usize) -> i32 {
    run!(format, Canonical, len)
}

op!(ToBytes, |T, input, out| {
    out.extend_from_slice(T::decode(input)?.as_slice());
    Ok(())
});

/// The binary form of a canonical text (`bytes`; also `bigint`, read by JavaScript).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_to_bytes(format: u32, len: usize) -> i32 {
    run!(format, ToBytes, len)
}

op!(FromBytes, |T, input, out| {
    put_text(&T::from_slice(input)?, out);
    Ok(())
});

/// The canonical text of the binary form (`fromBytes`).
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_from_bytes(format: u32, len: usize) -> i32 {
    run!(format, FromBytes, len)
}

op!(FromInteger, |T, input, out| {
    // The integer's hexadecimal digits (JavaScript's `value.toString(16)`): negative, or
    // wider than the binary form, is a value the format cannot hold.
    let digits = text(input);
    let width = T::FORMAT.binary_len();
    let digits = digits.trim_start_matches('0');
    if digits.starts_with('-') || digits.len() > 2 * width {
        return Err(Fail::Argument(SnoError::ValueOverflow));
    }
    let mut bytes = vec![0u8; width];
    let padded = format!("{digits:0>w$}", w = 2 * width);
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&padded[2 * i..2 * i + 2], 16)
            .map_err(|_| type_error("fromBigInt(value): value must be a bigint".to_owned()))?;
    }
    match T::from_slice(&bytes) {
        Ok(id) => put_text(&id, out),
        Err(e @ SnoError::ValueOverflow) => return Err(Fail::Argument(e)),
        Err(e) => return Err(e.into()),
    }
    Ok(())
});

/// The canonical text of the value whose binary form is the integer of these hex digits
/// (`fromBigInt`): a `RangeError` `ERR_SNO_VALUE_OVERFLOW` when the format cannot hold it.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_from_hex(format: u32, len: usize) -> i32 {
    run!(format, FromInteger, len)
}

/// The widest number field a JavaScript number holds exactly; wider ones are bigints.
const MAX_NUMBER_BITS: u8 = 53;

op!(Fields, |T, input, out| {
    let id = T::decode(input)?;
    let mut lines = String::new();
    for field in id.fields().iter() {
        let name = sno_core::model::CamelCase(field.name);
        let _ = match field.value {
            FieldValue::Uint(v) if field.bits <= MAX_NUMBER_BITS => writeln!(lines, "n{name}={v}"),
            FieldValue::Uint(v) => writeln!(lines, "b{name}={v}"),
            FieldValue::Bool(b) => writeln!(lines, "f{name}={}", u8::from(b)),
            FieldValue::Text(t) => writeln!(lines, "s{name}={t}"),
        };
    }
    out.extend_from_slice(lines.as_bytes());
    Ok(())
});

/// The named fields of a canonical text, one line each: a kind letter (`n` number, `b`
/// bigint, `f` flag, `s` string), the JavaScript (camel-case) name, `=`, the value.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_fields(format: u32, len: usize) -> i32 {
    run!(format, Fields, len)
}

op!(Time, |T, input, out| {
    let id = T::decode(input)?;
    if let (Some(ms), Some(ns)) = (id.unix_ms(), id.unix_ns()) {
        let _ = write!(out_text(out), "{ms} {ns}");
    }
    Ok(())
});

/// A `fmt::Write` over the output bytes.
struct Out<'a>(&'a mut Vec<u8>);

impl Write for Out<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

fn out_text(out: &mut Vec<u8>) -> Out<'_> {
    Out(out)
}

/// `unixMs unixNs` of a canonical text (Unix milliseconds and nanoseconds), or nothing for a
/// value that does not carry its epoch.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_time(format: u32, len: usize) -> i32 {
    run!(format, Time, len)
}

/// Where two canonical texts meet in the input of `sno_fmt_compare`.
const SEPARATOR: u8 = b'\n';

op!(Compare, |T, input, out| {
    let at = input
        .iter()
        .position(|b| *b == SEPARATOR)
        .unwrap_or(input.len());
    let (a, b) = (
        T::decode(&input[..at])?,
        T::decode(input.get(at + 1..).unwrap_or(&[]))?,
    );
    out.push(match a.cmp(&b) {
        core::cmp::Ordering::Less => b'<',
        core::cmp::Ordering::Equal => b'=',
        core::cmp::Ordering::Greater => b'>',
    });
    Ok(())
});

/// `<`, `=` or `>`: the order of the values of two canonical texts (given as `a\nb`), for the
/// formats whose text order is not value order.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_compare(format: u32, len: usize) -> i32 {
    run!(format, Compare, len)
}

#[cfg(feature = "formats")]
/// One value of `format`'s process-wide generator, appended to `out` without waiting (a used-up
/// millisecond is the core's retryable error at once: the synchronous calls never wait).
pub(crate) fn global_text(format: Format, out: &mut Vec<u8>) -> R<()> {
    let id = AnyId::try_new_nonblocking(format)
        .ok_or_else(|| range_error(format!("{format} has no process-wide generator")))??;
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = id.write_text(&mut buf);
    out.extend_from_slice(&buf[..len]);
    Ok(())
}

#[cfg(feature = "formats")]
/// `n` values of `format`'s process-wide generator, their texts end to end (`newStrings`,
/// `newMany`): `n` checked first; the first failure ends the batch.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_new_text(format: u32, n: f64) -> i32 {
    crate::io::output(|out| {
        let format = format_arg(format)?;
        let n = crate::io::batch_count(n)?;
        for _ in 0..n {
            global_text(format, out)?;
        }
        Ok(())
    })
}

/// The value of `format` with the named fields of the input (lines `name=value`, the
/// JavaScript names `fields()` gives): `fromFields`, the core's `from_fields` of the format.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_from_fields(format: u32, len: usize) -> i32 {
    call(len, |input, out| {
        let format = format_arg(format)?;
        let lines: Vec<(&str, &str)> = text(input)
            .lines()
            .filter_map(|l| l.split_once('='))
            .collect();
        let get = |input: &FieldInput| -> R<FieldValue<'_>> {
            let js = sno_core::model::CamelCase(input.name).to_string();
            let value = lines
                .iter()
                .find(|(n, _)| *n == js)
                .map(|(_, v)| *v)
                .ok_or_else(|| type_error(format!("fromFields(fields): fields.{js} is missing")))?;
            Ok(match input.kind {
                FieldKind::Bool => FieldValue::Bool(value == "1"),
                FieldKind::Text => FieldValue::Text(value),
                _ => FieldValue::Uint(
                    value
                        .parse::<u128>()
                        .map_err(|_| Fail::Argument(SnoError::ValueOverflow))?,
                ),
            })
        };
        from_fields(format, get, out)
    })
}

/// Writes the text of the value of `format` made from the fields `get` gives: every format's
/// through the core's `AnyId::from_fields` (formats.wasm).
#[cfg(feature = "formats")]
fn from_fields<'v>(
    format: Format,
    get: impl FnMut(&FieldInput) -> R<FieldValue<'v>>,
    out: &mut Vec<u8>,
) -> R<()> {
    let made = AnyId::from_fields(format, get)?.map_err(Fail::Argument)?;
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = made.write_text(&mut buf);
    out.extend_from_slice(&buf[..len]);
    Ok(())
}

/// Writes the text of the sno ID made from the fields `get` gives (sno.wasm: the core's
/// `FromFields` of `Id`, as `AnyId::from_fields` calls it).
#[cfg(not(feature = "formats"))]
fn from_fields<'v>(
    format: Format,
    mut get: impl FnMut(&FieldInput) -> R<FieldValue<'v>>,
    out: &mut Vec<u8>,
) -> R<()> {
    use sno_core::FromFields;
    if format != Format::Sno {
        return Err(range_error(format!("format {format} is not in sno.wasm")));
    }
    let mut args = Vec::new();
    for input in sno_core::Id::INPUTS {
        args.push(get(input)?);
    }
    put_text(
        &sno_core::Id::from_inputs(&args).map_err(Fail::Argument)?,
        out,
    );
    Ok(())
}

op!(Info, |T, _input, out| {
    // A value to read the field list from: the UUIDv7 whose fields are all zero (a value of
    // every 128-bit format), else the zero value.
    let zero = [0u8; sno_core::model::MAX_BINARY_LEN];
    let v7 = sno_core::uuid7::Uuid7::from_fields(0, 0, 0)?;
    let sample =
        T::from_slice(v7.as_bytes()).or_else(|_| T::from_slice(&zero[..T::FORMAT.binary_len()]))?;
    let mut text = String::from(T::FORMAT.node_class());
    for field in sample.fields().iter() {
        let _ = write!(text, " {}", sno_core::model::CamelCase(field.name));
    }
    out.extend_from_slice(text.as_bytes());
    Ok(())
});

/// The format's class name (the core's `Format::node_class`) and its fields' JavaScript
/// names, space-separated: what the JavaScript class is built from.
#[unsafe(no_mangle)]
pub extern "C" fn sno_fmt_info(format: u32) -> i32 {
    run!(format, Info, 0)
}
