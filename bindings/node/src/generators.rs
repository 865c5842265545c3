//! New values of any format: the process-wide generator (`new`, `newString`, `newStrings`,
//! `newMany`), `fromFields` and the monotonic `Generator` (the core's `AnyId::try_new_text`,
//! `AnyId::from_fields` and `AnyGenerator`), for any format of the core's table.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::model::MAX_TEXT_LEN;
use std::time::Duration;

use sno_core::{AnyGenerator, AnyId, Error as SnoError, FieldKind, FieldValue, Format, Setting};

use crate::args::{
    batch_count, clock_arg, epoch_arg, int_arg, max_wait_ms, text_arg, try_vec, type_name,
    typed_arg,
};
use crate::errors::{Fail, OrThrow, R, range_error, throwing, type_error};
use crate::formats::{camel_case, format_arg, js_text};

// Every format's process-wide generator, `fromFields` and monotonic `Generator`: the core's
// `AnyId::try_new_text`, `AnyId::from_fields` and `AnyGenerator`, for any format of its table.

/// Writes the text of the next value of `format`'s process-wide generator into `buf` and
/// returns its length (the core's `AnyId::try_new_text`), or its typed error (a clock outside
/// the format's range, no OS randomness).
fn global(format: Format, buf: &mut [u8; MAX_TEXT_LEN]) -> R<usize> {
    AnyId::try_new_text(format, buf)
        .ok_or_else(|| range_error(format!("{format} has no process-wide generator")))?
        .map_err(Fail::from)
}

/// A new value's text from the process-wide generator (`new`, `newString`).
#[napi(ts_return_type = "string", catch_unwind)]
pub fn fmt_new_string(env: &Env, format: u32) -> Result<JsString<'_>, String> {
    throwing(env, || {
        let mut buf = [0u8; MAX_TEXT_LEN];
        let len = global(format_arg(format)?, &mut buf)?;
        js_text(env, &buf[..len])
    })
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
    throwing(env, || {
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
    })
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
    throwing(env, || {
        let format = format_arg(format)?;
        let what = "fromFields(fields): fields";
        let object: Object = typed_arg(env, &fields, ValueType::Object, what, "an object")?;
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
        // Its errors are about the fields given (`RangeError`s).
        let id = made.map_err(Fail::Argument)?;
        js_text(env, id.text().as_bytes())
    })
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
        throwing(env, || {
            let mut buf = [0u8; MAX_TEXT_LEN];
            let len = match call {
                Call::Next(ms) => self
                    .inner
                    .next_text(Duration::from_millis(u64::from(ms)), &mut buf),
                Call::TryNext => self.inner.try_next_text(&mut buf),
                Call::At(ms) => self.inner.next_at_unix_ms_text(ms, &mut buf),
            }?;
            js_text(env, &buf[..len])
        })
    }
}

#[napi]
impl FormatGenerator {
    /// A generator of `format` with `settings`: the format's settings (the table's
    /// `generatorOptions`, camel case), `maxWaitMs` and `clock`; keys and types checked by
    /// `formats.js` (each a number or `undefined`, the clock a string or `undefined`), the
    /// integers here, the ranges by the core.
    #[napi(
        constructor,
        ts_args_type = "format: number, settings: Record<string, number | string | undefined>",
        catch_unwind
    )]
    pub fn new(env: &Env, format: u32, settings: Object) -> Result<Self, String> {
        throwing(env, || -> R<Self> {
            let format = format_arg(format)?;
            let what = format!("{}.Generator", format.name());
            let max_wait_ms = max_wait_ms(settings.get("maxWaitMs")?, &what)?;
            let mut core = sno_core::GeneratorSettings::new();
            core.clock(clock_arg(settings.get("clock")?)?);
            for &setting in format.settings() {
                let name = camel_case(setting.name());
                if let Some(v) = settings.get::<f64>(&name)? {
                    let option = format!("{what}: option {name}");
                    let v = match setting {
                        // An epoch a `Date` can hold (the core refuses a negative one).
                        Setting::EpochMs => epoch_arg(&option, v)?,
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
        })
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
        throwing(env, || {
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
        })
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
