//! The Node.js addon: `Id`, `Generator`, `newId`, `newIds`, `newString`. Calls `sno-core`
//! directly, never the C ABI. Every export runs under `catch_unwind`.
#![allow(missing_docs, reason = "napi-derive generates undocumented glue")]

use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::{Error as SnoError, Generator as CoreGenerator, SystemClock};

/// A core error as a JS `Error` whose `code` is `ERR_SNO_<KIND>`.
fn js_error(e: SnoError) -> Error<String> {
    Error::new(
        format!("ERR_SNO_{}", e.code().to_ascii_uppercase()),
        e.to_string(),
    )
}

fn napi_error(e: Error) -> Error<String> {
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

fn arg_error(message: String) -> Error<String> {
    Error::new("ERR_SNO_INVALID_ARGUMENT".to_owned(), message)
}

/// A sno ID: 10 bytes, ordered by time.
#[napi]
pub struct Id {
    inner: sno_core::Id,
}

#[napi]
impl Id {
    /// Strictly decodes the 16-character text form.
    #[napi(ts_args_type = "text: string", ts_return_type = "Id", catch_unwind)]
    pub fn parse(env: Env, text: Unknown) -> Result<Option<Id>, String> {
        if !is_type(&text, ValueType::String)? {
            throw_type_error(&env, "Id.parse(text): text must be a string")?;
            return Ok(None);
        }
        // SAFETY: the value was just checked to be a JS string.
        let text: String =
            unsafe { String::from_napi_value(env.raw(), text.raw()) }.map_err(napi_error)?;
        sno_core::Id::decode(text.as_bytes())
            .map(|inner| Some(Id { inner }))
            .map_err(js_error)
    }

    /// Takes the 10-byte binary form (a Buffer or Uint8Array).
    #[napi(
        ts_args_type = "bytes: Uint8Array",
        ts_return_type = "Id",
        catch_unwind
    )]
    pub fn from_bytes(env: Env, bytes: Unknown) -> Result<Option<Id>, String> {
        // SAFETY: napi_is_typedarray only inspects the value.
        let typed = unsafe { Uint8Array::validate(env.raw(), bytes.raw()) }.is_ok();
        if !typed {
            throw_type_error(
                &env,
                "Id.fromBytes(bytes): bytes must be a Buffer or Uint8Array",
            )?;
            return Ok(None);
        }
        // SAFETY: the value was just checked to be a Uint8Array.
        let array =
            unsafe { Uint8Array::from_napi_value(env.raw(), bytes.raw()) }.map_err(napi_error)?;
        sno_core::Id::from_slice(&array)
            .map(|inner| Some(Id { inner }))
            .map_err(js_error)
    }

    /// The 16-character text form.
    #[napi(catch_unwind)]
    #[allow(clippy::inherent_to_string, reason = "the JS method is toString")]
    pub fn to_string(&self) -> String {
        self.inner.to_string()
    }

    /// JSON form: the text.
    #[napi(js_name = "toJSON", catch_unwind)]
    pub fn to_json(&self) -> String {
        self.inner.to_string()
    }

    /// The 10 bytes as a new Buffer.
    #[napi(getter, catch_unwind)]
    pub fn bytes(&self) -> Buffer {
        Buffer::from(self.inner.as_bytes().to_vec())
    }

    /// Start of the 4 ms unit as a `Date`.
    #[napi(getter, catch_unwind)]
    pub fn timestamp<'env>(&self, env: &'env Env) -> Result<Date<'env>> {
        env.create_date(self.inner.unix_millis() as f64)
    }

    /// Start of the 4 ms unit in milliseconds since the Unix epoch.
    #[napi(getter, catch_unwind)]
    pub fn unix_ms(&self) -> i64 {
        self.inner.unix_millis()
    }

    /// Start of the 4 ms unit in nanoseconds since the Unix epoch.
    #[napi(getter, catch_unwind)]
    pub fn unix_ns(&self) -> BigInt {
        BigInt::from(self.inner.unix_nanos())
    }

    /// The raw timestamp in 4 ms units since 2010.
    #[napi(getter, catch_unwind)]
    pub fn units(&self) -> i64 {
        self.inner.timestamp() as i64
    }

    /// The meta byte.
    #[napi(getter, catch_unwind)]
    pub fn meta(&self) -> u32 {
        u32::from(self.inner.meta())
    }

    /// The partition.
    #[napi(getter, catch_unwind)]
    pub fn partition(&self) -> u32 {
        u32::from(self.inner.partition())
    }

    /// The sequence.
    #[napi(getter, catch_unwind)]
    pub fn sequence(&self) -> u32 {
        u32::from(self.inner.sequence())
    }

    /// The tick-tock bit.
    #[napi(getter, catch_unwind)]
    pub fn tick_tock(&self) -> bool {
        self.inner.tick_tock()
    }

    /// -1, 0 or 1 by time order.
    #[napi(catch_unwind)]
    pub fn compare(&self, other: &Id) -> i32 {
        self.inner.cmp(&other.inner) as i32
    }

    /// Whether both IDs hold the same bytes.
    #[napi(catch_unwind)]
    pub fn equals(&self, other: &Id) -> bool {
        self.inner == other.inner
    }
}

/// An integer argument in `min..=max`: NaN, fractions and out-of-range numbers are errors
/// (napi's own u32 conversion would wrap -1 to 4294967295).
fn int_arg(name: &str, v: f64, min: i64, max: i64) -> Result<i64, String> {
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

/// A new ID from the process-wide generator.
#[napi(catch_unwind)]
pub fn new_id(meta: Option<f64>) -> Result<Id, String> {
    next_on(sno_core::global_generator(), meta).map(|inner| Id { inner })
}

/// `n` new IDs from the process-wide generator.
#[napi(catch_unwind)]
pub fn new_ids(n: f64, meta: Option<f64>) -> Result<Vec<Id>, String> {
    let g = sno_core::global_generator();
    let n = int_arg("n", n, 0, i64::from(u32::MAX))?;
    (0..n)
        .map(|_| next_on(g, meta).map(|inner| Id { inner }))
        .collect()
}

/// A new ID's text form, straight from the process-wide generator (the fast path).
#[napi(catch_unwind)]
pub fn new_string(meta: Option<f64>) -> Result<String, String> {
    let id = next_on(sno_core::global_generator(), meta)?;
    let mut buf = [0u8; sno_core::ENCODED_LEN];
    Ok(id.encode(&mut buf).to_owned())
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
    pub fn next(&self, meta: Option<f64>) -> Result<Id, String> {
        next_on(&self.inner, meta).map(|inner| Id { inner })
    }

    /// The next ID or, at once, an error with code ERR_SNO_SEQUENCE_EXHAUSTED or
    /// ERR_SNO_CLOCK_REGRESSION.
    #[napi(catch_unwind)]
    pub fn try_next(&self, meta: Option<f64>) -> Result<Id, String> {
        self.inner
            .try_next(meta_of(meta)?)
            .map(|inner| Id { inner })
            .map_err(js_error)
    }

    /// An ID for the time of a `Date`, with its own wrapping sequence (porting, back-filling);
    /// times outside 2010 .. 2079-09-07 throw ERR_SNO_TIME_OUT_OF_RANGE.
    #[napi(
        ts_args_type = "meta: number, date: Date",
        ts_return_type = "Id",
        catch_unwind
    )]
    pub fn next_with_time(&self, env: Env, meta: f64, date: Unknown) -> Result<Option<Id>, String> {
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
            .map(|inner| Some(Id { inner }))
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
