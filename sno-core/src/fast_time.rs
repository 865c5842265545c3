//! The opt-in fast time source (#26, work in progress): the Unix time in nanoseconds cached in
//! one atomic word, refreshed by a ticker thread every [`PERIOD`], so that reading it costs one
//! load instead of a `clock_gettime` call.
//!
//! **Never ahead.** Every value stored is a `CLOCK_REALTIME` reading taken before the store, and
//! the word only moves forward (`fetch_max`), so a read returns a time at or before the real one.
//!
//! **Lag.** In steady state the lag is at most [`PERIOD`] plus the ticker's wake-up delay.
//!
//! **A stalled ticker only delays time.** When the ticker does not run (descheduled, a VM paused,
//! the child of a `fork()` before its ticker restarts), reads return an older time: a generator
//! then stamps more IDs in the same unit, which its sequence already keeps unique, and when the
//! sequence runs out it waits through [`refresh`], which reads the precise clock itself and
//! publishes it, so progress never depends on the ticker.
//!
//! Not yet wired into `SystemClock`, the generators' builders or `SNO_CLOCK`: see the plan in
//! the issue.

use core::sync::atomic::{AtomicI64, Ordering};
use core::time::Duration;
use std::sync::Once;

/// How often the ticker refreshes the cached time.
pub const PERIOD: Duration = Duration::from_micros(250);

/// The cached Unix time in nanoseconds (0 until first published).
static CACHED_UNIX_NANOS: AtomicI64 = AtomicI64::new(0);
static TICKER: Once = Once::new();

/// Reads the precise clock and publishes it: the cached time becomes at least this reading.
/// Returns the reading.
pub fn refresh() -> i64 {
    let now = crate::clock::SystemClock::precise_unix_nanos();
    CACHED_UNIX_NANOS.fetch_max(now, Ordering::Relaxed);
    now
}

/// Starts the ticker thread once per process (and publishes a first reading before returning).
pub fn start() {
    TICKER.call_once(|| {
        refresh();
        let spawned = std::thread::Builder::new()
            .name("sno-fast-clock".into())
            .spawn(|| {
                loop {
                    refresh();
                    std::thread::sleep(PERIOD);
                }
            });
        // Without a ticker the source still works: readers refresh when they must wait.
        drop(spawned);
    });
}

/// The cached Unix time in nanoseconds: at or before `CLOCK_REALTIME`, one atomic load.
#[inline]
pub fn now_unix_nanos() -> i64 {
    CACHED_UNIX_NANOS.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_ahead_of_the_precise_clock_and_never_backwards() {
        start();
        let mut last = now_unix_nanos();
        assert!(last > 0, "start publishes a first reading");
        for _ in 0..10_000 {
            let cached = now_unix_nanos();
            let precise = crate::clock::SystemClock::precise_unix_nanos();
            assert!(
                cached <= precise,
                "cached {cached} ahead of the precise {precise}"
            );
            assert!(cached >= last, "the cached time went back");
            last = cached;
        }
    }

    #[test]
    fn refresh_publishes_without_the_ticker() {
        let before = now_unix_nanos();
        let reading = refresh();
        assert!(now_unix_nanos() >= reading && reading >= before);
    }
}
