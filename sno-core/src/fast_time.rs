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
//! * **Never backwards, except by the OS clock's own steps.** Publishing only raises the word
//!   (a compare-and-swap loop, like `fetch_max`), so two publishers racing (the ticker and a
//!   waiting reader, see [`refresh`]) cannot move it back. Only a publisher that finds its fresh
//!   reading *below* the word it loaded before reading the clock (which proves that
//!   `CLOCK_REALTIME` itself was set back in between) replaces the word by that reading, and only
//!   if the word still holds the value it loaded: the source then follows the OS clock back
//!   within one period, and the generators handle the step as they handle it on the precise
//!   clock (tick-tock switch, staying in the last millisecond). Without it a clock set back by an
//!   hour would freeze the cached time for an hour, and a generator waiting for the next unit
//!   would sleep towards a target an hour away.
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
//! * **Idle processes pay almost nothing.** After 100 ms without a read the ticker marks the
//!   word stale and sleeps in 20 ms steps (50 wake-ups a second instead of 2 000); reads then
//!   take the precise clock (its cost, its accuracy) and ask for the ticker, which publishes
//!   again within 20 ms. A stale word is never published over by anyone but the ticker, so a
//!   read is never served an old value by a quiet ticker.
//! * **No ticker at all** (the thread cannot be spawned): every read falls back to the precise
//!   clock (its cost, its accuracy).

use core::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use core::time::Duration;
#[cfg(unix)]
use std::sync::Once;

/// How often the ticker refreshes the cached time.
pub const PERIOD: Duration = Duration::from_micros(500);
/// Periods without a read after which the ticker goes quiet (100 ms).
const IDLE_PERIODS: u32 = 200;
/// How often a quiet ticker looks whether it is wanted again.
const QUIET_POLL: Duration = Duration::from_millis(20);

/// The word's value while no ticker publishes (never started, gone quiet, or a `fork()` child
/// before its first read): reads take the cold path. Real readings are ≥ 0 (after 1970).
const STALE: i64 = -1;

/// What readers touch, on one cache line: the cached time and whether it was read since the
/// ticker last looked (set only when clear, so a busy reader writes the line once per period).
struct Cache {
    unix_nanos: AtomicI64,
    read: AtomicBool,
}

static CACHE: crate::sync::CachePadded<Cache> = crate::sync::CachePadded(Cache {
    unix_nanos: AtomicI64::new(STALE),
    read: AtomicBool::new(false),
});

/// `1 + ` the fork generation whose ticker thread exists (0: none): the reader that moves it
/// there spawns the thread (a compare-and-swap, no lock: a `fork()` can never leave it held).
static TICKER_GENERATION: AtomicU64 = AtomicU64::new(0);
/// `1 + ` the fork generation in which spawning the ticker failed (0: none failed).
static SPAWN_FAILED: AtomicU64 = AtomicU64::new(0);
/// Set by a read that found a quiet ticker: it starts publishing again.
static WANTED: AtomicBool = AtomicBool::new(false);
#[cfg(unix)]
static ATFORK: Once = Once::new();

/// The cached Unix time in nanoseconds: at or before `CLOCK_REALTIME`, one atomic load.
#[inline]
pub fn now_unix_nanos() -> i64 {
    let cached = CACHE.0.unix_nanos.load(Ordering::Relaxed);
    if cached < 0 {
        return cold_read();
    }
    if !CACHE.0.read.load(Ordering::Relaxed) {
        CACHE.0.read.store(true, Ordering::Relaxed);
    }
    cached
}

/// The read when no ticker publishes: make sure one runs (or will publish again shortly), and
/// read the precise clock meanwhile.
#[cold]
fn cold_read() -> i64 {
    start();
    let cached = CACHE.0.unix_nanos.load(Ordering::Relaxed);
    if cached >= 0 {
        return cached;
    }
    realtime_unix_nanos()
}

/// Makes sure a ticker serves this process: spawns it (publishing a first reading before
/// returning) unless it exists, and wakes it if it went quiet. Returns false when it cannot be
/// spawned: reads then fall back to the precise clock.
pub fn start() -> bool {
    crate::fork::register_fork_handler();
    #[cfg(unix)]
    ATFORK.call_once(|| {
        // SAFETY: registering a plain `extern "C"` function without prepare/parent hooks; it
        // stays valid for the life of the process.
        unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
    });
    let running = crate::fork::fork_generation() + 1;
    let exists = TICKER_GENERATION.load(Ordering::Acquire);
    if exists == running {
        if CACHE.0.unix_nanos.load(Ordering::Relaxed) < 0 {
            WANTED.store(true, Ordering::Relaxed);
        }
        return true;
    }
    if SPAWN_FAILED.load(Ordering::Relaxed) == running
        || TICKER_GENERATION
            .compare_exchange(exists, running, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
    {
        // Spawning failed in this process, or another thread is spawning it right now.
        return SPAWN_FAILED.load(Ordering::Relaxed) != running;
    }
    CACHE
        .0
        .unix_nanos
        .store(realtime_unix_nanos().max(0), Ordering::Relaxed);
    let spawned = std::thread::Builder::new()
        .name("sno-fast-clock".into())
        .stack_size(64 << 10)
        .spawn(tick);
    if spawned.is_err() {
        CACHE.0.unix_nanos.store(STALE, Ordering::Relaxed);
        SPAWN_FAILED.store(running, Ordering::Relaxed);
        return false;
    }
    true
}

/// The ticker thread: publishes every [`PERIOD`]; after [`IDLE_PERIODS`] without a read it
/// marks the word stale (reads then take the precise clock and ask for it) and looks every
/// [`QUIET_POLL`] whether it is wanted again: a process that stops making IDs stops paying
/// 2 000 wake-ups a second.
fn tick() {
    let mut idle = 0;
    loop {
        publish();
        std::thread::sleep(PERIOD);
        if CACHE.0.read.swap(false, Ordering::Relaxed) {
            idle = 0;
            continue;
        }
        idle += 1;
        if idle < IDLE_PERIODS {
            continue;
        }
        WANTED.store(false, Ordering::Relaxed);
        CACHE.0.unix_nanos.store(STALE, Ordering::Relaxed);
        while !WANTED.swap(false, Ordering::Relaxed) {
            std::thread::sleep(QUIET_POLL);
        }
        // Only a stale word is replaced: this ticker is the only thread that clears it.
        let _ = CACHE.0.unix_nanos.compare_exchange(
            STALE,
            realtime_unix_nanos().max(0),
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
        idle = 0;
    }
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
    publish_to(&CACHE.0.unix_nanos, realtime_unix_nanos);
}

/// [`publish`] on `word`, reading the clock with `read` *after* loading the word. A stale word
/// is left stale (a quiet or absent ticker is woken by reads, not here).
fn publish_to(word: &AtomicI64, read: impl FnOnce() -> i64) {
    let loaded = word.load(Ordering::Relaxed);
    if loaded < 0 {
        return;
    }
    let now = read();
    let _ = word.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |current| {
        if current < 0 {
            None
        } else if now > current {
            Some(now)
        } else if now < loaded && current == loaded {
            // `loaded` was a reading of CLOCK_REALTIME taken before we loaded it, and `now`
            // was read after: the OS clock went back in between. Follow it, unless another
            // publisher changed the word meanwhile (the next period retries).
            Some(now.max(0))
        } else {
            None
        }
    });
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
    CACHE.0.unix_nanos.store(STALE, Ordering::Relaxed);
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
    fn after_a_quiet_spell_the_time_moves_again_and_never_reads_ahead() {
        assert!(start());
        // Long enough for the ticker to go quiet if no other test reads meanwhile.
        std::thread::sleep(PERIOD * (IDLE_PERIODS + 100));
        let first = now_unix_nanos();
        assert!(first <= realtime_unix_nanos());
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while now_unix_nanos() <= first {
            assert!(std::time::Instant::now() < deadline, "the time stopped");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(now_unix_nanos() <= realtime_unix_nanos());
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
