//! What a format has beyond the core's model, for `formats.js`: its process-wide generator
//! (`new`, `newString`, `newStrings`, `newMany`), its monotonic `Generator` and that
//! generator's settings, `fromFields` (each format's own `from_fields`), the time of a value
//! whose epoch the caller knows (`unixMsAt`), and other text forms (UUIDv7's lenient forms,
//! SCRU160's hex, the Nanoflake's padded text). Everything a value has through the model is
//! generic, in `formats.rs`; a format added to the core appears there with no edit here, and
//! here only where it has such extras.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use std::time::Duration;

use sno_core::model::MAX_TEXT_LEN;
use sno_core::nanoflake::Nanoflake;
use sno_core::scru160::{self, Scru160Id};
use sno_core::typeid::{self, TypeId};
use sno_core::ulidflake::UlidFlake;
use sno_core::uuid7::Uuid7;
use sno_core::{AnyGenerator, AnyId, Error as SnoError, FieldKind, FieldValue, Format, Setting};

use crate::args::{
    batch_count, bytes_arg, clock_arg, int_arg, max_wait_ms, text_arg, try_vec, type_name,
    with_text,
};
use crate::errors::{Fail, OrThrow, R, range_error, type_error};
use crate::formats::{camel_case, canonical_text, format_arg, id_text, js_text, text_len};

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
        let width = text_len(format)?;
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

/// The largest epoch (and time) in Unix milliseconds a JS `Date` holds: ±8.64e15.
const MAX_DATE_MS: i64 = 8_640_000_000_000_000;

/// An epoch in Unix milliseconds: an integer within the `Date` range (`-8.64e15 ..= 8.64e15`;
/// generators take no negative epoch), else a `RangeError` naming `what`.
fn epoch_arg(what: &str, epoch_ms: f64, min: i64) -> R<i64> {
    int_arg(what, epoch_ms, min, MAX_DATE_MS)
}

/// Milliseconds since 1970 of a canonical text of a format with an epoch (Ulid-Flake,
/// Nanoflake) made with the epoch `epochMs`: the core's saturating `unix_ms_at`. `epochMs` must
/// be an integer within the `Date` range (`formats.js` checks that it is a number; `method`
/// names the method in errors).
#[napi(catch_unwind)]
pub fn fmt_unix_ms_at(
    env: &Env,
    format: u32,
    text: String,
    epoch_ms: f64,
    method: String,
) -> Result<f64, String> {
    (|| {
        let format = format_arg(format)?;
        let epoch = epoch_arg(
            &format!("{method}(epochMs): epochMs"),
            epoch_ms,
            -MAX_DATE_MS,
        )?;
        let text = text.as_bytes();
        let unix_ms = match format {
            Format::UlidFlake => UlidFlake::decode(text)?.unix_ms_at(epoch),
            Format::Nanoflake => Nanoflake::decode(text)?.unix_ms_at(epoch),
            other => return Err(range_error(format!("{other} values have no epoch"))),
        };
        // |epoch| <= 8.64e15 and the field below 2^43: the sum is an exact double.
        Ok(unix_ms as f64)
    })()
    .or_throw(env)
}

/// The canonical text of a UUIDv7 in any form `Uuid7.parseLenient` takes (also 32 bare hex
/// digits and `{…}`), or `undefined` when `text` is canonical already.
#[napi(
    ts_args_type = "text: string",
    ts_return_type = "string | undefined",
    catch_unwind
)]
pub fn uuid7_canonical_lenient<'e>(
    env: &'e Env,
    text: Unknown,
) -> Result<Option<JsString<'e>>, String> {
    (|| {
        with_text(env, &text, "parseLenient(text): text", |input| {
            canonical_text(env, &Uuid7::decode_lenient(input)?, input)
        })?
    })()
    .or_throw(env)
}

/// The 40 lower-case hex digits of a SCRU160's canonical text (its other text form).
#[napi(catch_unwind)]
pub fn scru160_hex(env: &Env, text: String) -> Result<String, String> {
    (|| {
        let mut buf = [0u8; scru160::HEX_LEN];
        Ok(Scru160Id::decode(text.as_bytes())?
            .encode_hex(&mut buf)
            .to_owned())
    })()
    .or_throw(env)
}

/// The 13-digit zero-padded text of a Nanoflake, which sorts like the values.
#[napi(catch_unwind)]
pub fn nanoflake_padded(env: &Env, text: String) -> Result<String, String> {
    (|| {
        let padded = Nanoflake::decode(text.as_bytes())?.encode_padded();
        Ok(String::from_utf8_lossy(&padded).into_owned())
    })()
    .or_throw(env)
}

/// A Nanoflake's timestamp as the Java, Kotlin and TypeScript references read it
/// (`value >> 24`).
#[napi(catch_unwind)]
pub fn nanoflake_reference_timestamp(env: &Env, text: String) -> Result<f64, String> {
    (|| Ok(Nanoflake::decode(text.as_bytes())?.reference_timestamp() as f64))().or_throw(env)
}

/// The 26-character suffix of a TypeID's canonical text (its UUID in base32).
#[napi(catch_unwind)]
pub fn typeid_suffix(env: &Env, text: String) -> Result<String, String> {
    (|| {
        let mut buf = [0u8; typeid::SUFFIX_LEN];
        Ok(TypeId::decode(text.as_bytes())?
            .encode_suffix(&mut buf)
            .to_owned())
    })()
    .or_throw(env)
}

/// The text of a new TypeID with `prefix` and a UUIDv7 from the process-wide generator
/// (`TypeId.generate`, `typeid.new`, `typeid.newString`).
#[napi(
    ts_args_type = "prefix: string",
    ts_return_type = "string",
    catch_unwind
)]
pub fn typeid_new_string<'e>(env: &'e Env, prefix: Unknown) -> Result<JsString<'e>, String> {
    (|| {
        let prefix = text_arg(env, &prefix, "TypeId.generate(prefix): prefix")?;
        let id = TypeId::try_new(&prefix).map_err(|e| match e {
            SnoError::InvalidPrefix { .. } => Fail::Argument(e),
            e => e.into(),
        })?;
        id_text(env, &id)
    })()
    .or_throw(env)
}

/// The text of the TypeID with `prefix` and the UUID `uuid`: its 16 bytes (any version) or a
/// UUIDv7's text, which the core's UUIDv7 decoder reads (`TypeId.fromUuid`).
#[napi(
    ts_args_type = "prefix: string, uuid: string | Uint8Array",
    ts_return_type = "string",
    catch_unwind
)]
pub fn typeid_from_uuid<'e>(
    env: &'e Env,
    prefix: Unknown,
    uuid: Unknown,
) -> Result<JsString<'e>, String> {
    (|| {
        let prefix = text_arg(env, &prefix, "TypeId.fromUuid(prefix, uuid): prefix")?;
        let bytes: [u8; 16] = if uuid.get_type()? == ValueType::String {
            with_text(
                env,
                &uuid,
                "TypeId.fromUuid(prefix, uuid): uuid",
                Uuid7::decode,
            )??
            .to_bytes()
        } else {
            let bytes = bytes_arg(env, &uuid, "TypeId.fromUuid(prefix, uuid): uuid")?;
            TypeId::from_slice(&bytes)?.uuid_bytes()
        };
        let id = TypeId::from_uuid(&prefix, bytes).map_err(Fail::Argument)?;
        id_text(env, &id)
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
                Call::At(ms) => self.inner.next_at_text(ms, &mut buf),
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
    /// the next attempt (the core's wait policy, with `budgetMs` left of `maxWaitMs`), or, when
    /// the wait gives up, the error `tryNextString` gave.
    #[napi(ts_return_type = "string | number", catch_unwind)]
    pub fn step_string<'e>(
        &self,
        env: &'e Env,
        budget_ms: f64,
    ) -> Result<Either<JsString<'e>, u32>, String> {
        (|| {
            let mut buf = [0u8; MAX_TEXT_LEN];
            match self.inner.try_next_text(&mut buf) {
                Ok(len) => Ok(Either::A(js_text(env, &buf[..len])?)),
                Err(e) => {
                    match crate::args::async_pause_ms(&e, sno_core::wait::can_wait, budget_ms) {
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
            "Generator.nextAt(unixMs): unixMs",
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
