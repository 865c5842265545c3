//! What single formats have beyond the core's model, for `formats.js`: the time of a value
//! whose epoch the caller knows (`unixMsAt`, the formats with an epoch), UUIDv7's lenient text
//! forms, SCRU160's hex, the Nanoflake's padded text, TypeID's prefix and suffix. Everything
//! every format has (value, process-wide generator, `fromFields`, `Generator`) is generic, in
//! `formats.rs`; a format added to the core appears there with no edit here.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;

use sno_core::nanoflake::Nanoflake;
use sno_core::scru160::{self, Scru160Id};
use sno_core::typeid::{self, TypeId};
use sno_core::ulidflake::UlidFlake;
use sno_core::uuid7::Uuid7;
use sno_core::{Error as SnoError, Format};

use crate::args::{MAX_DATE_MS, bytes_arg, epoch_arg, text_arg, with_text};
use crate::errors::{Fail, OrThrow, range_error};
use crate::formats::{canonical_text, format_arg, id_text};

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
