//! One step of `nextAsync` by the core's wait policy (`sno_core::wait`): the JavaScript side
//! sleeps on a timer for what a step gives, never spinning on the clock.

use alloc::vec::Vec;
use core::time::Duration;

use sno_core::Error as SnoError;

use crate::errors::{Fail, R};
use crate::io::{put, put_decimal};

/// The largest `maxWaitMs` (that of `setTimeout`: 2^31 − 1 ms).
const MAX_WAIT_MS_LIMIT: u32 = i32::MAX as u32;

/// One attempt of `nextAsync`: `attempt` writes the value's text after a `=`; where it fails
/// with an error the core's policy waits for (`can_wait`, within `budget_ms` of what is left
/// of `maxWaitMs` — JavaScript measures it on `performance.now()` — and before `deadline_ms`,
/// the Unix milliseconds when the call began plus `maxWaitMs`), `+` and the milliseconds to
/// sleep before the next attempt (at least 1); else the error. Not generic: one copy for every
/// generator's `nextAsync`.
pub(crate) fn step(
    out: &mut Vec<u8>,
    attempt: &mut dyn FnMut(&mut Vec<u8>) -> R<()>,
    can_wait: &dyn Fn(&SnoError) -> bool,
    budget_ms: f64,
    deadline_ms: f64,
) -> R<()> {
    put(out, b"=");
    let err = match attempt(out) {
        Ok(()) => return Ok(()),
        Err(Fail::Core(err)) => err,
        Err(fail) => return Err(fail),
    };
    let ms = budget_ms.clamp(0.0, f64::from(MAX_WAIT_MS_LIMIT));
    let budget = Duration::from_micros((ms * 1e3) as u64);
    let now = sno_core::HostClock.now_unix_ns();
    let deadline = (deadline_ms * 1e6) as i64;
    let pause = sno_core::wait::next_pause(&err, can_wait, now, deadline, budget).ok_or(err)?;
    // Whole milliseconds, rounded up (in 64 bits: no 128-bit division routine).
    let length = pause.length();
    let pause_ms = length
        .as_secs()
        .saturating_mul(1000)
        .saturating_add(u64::from(length.subsec_micros().div_ceil(1000)))
        .clamp(1, u64::from(MAX_WAIT_MS_LIMIT));
    out.clear();
    put(out, b"+");
    put_decimal(out, false, pause_ms);
    Ok(())
}
