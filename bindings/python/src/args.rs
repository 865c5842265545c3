//! Arguments checked for the bindings' signatures: the `clock=` name, and integers. Every `int` parameter takes any Python int (or object with `__index__`) and
//! is checked here, so that a value outside the parameter's range raises the documented error
//! naming the parameter (`ConfigError`, code `"invalid_argument"`; `TimeRangeError` for times;
//! `ConfigError` `"batch_too_large"` for counts), never a bare `OverflowError`. Used through
//! `#[pyo3(from_py_with = ...)]`, which keeps the literal defaults in the signatures.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use sno_core::Error;

use crate::{raise_code, to_py};

/// A Python int, read exactly where it fits in an `i128`.
#[derive(Clone, Copy)]
enum Wide {
    Fits(i128),
    Below,
    Above,
}

impl Wide {
    fn read(obj: &Bound<'_, PyAny>) -> PyResult<Wide> {
        match obj.extract::<i128>() {
            Ok(v) => Ok(Wide::Fits(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(if obj.lt(0i32)? {
                Wide::Below
            } else {
                Wide::Above
            }),
            Err(e) => Err(e),
        }
    }

    /// The value, saturated to the `i128` range.
    fn saturated(self) -> i128 {
        match self {
            Wide::Fits(v) => v,
            Wide::Below => i128::MIN,
            Wide::Above => i128::MAX,
        }
    }

    /// The value for a message (never `str()` of the int: huge ints exceed Python's
    /// `int_max_str_digits`).
    fn show(self) -> String {
        match self {
            Wide::Fits(v) => v.to_string(),
            Wide::Below => "an int below -2**127".into(),
            Wide::Above => "an int above 2**127".into(),
        }
    }
}

/// A `ConfigError` with code `"invalid_argument"`: an argument outside its documented range.
pub(crate) fn invalid_argument(py: Python<'_>, msg: String) -> PyErr {
    raise_code(py, "ConfigError", "invalid_argument", msg)
}

/// `obj` as an int in `lo..=hi`, else `ConfigError("<name> must be in lo..=hi, got v")`.
pub(crate) fn ranged(obj: &Bound<'_, PyAny>, name: &str, lo: i128, hi: i128) -> PyResult<i128> {
    match Wide::read(obj)? {
        Wide::Fits(v) if (lo..=hi).contains(&v) => Ok(v),
        w => Err(invalid_argument(
            obj.py(),
            format!("{name} must be in {lo}..={hi}, got {}", w.show()),
        )),
    }
}

/// Defines one extractor per parameter name: `fn name(obj) -> PyResult<T>` accepting `lo..=hi`.
macro_rules! int_args {
    ($($(#[$doc:meta])* $f:ident: $t:ty = $name:literal in $lo:expr, $hi:expr;)*) => {
        $(
            $(#[$doc])*
            pub(crate) fn $f(obj: &Bound<'_, PyAny>) -> PyResult<$t> {
                // The range fits `$t`, so the cast is exact.
                ranged(obj, $name, $lo as i128, $hi as i128).map(|v| v as $t)
            }
        )*
    };
}

int_args! {
    /// The meta byte of a sno ID.
    meta: u8 = "meta" in 0, u8::MAX;
    /// A sno partition.
    partition: u16 = "partition" in 0, u16::MAX;
    /// A sno generator's lower sequence bound.
    sequence_min: u16 = "sequence_min" in 0, u16::MAX;
    /// A sno generator's upper sequence bound.
    sequence_max: u16 = "sequence_max" in 0, u16::MAX;
    /// A Nanoflakes generator id.
    generator_id: u16 = "generator_id" in 0, sno_core::nanoflake::MAX_GENERATOR_ID;
    /// A Ulid-Flake generator's random bytes per increment (1..=2 with a sid, checked apart).
    entropy_size: u8 = "entropy_size" in 1, 3;
    /// A sno generator's maximum wait, in milliseconds.
    max_wait_ms: u32 = "max_wait_ms" in 0, u32::MAX;
    /// A generator's epoch: Unix milliseconds, not negative.
    epoch_ms: i64 = "epoch_ms" in 0, i64::MAX;
    /// The epoch an existing value is read with: any 64-bit Unix milliseconds.
    any_epoch_ms: i64 = "epoch_ms" in i64::MIN, i64::MAX;
}

/// An optional partition (`None`: the default).
pub(crate) fn opt_partition(obj: &Bound<'_, PyAny>) -> PyResult<Option<u16>> {
    if obj.is_none() {
        return Ok(None);
    }
    partition(obj).map(Some)
}

/// An optional Ulid-Flake scalability id (`None`: stand-alone values).
pub(crate) fn opt_sid(obj: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    if obj.is_none() {
        return Ok(None);
    }
    sid(obj).map(Some)
}

/// A Ulid-Flake `sid`: 0 ..= 31.
pub(crate) fn sid(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    ranged(obj, "sid", 0, sno_core::ulidflake::MAX_SID.into()).map(|v| v as u8)
}

/// A time (Unix ns or ms): saturated to the `i64` range, where the core reports it as out of
/// range (`TimeRangeError`), as it does for every other time outside the format's range.
pub(crate) fn time_i64(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let v = Wide::read(obj)?.saturated();
    Ok(v.clamp(i64::MIN.into(), i64::MAX.into()) as i64)
}

/// A batch count: `0 ..= MAX_BATCH`, else `ConfigError` with code `"batch_too_large"`, checked
/// before anything is allocated.
pub(crate) fn count(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let requested = Wide::read(obj)?.saturated();
    sno_core::batch_len(requested).map_err(|e| to_py(obj.py(), e))
}

/// A number field given to `from_fields`: an int in `0 ..= 2**128 - 1`, else the core's
/// `ValueOverflow` (a `DecodeError`, code `"value_overflow"`; the core checks each field's own
/// width the same way).
pub(crate) fn field_u128(obj: &Bound<'_, PyAny>) -> PyResult<u128> {
    match obj.extract::<u128>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(to_py(obj.py(), Error::ValueOverflow))
        }
        Err(e) => Err(e),
    }
}

/// A `clock=` argument: `"precise"` or `"fast"` (any case, parsed by the core) as the system
/// clock of that kind, `None` for the default (precise); another string is `ConfigError` with
/// code `"unknown_clock"`, another type a `TypeError`.
pub(crate) fn clock(obj: &Bound<'_, PyAny>) -> PyResult<Option<sno_core::SystemClock>> {
    if obj.is_none() {
        return Ok(None);
    }
    let name: &str = obj.extract()?;
    name.parse()
        .map(|kind| Some(sno_core::SystemClock::with_kind(kind)))
        .map_err(|e| to_py(obj.py(), e))
}
