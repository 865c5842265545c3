//! The native half of the Node.js package: generation, strict validation, byte and field
//! extraction, and the generator, all on the text form. `sno.js` builds the public `Id` class
//! on top (a JS object holding the canonical text: napi class instances cost about 1 µs each).
//! Calls `sno-core` directly, never the C ABI. Every export runs under `catch_unwind`.
#![allow(missing_docs, reason = "napi-derive generates undocumented glue")]

pub mod formats;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::{Error as SnoError, Generator as CoreGenerator, SystemClock};

/// A core error as a JS `Error` whose `code` is `ERR_SNO_<KIND>`.
pub(crate) fn js_error(e: SnoError) -> Error<String> {
    Error::new(
        format!("ERR_SNO_{}", e.code().to_ascii_uppercase()),
        e.to_string(),
    )
}

pub(crate) fn napi_error(e: Error) -> Error<String> {
    Error::new(e.status.as_ref().to_owned(), e.reason.clone())
}

fn is_type(value: &Unknown, ty: ValueType) -> Result<bool, String> {
    Ok(value.get_type().map_err(napi_error)? == ty)
}

/// Throws a JS `TypeError` (code ERR_INVALID_ARG_TYPE); the caller then returns a placeholder,
/// which JS never sees because the exception is pending.
fn throw_type_error(env: &Env, message: &str) -> Result<(), String> {
    env.throw_type_error(message, Some("ERR_INVALID_ARG_TYPE"))
        .map_err(napi_error)
}

pub(crate) fn arg_error(message: String) -> Error<String> {
    Error::new("ERR_SNO_INVALID_ARGUMENT".to_owned(), message)
}

/// The UTF-8 text of `value`, or a pending `TypeError` (`Ok(None)`).
fn text_arg(env: &Env, value: &Unknown, what: &str) -> Result<Option<String>, String> {
    if !is_type(value, ValueType::String)? {
        throw_type_error(env, &format!("{what} must be a string"))?;
        return Ok(None);
    }
    // SAFETY: the value was just checked to be a JS string.
    let text: String =
        unsafe { String::from_napi_value(env.raw(), value.raw()) }.map_err(napi_error)?;
    Ok(Some(text))
}

/// Room for the longest text any decoder accepts (a `urn:uuid:` UUID, 45 characters).
const MAX_INPUT: usize = 48;

/// Calls `f` with the bytes of a JS string: an ASCII string shorter than `MAX_INPUT` read into a
/// stack buffer (no allocation, the common case), any other string through its UTF-8 copy. For
/// a non-string, a pending `TypeError` naming `what`, and `Ok(None)`.
pub(crate) fn with_text<R>(
    env: &Env,
    value: &Unknown,
    what: &str,
    f: impl FnOnce(&[u8]) -> R,
) -> Result<Option<R>, String> {
    let mut buf = [0u8; MAX_INPUT];
    if let Some(ascii) = ascii_text(env, value, &mut buf) {
        return Ok(Some(f(ascii)));
    }
    Ok(text_arg(env, value, what)?.map(|text| f(text.as_bytes())))
}

/// An ASCII string of fewer than `MAX_INPUT` characters, copied into `buf`, or `None` for any
/// other string or value.
fn ascii_text<'b>(env: &Env, value: &Unknown, buf: &'b mut [u8; MAX_INPUT]) -> Option<&'b [u8]> {
    let mut wide = [0u16; MAX_INPUT];
    let mut copied = 0usize;
    // SAFETY: `wide` has room for MAX_INPUT UTF-16 units (napi writes at most len - 1 plus a
    // NUL); a non-string gives a status other than napi_ok.
    let status = unsafe {
        napi::sys::napi_get_value_string_utf16(
            env.raw(),
            value.raw(),
            wide.as_mut_ptr(),
            wide.len(),
            &mut copied,
        )
    };
    // `copied == MAX_INPUT - 1` may be a truncated longer string.
    if status != napi::sys::Status::napi_ok || copied >= MAX_INPUT - 1 {
        return None;
    }
    for (o, &w) in buf.iter_mut().zip(&wide[..copied]) {
        *o = u8::try_from(w).ok().filter(u8::is_ascii)?;
    }
    Some(&buf[..copied])
}

/// Strictly validates an ID's text form (`Id.parse` calls this): exactly 16 characters of
/// `[2-9a-x]`. Throws `TypeError` for a non-string, `ERR_SNO_INVALID_*` otherwise; errors name
/// UTF-8 byte positions, as the core does.
#[napi(ts_args_type = "text: string", ts_return_type = "void", catch_unwind)]
pub fn check_text(env: Env, text: Unknown) -> Result<(), String> {
    match with_text(&env, &text, "Id.parse(text): text", sno_core::Id::decode)? {
        Some(Err(e)) => Err(js_error(e)),
        _ => Ok(()),
    }
}

/// The text form of 10 raw bytes (`Id.fromBytes` calls this).
#[napi(
    ts_args_type = "bytes: Uint8Array",
    ts_return_type = "string",
    catch_unwind
)]
pub fn text_from_bytes(env: Env, bytes: Unknown) -> Result<Option<String>, String> {
    let Some(array) = bytes_arg(&env, &bytes, "Id.fromBytes(bytes): bytes")? else {
        return Ok(None);
    };
    let id = sno_core::Id::from_slice(&array).map_err(js_error)?;
    let mut buf = [0u8; sno_core::ENCODED_LEN];
    Ok(Some(id.encode(&mut buf).to_owned()))
}

/// The bytes of a `Buffer`/`Uint8Array`, or a pending `TypeError` (`Ok(None)`).
pub(crate) fn bytes_arg(
    env: &Env,
    value: &Unknown,
    what: &str,
) -> Result<Option<Uint8Array>, String> {
    // SAFETY: validation only inspects the value.
    if unsafe { Uint8Array::validate(env.raw(), value.raw()) }.is_err() {
        throw_type_error(env, &format!("{what} must be a Buffer or Uint8Array"))?;
        return Ok(None);
    }
    // SAFETY: the value was just checked to be a Uint8Array.
    let array =
        unsafe { Uint8Array::from_napi_value(env.raw(), value.raw()) }.map_err(napi_error)?;
    Ok(Some(array))
}

fn decode_trusted(text: &str) -> Result<sno_core::Id, String> {
    sno_core::Id::decode(text.as_bytes()).map_err(js_error)
}

/// The 10 bytes of a valid text form.
#[napi(catch_unwind)]
pub fn text_to_bytes(text: String) -> Result<Buffer, String> {
    Ok(Buffer::from(decode_trusted(&text)?.as_bytes().to_vec()))
}

/// The fields of a valid text form: `[units, tickTock (0/1), meta, partition, sequence, unixMs]`.
#[napi(catch_unwind)]
pub fn text_fields(text: String) -> Result<Vec<f64>, String> {
    let id = decode_trusted(&text)?;
    Ok(vec![
        id.timestamp() as f64,
        f64::from(u8::from(id.tick_tock())),
        f64::from(id.meta()),
        f64::from(id.partition()),
        f64::from(id.sequence()),
        id.unix_millis() as f64,
    ])
}

fn encode(id: sno_core::Id) -> String {
    let mut buf = [0u8; sno_core::ENCODED_LEN];
    id.encode(&mut buf).to_owned()
}

/// An integer argument in `min..=max`: NaN, fractions and out-of-range numbers are errors
/// (napi's own u32 conversion would wrap -1 to 4294967295).
pub(crate) fn int_arg(name: &str, v: f64, min: i64, max: i64) -> Result<i64, String> {
    if v.fract() == 0.0 && v >= min as f64 && v <= max as f64 {
        Ok(v as i64)
    } else {
        Err(arg_error(format!(
            "{name} must be an integer in {min}..={max}, got {v}"
        )))
    }
}

fn meta_of(meta: Option<f64>) -> Result<u8, String> {
    Ok(int_arg("meta", meta.unwrap_or(0.0), 0, 255)? as u8)
}

fn next_on(g: &CoreGenerator<SystemClock>, meta: Option<f64>) -> Result<sno_core::Id, String> {
    g.next(meta_of(meta)?).map_err(js_error)
}

/// `n` new IDs' text forms from the process-wide generator, encoded in one SIMD batch and
/// returned as one string of `16 · n` characters (one JS string instead of `n`: `sno.js` slices
/// it; `newStrings` and `newIds` return those slices).
#[napi(
    ts_args_type = "n: number, meta?: number | undefined | null",
    ts_return_type = "string",
    catch_unwind
)]
pub fn new_text(env: &Env, n: f64, meta: Option<f64>) -> Result<napi::JsString<'_>, String> {
    let g = sno_core::global_generator();
    let n = int_arg("n", n, 0, i64::from(u32::MAX))?;
    let ids = (0..n)
        .map(|_| next_on(g, meta))
        .collect::<Result<Vec<_>, _>>()?;
    let mut text = vec![0u8; ids.len() * sno_core::ENCODED_LEN];
    sno_core::Id::encode_many(&ids, &mut text).map_err(js_error)?;
    env.create_string_latin1(&text).map_err(napi_error)
}

/// The index of the first invalid 16-character item in `joined` (items laid end to end; `sno.js`
/// has already checked that each is a string of 16 UTF-16 units), or -1: one SIMD batch decode
/// over all of them. `decodeMany` then asks `checkText` for that item's exact error.
#[napi(ts_args_type = "joined: string", catch_unwind)]
pub fn first_invalid(env: Env, joined: Unknown) -> Result<i64, String> {
    if !is_type(&joined, ValueType::String)? {
        throw_type_error(&env, "firstInvalid(joined): joined must be a string")?;
        return Ok(-1);
    }
    // SAFETY: the value was just checked to be a JS string.
    let units =
        unsafe { Utf16String::from_napi_value(env.raw(), joined.raw()) }.map_err(napi_error)?;
    // A unit outside ASCII can never be in the alphabet: 0xFF marks it invalid.
    let bytes: Vec<u8> = units
        .iter()
        .map(|&u| u8::try_from(u).ok().filter(u8::is_ascii).unwrap_or(0xFF))
        .collect();
    let mut ids = vec![sno_core::Id::ZERO; bytes.len() / sno_core::ENCODED_LEN];
    Ok(match sno_core::Id::decode_many(&bytes, &mut ids) {
        Ok(()) => -1,
        Err(SnoError::InvalidByte { position, .. }) => (position / sno_core::ENCODED_LEN) as i64,
        Err(e) => return Err(js_error(e)),
    })
}

/// A new ID's text form, straight from the process-wide generator (the fast path: the text is
/// built on the stack and copied once, into the JS string).
#[napi(
    ts_args_type = "meta?: number | undefined | null",
    ts_return_type = "string",
    catch_unwind
)]
pub fn new_string(env: &Env, meta: Option<f64>) -> Result<napi::JsString<'_>, String> {
    let id = next_on(sno_core::global_generator(), meta)?;
    env.create_string_latin1(id.encode_bytes())
        .map_err(napi_error)
}

/// `newString()` without `meta` (meta 0). With no argument to read, napi-rs skips
/// `napi_get_cb_info` and `napi_typeof`: about 20 ns of the 80 a `newString()` took.
#[napi(ts_return_type = "string", catch_unwind)]
pub fn new_string_plain(env: &Env) -> Result<napi::JsString<'_>, String> {
    new_string(env, None)
}

/// A saved generator state; pass it back as `snapshot` to continue without duplicates.
#[napi(object)]
pub struct Snapshot {
    pub partition: f64,
    pub sequence_min: f64,
    pub sequence_max: f64,
    pub sequence: f64,
    pub now: f64,
    pub wall_hi: f64,
    pub wall_safe: f64,
    pub drifts: f64,
}

/// Counters of rare events.
#[napi(object)]
pub struct Stats {
    pub overflows: i64,
    pub overflow_episodes: i64,
    pub drifts: i64,
    pub regressions: i64,
    pub waits: i64,
}

/// Options of `new Generator(options?)`.
#[napi(object)]
pub struct GeneratorOptions {
    pub partition: Option<f64>,
    pub sequence_min: Option<f64>,
    pub sequence_max: Option<f64>,
    pub snapshot: Option<Snapshot>,
}

fn u16_arg(name: &str, v: f64) -> Result<u16, String> {
    Ok(int_arg(name, v, 0, 65535)? as u16)
}

/// A thread-safe generator with its own partition and sequence bounds.
#[napi]
pub struct Generator {
    inner: CoreGenerator<SystemClock>,
}

#[napi]
impl Generator {
    #[napi(constructor, catch_unwind)]
    pub fn new(options: Option<GeneratorOptions>) -> Result<Self, String> {
        let o = options.unwrap_or(GeneratorOptions {
            partition: None,
            sequence_min: None,
            sequence_max: None,
            snapshot: None,
        });
        let mut b = CoreGenerator::builder().sequence_bounds(
            u16_arg("sequenceMin", o.sequence_min.unwrap_or(0.0))?,
            u16_arg("sequenceMax", o.sequence_max.unwrap_or(65535.0))?,
        );
        if let Some(s) = o.snapshot {
            b = b.snapshot(sno_core::Snapshot {
                partition: u16_arg("snapshot.partition", s.partition)?,
                sequence_min: u16_arg("snapshot.sequenceMin", s.sequence_min)?,
                sequence_max: u16_arg("snapshot.sequenceMax", s.sequence_max)?,
                sequence: int_arg("snapshot.sequence", s.sequence, 0, i64::from(u32::MAX))? as u32,
                now: int_arg("snapshot.now", s.now, i64::MIN, i64::MAX)?,
                wall_hi: int_arg("snapshot.wallHi", s.wall_hi, i64::MIN, i64::MAX)?,
                wall_safe: int_arg("snapshot.wallSafe", s.wall_safe, i64::MIN, i64::MAX)?,
                drifts: int_arg("snapshot.drifts", s.drifts, 0, i64::from(u32::MAX))? as u32,
            });
        }
        if let Some(p) = o.partition {
            b = b.partition(u16_arg("partition", p)?);
        }
        b.build().map(|inner| Generator { inner }).map_err(js_error)
    }

    /// The next ID; sleeps (blocking this thread, at most until the next 4 ms unit) if the pool
    /// is used up.
    #[napi(catch_unwind)]
    pub fn next_string(&self, meta: Option<f64>) -> Result<String, String> {
        next_on(&self.inner, meta).map(encode)
    }

    /// The next ID or, at once, an error with code ERR_SNO_SEQUENCE_EXHAUSTED or
    /// ERR_SNO_CLOCK_REGRESSION.
    #[napi(catch_unwind)]
    pub fn try_next_string(&self, meta: Option<f64>) -> Result<String, String> {
        self.inner
            .try_next(meta_of(meta)?)
            .map(encode)
            .map_err(js_error)
    }

    /// An ID for the time of a `Date`, with its own wrapping sequence (porting, back-filling);
    /// times outside 2010 .. 2079-09-07 throw ERR_SNO_TIME_OUT_OF_RANGE.
    #[napi(
        ts_args_type = "meta: number, date: Date",
        ts_return_type = "string",
        catch_unwind
    )]
    pub fn next_with_time_string(
        &self,
        env: Env,
        meta: f64,
        date: Unknown,
    ) -> Result<Option<String>, String> {
        let mut is_date = false;
        // SAFETY: napi_is_date only inspects the value and writes the bool.
        unsafe { napi::sys::napi_is_date(env.raw(), date.raw(), &mut is_date) };
        if !is_date {
            throw_type_error(
                &env,
                "Generator.nextWithTime(meta, date): date must be a Date",
            )?;
            return Ok(None);
        }
        // SAFETY: the value was just checked to be a Date.
        let date = unsafe { Date::from_napi_value(env.raw(), date.raw()) }.map_err(napi_error)?;
        let unix_ms = date.value_of().map_err(napi_error)?;
        if !unix_ms.is_finite() {
            return Err(arg_error("date is an Invalid Date".to_owned()));
        }
        let nanos = (unix_ms.floor() as i64).saturating_mul(1_000_000);
        self.inner
            .new_with_unix_nanos(meta_of(Some(meta))?, nanos)
            .map(|id| Some(encode(id)))
            .map_err(js_error)
    }

    /// The state, as a plain object that round-trips through JSON.
    #[napi(catch_unwind)]
    pub fn snapshot(&self) -> Snapshot {
        let s = self.inner.snapshot();
        Snapshot {
            partition: f64::from(s.partition),
            sequence_min: f64::from(s.sequence_min),
            sequence_max: f64::from(s.sequence_max),
            sequence: f64::from(s.sequence),
            now: s.now as f64,
            wall_hi: s.wall_hi as f64,
            wall_safe: s.wall_safe as f64,
            drifts: f64::from(s.drifts),
        }
    }

    /// Counters of overflows, regressions and waits.
    #[napi(catch_unwind)]
    pub fn stats(&self) -> Stats {
        let s = self.inner.stats();
        Stats {
            overflows: s.overflows as i64,
            overflow_episodes: s.overflow_episodes as i64,
            drifts: s.drifts as i64,
            regressions: s.regressions as i64,
            waits: s.waits as i64,
        }
    }

    /// The partition.
    #[napi(getter, catch_unwind)]
    pub fn partition(&self) -> u32 {
        u32::from(self.inner.partition())
    }

    /// IDs per 4 ms unit.
    #[napi(getter, catch_unwind)]
    pub fn capacity(&self) -> u32 {
        self.inner.capacity()
    }
}
