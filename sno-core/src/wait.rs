//! The one wait policy of every blocking `next` — the core's generators and the bindings' alike:
//! which errors a wait can end, for how long, and when to give up. Only the pause itself (a
//! plain sleep, a sleep with Python's thread detached and its signals checked after each step,
//! a lease's wait that ends early on a renewal) is the caller's.
//!
//! The rule: after a first failed attempt, a [retryable](Error::retry_at_unix_ns) error is
//! waited for when its retry time lies within the maximum wait (a clock gone back — the
//! millisecond formats' [`Error::ClockRollback`] — only when it went back at most
//! [`MAX_ROLLBACK_WAIT_MS`]); the wait sleeps towards that time in pauses (never spins) and
//! retries after each, for at most the maximum wait in all, by the monotonic clock, so a frozen
//! or jumping wall clock cannot stretch it. Then the last error is returned, with its retry
//! time: the caller sees exactly what a non-blocking `try_next` would have said.
//!
//! Without `std` (a `web` build) the policy is here ([`can_wait`], [`next_pause`],
//! [`deadline`]), the sleeping is not: the JavaScript caller waits on a timer between attempts.
//!
//! ```
//! use core::time::Duration;
//! use sno_core::{Error, SystemClock, wait};
//!
//! // A source that is used up once, until a millisecond from now.
//! let at = SystemClock::precise_unix_ns() + 1_000_000;
//! let mut first = true;
//! let attempt = || {
//!     if std::mem::take(&mut first) {
//!         Err(Error::RandomnessExhausted { unix_millis: (at / 1_000_000 - 1) as u64 })
//!     } else {
//!         Ok(7)
//!     }
//! };
//! let got = wait::retry(Duration::from_secs(1), SystemClock::precise_unix_ns, wait::can_wait, attempt, |pause| {
//!     pause.sleep();
//!     Ok::<(), ()>(())
//! });
//! assert_eq!(got, Ok(Ok(7)));
//! ```

use core::time::Duration;
#[cfg(feature = "std")]
use std::time::Instant;

use crate::error::Error;

/// The shortest pause between two attempts: a retry time already past (a clock read that lags,
/// as `CLOCK_REALTIME_COARSE` can) still gives the clock time to move.
pub const MIN_PAUSE: Duration = Duration::from_micros(100);

/// How far back a clock may have gone for a millisecond generator to wait for it to catch up
/// ([`Error::ClockRollback`]); a larger rollback is returned at once.
pub const MAX_ROLLBACK_WAIT_MS: u64 = 1_000;

/// One pause of a wait, handed to the caller's pause function by [`retry`].
#[derive(Clone, Copy, Debug)]
pub struct Pause<'a> {
    /// The error the pause waits out.
    pub error: &'a Error,
    /// How long until its retry time, by the clock [`retry`] was given (zero when already past);
    /// `None` for an error the caller waits for without one (a lease being renewed).
    pub until_retry: Option<Duration>,
    /// How much of the maximum wait is left.
    pub budget: Duration,
}

impl Pause<'_> {
    /// The length of a plain pause: until the retry time (the whole budget without one), within
    /// the budget, at least [`MIN_PAUSE`].
    pub fn length(&self) -> Duration {
        self.until_retry
            .unwrap_or(self.budget)
            .min(self.budget)
            .max(MIN_PAUSE)
    }

    /// Sleeps for [`length`](Self::length), then makes the time waited for visible to the opt-in
    /// fast clock at once (one clock read when no fast clock runs).
    #[cfg(feature = "std")]
    pub fn sleep(&self) {
        self.sleep_at_most(Duration::MAX);
    }

    /// [`sleep`](Self::sleep), but for at most `step`: the pause of a caller that must stay
    /// responsive while it waits (Python checks for Ctrl-C between steps).
    #[cfg(feature = "std")]
    pub fn sleep_at_most(&self, step: Duration) {
        std::thread::sleep(self.length().min(step.max(MIN_PAUSE)));
        resumed();
    }
}

/// Says that a pause the caller made its own way (Node's timer between two attempts, not
/// [`Pause::sleep`]) is over: the opt-in fast clock sees the time waited for at once (one clock
/// read when no fast clock runs), so the next attempt does not fail again on a stale reading.
#[cfg(feature = "std")]
pub fn resumed() {
    crate::fast_time::refresh();
}

/// Whether the policy waits for `err` at all (the usual `can_wait` of [`retry`]): it has a retry
/// time, and a clock gone back did so by at most [`MAX_ROLLBACK_WAIT_MS`].
pub fn can_wait(err: &Error) -> bool {
    match *err {
        Error::ClockRollback {
            last_unix_millis,
            unix_millis,
        } => last_unix_millis.saturating_sub(unix_millis) <= MAX_ROLLBACK_WAIT_MS,
        _ => err.retry_at_unix_ns().is_some(),
    }
}

/// `attempt()` until it succeeds, under the policy of the module docs: after each failure that
/// `can_wait` accepts (usually [`can_wait`]; a leased generator adds its lease's renewal),
/// `pause` is called (it sleeps, or returns `Err` to stop: a signal); `now_unix_ns` is the
/// clock the retry times are read against (the generator's own, so an injected clock works
/// too).
///
/// Returns `Ok(Ok(value))`, `Ok(Err(error))` with the last error of `attempt` when the wait gave
/// up, or `Err(stop)` when `pause` stopped it.
#[cfg(feature = "std")]
#[inline]
pub fn retry<T, E>(
    max_wait: Duration,
    now_unix_ns: impl Fn() -> i64,
    can_wait: impl Fn(&Error) -> bool,
    mut attempt: impl FnMut() -> Result<T, Error>,
    pause: impl FnMut(Pause<'_>) -> Result<(), E>,
) -> Result<Result<T, Error>, E> {
    match attempt() {
        Err(err) => wait_and_retry(max_wait, now_unix_ns, can_wait, err, attempt, pause),
        ok => Ok(ok),
    }
}

/// [`retry`] on the precise system clock with [`can_wait`] and plain sleeps
/// ([`Pause::sleep`]): the blocking `next` of a generator that nothing interrupts.
///
/// ```
/// use std::time::Duration;
/// use sno_core::Error;
///
/// let mut calls = 0;
/// let got = sno_core::wait::sleeping(Duration::from_millis(50), || {
///     calls += 1;
///     if calls < 3 {
///         Err(Error::RandomnessExhausted { unix_millis: 0 }) // retry from 1970: at once
///     } else {
///         Ok(calls)
///     }
/// });
/// assert_eq!(got, Ok(3));
/// ```
///
/// # Errors
/// The last error of `attempt` when it cannot wait or the wait would pass `max_wait`.
#[cfg(feature = "std")]
#[inline]
pub fn sleeping<T>(
    max_wait: Duration,
    attempt: impl FnMut() -> Result<T, Error>,
) -> Result<T, Error> {
    let waited = retry(
        max_wait,
        crate::SystemClock::precise_unix_ns,
        can_wait,
        attempt,
        |pause| -> Result<(), core::convert::Infallible> {
            pause.sleep();
            Ok(())
        },
    );
    match waited {
        Ok(result) => result,
        Err(never) => match never {},
    }
}

/// One step of the policy, for a caller that runs its own loop (Node's `nextAsync` waits on a
/// timer between attempts): the pause to make after `err`, or `None` when the wait gives up and
/// `err` is the answer. `now_unix_ns` is a read of the clock the retry times are read against;
/// `deadline_unix_ns` is that clock's reading when the wait began plus the maximum wait (a
/// retry time past it gives up at once); `budget` is what is left of the maximum wait by the
/// monotonic clock (nothing left gives up). [`retry`] is this, in a loop.
///
/// ```
/// use std::time::Duration;
/// use sno_core::{Error, SystemClock, wait};
///
/// let now = SystemClock::precise_unix_ns();
/// let deadline = now + 1_000_000_000;
/// let err = Error::RandomnessExhausted { unix_millis: (now / 1_000_000) as u64 };
/// let pause = wait::next_pause(&err, wait::can_wait, now, deadline, Duration::from_secs(1)).unwrap();
/// assert!(pause.length() <= Duration::from_millis(1));
/// // Nothing left of the budget: the error is the answer.
/// assert!(wait::next_pause(&err, wait::can_wait, now, deadline, Duration::ZERO).is_none());
/// ```
pub fn next_pause<'a>(
    err: &'a Error,
    can_wait: impl Fn(&Error) -> bool,
    now_unix_ns: i64,
    deadline_unix_ns: i64,
    budget: Duration,
) -> Option<Pause<'a>> {
    let at = err.retry_at_unix_ns();
    if budget.is_zero() || !can_wait(err) || at.is_some_and(|at| at > deadline_unix_ns) {
        return None;
    }
    Some(Pause {
        error: err,
        until_retry: at
            .map(|at| Duration::from_nanos(at.saturating_sub(now_unix_ns).max(0) as u64)),
        budget,
    })
}

/// The deadline of a wait of at most `max_wait` that begins at `now_unix_ns`: the
/// `deadline_unix_ns` of [`next_pause`].
pub fn deadline(now_unix_ns: i64, max_wait: Duration) -> i64 {
    now_unix_ns.saturating_add(i64::try_from(max_wait.as_nanos()).unwrap_or(i64::MAX))
}

#[cfg(feature = "std")]
#[cold]
fn wait_and_retry<T, E>(
    max_wait: Duration,
    now_unix_ns: impl Fn() -> i64,
    can_wait: impl Fn(&Error) -> bool,
    mut err: Error,
    mut attempt: impl FnMut() -> Result<T, Error>,
    mut pause: impl FnMut(Pause<'_>) -> Result<(), E>,
) -> Result<Result<T, Error>, E> {
    let started = Instant::now();
    let deadline = deadline(now_unix_ns(), max_wait);
    loop {
        let budget = max_wait.saturating_sub(started.elapsed());
        match next_pause(&err, &can_wait, now_unix_ns(), deadline, budget) {
            Some(p) => pause(p)?,
            None => return Ok(Err(err)),
        }
        match attempt() {
            Err(e) => err = e,
            ok => return Ok(ok),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SystemClock;
    use core::cell::Cell;

    fn now() -> i64 {
        SystemClock::precise_unix_ns()
    }

    /// The current Unix millisecond.
    fn now_ms() -> u64 {
        (now() / 1_000_000) as u64
    }

    #[test]
    fn an_error_without_retry_time_is_returned_at_once() {
        let paused = Cell::new(0);
        let got = retry(
            Duration::from_secs(5),
            now,
            can_wait,
            || Err::<(), _>(Error::UnknownFormat),
            |_| -> Result<(), ()> {
                paused.set(paused.get() + 1);
                Ok(())
            },
        );
        assert_eq!(got, Ok(Err(Error::UnknownFormat)));
        assert_eq!(paused.get(), 0);
    }

    #[test]
    fn a_retry_time_past_the_bound_is_returned_at_once() {
        let far = Error::RandomnessExhausted {
            unix_millis: now_ms() + 10_000,
        };
        let got = retry(
            Duration::from_secs(1),
            now,
            can_wait,
            || Err::<(), _>(far),
            |_| -> Result<(), ()> { panic!("no pause towards a time past the bound") },
        );
        assert_eq!(got, Ok(Err(far)));
    }

    #[test]
    fn a_large_rollback_is_not_waited_for_a_small_one_is() {
        let ms = now_ms();
        let large = Error::ClockRollback {
            last_unix_millis: ms + MAX_ROLLBACK_WAIT_MS + 1,
            unix_millis: ms,
        };
        assert!(!can_wait(&large));
        let small = Error::ClockRollback {
            last_unix_millis: ms + 2,
            unix_millis: ms,
        };
        assert!(can_wait(&small));
        let tries = Cell::new(0);
        let got = retry(
            Duration::from_secs(1),
            now,
            can_wait,
            || {
                tries.set(tries.get() + 1);
                if tries.get() < 3 {
                    Err(small)
                } else {
                    Ok(tries.get())
                }
            },
            |pause| -> Result<(), ()> {
                assert!(
                    pause
                        .until_retry
                        .is_some_and(|d| d <= Duration::from_millis(3))
                );
                pause.sleep();
                Ok(())
            },
        );
        assert_eq!(got, Ok(Ok(3)));
    }

    #[test]
    fn the_wait_is_bounded_by_the_monotonic_clock() {
        // A clock that stands still: the retry time never comes, the bound ends the wait.
        let frozen = now();
        let err = Error::RandomnessExhausted {
            unix_millis: (frozen / 1_000_000) as u64,
        };
        let started = Instant::now();
        let got = retry(
            Duration::from_millis(30),
            || frozen,
            can_wait,
            || Err::<(), _>(err),
            |pause| -> Result<(), ()> {
                pause.sleep();
                Ok(())
            },
        );
        assert_eq!(got, Ok(Err(err)));
        assert!(started.elapsed() >= Duration::from_millis(30));
    }

    #[test]
    fn an_error_the_caller_accepts_is_waited_for_without_a_retry_time() {
        let tries = Cell::new(0);
        let got = retry(
            Duration::from_secs(1),
            now,
            |e| *e == Error::UnknownFormat,
            || {
                tries.set(tries.get() + 1);
                if tries.get() < 2 {
                    Err(Error::UnknownFormat)
                } else {
                    Ok(())
                }
            },
            |pause| -> Result<(), ()> {
                assert_eq!(
                    (pause.until_retry, pause.length() > Duration::ZERO),
                    (None, true)
                );
                Ok(())
            },
        );
        assert_eq!(got, Ok(Ok(())));
    }

    #[test]
    fn a_pause_can_stop_the_wait() {
        let err = Error::RandomnessExhausted {
            unix_millis: now_ms(),
        };
        let got = retry(
            Duration::from_secs(5),
            now,
            can_wait,
            || Err::<(), _>(err),
            |_| Err("interrupted"),
        );
        assert_eq!(got, Err("interrupted"));
    }
}
