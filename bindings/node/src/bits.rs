//! A value's binary form read another way: as one unsigned big-endian integer (`bigint`,
//! `fromBigInt`) or, for the 128-bit formats, as UUID text (`uuid`, `fromUuid`).

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::uuid7;
use sno_core::{AnyId, Error as SnoError};

use crate::args::{typed_arg, with_text};
use crate::errors::{Fail, OrThrow, R, range_error, throwing};
use crate::formats::{format_arg, js_bytes, js_text, value};

/// The binary form of a canonical text read as one unsigned big-endian integer.
#[napi(ts_return_type = "bigint", catch_unwind)]
pub fn fmt_bigint(env: &Env, format: u32, text: String) -> Result<BigInt, String> {
    value(format, &text)
        .map(|id| {
            // Little-endian 64-bit words, from the last byte up.
            let words = id.as_slice().rchunks(8).map(|chunk| {
                let mut word = [0u8; 8];
                word[8 - chunk.len()..].copy_from_slice(chunk);
                u64::from_be_bytes(word)
            });
            BigInt {
                sign_bit: false,
                words: words.collect(),
            }
        })
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
    throwing(env, || {
        let format = format_arg(format)?;
        let what = "fromBigInt(value): value";
        let value: BigInt = typed_arg(env, &value, ValueType::BigInt, what, "a bigint")?;
        let bytes = integer_bytes(&value, format.binary_len())?;
        let id = AnyId::from_slice_as(format, &bytes).map_err(|e| match e {
            SnoError::ValueOverflow => Fail::Argument(e),
            e => e.into(),
        })?;
        js_text(env, id.text().as_bytes())
    })
}

/// The 128 bits of a canonical text as a hyphenated lower-case UUID (any version: the bits
/// as they are), for the 16-byte formats.
#[napi(catch_unwind)]
pub fn fmt_uuid(env: &Env, format: u32, text: String) -> Result<String, String> {
    throwing(env, || {
        let id = value(format, &text)?;
        let bytes: &[u8; 16] = id.as_slice().try_into().map_err(|_| {
            range_error(format!(
                "{} values are not 128 bits",
                id.format().display_name()
            ))
        })?;
        // The text is ASCII: one char per byte.
        Ok(uuid7::uuid_text(bytes).map(char::from).iter().collect())
    })
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
    throwing(env, || {
        with_text(env, &text, "fromUuid(uuid): uuid", uuid7::uuid_bytes)?
            .map_err(Fail::from)
            .and_then(|bytes| js_bytes(env, &bytes))
    })
}
