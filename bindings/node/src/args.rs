//! Reading and checking the arguments JavaScript passes: their types (`TypeError`,
//! `ERR_INVALID_ARG_TYPE`) and ranges (`RangeError`, `ERR_SNO_INVALID_ARGUMENT`), strings read
//! without allocating where they fit, batch counts checked before anything is made, and the
//! maximum wait of every generator (`maxWaitMs`, default the core's 5 s; the waiting itself is
//! the core's, `sno_core::wait`).

use napi::bindgen_prelude::*;

use crate::errors::{Class, Fail, R, out_of_memory, range_error, type_error};

/// The longest string V8 holds on 64-bit platforms (`buffer.constants.MAX_STRING_LENGTH`;
/// a test checks it against the running Node). A batch's texts are one string.
pub const V8_MAX_STRING_LENGTH: usize = (1 << 29) - 24;

/// `typeof value`, for messages.
pub(crate) fn type_name(value: &Unknown) -> &'static str {
    match value.get_type() {
        Ok(ValueType::Undefined) => "undefined",
        Ok(ValueType::Null) => "null",
        Ok(ValueType::Boolean) => "boolean",
        Ok(ValueType::Number) => "number",
        Ok(ValueType::String) => "string",
        Ok(ValueType::Symbol) => "symbol",
        Ok(ValueType::Object) => "object",
        Ok(ValueType::Function) => "function",
        Ok(ValueType::External) => "external",
        Ok(ValueType::BigInt) => "bigint",
        _ => "unknown",
    }
}

/// `value` read as `T` when its JavaScript type is `ty`, else a `TypeError`: "`what` must be
/// `expected`, got <its type>".
pub(crate) fn typed_arg<T: FromNapiValue>(
    env: &Env,
    value: &Unknown,
    ty: ValueType,
    what: &str,
    expected: &str,
) -> R<T> {
    if value.get_type()? != ty {
        return Err(type_error(format!(
            "{what} must be {expected}, got {}",
            type_name(value)
        )));
    }
    // SAFETY: `env` and `value` are the live handles of the current call; the value was just
    // checked to be of type `ty` (and napi checks the type `T` reads again).
    Ok(unsafe { T::from_napi_value(env.raw(), value.raw()) }?)
}

/// The UTF-8 text of `value`, or a `TypeError` naming `what`.
pub(crate) fn text_arg(env: &Env, value: &Unknown, what: &str) -> R<String> {
    typed_arg(env, value, ValueType::String, what, "a string")
}

/// Room for the longest text any decoder accepts (`MAX_TEXT_LEN`: a text with the longest
/// prefix) and a character more: longer strings are read through their UTF-8 copy.
const MAX_INPUT: usize = sno_core::model::MAX_TEXT_LEN + 2;

/// Calls `f` with the bytes of a JS string: an ASCII string shorter than `MAX_INPUT` read into a
/// stack buffer (no allocation, the common case), any other string through its UTF-8 copy. For
/// a non-string, a `TypeError` naming `what`.
pub(crate) fn with_text<T>(
    env: &Env,
    value: &Unknown,
    what: &str,
    f: impl FnOnce(&[u8]) -> T,
) -> R<T> {
    let mut buf = [0u8; MAX_INPUT];
    if let Some(ascii) = ascii_text(env, value, &mut buf) {
        return Ok(f(ascii));
    }
    Ok(f(text_arg(env, value, what)?.as_bytes()))
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

/// The name of a typed array type, for messages.
fn typed_array_name(ty: napi::sys::napi_typedarray_type) -> &'static str {
    use napi::sys::TypedarrayType as T;
    match ty {
        T::int8_array => "Int8Array",
        T::uint8_clamped_array => "Uint8ClampedArray",
        T::int16_array => "Int16Array",
        T::uint16_array => "Uint16Array",
        T::int32_array => "Int32Array",
        T::uint32_array => "Uint32Array",
        T::float32_array => "Float32Array",
        T::float64_array => "Float64Array",
        T::bigint64_array => "BigInt64Array",
        T::biguint64_array => "BigUint64Array",
        _ => "a typed array",
    }
}

/// The bytes of a `Buffer`/`Uint8Array`, or a `TypeError` naming `what` (other typed arrays
/// included: a `Uint16Array` is not bytes).
pub(crate) fn bytes_arg(env: &Env, value: &Unknown, what: &str) -> R<Uint8Array> {
    bytes_or(env, value, what, "a Buffer or Uint8Array")
}

/// [`bytes_arg`] of an argument that takes more than bytes: its `TypeError` says that it must
/// be `expected`.
pub(crate) fn bytes_or(env: &Env, value: &Unknown, what: &str, expected: &str) -> R<Uint8Array> {
    let mut is_typed = false;
    // SAFETY: napi_is_typedarray only inspects the value and writes the bool.
    unsafe { napi::sys::napi_is_typedarray(env.raw(), value.raw(), &mut is_typed) };
    let mut ty = -1;
    if is_typed {
        let (mut len, mut data, mut buffer, mut offset) =
            (0usize, std::ptr::null_mut(), std::ptr::null_mut(), 0usize);
        // SAFETY: the value is a typed array; every out-pointer is valid.
        unsafe {
            napi::sys::napi_get_typedarray_info(
                env.raw(),
                value.raw(),
                &mut ty,
                &mut len,
                &mut data,
                &mut buffer,
                &mut offset,
            )
        };
    }
    if ty != napi::sys::TypedarrayType::uint8_array {
        let got = if is_typed {
            typed_array_name(ty)
        } else {
            type_name(value)
        };
        return Err(type_error(format!("{what} must be {expected}, got {got}")));
    }
    // SAFETY: the value was just checked to be a Uint8Array.
    Ok(unsafe { Uint8Array::from_napi_value(env.raw(), value.raw()) }?)
}

/// The largest integer a JS number holds exactly (`Number.MAX_SAFE_INTEGER`).
pub(crate) const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// An integer argument in `min..=max` (bounds taken within the safe integers, so a number that
/// only rounds into range, like 2^63 for `i64::MAX`, is refused, never clamped): NaN, fractions
/// and out-of-range numbers are a `RangeError` (napi's own u32 conversion would wrap -1 to
/// 4294967295).
pub(crate) fn int_arg(name: &str, v: f64, min: i64, max: i64) -> R<i64> {
    let (min, max) = (min.max(-MAX_SAFE_INTEGER), max.min(MAX_SAFE_INTEGER));
    if v.fract() == 0.0 && v >= min as f64 && v <= max as f64 {
        Ok(v as i64)
    } else {
        Err(range_error(format!(
            "{name} must be an integer in {min}..={max}, got {v}"
        )))
    }
}

/// A batch count: an integer (else `RangeError` ERR_SNO_INVALID_ARGUMENT), at most `MAX_BATCH`
/// (else `RangeError` ERR_SNO_BATCH_TOO_LARGE), and with `width` characters per ID a string V8
/// can hold: checked before anything is generated or allocated.
pub(crate) fn batch_count(n: f64, width: usize) -> R<usize> {
    if n.is_nan() || (n.is_finite() && n.fract() != 0.0) {
        return Err(range_error(format!("n must be an integer, got {n}")));
    }
    // `as` saturates: ±Infinity and 2^63 are counts above the maximum, or negative.
    let len = sno_core::batch_len(n as i128)?;
    let max = V8_MAX_STRING_LENGTH / width.max(1);
    if len > max {
        return Err(Fail::Own {
            class: Class::RangeError,
            code: sno_core::ErrorKind::BatchTooLarge.js_code(),
            message: format!(
                "sno: a batch of {len} texts of {width} characters is longer than the longest \
                 string V8 holds ({V8_MAX_STRING_LENGTH} characters): at most {max} per call"
            ),
            max: Some(max as u64),
        });
    }
    Ok(len)
}

/// An empty vector with room for `len` items, or an `ERR_MEMORY_ALLOCATION_FAILED` error.
pub(crate) fn try_vec<T>(len: usize, what: &str) -> R<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| out_of_memory(what, len.saturating_mul(size_of::<T>())))?;
    Ok(v)
}

/// A `clock` option (`sno.js` has checked it is a string): the system clock the core names so
/// (`'precise'`, the default, or `'fast'`), else a RangeError ERR_SNO_UNKNOWN_CLOCK.
pub(crate) fn clock_arg(clock: Option<String>) -> R<sno_core::SystemClock> {
    match clock {
        None => Ok(sno_core::SystemClock::default()),
        Some(name) => name
            .parse()
            .map(sno_core::SystemClock::with_kind)
            .map_err(Fail::Argument),
    }
}

pub(crate) fn u16_arg(name: &str, v: f64) -> R<u16> {
    Ok(int_arg(name, v, 0, 65535)? as u16)
}

/// The default maximum wait of a generator's `next()` and `nextAsync()`, in milliseconds: the
/// core's `DEFAULT_MAX_WAIT` (5 s).
pub const DEFAULT_MAX_WAIT_MS: u32 = sno_core::time::DEFAULT_MAX_WAIT.as_millis() as u32;

/// The largest `maxWaitMs` (that of `setTimeout`: 2^31 − 1 ms, about 24.8 days).
pub const MAX_WAIT_MS_LIMIT: u32 = i32::MAX as u32;

/// `maxWaitMs` checked: an integer in `0 ..= 2^31 - 1`.
pub(crate) fn max_wait_ms(value: Option<f64>, what: &str) -> R<u32> {
    let Some(v) = value else {
        return Ok(DEFAULT_MAX_WAIT_MS);
    };
    let limit = i64::from(MAX_WAIT_MS_LIMIT);
    Ok(int_arg(&format!("{what}: option maxWaitMs"), v, 0, limit)? as u32)
}

/// How often `nextAsync` of a leased generator looks again while its lease does not cover the
/// clock (ERR_SNO_LEASE_EXPIRED, renewals failing): the lease's own thread renews, so a look
/// only notices it.
const LEASE_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// One step of `nextAsync`'s wait, by the core's policy (`sno_core::wait::next_pause`): the
/// milliseconds its timer sleeps after `err` before the next attempt (at least 1), or `None`
/// when the wait gives up and `err` rejects the promise. `budget_ms` is what is left of
/// `maxWaitMs` (the JavaScript side measures it on `performance.now()`), `deadline_ms` the
/// Unix time in ms when the call began plus `maxWaitMs`; `can_wait` is the
/// generator's own (a leased one adds its lease's renewal, looked at every `LEASE_POLL`).
pub(crate) fn async_pause_ms(
    err: &sno_core::Error,
    can_wait: impl Fn(&sno_core::Error) -> bool,
    budget_ms: f64,
    deadline_ms: f64,
) -> Option<u32> {
    // NaN or negative: nothing left; never more than the largest maxWaitMs.
    let ms = if budget_ms > 0.0 {
        budget_ms.min(f64::from(MAX_WAIT_MS_LIMIT))
    } else {
        0.0
    };
    let budget = std::time::Duration::from_secs_f64(ms / 1e3);
    let now = sno_core::SystemClock::precise_unix_ns();
    // The deadline in Unix ns (`Date.now() + maxWaitMs` when the call began); NaN: none left.
    let deadline = if deadline_ms.is_finite() {
        (deadline_ms * 1e6) as i64
    } else {
        i64::MIN
    };
    let pause = sno_core::wait::next_pause(err, can_wait, now, deadline, budget)?;
    let length = match pause.until_retry {
        Some(_) => pause.length(),
        None => pause.length().min(LEASE_POLL),
    };
    Some(
        length
            .as_micros()
            .div_ceil(1000)
            .clamp(1, u128::from(MAX_WAIT_MS_LIMIT)) as u32,
    )
}

/// The largest epoch (and time) in Unix milliseconds a JS `Date` holds: ±8.64e15.
pub(crate) const MAX_DATE_MS: i64 = 8_640_000_000_000_000;

/// An epoch in Unix milliseconds: an integer within the `Date` range (`-8.64e15 ..= 8.64e15`;
/// the core refuses what a format does not take, such as a generator's negative epoch), else a
/// `RangeError` naming `what`.
pub(crate) fn epoch_arg(what: &str, epoch_ms: f64) -> R<i64> {
    int_arg(what, epoch_ms, -MAX_DATE_MS, MAX_DATE_MS)
}
