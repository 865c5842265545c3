//! The native half of every format's class, written once over the core's model
//! (`sno_core::IdFormat`). `formats()` hands JavaScript the core's format table (names, lengths,
//! named fields, what each format offers), from which `formats.js` builds one class per format;
//! every other function here takes a format index (the position in `sno_core::Format::ALL`) and
//! runs one generic operation for that format's type, chosen by [`dispatch`], which
//! `sno_core::for_each_format!` writes. A format registered in the core therefore gets its class
//! (parse, bytes, bigint, named fields, time, order), its process-wide generator, `fromFields`
//! and its monotonic `Generator` (the core's `AnyGenerator`) with no edit here; what single
//! formats have beyond the model (epochs, other text forms) is in `extras.rs`.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::model::MAX_TEXT_LEN;
use std::time::Duration;

use sno_core::{
    AnyGenerator, AnyId, Epoch, Error as SnoError, Field, FieldKind, FieldSpec, FieldValue, Format,
    IdFormat, Setting,
};

use crate::args::{
    MAX_DATE_MS, batch_count, bytes_arg, clock_arg, epoch_arg, int_arg, max_wait_ms, text_arg,
    try_vec, type_name, with_text,
};
use crate::errors::{Fail, OrThrow, R, napi_error, range_error, type_error};

/// An operation written once over [`IdFormat`], run by [`dispatch`] for one format's type.
pub(crate) trait Op {
    /// What the operation gives.
    type Out;
    /// Runs the operation with `T`, the type of the format asked for.
    fn run<T: IdFormat>(self) -> R<Self::Out>;
}

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
sno_core::for_each_format!(define_dispatch);

/// The format at `index` of `Format::ALL` (the index JavaScript passes), or a `RangeError`.
pub(crate) fn format_arg(index: u32) -> R<Format> {
    Format::ALL
        .get(index as usize)
        .copied()
        .ok_or_else(|| range_error(format!("unknown format index {index}")))
}

/// The JavaScript name of a core field: camel case (`rand_a` → `randA`, `timestamp_ms` →
/// `timestampMs`).
pub(crate) fn js_name(field: &Field<'_>) -> String {
    camel_case(field.name)
}

/// A core name (snake case) in JavaScript's camel case: `epoch_ms` → `epochMs`.
pub(crate) fn camel_case(name: &str) -> String {
    sno_core::model::CamelCase(name).to_string()
}

/// The widest number field a JS number holds exactly; wider ones are bigints.
const MAX_NUMBER_BITS: u8 = 53;

/// The JavaScript type of a field's value: `number`, `bigint`, `boolean` or `string`.
fn js_type(field: &FieldSpec) -> &'static str {
    match field.kind {
        FieldKind::Uint { bits } if bits <= MAX_NUMBER_BITS => "number",
        FieldKind::Bool => "boolean",
        FieldKind::Text => "string",
        _ => "bigint",
    }
}

/// A named field as the table describes it.
#[napi(object)]
pub struct FieldInfo {
    /// The JavaScript name (the getter, the key of `fields()`).
    pub name: String,
    /// The core's name (snake case).
    pub core_name: String,
    /// Width in bits (0 for text).
    pub bits: u32,
    /// What it counts: `unix_ms`, `sno_units`, `epoch_ms` or `none`.
    pub unit: String,
    /// `number` (at most 53 bits), `bigint`, `boolean` or `string`.
    #[napi(ts_type = "'number' | 'bigint' | 'boolean' | 'string'")]
    pub kind: String,
}

/// What a value has beyond the model that JavaScript reads by name (the core's
/// `Extras::texts` and `Extras::numbers`): a getter of the class.
#[napi(object)]
pub struct ExtraInfo {
    /// The JavaScript name (the getter: `hex`, `referenceTimestampMs`).
    pub name: String,
    /// The core's name (snake case), which `fmtTextForm` and `fmtNumber` take.
    pub core_name: String,
}

/// One format of the core's table, as JavaScript builds its class from it.
#[napi(object)]
pub struct FormatInfo {
    /// The position in the table: the first argument of the `fmt*` functions.
    pub index: u32,
    /// The stable lower-case name (`ulid`): the namespace's name.
    pub name: String,
    /// The class's name: the core's `Format::node_class` (`Id`, `Ulid`, `UlidFlake`).
    pub class_name: String,
    /// The name in prose (`ULID`).
    pub display_name: String,
    /// Bytes of the binary form.
    pub binary_len: u32,
    /// Characters of the longest text form.
    pub max_text_len: u32,
    /// Characters of every canonical text, for a format with fixed-length text (`textOrder`);
    /// absent otherwise.
    pub text_len: Option<u32>,
    /// Whether a value carries its time (`unixMs`, `unixNs`, `timestamp`); Nanoflakes do not
    /// (and a TypeID only when its UUID is a version 7 one).
    pub has_unix_ms: bool,
    /// Whether the time is kept relative to an epoch the caller knows (`unixMsAt(epochMs)`).
    pub has_epoch: bool,
    /// Whether text order is value order (fixed-length text in an ascending alphabet), so that
    /// `compare` needs no native call.
    pub text_order: bool,
    /// Whether the format has a process-wide generator (`new`, `newString`, `newStrings`,
    /// `newMany` of its namespace).
    pub has_global: bool,
    /// The settings of its `Generator` besides `maxWaitMs` (absent: no `Generator`).
    pub generator_options: Option<Vec<String>>,
    /// Which of them are required.
    pub generator_required: Vec<String>,
    /// The named fields, in layout order.
    pub fields: Vec<FieldInfo>,
    /// The other text forms (a `string` getter each, `fmtTextForm`).
    pub text_forms: Vec<ExtraInfo>,
    /// The numbers besides the fields (a `number` getter each, `fmtNumber`).
    pub numbers: Vec<ExtraInfo>,
    /// Whether the format has a lenient decoder (`parseLenient`, `fmtCanonicalLenient`).
    pub lenient: bool,
    /// The recommended database column (the core's `Format::column_type`): `bytes` (the
    /// binary form), `uuid` (the 128 bits as a UUID) or `bigint` (a signed 64-bit integer).
    #[napi(ts_type = "'bytes' | 'uuid' | 'bigint'")]
    pub column_type: String,
    /// The PostgreSQL column type of `columnType`: `bytea`, `uuid` or `bigint`.
    #[napi(ts_type = "'bytea' | 'uuid' | 'bigint'")]
    pub postgres_type: String,
    /// The SQLite column type of `columnType`: `BLOB` or `INTEGER`.
    #[napi(ts_type = "'BLOB' | 'INTEGER'")]
    pub sqlite_type: String,
}

/// The named fields of `format`, as the core's table states them.
fn field_infos(format: Format) -> Vec<FieldInfo> {
    format
        .fields()
        .iter()
        .map(|f| FieldInfo {
            name: camel_case(f.name),
            core_name: f.name.to_owned(),
            bits: u32::from(f.bits()),
            unit: f.unit.name().to_owned(),
            kind: js_type(f).to_owned(),
        })
        .collect()
}

/// The settings of `format`'s monotonic `Generator` besides `maxWaitMs` (the core's
/// `Format::settings`, in JavaScript's case), and which of them are required; `None` for a format
/// without one (sno's `Generator` is its own class).
fn generator_options(format: Format) -> Option<(Vec<String>, Vec<String>)> {
    let names = |settings: &[Setting]| settings.iter().map(|s| camel_case(s.name())).collect();
    format
        .has_generator()
        .then(|| (names(format.settings()), names(format.required_settings())))
}

/// An extra named `name` in the core.
fn extra_info(name: &str) -> ExtraInfo {
    ExtraInfo {
        name: camel_case(name),
        core_name: name.to_owned(),
    }
}

/// The core's format table, in `Format::ALL` order.
#[napi(catch_unwind)]
pub fn formats() -> Vec<FormatInfo> {
    let info = |(index, format): (usize, Format)| {
        let text_order = format.text_order();
        let generator = generator_options(format);
        FormatInfo {
            index: index as u32,
            name: format.name().to_owned(),
            class_name: format.node_class().to_owned(),
            display_name: format.display_name().to_owned(),
            binary_len: format.binary_len() as u32,
            max_text_len: format.max_text_len() as u32,
            // The canonical text of a format with fixed-length text is its shortest accepted one.
            text_len: text_order.then_some(format.min_text_len() as u32),
            has_unix_ms: format.epoch() != Epoch::Required,
            has_epoch: format.epoch() != Epoch::Fixed,
            text_order,
            has_global: format.has_process_generator(),
            generator_required: generator
                .as_ref()
                .map_or_else(Vec::new, |(_, req)| req.clone()),
            generator_options: generator.map(|(known, _)| known),
            fields: field_infos(format),
            text_forms: format
                .text_forms()
                .map(|(name, _, _)| extra_info(name))
                .collect(),
            numbers: format.numbers().map(|(name, _)| extra_info(name)).collect(),
            lenient: format.lenient().is_some(),
            column_type: format.column_type().name().to_owned(),
            postgres_type: format.column_type().postgres().to_owned(),
            sqlite_type: format.column_type().sqlite().to_owned(),
        }
    };
    Format::ALL.into_iter().enumerate().map(info).collect()
}

/// A JS string of canonical text.
pub(crate) fn js_text<'e>(env: &'e Env, text: &[u8]) -> R<JsString<'e>> {
    env.create_string_latin1(text).map_err(napi_error)
}

/// The canonical text of `id`, as a JS string.
pub(crate) fn id_text<'e, T: IdFormat>(env: &'e Env, id: &T) -> R<JsString<'e>> {
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = id.write_text(&mut buf);
    js_text(env, &buf[..len])
}

/// A value of `format` decoded from its canonical text (the class holds only canonical text,
/// so this does not fail for the `fmt*` calls on a value's text).
fn decode<T: IdFormat>(text: &str) -> R<T> {
    Ok(T::decode(text.as_bytes())?)
}

/// The canonical text of `id`, decoded from `input`, or `None` when `input` is that text
/// already (no new string).
pub(crate) fn canonical_text<'e, T: IdFormat>(
    env: &'e Env,
    id: &T,
    input: &[u8],
) -> R<Option<JsString<'e>>> {
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = id.write_text(&mut buf);
    if buf[..len] == *input {
        return Ok(None);
    }
    js_text(env, &buf[..len]).map(Some)
}

/// Strictly decodes `text` and returns its canonical text, or `undefined` when `text` is
/// canonical already (the common case: no new string). Throws `TypeError` for a non-string and
/// `ERR_SNO_*` (with `position`, in UTF-8 bytes) for bad text.
#[napi(
    ts_args_type = "format: number, text: string",
    ts_return_type = "string | undefined",
    catch_unwind
)]
pub fn fmt_canonical<'e>(
    env: &'e Env,
    format: u32,
    text: Unknown,
) -> Result<Option<JsString<'e>>, String> {
    struct Canonical<'a, 'e>(&'e Env, &'a [u8]);
    impl<'e> Op for Canonical<'_, 'e> {
        type Out = Option<JsString<'e>>;
        fn run<T: IdFormat>(self) -> R<Self::Out> {
            canonical_text(self.0, &T::decode(self.1)?, self.1)
        }
    }
    (|| {
        let format = format_arg(format)?;
        with_text(env, &text, "parse(text): text", |input| {
            dispatch(format, Canonical(env, input))
        })?
    })()
    .or_throw(env)
}

/// The one format `text` is written in, through the core's detection (`AnyId::detect`, as the
/// `sno` CLI): `[format index, canonical text]`. Throws `ERR_SNO_AMBIGUOUS_FORMAT` when several
/// formats (or only a Nanoflake) read it, `ERR_SNO_UNRECOGNIZED_FORMAT` when none does.
#[napi(
    ts_args_type = "text: string",
    ts_return_type = "[number, string]",
    catch_unwind
)]
pub fn detect<'e>(env: &'e Env, text: Unknown) -> Result<(u32, JsString<'e>), String> {
    (|| {
        with_text(env, &text, "detect(text): text", |input| {
            let id = sno_core::AnyId::detect(input)?;
            let index = Format::ALL.iter().position(|f| *f == id.format());
            let index = u32::try_from(index.unwrap_or(0)).unwrap_or(0);
            Ok((index, js_text(env, id.text().as_bytes())?))
        })?
    })()
    .or_throw(env)
}

/// The canonical text of the binary form (`fromBytes`).
#[napi(
    ts_args_type = "format: number, bytes: Uint8Array",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_from_bytes<'e>(
    env: &'e Env,
    format: u32,
    bytes: Unknown,
) -> Result<JsString<'e>, String> {
    struct FromBytes<'a, 'e>(&'e Env, &'a [u8]);
    impl<'e> Op for FromBytes<'_, 'e> {
        type Out = JsString<'e>;
        fn run<T: IdFormat>(self) -> R<Self::Out> {
            id_text(self.0, &T::from_slice(self.1)?)
        }
    }
    (|| {
        let format = format_arg(format)?;
        let bytes = bytes_arg(env, &bytes, "fromBytes(bytes): bytes")?;
        dispatch(format, FromBytes(env, &bytes))
    })()
    .or_throw(env)
}

/// The binary form of a canonical text.
// A Buffer at run time, declared as the Uint8Array it is: the types need no @types/node.
#[napi(ts_return_type = "Uint8Array", catch_unwind)]
pub fn fmt_to_bytes<'e>(
    env: &'e Env,
    format: u32,
    text: String,
) -> Result<BufferSlice<'e>, String> {
    struct ToBytes<'a>(&'a str);
    impl Op for ToBytes<'_> {
        type Out = Vec<u8>;
        fn run<T: IdFormat>(self) -> R<Vec<u8>> {
            Ok(decode::<T>(self.0)?.as_slice().to_vec())
        }
    }
    format_arg(format)
        .and_then(|f| dispatch(f, ToBytes(&text)))
        .and_then(|bytes| js_bytes(env, &bytes))
        .or_throw(env)
}

/// A new Buffer holding a copy of `bytes` (`napi_create_buffer_copy`). Not napi-rs's `Buffer`,
/// an external buffer over Rust's memory: in WebAssembly that memory is the module's, and a
/// Buffer over it is detached (empty) once the memory grows.
fn js_bytes<'e>(env: &'e Env, bytes: &[u8]) -> R<BufferSlice<'e>> {
    Ok(BufferSlice::copy_from(env, bytes)?)
}

/// The named fields of a canonical text, as an object keyed by their JavaScript names: a
/// number for fields of at most 53 bits, a bigint for wider ones, a boolean for a flag, a
/// string for text.
#[napi(
    ts_return_type = "Record<string, number | bigint | boolean | string>",
    catch_unwind
)]
pub fn fmt_fields<'e>(env: &'e Env, format: u32, text: String) -> Result<Object<'e>, String> {
    struct Fields<'a, 'e>(&'e Env, &'a str);
    impl<'e> Op for Fields<'_, 'e> {
        type Out = Object<'e>;
        fn run<T: IdFormat>(self) -> R<Object<'e>> {
            let id = decode::<T>(self.1)?;
            let mut object = Object::new(self.0)?;
            for field in id.fields().iter() {
                let name = js_name(field);
                match field.value {
                    FieldValue::Uint(v) if field.bits <= MAX_NUMBER_BITS => {
                        object.set(name, v as f64)?
                    }
                    FieldValue::Uint(v) => object.set(name, v)?,
                    FieldValue::Bool(b) => object.set(name, b)?,
                    FieldValue::Text(t) => object.set(name, t)?,
                }
            }
            Ok(object)
        }
    }
    format_arg(format)
        .and_then(|f| dispatch(f, Fields(env, &text)))
        .or_throw(env)
}

/// Milliseconds since 1970 of a canonical text, or `undefined` for a format whose values do not
/// carry their epoch (Nanoflakes).
#[napi(catch_unwind)]
pub fn fmt_unix_ms(env: &Env, format: u32, text: String) -> Result<Option<f64>, String> {
    struct UnixMs<'a>(&'a str);
    impl Op for UnixMs<'_> {
        type Out = Option<f64>;
        fn run<T: IdFormat>(self) -> R<Option<f64>> {
            // Below 2^53 in every format (48-bit milliseconds, or an epoch plus 43 bits).
            Ok(decode::<T>(self.0)?.unix_ms().map(|ms| ms as f64))
        }
    }
    format_arg(format)
        .and_then(|f| dispatch(f, UnixMs(&text)))
        .or_throw(env)
}

/// Nanoseconds since 1970 of a canonical text (a bigint), or `undefined` as for `fmtUnixMs`.
#[napi(ts_return_type = "bigint | undefined", catch_unwind)]
pub fn fmt_unix_ns(env: &Env, format: u32, text: String) -> Result<Option<i64n>, String> {
    struct UnixNanos<'a>(&'a str);
    impl Op for UnixNanos<'_> {
        type Out = Option<i64n>;
        fn run<T: IdFormat>(self) -> R<Option<i64n>> {
            Ok(decode::<T>(self.0)?.unix_ns().map(i64n))
        }
    }
    format_arg(format)
        .and_then(|f| dispatch(f, UnixNanos(&text)))
        .or_throw(env)
}

/// The binary form of a canonical text read as one unsigned big-endian integer.
#[napi(ts_return_type = "bigint", catch_unwind)]
pub fn fmt_bigint(env: &Env, format: u32, text: String) -> Result<BigInt, String> {
    struct Integer<'a>(&'a str);
    impl Op for Integer<'_> {
        type Out = BigInt;
        fn run<T: IdFormat>(self) -> R<BigInt> {
            let id = decode::<T>(self.0)?;
            // Little-endian 64-bit words, from the last byte up.
            let words = id
                .as_slice()
                .rchunks(8)
                .map(|chunk| {
                    let mut word = [0u8; 8];
                    word[8 - chunk.len()..].copy_from_slice(chunk);
                    u64::from_be_bytes(word)
                })
                .collect();
            Ok(BigInt {
                sign_bit: false,
                words,
            })
        }
    }
    format_arg(format)
        .and_then(|f| dispatch(f, Integer(&text)))
        .or_throw(env)
}

/// The binary form of `value` (`binary_len` bytes, big-endian), or `ERR_SNO_VALUE_OVERFLOW` for
/// a negative value or one that does not fit.
fn integer_bytes(value: &BigInt, binary_len: usize) -> R<Vec<u8>> {
    let overflow = || Fail::Argument(SnoError::ValueOverflow);
    let nonzero = value.words.iter().any(|w| *w != 0);
    if value.sign_bit && nonzero {
        return Err(overflow());
    }
    let mut bytes = vec![0u8; value.words.len() * 8];
    for (i, word) in value.words.iter().enumerate() {
        let end = bytes.len() - 8 * i;
        bytes[end - 8..end].copy_from_slice(&word.to_be_bytes());
    }
    let extra = bytes.len().saturating_sub(binary_len);
    if bytes[..extra].iter().any(|b| *b != 0) {
        return Err(overflow());
    }
    let mut out = vec![0u8; binary_len.saturating_sub(bytes.len())];
    out.extend_from_slice(&bytes[extra..]);
    Ok(out)
}

/// The canonical text of the value whose binary form, read as an unsigned big-endian integer,
/// is `value` (`fromBigInt`). A value the format cannot hold (negative, too wide, above the
/// format's maximum) is a `RangeError` with code `ERR_SNO_VALUE_OVERFLOW`; bytes that are not a
/// value of the format for another reason throw what `fromBytes` would.
#[napi(
    ts_args_type = "format: number, value: bigint",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_from_bigint<'e>(
    env: &'e Env,
    format: u32,
    value: Unknown,
) -> Result<JsString<'e>, String> {
    struct FromInteger<'e>(&'e Env, Vec<u8>);
    impl<'e> Op for FromInteger<'e> {
        type Out = JsString<'e>;
        fn run<T: IdFormat>(self) -> R<Self::Out> {
            match T::from_slice(&self.1) {
                Ok(id) => id_text(self.0, &id),
                Err(e @ SnoError::ValueOverflow) => Err(Fail::Argument(e)),
                Err(e) => Err(e.into()),
            }
        }
    }
    (|| {
        let format = format_arg(format)?;
        if value.get_type()? != ValueType::BigInt {
            return Err(type_error(format!(
                "fromBigInt(value): value must be a bigint, got {}",
                type_name(&value)
            )));
        }
        // SAFETY: the value was just checked to be a BigInt.
        let value = unsafe { BigInt::from_napi_value(env.raw(), value.raw()) }?;
        let bytes = integer_bytes(&value, format.binary_len())?;
        dispatch(format, FromInteger(env, bytes))
    })()
    .or_throw(env)
}

/// -1, 0 or 1: the order of two canonical texts' values (the formats whose text order is not
/// value order: Nanoflakes' unpadded base36, TypeIDs' prefixes).
#[napi(ts_return_type = "-1 | 0 | 1", catch_unwind)]
pub fn fmt_compare(env: &Env, format: u32, a: String, b: String) -> Result<i32, String> {
    struct Compare<'a>(&'a str, &'a str);
    impl Op for Compare<'_> {
        type Out = i32;
        fn run<T: IdFormat>(self) -> R<i32> {
            Ok(decode::<T>(self.0)?.cmp(&decode::<T>(self.1)?) as i32)
        }
    }
    format_arg(format)
        .and_then(|f| dispatch(f, Compare(&a, &b)))
        .or_throw(env)
}

/// The 128 bits of a canonical text as a hyphenated lower-case UUID (any version: the bits
/// as they are), for the 16-byte formats.
#[napi(catch_unwind)]
pub fn fmt_uuid(env: &Env, format: u32, text: String) -> Result<String, String> {
    struct AsUuid<'a>(&'a str);
    impl Op for AsUuid<'_> {
        type Out = String;
        fn run<T: IdFormat>(self) -> R<String> {
            let id = decode::<T>(self.0)?;
            let bytes: [u8; 16] = id.as_slice().try_into().map_err(|_| {
                range_error(format!(
                    "{} values are not 128 bits",
                    T::FORMAT.display_name()
                ))
            })?;
            Ok(uuid_text(&bytes))
        }
    }
    format_arg(format)
        .and_then(|f| dispatch(f, AsUuid(&text)))
        .or_throw(env)
}

/// The 16 bytes of a hyphenated UUID text (either case, any version: `fromUuid`, and the `pg`
/// parsers of `uuid` columns). Throws `TypeError` for a non-string and the core's
/// `ERR_SNO_INVALID_LENGTH` / `ERR_SNO_INVALID_BYTE` (with `position`) for other text.
#[napi(
    ts_args_type = "text: string",
    ts_return_type = "Uint8Array",
    catch_unwind
)]
pub fn uuid_bytes<'e>(env: &'e Env, text: Unknown) -> Result<BufferSlice<'e>, String> {
    (|| {
        with_text(env, &text, "fromUuid(uuid): uuid", |input| {
            if input.len() != UUID_TEXT_LEN {
                return Err(SnoError::InvalidLength {
                    expected: UUID_TEXT_LEN,
                    actual: input.len(),
                });
            }
            // At 36 characters the crate reads the hyphenated form only.
            match uuid::Uuid::try_parse_ascii(input) {
                Ok(uuid) => Ok(*uuid.as_bytes()),
                Err(_) => {
                    let hyphen = |i: usize| matches!(i, 8 | 13 | 18 | 23);
                    let (position, byte) = input
                        .iter()
                        .enumerate()
                        .find(|&(i, c)| {
                            hyphen(i) != (*c == b'-') || !(hyphen(i) || c.is_ascii_hexdigit())
                        })
                        .map_or((0, input[0]), |(i, c)| (i, *c));
                    Err(SnoError::InvalidByte { position, byte })
                }
            }
        })?
        .map_err(Fail::from)
        .and_then(|bytes| js_bytes(env, &bytes))
    })()
    .or_throw(env)
}

/// Characters of a hyphenated UUID text.
const UUID_TEXT_LEN: usize = 36;

/// 16 bytes as the hyphenated lower-case UUID text (8-4-4-4-12 hex digits).
fn uuid_text(bytes: &[u8; 16]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

// Every format's process-wide generator, `fromFields` and monotonic `Generator`: the core's
// `AnyId::try_new_text`, `AnyId::from_fields` and `AnyGenerator`, for any format of its table.

/// A core result (`Result` here is napi's).
type CoreResult<T> = std::result::Result<T, SnoError>;

/// Writes the text of the next value of `format`'s process-wide generator into `buf` and
/// returns its length (the core's `AnyId::try_new_text`); `None` for a format without one.
#[inline]
fn global_text(format: Format, buf: &mut [u8; MAX_TEXT_LEN]) -> Option<CoreResult<usize>> {
    AnyId::try_new_text(format, buf)
}

/// The next text of `format`'s process-wide generator, or its typed error (a clock outside the
/// format's range, no OS randomness).
fn global(format: Format, buf: &mut [u8; MAX_TEXT_LEN]) -> R<usize> {
    global_text(format, buf)
        .ok_or_else(|| range_error(format!("{format} has no process-wide generator")))?
        .map_err(Fail::from)
}

/// A new value's text from the process-wide generator (`new`, `newString`).
#[napi(ts_return_type = "string", catch_unwind)]
pub fn fmt_new_string(env: &Env, format: u32) -> Result<JsString<'_>, String> {
    (|| {
        let mut buf = [0u8; MAX_TEXT_LEN];
        let len = global(format_arg(format)?, &mut buf)?;
        js_text(env, &buf[..len])
    })()
    .or_throw(env)
}

/// `n` new values' texts from the process-wide generator, laid end to end in one string (each
/// `textLen` characters: the formats with a process-wide generator have fixed-length text).
/// `n` is checked first: an integer, at most `MAX_BATCH`, and a string V8 can hold.
#[napi(
    ts_args_type = "format: number, n: number",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_new_text(env: &Env, format: u32, n: f64) -> Result<JsString<'_>, String> {
    (|| {
        let format = format_arg(format)?;
        // Fixed-length text (a format with a process-wide generator): the shortest accepted.
        let width = format.min_text_len();
        let n = batch_count(n, width)?;
        let mut buf = [0u8; MAX_TEXT_LEN];
        let mut text = try_vec(n * width, "the batch's text")?;
        for _ in 0..n {
            let len = global(format, &mut buf)?;
            text.extend_from_slice(&buf[..len]);
        }
        js_text(env, &text)
    })()
    .or_throw(env)
}

/// The fields object of `fromFields`, read by JavaScript name.
struct FieldArgs<'a> {
    env: &'a Env,
    object: Object<'a>,
}

impl FieldArgs<'_> {
    /// Field `name`: a non-negative safe integer or a bigint, at most `T::MAX` (else
    /// `ERR_SNO_VALUE_OVERFLOW`: a field above its width).
    fn uint<T: TryFrom<u128>>(&self, name: &str) -> R<T> {
        let value: Unknown = self.get(name)?;
        let v = match value.get_type()? {
            ValueType::Number => {
                // SAFETY: the value was just checked to be a number.
                let n = unsafe { f64::from_napi_value(value.env(), value.raw()) }?;
                int_arg(
                    &format!("fromFields(fields): fields.{name}"),
                    n,
                    0,
                    i64::MAX,
                )? as u128
            }
            ValueType::BigInt => {
                // SAFETY: the value was just checked to be a BigInt.
                let b = unsafe { BigInt::from_napi_value(value.env(), value.raw()) }?;
                let (negative, v, lossless) = b.get_u128();
                if (negative && v != 0) || !lossless {
                    return Err(Fail::Argument(SnoError::ValueOverflow));
                }
                v
            }
            _ => return Err(self.wrong(name, "a number or a bigint", &value)),
        };
        T::try_from(v).map_err(|_| Fail::Argument(SnoError::ValueOverflow))
    }

    /// Field `name`: a boolean.
    fn bool(&self, name: &str) -> R<bool> {
        let value: Unknown = self.get(name)?;
        if value.get_type()? != ValueType::Boolean {
            return Err(self.wrong(name, "a boolean", &value));
        }
        // SAFETY: the value was just checked to be a boolean.
        Ok(unsafe { bool::from_napi_value(value.env(), value.raw()) }?)
    }

    /// Field `name`: a string.
    fn text(&self, name: &str) -> R<String> {
        let what = format!("fromFields(fields): fields.{name}");
        text_arg(self.env, &self.get(name)?, &what)
    }

    fn get(&self, name: &str) -> R<Unknown<'_>> {
        Ok(self.object.get_named_property_unchecked::<Unknown>(name)?)
    }

    fn wrong(&self, name: &str, what: &str, value: &Unknown) -> Fail {
        type_error(format!(
            "fromFields(fields): fields.{name} must be {what}, got {}",
            type_name(value)
        ))
    }
}

/// The text of a value made by a format's `from_fields`, whose errors are about the fields
/// given (`RangeError`s).
fn made_text<'e>(env: &'e Env, value: CoreResult<AnyId>) -> R<JsString<'e>> {
    let id = value.map_err(Fail::Argument)?;
    js_text(env, id.text().as_bytes())
}

/// The canonical text of the value of `format` with these fields (keys: the JavaScript names
/// `fields()` gives; fields the format computes, like UUIDv7's version, are not read): the
/// core's `AnyId::from_fields`, each format's own `from_fields` underneath. A field above its
/// width is a `RangeError` (`ERR_SNO_VALUE_OVERFLOW`, or the format's own error such as
/// `ERR_SNO_MILLIS_OUT_OF_RANGE`).
#[napi(
    ts_args_type = "format: number, fields: Record<string, number | bigint | boolean | string>",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_from_fields<'e>(
    env: &'e Env,
    format: u32,
    fields: Unknown,
) -> Result<JsString<'e>, String> {
    (|| {
        let format = format_arg(format)?;
        if fields.get_type()? != ValueType::Object {
            return Err(type_error(format!(
                "fromFields(fields): fields must be an object, got {}",
                type_name(&fields)
            )));
        }
        // SAFETY: the value was just checked to be an object.
        let object = unsafe { Object::from_napi_value(env.raw(), fields.raw()) }?;
        let f = FieldArgs { env, object };
        let inputs = AnyId::inputs(format);
        // The text fields first: the values handed to the core borrow them.
        let texts = inputs
            .iter()
            .map(|input| match input.kind {
                FieldKind::Text => f.text(&camel_case(input.name)).map(Some),
                _ => Ok(None),
            })
            .collect::<R<Vec<Option<String>>>>()?;
        let made = AnyId::from_fields(format, |input| -> R<FieldValue<'_>> {
            let name = camel_case(input.name);
            match input.kind {
                FieldKind::Bool => f.bool(&name).map(FieldValue::Bool),
                FieldKind::Text => {
                    let at = inputs.iter().position(|i| i.name == input.name);
                    let text = at.and_then(|at| texts[at].as_deref()).unwrap_or_default();
                    Ok(FieldValue::Text(text))
                }
                _ => f.uint(&name).map(FieldValue::Uint),
            }
        })?;
        made_text(env, made)
    })()
    .or_throw(env)
}

/// A thread-safe monotonic generator of one format (the `Generator` of each namespace in
/// `formats.js`): the core's `AnyGenerator`.
#[napi]
pub struct FormatGenerator {
    inner: AnyGenerator,
    max_wait_ms: u32,
}

/// Which generator call to make.
#[derive(Clone, Copy)]
enum Call {
    /// Waits (sleeping) at most `max_wait_ms` for a used-up millisecond or a clock rollback.
    Next(u32),
    TryNext,
    At(i64),
}

impl FormatGenerator {
    fn call<'e>(&self, env: &'e Env, call: Call) -> Result<JsString<'e>, String> {
        (|| {
            let mut buf = [0u8; MAX_TEXT_LEN];
            let len = match call {
                Call::Next(ms) => self
                    .inner
                    .next_text(Duration::from_millis(u64::from(ms)), &mut buf),
                Call::TryNext => self.inner.try_next_text(&mut buf),
                Call::At(ms) => self.inner.next_at_unix_ms_text(ms, &mut buf),
            }?;
            js_text(env, &buf[..len])
        })()
        .or_throw(env)
    }
}

/// An option of a generator's settings object: `undefined`, or a number (`formats.js` checks
/// the types; the integers are checked here, their ranges by the core).
fn number_option(object: &Object, name: &str, what: &str) -> R<Option<f64>> {
    let value: Unknown = object.get_named_property_unchecked(name)?;
    match value.get_type()? {
        ValueType::Undefined => Ok(None),
        ValueType::Number => {
            // SAFETY: the value was just checked to be a number.
            Ok(Some(unsafe {
                f64::from_napi_value(value.env(), value.raw())
            }?))
        }
        _ => Err(type_error(format!(
            "{what}: option {name} must be a number, got {}",
            type_name(&value)
        ))),
    }
}

#[napi]
impl FormatGenerator {
    /// A generator of `format` with `settings`: the format's settings (the table's
    /// `generatorOptions`, camel case), `maxWaitMs` and `clock`; keys and types checked by
    /// `formats.js`, the ranges by the core.
    #[napi(
        constructor,
        ts_args_type = "format: number, settings: Record<string, number | string | undefined>",
        catch_unwind
    )]
    pub fn new(env: &Env, format: u32, settings: Object) -> Result<Self, String> {
        (|| -> R<Self> {
            let format = format_arg(format)?;
            let what = format!("{}.Generator", format.name());
            let max_wait_ms = max_wait_ms(number_option(&settings, "maxWaitMs", &what)?, &what)?;
            let clock: Unknown = settings.get_named_property_unchecked("clock")?;
            let clock = match clock.get_type()? {
                ValueType::Undefined => None,
                _ => Some(text_arg(env, &clock, &format!("{what}: option clock"))?),
            };
            let mut core = sno_core::GeneratorSettings::new();
            core.clock(clock_arg(clock)?);
            for &setting in format.settings() {
                let name = camel_case(setting.name());
                if let Some(v) = number_option(&settings, &name, &what)? {
                    let option = format!("{what}: option {name}");
                    let v = match setting {
                        // An epoch a `Date` can hold (the core refuses a negative one).
                        Setting::EpochMs => epoch_arg(&option, v, -MAX_DATE_MS)?,
                        _ => int_arg(&option, v, i64::MIN, i64::MAX)?,
                    };
                    core.set(setting, v);
                }
            }
            // The core checks the ranges; its words, with the option's JavaScript name.
            let inner = AnyGenerator::new(format, &core).map_err(|e| match e {
                SnoError::InvalidArgument { name, reason } => {
                    range_error(format!("{what}: option {} {reason}", camel_case(name)))
                }
                e => Fail::Argument(e),
            })?;
            Ok(FormatGenerator { inner, max_wait_ms })
        })()
        .or_throw(env)
    }

    /// The next value's text; a used-up millisecond (or a Nanoflakes clock gone back) makes it
    /// sleep until a retry can succeed, for at most `maxWaitMs`; then it throws what
    /// `tryNextString` would.
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn next_string<'e>(&self, env: &'e Env) -> Result<JsString<'e>, String> {
        self.call(env, Call::Next(self.max_wait_ms))
    }

    /// Like `nextString`, but throws ERR_SNO_RANDOMNESS_EXHAUSTED (or for Nanoflakes
    /// ERR_SNO_CLOCK_ROLLBACK) with `retryAtUnixNs` instead of sleeping.
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn try_next_string<'e>(&self, env: &'e Env) -> Result<JsString<'e>, String> {
        self.call(env, Call::TryNext)
    }

    /// One attempt of `nextAsync`: the next value's text, or the milliseconds to wait before
    /// the next attempt (the core's wait policy, with `budgetMs` left of `maxWaitMs` and its `deadlineMs`, `Date.now() + maxWaitMs` when the call began), or, when
    /// the wait gives up, the error `tryNextString` gave. `after` is 0 for a call's first
    /// attempt, else what the previous step answered (as the sno `Generator`'s).
    #[napi(
        ts_args_type = "budgetMs: number, deadlineMs: number, after: number",
        ts_return_type = "string | number",
        catch_unwind
    )]
    pub fn step_string<'e>(
        &self,
        env: &'e Env,
        budget_ms: f64,
        deadline_ms: f64,
        after: u32,
    ) -> Result<Either<JsString<'e>, u32>, String> {
        (|| {
            if after != 0 {
                // A timer's wait is over: the fast clock sees the time waited for at once.
                sno_core::wait::resumed();
            }
            let mut buf = [0u8; MAX_TEXT_LEN];
            match self.inner.try_next_text(&mut buf) {
                Ok(len) => Ok(Either::A(js_text(env, &buf[..len])?)),
                Err(e) => {
                    match crate::args::async_pause_ms(
                        &e,
                        sno_core::wait::can_wait,
                        budget_ms,
                        deadline_ms,
                    ) {
                        Some(ms) => Ok(Either::B(ms)),
                        None => Err(e.into()),
                    }
                }
            }
        })()
        .or_throw(env)
    }

    /// The next value for an explicit time in Unix milliseconds (the clock is not read).
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn next_at_string<'e>(&self, env: &'e Env, unix_ms: f64) -> Result<JsString<'e>, String> {
        match int_arg(
            "Generator.nextAtUnixMs(unixMs): unixMs",
            unix_ms,
            i64::MIN,
            i64::MAX,
        ) {
            Ok(ms) => self.call(env, Call::At(ms)),
            Err(e) => Err(e).or_throw(env),
        }
    }

    /// The longest `next` / `nextAsync` waits, in milliseconds.
    #[napi(getter, catch_unwind)]
    pub fn max_wait_ms(&self) -> u32 {
        self.max_wait_ms
    }
}
