//! The fast time source behind [`SystemClock::fast`](crate::SystemClock::fast) (`std`): the
//! Unix time in nanoseconds cached in one atomic word that a *ticker* thread refreshes every
//! [`PERIOD`], so that a read costs one load instead of a `clock_gettime` call.
//!
//! # Why a ticker and not the TSC
//!
//! Measured on the development VM (AMD EPYC, `tsc` clocksource): `clock_gettime(CLOCK_REALTIME)`
//! 23 ns, `rdtsc` alone 9.6 ns (`rdtscp` 18.5 ns), a cached load 0.2–0.7 ns with the conversion to
//! 4 ms units. A TSC clock pays `rdtsc` plus a scale on every read and cannot get under 2 ns
//! there; the cached word can. See BENCHMARKS.md for the figures of the latest run.
//!
//! # Guarantees
//!
//! * **Never ahead.** Every value stored is a `CLOCK_REALTIME` reading taken before the store,
//!   so a read returns a time at or before the OS clock's (as it was when the value was read).
//! * **Never backwards, except by the OS clock's own steps.** Publishing uses `fetch_max`, so two
//!   publishers racing (the ticker and a waiting reader, see [`refresh`]) cannot move the word
//!   back. Only a publisher that finds its fresh reading *below* the word it loaded before
//!   reading the clock (which proves that `CLOCK_REALTIME` itself was set back in between)
//!   replaces the word by that reading, with a compare-and-swap from the value it loaded: the
//!   source then follows the OS clock back within one period, and the generators handle the step
//!   as they handle it on the precise clock (tick-tock switch, staying in the last millisecond).
//!   Without it a clock set back by an hour would freeze the cached time for an hour, and a
//!   generator waiting for the next unit would sleep towards a target an hour away.
//! * **Lag.** In steady state the word lags `CLOCK_REALTIME` by at most [`PERIOD`] plus the
//!   ticker's wake-up delay (the timer slack, 50 µs by default): under 1 ms. `scripts/bench`
//!   measures the distribution (BENCHMARKS.md).
//! * **A stalled ticker only delays time, it never makes duplicates.** When the ticker does not
//!   run (descheduled, a VM paused), reads return an older time. A generator then stamps more
//!   IDs with that older time, which its sequence or counter already keeps unique (exactly as
//!   when the OS clock stands still); when a sno unit's pool or a millisecond's counter runs
//!   out, the generator waits, and the wait ends with [`refresh`], which reads the precise clock
//!   itself and publishes it: progress never depends on the ticker.
//! * **`fork()`.** The child has no ticker thread. This module's `pthread_atfork` child handler
//!   marks the word stale; the child's first read restarts the ticker.
//! * **No ticker at all** (the thread cannot be spawned): every read falls back to the precise
//!   clock (its cost, its accuracy).

use core::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use core::time::Duration;
use std::sync::{Mutex, Once};

/// How often the ticker refreshes the cached time.
pub const PERIOD: Duration = Duration::from_micros(500);

/// The word's value while no ticker serves this process (never started, or a `fork()` child
/// before its first read): reads take the cold path. Real readings are ≥ 0 (after 1970).
const STALE: i64 = -1;

/// The cached Unix time in nanoseconds, or [`STALE`]; alone on its cache line (readers share it
/// with the ticker, which writes it once per period, and with nothing else).
static CACHED_UNIX_NANOS: crate::sync::CachePadded<AtomicI64> =
    crate::sync::CachePadded(AtomicI64::new(STALE));

/// `1 + ` the fork generation whose ticker is running (0: none), and whether starting it failed.
static TICKER_GENERATION: AtomicU64 = AtomicU64::new(0);
/// Serialises ticker starts.
static STARTING: Mutex<()> = Mutex::new(());
#[cfg(unix)]
static ATFORK: Once = Once::new();
/// `1 + ` the fork generation in which spawning the ticker failed (0: none failed).
static SPAWN_FAILED: AtomicU64 = AtomicU64::new(0);

/// The cached Unix time in nanoseconds: at or before `CLOCK_REALTIME`, one atomic load. Starts
/// the ticker on first use (and in a `fork()` child).
#[inline]
pub fn now_unix_nanos() -> i64 {
    let cached = CACHED_UNIX_NANOS.0.load(Ordering::Relaxed);
    if cached < 0 {
        return cold_read();
    }
    cached
}

/// The read when no ticker serves the process: start one, else read the precise clock.
#[cold]
fn cold_read() -> i64 {
    if start() {
        let cached = CACHED_UNIX_NANOS.0.load(Ordering::Relaxed);
        if cached >= 0 {
            return cached;
        }
    }
    realtime_unix_nanos()
}

/// Starts the ticker of this process unless it runs already, and publishes a first reading
/// before returning. Returns whether a ticker runs (false: it could not be spawned, and reads
/// fall back to the precise clock).
pub fn start() -> bool {
    crate::fork::register_fork_handler();
    #[cfg(unix)]
    ATFORK.call_once(|| {
        // SAFETY: registering a plain `extern "C"` function without prepare/parent hooks; it
        // stays valid for the life of the process.
        unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
    });
    let running = crate::fork::fork_generation() + 1;
    if TICKER_GENERATION.load(Ordering::Acquire) == running {
        return true;
    }
    if SPAWN_FAILED.load(Ordering::Relaxed) == running {
        return false;
    }
    let _guard = STARTING.lock().unwrap_or_else(|p| p.into_inner());
    if TICKER_GENERATION.load(Ordering::Acquire) == running {
        return true;
    }
    CACHED_UNIX_NANOS
        .0
        .store(realtime_unix_nanos().max(0), Ordering::Relaxed);
    let spawned = std::thread::Builder::new()
        .name("sno-fast-clock".into())
        .stack_size(64 << 10)
        .spawn(|| {
            loop {
                publish();
                std::thread::sleep(PERIOD);
            }
        });
    if spawned.is_err() {
        CACHED_UNIX_NANOS.0.store(STALE, Ordering::Relaxed);
        SPAWN_FAILED.store(running, Ordering::Relaxed);
        return false;
    }
    TICKER_GENERATION.store(running, Ordering::Release);
    true
}

/// `CLOCK_REALTIME` in nanoseconds since 1970 (0 before), as [`std::time::SystemTime`] reads it.
fn realtime_unix_nanos() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
}

/// Reads the precise clock and publishes it (see the module's guarantees): the cached time
/// becomes at least this reading unless the OS clock was set back, in which case it follows
/// it back.
fn publish() {
    publish_to(&CACHED_UNIX_NANOS.0, realtime_unix_nanos);
}

/// [`publish`] on `word`, reading the clock with `read` *after* loading the word.
fn publish_to(word: &AtomicI64, read: impl FnOnce() -> i64) {
    let loaded = word.load(Ordering::Relaxed);
    let now = read();
    if loaded < 0 {
        // No ticker serves this process (a fork child before its first read, or no ticker at
        // all): leave the word stale so that reads keep taking the cold path.
        return;
    }
    if now >= loaded {
        word.fetch_max(now, Ordering::Relaxed);
    } else {
        // `loaded` was a reading of CLOCK_REALTIME taken before we loaded it, and `now` was
        // read after: the OS clock went back in between. Follow it, unless another publisher
        // changed the word meanwhile (the next period retries).
        let _ = word.compare_exchange(loaded, now.max(0), Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Publishes a fresh precise reading now, for a generator that is about to retry after a wait:
/// the time it waited for is then visible at once, whatever the ticker does.
#[inline]
pub fn refresh() {
    publish();
}

/// The `fork()` child handler (atomics only): the child has no ticker.
#[cfg(unix)]
extern "C" fn after_fork_in_child() {
    CACHED_UNIX_NANOS.0.store(STALE, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_ahead_of_the_precise_clock_and_never_backwards() {
        assert!(start());
        let mut last = now_unix_nanos();
        assert!(last > 0, "start publishes a first reading");
        for _ in 0..100_000 {
            let cached = now_unix_nanos();
            let precise = realtime_unix_nanos();
            assert!(
                cached <= precise,
                "cached {cached} ahead of the precise {precise}"
            );
            assert!(cached >= last, "the cached time went back");
            last = cached;
        }
    }

    #[test]
    fn refresh_publishes_without_waiting_for_the_ticker() {
        assert!(start());
        let before = realtime_unix_nanos();
        refresh();
        assert!(now_unix_nanos() >= before);
    }

    #[test]
    fn publishing_never_goes_back_but_follows_a_clock_set_back() {
        let word = AtomicI64::new(1_000);
        publish_to(&word, || 1_500);
        assert_eq!(word.load(Ordering::Relaxed), 1_500);
        // A publisher that read the clock before a faster one published: no step back.
        let late = AtomicI64::new(1_500);
        publish_to(&late, || {
            late.store(2_000, Ordering::Relaxed); // the racing publisher's newer reading
            1_600 // not below the 1 500 loaded before this reading: no clock step
        });
        assert_eq!(late.load(Ordering::Relaxed), 2_000);
        // A reading below the value loaded before it: the OS clock was set back.
        publish_to(&word, || 700);
        assert_eq!(word.load(Ordering::Relaxed), 700);
        // The same, but another publisher moved the word meanwhile: left to the next period.
        let raced = AtomicI64::new(1_000);
        publish_to(&raced, || {
            raced.store(1_200, Ordering::Relaxed);
            700
        });
        assert_eq!(raced.load(Ordering::Relaxed), 1_200);
        // A stale word (no ticker) stays stale: reads keep falling back to the precise clock.
        let stale = AtomicI64::new(STALE);
        publish_to(&stale, || 5_000);
        assert_eq!(stale.load(Ordering::Relaxed), STALE);
    }

    #[test]
    fn the_ticker_moves_the_time_on_its_own() {
        assert!(start());
        let first = now_unix_nanos();
        // Liveness, not timing: the bound is 10 000 periods.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while now_unix_nanos() == first {
            assert!(
                std::time::Instant::now() < deadline,
                "the ticker did not run"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
