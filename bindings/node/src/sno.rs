//! sno's own surface: the hot paths of the process-wide generator (`newString`, `newText`, the
//! batch check `firstInvalid`), `Id.parse`'s check, and the `Generator` class (plain or leased).

use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::{Error as SnoError, Generator as CoreGenerator, Snapshot};
use sno_lease::{Mint, SnoGenerator};

use crate::args::{
    batch_count, clock_arg, int_arg, try_vec, type_name, typed_arg, u16_arg, with_text,
};
use crate::errors::{Class, Fail, OrThrow, R, own, range_error, throwing, type_error};
use crate::formats::js_text;
use crate::lease::process_generator;

/// Strictly validates an ID's text form (`Id.parse` calls this): exactly 16 characters of
/// `[2-9a-x]`. Throws `TypeError` for a non-string, `ERR_SNO_INVALID_*` (with `position`)
/// otherwise; errors name UTF-8 byte positions, as the core does.
#[napi(ts_args_type = "text: string", ts_return_type = "void", catch_unwind)]
pub fn check_text(env: Env, text: Unknown) -> Result<(), String> {
    with_text(&env, &text, "Id.parse(text): text", sno_core::Id::decode)
        .and_then(|r| r.map(drop).map_err(Fail::from))
        .or_throw(&env)
}

fn encode(id: sno_core::Id) -> String {
    let mut buf = [0u8; sno_core::ENCODED_LEN];
    id.encode(&mut buf).to_owned()
}

fn meta_of(meta: Option<f64>) -> R<u8> {
    Ok(int_arg("meta", meta.unwrap_or(0.0), 0, 255)? as u8)
}

/// A new ID of the process-wide generator (which bounds its waits by its maximum wait).
#[inline]
fn global_next(meta: u8) -> R<sno_core::Id> {
    Ok(process_generator()?.next(meta)?)
}

/// `n` new IDs' text forms from the process-wide generator, encoded in one SIMD batch and
/// returned as one string of `16 · n` characters (one JS string instead of `n`: `sno.js` slices
/// it; `newStrings` and `newMany` return those slices). `n` is checked first: at most
/// `MAX_BATCH`.
#[napi(
    ts_args_type = "n: number, meta?: number | undefined | null",
    ts_return_type = "string",
    catch_unwind
)]
pub fn new_text(env: &Env, n: f64, meta: Option<f64>) -> Result<napi::JsString<'_>, String> {
    let text = throwing(env, || -> R<Vec<u8>> {
        let n = batch_count(n, sno_core::ENCODED_LEN)?;
        let meta = meta_of(meta)?;
        let generator = process_generator()?;
        let mut ids = try_vec(n, "the batch's IDs")?;
        for _ in 0..n {
            ids.push(generator.next(meta)?);
        }
        let len = n * sno_core::ENCODED_LEN;
        let mut text = try_vec(len, "the batch's text")?;
        text.resize(len, 0u8);
        sno_core::Id::encode_many(&ids, &mut text)?;
        Ok(text)
    })?;
    js_text(env, &text).or_throw(env)
}

/// The index of the first invalid 16-character item in `joined` (items laid end to end; `sno.js`
/// has already checked that each is a string of 16 UTF-16 units), or -1: one SIMD batch decode
/// over all of them. `decodeMany` then asks `checkText` for that item's exact error.
#[napi(ts_args_type = "joined: string", catch_unwind)]
pub fn first_invalid(env: Env, joined: Unknown) -> Result<i64, String> {
    throwing(&env, || -> R<i64> {
        let what = "firstInvalid(joined): joined";
        let units: Utf16String = typed_arg(&env, &joined, ValueType::String, what, "a string")?;
        // A unit outside ASCII can never be in the alphabet: 0xFF marks it invalid.
        let mut bytes = try_vec(units.len(), "decodeMany's text")?;
        bytes.extend(
            units
                .iter()
                .map(|&u| u8::try_from(u).ok().filter(u8::is_ascii).unwrap_or(0xFF)),
        );
        let count = bytes.len() / sno_core::ENCODED_LEN;
        let mut ids = try_vec(count, "decodeMany's IDs")?;
        ids.resize(count, sno_core::Id::ZERO);
        Ok(match sno_core::Id::decode_many(&bytes, &mut ids) {
            Ok(()) => -1,
            Err(e) => match sno_core::Id::batch_index(&e) {
                Some(index) => index as i64,
                None => return Err(e.into()),
            },
        })
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
    let id = meta_of(meta).and_then(global_next).or_throw(env)?;
    js_text(env, &id.encode_bytes()).or_throw(env)
}

/// `newString()` without `meta` (meta 0). With no argument to read, napi-rs skips
/// `napi_get_cb_info` and `napi_typeof`, a large share of the call (measured:
/// scripts/bench-notes.md, "Node: `newString()` without `meta`").
#[napi(ts_return_type = "string", catch_unwind)]
pub fn new_string_plain(env: &Env) -> Result<napi::JsString<'_>, String> {
    let id = global_next(0).or_throw(env)?;
    js_text(env, &id.encode_bytes()).or_throw(env)
}

/// The snapshot of `values`, the numbers of the core's `Snapshot::FIELDS` in order (`sno.js`
/// has checked that there are eight): each an integer its field holds.
fn snapshot_arg(values: &[f64]) -> R<Snapshot> {
    let values = <&[f64; 8]>::try_from(values).map_err(|_| {
        range_error(format!(
            "Generator: option snapshot must have {} fields, got {}",
            Snapshot::FIELDS.len(),
            values.len()
        ))
    })?;
    let name = |i: usize| format!("Generator: option snapshot.{}", Snapshot::FIELDS[i].js_name);
    let mut ints = [0i64; 8];
    for (i, (f, &v)) in Snapshot::FIELDS.iter().zip(values).enumerate() {
        ints[i] = int_arg(&name(i), v, f.min, f.max)?;
    }
    // Within every field's range (checked above): `from_values` takes them.
    Snapshot::from_values(ints).map_err(|i| range_error(format!("{} is out of range", name(i))))
}

/// A thread-safe generator with its own partition and sequence bounds, or a lease's.
#[napi]
pub struct Generator {
    inner: SnoGenerator,
    /// As given for a plain generator; a leased one's is its lease's (by default at least one
    /// TTL and two seconds: `LeasedGenerator::max_wait`).
    max_wait_ms: u32,
    /// Waits of `nextAsync` (the core counts those of its blocking `next`).
    waits: std::sync::atomic::AtomicU64,
}

#[napi]
impl Generator {
    /// `sno.js` has checked the options object: known keys only, numbers, a snapshot as the
    /// numbers of its eight fields in order, a lease that is a `Lease`. Ranges are checked here.
    #[napi(constructor, catch_unwind)]
    #[allow(
        clippy::too_many_arguments,
        reason = "the options `sno.js` checked, passed positionally"
    )]
    pub fn new(
        env: &Env,
        partition: Option<f64>,
        sequence_min: Option<f64>,
        sequence_max: Option<f64>,
        #[napi(ts_arg_type = "Array<number> | undefined | null")] snapshot: Option<Vec<f64>>,
        max_wait_ms: Option<f64>,
        clock: Option<String>,
        lease: Option<ClassInstance<'_, crate::lease::Lease>>,
    ) -> Result<Self, String> {
        throwing(env, || -> R<Self> {
            if lease.is_some() {
                // Refused in JavaScript's words, before the lease's one generator is made.
                let conflict = |option: &str, why: &str| {
                    own(
                        Class::TypeError,
                        "ERR_INCOMPATIBLE_OPTION_PAIR",
                        format!(
                            "Generator: option lease cannot be used with option {option}: {why}"
                        ),
                    )
                };
                if partition.is_some() {
                    return Err(conflict(
                        "partition",
                        "a leased generator mints on the partition the lease holds",
                    ));
                }
                if snapshot.is_some() {
                    return Err(conflict(
                        "snapshot",
                        "a leased generator starts in its lease's window, not where a saved state left off",
                    ));
                }
            }
            let max_wait_ms = crate::args::max_wait_ms(max_wait_ms, "Generator")?;
            let b = CoreGenerator::builder()
                .clock(clock_arg(clock)?)
                .max_wait(std::time::Duration::from_millis(u64::from(max_wait_ms)))
                .sequence_bounds(
                    u16_arg("Generator: option sequenceMin", sequence_min.unwrap_or(0.0))?,
                    u16_arg(
                        "Generator: option sequenceMax",
                        sequence_max.unwrap_or(65535.0),
                    )?,
                );
            let waits = std::sync::atomic::AtomicU64::new(0);
            if let Some(lease) = lease {
                let inner = SnoGenerator::leased(&lease.inner, b, None, None)?;
                let max_wait_ms = u32::try_from(inner.max_wait().as_millis())
                    .unwrap_or(crate::args::MAX_WAIT_MS_LIMIT)
                    .min(crate::args::MAX_WAIT_MS_LIMIT);
                return Ok(Generator {
                    inner,
                    max_wait_ms,
                    waits,
                });
            }
            let snapshot = snapshot.as_deref().map(snapshot_arg);
            let partition = partition.map(|p| u16_arg("Generator: option partition", p));
            let inner = SnoGenerator::plain(b, partition.transpose()?, snapshot.transpose()?)?;
            Ok(Generator {
                inner,
                max_wait_ms,
                waits,
            })
        })
    }

    /// The next ID; sleeps (blocking this thread) while the pool is used up or the clock went
    /// back (or, leased, until a renewal covers the clock), for at most `maxWaitMs`; then throws
    /// what `tryNextString` would.
    #[napi(catch_unwind)]
    pub fn next_string(&self, env: &Env, meta: Option<f64>) -> Result<String, String> {
        meta_of(meta)
            .and_then(|meta| Ok(encode(self.inner.next(meta)?)))
            .or_throw(env)
    }

    /// The next ID or, at once, an error with code ERR_SNO_SEQUENCE_EXHAUSTED or
    /// ERR_SNO_CLOCK_REGRESSION and `retryAtUnixNs` (leased: also ERR_SNO_LEASE_EXPIRED).
    #[napi(catch_unwind)]
    pub fn try_next_string(&self, env: &Env, meta: Option<f64>) -> Result<String, String> {
        meta_of(meta)
            .and_then(|meta| Ok(encode(self.inner.try_next(meta)?)))
            .or_throw(env)
    }

    /// One attempt of `nextAsync`: the next ID's text, or the milliseconds to wait before the
    /// next attempt (the core's wait policy, with `budgetMs` left of `maxWaitMs` and its `deadlineMs`, `Date.now() + maxWaitMs` when the call began; a leased
    /// generator also waits for its lease's renewal: then the milliseconds are negative), or,
    /// when the wait gives up, the error `tryNextString` gave. `after` is what came before this
    /// attempt in the same call: 0 nothing, 1 a wait, 2 a look at an expired lease. Each wait
    /// counts in `stats().waits`, and the looks of one call at one expired lease count once.
    /// `tokenBefore` is `token` when the wait began: a leased generator whose lease has a new
    /// grant since gives 0 instead of the error where the wait gives up, and the wait starts
    /// again with a whole `maxWaitMs` (`LeasedGenerator::waits_again`, as `next` does).
    #[napi(
        ts_args_type = "meta: number | undefined, budgetMs: number, deadlineMs: number, after: number, tokenBefore: bigint",
        ts_return_type = "string | number",
        catch_unwind
    )]
    pub fn step_string(
        &self,
        env: &Env,
        meta: Option<f64>,
        budget_ms: f64,
        deadline_ms: f64,
        after: u32,
        token_before: napi::bindgen_prelude::BigInt,
    ) -> Result<Either<String, i32>, String> {
        throwing(env, || {
            if after != 0 {
                // A timer's wait is over: the fast clock sees the time waited for at once.
                sno_core::wait::resumed();
            }
            let err = match self.inner.try_next(meta_of(meta)?) {
                Ok(id) => return Ok(Either::A(encode(id))),
                Err(e) => e,
            };
            let can_wait = |e: &SnoError| self.inner.can_wait(e);
            let Some(ms) = crate::args::async_pause_ms(&err, can_wait, budget_ms, deadline_ms)
            else {
                return if self.inner.waits_again(token_before.get_u64().1, &err) {
                    Ok(Either::B(0))
                } else {
                    Err(err.into())
                };
            };
            let lease = matches!(err, SnoError::LeaseExpired { .. });
            if !(lease && after == 2) {
                self.waits
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Ok(Either::B(if lease { -(ms as i32) } else { ms as i32 }))
        })
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
    ) -> Result<String, String> {
        throwing(&env, || -> R<String> {
            let mut is_date = false;
            // SAFETY: napi_is_date only inspects the value and writes the bool.
            unsafe { napi::sys::napi_is_date(env.raw(), date.raw(), &mut is_date) };
            if !is_date {
                return Err(type_error(format!(
                    "Generator.nextWithTime(meta, date): date must be a Date, got {}",
                    type_name(&date)
                )));
            }
            // SAFETY: the value was just checked to be a Date.
            let date = unsafe { Date::from_napi_value(env.raw(), date.raw()) }?;
            let unix_ms = date.value_of()?;
            if !unix_ms.is_finite() {
                return Err(range_error(
                    "Generator.nextWithTime(meta, date): date is an Invalid Date".to_owned(),
                ));
            }
            self.at_unix_ms(meta, unix_ms.floor() as i64)
        })
    }

    /// An ID for a time in Unix milliseconds, with its own wrapping sequence (porting,
    /// back-filling); times outside 2010 .. 2079-09-07 throw ERR_SNO_TIME_OUT_OF_RANGE.
    #[napi(ts_return_type = "string", catch_unwind)]
    pub fn next_at_unix_ms_string(
        &self,
        env: Env,
        meta: f64,
        unix_ms: f64,
    ) -> Result<String, String> {
        throwing(&env, || {
            let ms = int_arg(
                "Generator.nextAtUnixMs(meta, unixMs): unixMs",
                unix_ms,
                i64::MIN,
                i64::MAX,
            )?;
            self.at_unix_ms(meta, ms)
        })
    }

    /// The text of the ID for `unix_ms` (a leased generator refuses).
    fn at_unix_ms(&self, meta: f64, unix_ms: i64) -> R<String> {
        let meta = meta_of(Some(meta))?;
        Ok(encode(self.inner.next_at_unix_ns(
            meta,
            unix_ms.saturating_mul(1_000_000),
        )?))
    }

    /// The state, as the numbers of the core's `Snapshot::FIELDS` in order (`sno.js` makes them
    /// the plain object that round-trips through JSON; a leased generator refuses: its state is
    /// the lease's).
    #[napi(catch_unwind)]
    pub fn snapshot(&self, env: &Env) -> Result<Vec<i64>, String> {
        let s = self.inner.snapshot().map_err(Fail::from).or_throw(env)?;
        Ok(s.to_values().to_vec())
    }

    /// Counters of overflows, regressions and waits, in the order of the core's `Stats::FIELDS`.
    #[napi(catch_unwind)]
    pub fn stats(&self) -> Vec<i64> {
        let mut s = self.inner.stats();
        let waits = self.waits.load(std::sync::atomic::Ordering::Relaxed);
        s.waits = s.waits.saturating_add(waits);
        s.to_values()
            .map(|n| i64::try_from(n).unwrap_or(i64::MAX))
            .to_vec()
    }

    /// The partition (leased: the lease's, which changes if the lease is lost and replaced).
    #[napi(getter, catch_unwind)]
    pub fn partition(&self) -> u32 {
        u32::from(self.inner.partition())
    }

    /// IDs per 4 ms unit.
    #[napi(getter, catch_unwind)]
    pub fn capacity(&self) -> u32 {
        self.inner.capacity()
    }

    /// The longest `next` / `nextAsync` waits, in milliseconds.
    #[napi(getter, catch_unwind)]
    pub fn max_wait_ms(&self) -> u32 {
        self.max_wait_ms
    }

    /// The fencing token of a leased generator's current grant (0 unleased; a bigint, as the
    /// lease's): what `nextAsync` passes to `stepString` as `tokenBefore`.
    #[napi(getter, catch_unwind)]
    pub fn token(&self) -> u64 {
        self.inner.token()
    }
}
