//! One step of `nextAsync`'s wait, by the core's policy (`sno_core::wait::next_pause`): the
//! JavaScript side sleeps on a timer for what a step gives, never spinning on the clock.

use std::time::Duration;

/// The largest `maxWaitMs` (that of `setTimeout`: 2^31 − 1 ms).
const MAX_WAIT_MS_LIMIT: u32 = i32::MAX as u32;

/// The milliseconds a timer sleeps after `err` before the next attempt (at least 1), or `None`
/// when the wait gives up and `err` is the answer. `budget_ms` is what is left of `maxWaitMs`
/// (JavaScript measures it on `performance.now()`), `deadline_ms` the Unix time in ms when the
/// call began plus `maxWaitMs`; `can_wait` is the generator's own.
pub(crate) fn pause_ms(
    err: &sno_core::Error,
    can_wait: impl Fn(&sno_core::Error) -> bool,
    budget_ms: f64,
    deadline_ms: f64,
) -> Option<u32> {
    let ms = if budget_ms > 0.0 {
        budget_ms.min(f64::from(MAX_WAIT_MS_LIMIT))
    } else {
        0.0
    };
    let budget = Duration::from_micros((ms * 1e3) as u64);
    let now = sno_core::SystemClock::precise_unix_ns();
    let deadline = if deadline_ms.is_finite() {
        (deadline_ms * 1e6) as i64
    } else {
        i64::MIN
    };
    let pause = sno_core::wait::next_pause(err, can_wait, now, deadline, budget)?;
    Some(
        pause
            .length()
            .as_micros()
            .div_ceil(1000)
            .clamp(1, u128::from(MAX_WAIT_MS_LIMIT)) as u32,
    )
}

/// The output of a step that made a value: `=` and its text; of one that waits: `+` and the
/// milliseconds (`Generator.nextAsync`'s loop reads either).
pub(crate) fn step_out(
    attempt: Result<(), sno_core::Error>,
    out: &mut Vec<u8>,
    can_wait: impl Fn(&sno_core::Error) -> bool,
    budget_ms: f64,
    deadline_ms: f64,
) -> crate::errors::R<()> {
    match attempt {
        Ok(()) => {
            out.insert(0, b'=');
            Ok(())
        }
        Err(err) => {
            let ms = pause_ms(&err, can_wait, budget_ms, deadline_ms).ok_or(err)?;
            out.clear();
            out.push(b'+');
            out.extend_from_slice(ms.to_string().as_bytes());
            Ok(())
        }
    }
}
