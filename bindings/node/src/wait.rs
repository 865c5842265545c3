//! The maximum wait of every Node generator (`maxWaitMs`, default the core's 5 s), and the
//! blocking `next()` of the format generators, bounded by it: it sleeps (never spins) until a
//! retry can succeed, but never past the maximum wait; then the error `tryNext()` would have
//! thrown is thrown, `retryAtUnixNs` included. (The sno `Generator` gets the same from the
//! core's `GeneratorBuilder::max_wait`.) `nextAsync()` (in JS) follows the same rule with timers
//! instead of sleeps.

use std::time::{Duration, Instant};

use sno_core::Error as SnoError;

use crate::fail::{R, range_error};

/// The default maximum wait of a generator's `next()` and `nextAsync()`, in milliseconds: the
/// core's `DEFAULT_MAX_WAIT` (5 s).
pub const DEFAULT_MAX_WAIT_MS: u32 = sno_core::time::DEFAULT_MAX_WAIT.as_millis() as u32;

/// The largest `maxWaitMs` (that of `setTimeout`: 2^31 − 1 ms, about 24.8 days).
pub const MAX_WAIT_MS_LIMIT: u32 = i32::MAX as u32;

/// The shortest sleep between two attempts: a retry time already past (a clock read that lags,
/// as `CLOCK_REALTIME_COARSE` can) still gives the clock time to move.
const MIN_SLEEP: Duration = Duration::from_micros(100);

/// `maxWaitMs` checked: an integer in `0 ..= 2^31 - 1`.
pub(crate) fn max_wait_ms(value: Option<f64>, what: &str) -> R<u32> {
    let Some(v) = value else {
        return Ok(DEFAULT_MAX_WAIT_MS);
    };
    if v.fract() == 0.0 && (0.0..=f64::from(MAX_WAIT_MS_LIMIT)).contains(&v) {
        Ok(v as u32)
    } else {
        Err(range_error(format!(
            "{what}: option maxWaitMs must be an integer in 0..={MAX_WAIT_MS_LIMIT}, got {v}"
        )))
    }
}

/// `attempt()` until it succeeds, sleeping until the retry time of each retryable error, for
/// at most `max_wait_ms` in all (by the monotonic clock, so a frozen or jumping wall clock cannot
/// stretch it).
#[inline]
pub(crate) fn bounded<T>(
    max_wait_ms: u32,
    mut attempt: impl FnMut() -> Result<T, SnoError>,
) -> Result<T, SnoError> {
    match attempt() {
        Err(e) => wait_and_retry(max_wait_ms, e, attempt),
        ok => ok,
    }
}

#[cold]
fn wait_and_retry<T>(
    max_wait_ms: u32,
    mut err: SnoError,
    mut attempt: impl FnMut() -> Result<T, SnoError>,
) -> Result<T, SnoError> {
    let start = Instant::now();
    let max = Duration::from_millis(u64::from(max_wait_ms));
    let deadline = sno_core::SystemClock::precise_unix_nanos()
        .saturating_add(i64::from(max_wait_ms) * 1_000_000);
    loop {
        let Some(at) = err.retry_at_unix_nanos() else {
            return Err(err);
        };
        let elapsed = start.elapsed();
        if at > deadline || elapsed >= max {
            return Err(err);
        }
        let until = Duration::from_nanos(
            at.saturating_sub(sno_core::SystemClock::precise_unix_nanos())
                .max(0) as u64,
        );
        std::thread::sleep(until.min(max - elapsed).max(MIN_SLEEP));
        match attempt() {
            Ok(v) => return Ok(v),
            Err(e) => err = e,
        }
    }
}
