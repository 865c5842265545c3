//! The maximum wait of every Node generator (`maxWaitMs`, default the core's 5 s). The blocking
//! `next()` of the format generators is the core's (`AnyGenerator::next_text`, under the one wait
//! policy of `sno_core::wait`): it sleeps (never spins) until a retry can succeed, but never past
//! the maximum wait; then the error `tryNext()` would have thrown is thrown, `retryAtUnixNs`
//! included. (The sno `Generator` gets the same from the core's `GeneratorBuilder::max_wait`.)
//! `nextAsync()` (in JS) follows the same rule with timers instead of sleeps.

use crate::fail::{R, range_error};

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
    if v.fract() == 0.0 && (0.0..=f64::from(MAX_WAIT_MS_LIMIT)).contains(&v) {
        Ok(v as u32)
    } else {
        Err(range_error(format!(
            "{what}: option maxWaitMs must be an integer in 0..={MAX_WAIT_MS_LIMIT}, got {v}"
        )))
    }
}
