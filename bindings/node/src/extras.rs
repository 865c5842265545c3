//! What formats have beyond the core's model, for `formats.js`: the extras the core states as
//! data (`IdFormat::EXTRAS`), each read generically (the time for a caller's epoch, `unixMsAt`;
//! a lenient decoder, `parseLenient`; other text forms and numbers, getters; a param's
//! constructors, `new` and `from<Binary>`). Everything every format has (value, process-wide generator, `fromFields`,
//! `Generator`) is generic, in `formats.rs`; a format added to the core appears there, its
//! extras included, with no edit here.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;

use sno_core::model::MAX_TEXT_LEN;
use sno_core::{AnyId, Error as SnoError, Format};

use crate::args::{bytes_or, epoch_arg, text_arg, with_text};
use crate::errors::{Fail, R, range_error, throwing};
use crate::formats::{format_arg, js_text, value};

/// Milliseconds since 1970 of a canonical text of a format with an epoch (the core's
/// `Extras::epoch`: Ulid-Flake, Nanoflake) made with the epoch `epochMs`: the core's saturating
/// `unix_ms_at`. `epochMs` must be an integer within the `Date` range (`formats.js` checks that
/// it is a number; `method` names the method in errors).
#[napi(catch_unwind)]
pub fn fmt_unix_ms_at(
    env: &Env,
    format: u32,
    text: String,
    epoch_ms: f64,
    method: String,
) -> Result<f64, String> {
    throwing(env, || {
        let epoch = epoch_arg(&format!("{method}(epochMs): epochMs"), epoch_ms)?;
        let id = value(format, &text)?;
        let unix_ms = id
            .unix_ms_at(epoch)
            .ok_or_else(|| range_error(format!("{} values have no epoch", id.format())))?;
        // |epoch| <= 8.64e15 and the field below 2^43: the sum is an exact double.
        Ok(unix_ms as f64)
    })
}

/// The canonical text of a value of `format` in any form its lenient decoder takes (the core's
/// `Extras::lenient`: UUIDv7's 32 bare hex digits and `{…}`), or `undefined` when `text` is
/// canonical already (`<Class>.parseLenient`).
#[napi(
    ts_args_type = "format: number, text: string",
    ts_return_type = "string | undefined",
    catch_unwind
)]
pub fn fmt_canonical_lenient<'e>(
    env: &'e Env,
    format: u32,
    text: Unknown,
) -> Result<Option<JsString<'e>>, String> {
    throwing(env, || {
        let format = format_arg(format)?;
        with_text(env, &text, "parseLenient(text): text", |input| {
            let canonical = AnyId::parse_lenient_as(format, input)?.text();
            if canonical.as_bytes() == input {
                return Ok(None);
            }
            js_text(env, canonical.as_bytes()).map(Some)
        })?
    })
}

/// The text form `name` (the core's `Extras::texts`: SCRU160's `hex`, a Nanoflake's `padded`,
/// a prefixed value's `suffix`) of a canonical text of `format`.
#[napi(catch_unwind)]
pub fn fmt_text_form(env: &Env, format: u32, text: String, name: String) -> Result<String, String> {
    throwing(env, || {
        let id = value(format, &text)?;
        let mut buf = [0u8; MAX_TEXT_LEN];
        let len = id
            .write_text_form(&name, &mut buf)
            .ok_or_else(|| range_error(format!("{} has no text form {name}", id.format())))?;
        Ok(String::from_utf8_lossy(&buf[..len]).into_owned())
    })
}

/// The number `name` (the core's `Extras::numbers`: a Nanoflake's `reference_timestamp_ms`) of
/// a canonical text of `format`.
#[napi(catch_unwind)]
pub fn fmt_number(env: &Env, format: u32, text: String, name: String) -> Result<f64, String> {
    throwing(env, || {
        let id = value(format, &text)?;
        let number = id
            .number(&name)
            .ok_or_else(|| range_error(format!("{} has no number {name}", id.format())))?;
        Ok(number as f64)
    })
}

/// The text of a new value of `format`, a format with a param (the core's `Extras::param`: a
/// text part outside the binary form), of `param` and a binary form from the process-wide
/// generator of the param's source format (`<ns>.new`, `<ns>.newString`). `method` names the
/// call in errors; a param its rules refuse is a `RangeError` with the core's code.
#[napi(
    ts_args_type = "format: number, param: string, method: string",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_new_with_param<'e>(
    env: &'e Env,
    format: u32,
    param: Unknown,
    method: String,
) -> Result<JsString<'e>, String> {
    throwing(env, || {
        let (format, param) = param_arg(env, format, &param, &method)?;
        param_text(
            env,
            format,
            &param,
            AnyId::try_new_with_param(format, &param),
        )
    })
}

/// The text of the value of `format` (a format with a param) of `param` and a binary form:
/// its bytes (any the format takes), or a text of the param's source format, which the core's
/// decoder of it reads (`<Class>.from<Binary>`).
#[napi(
    ts_args_type = "format: number, param: string, binary: string | Uint8Array, method: string",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_with_param<'e>(
    env: &'e Env,
    format: u32,
    param: Unknown,
    binary: Unknown,
    method: String,
) -> Result<JsString<'e>, String> {
    throwing(env, || {
        let (format, param) = param_arg(env, format, &param, &method)?;
        let facts = format.param_facts().ok_or_else(|| no_param(format))?;
        let what = format!("{method}: {}", facts.binary);
        let id = if binary.get_type()? == ValueType::String {
            let source = with_text(env, &binary, &what, |text| {
                AnyId::parse_as(facts.source, text)
            })??;
            AnyId::with_param(format, &param, source.as_slice())
        } else {
            let expected = format!("a {}, a string or a Uint8Array", facts.source.node_class());
            AnyId::with_param(format, &param, &bytes_or(env, &binary, &what, &expected)?)
        };
        param_text(env, format, &param, id)
    })
}

/// The format of table index `format` and the param text (`method`'s first argument).
fn param_arg(env: &Env, format: u32, param: &Unknown, method: &str) -> R<(Format, String)> {
    let format = format_arg(format)?;
    let facts = format.param_facts().ok_or_else(|| no_param(format))?;
    let param = text_arg(env, param, &format!("{method}: {}", facts.setting.name()))?;
    Ok((format, param))
}

/// The text of a value of `format` made with `param` (`None`: the format has no param); a
/// core error is an argument's (a `RangeError`) when it is the param's refusal.
fn param_text<'e>(
    env: &'e Env,
    format: Format,
    param: &str,
    made: Option<std::result::Result<AnyId, SnoError>>,
) -> R<JsString<'e>> {
    let id =
        made.ok_or_else(|| no_param(format))?
            .map_err(|e| match format.check_param(param) {
                Some(Err(refusal)) if refusal == e => Fail::Argument(e),
                _ => Fail::Core(e),
            })?;
    js_text(env, id.text().as_bytes())
}

/// The error of a format without a param where one was needed.
fn no_param(format: Format) -> Fail {
    range_error(format!("{format} values have no param"))
}
