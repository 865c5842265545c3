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
//!   again within 20 ms. While stale, the word keeps the latest time any read returned (its
//!   floor), and it goes live at no less than that: the time never steps back when the ticker
//!   starts, wakes or restarts after a `fork()`, however long it was delayed between its reading
//!   and its store.
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

/// The word holds the time (≥ 0) while a ticker publishes, and `-1 - floor` while none does
/// (never started, gone quiet, a `fork()` child before its first read): reads then take the cold
/// path, and `floor` is the latest time any read returned, so that the word never goes live
/// below it (a live value is `max(ticker's reading, floor)`: the time never steps back when the
/// ticker starts or wakes, however long it was delayed between its reading and its store).
const fn stale_at(floor: i64) -> i64 {
    -1 - floor
}

/// The floor of a stale word.
const fn floor_of(stale: i64) -> i64 {
    -1 - stale
}

/// What readers touch, on one cache line: the cached time and whether it was read since the
/// ticker last looked (set only when clear, so a busy reader writes the line once per period).
struct Cache {
    unix_nanos: AtomicI64,
    read: AtomicBool,
}

static CACHE: crate::sync::CachePadded<Cache> = crate::sync::CachePadded(Cache {
    unix_nanos: AtomicI64::new(stale_at(0)),
    read: AtomicBool::new(false),
});

/// `1 + ` the fork generation whose ticker thread exists (0: none): the reader that moves it
/// there spawns the thread (a compare-and-swap, no lock: a `fork()` can never leave it held).
static TICKER_GENERATION: AtomicU64 = AtomicU64::new(0);
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
    cold_read_on(&CACHE.0.unix_nanos, realtime_unix_nanos())
}

/// A cold read of `word` with the precise reading `now`: the live value if a ticker published
/// meanwhile, else `max(floor, now)`, raised into the floor so that the word cannot go live
/// below what this read returns.
fn cold_read_on(word: &AtomicI64, now: i64) -> i64 {
    let now = now.max(0);
    match word.fetch_update(Ordering::Relaxed, Ordering::Acquire, |w| {
        (w < 0).then(|| stale_at(floor_of(w).max(now)))
    }) {
        Ok(stale) => floor_of(stale).max(now),
        Err(live) => live,
    }
}

/// Makes the word live with the reading `now` (never below its floor), unless it is already.
fn go_live(word: &AtomicI64, now: i64) {
    let _ = word.fetch_update(Ordering::Release, Ordering::Relaxed, |w| {
        (w < 0).then(|| floor_of(w).max(now.max(0)))
    });
}

/// Makes the word stale, its last time the floor, unless it is already.
fn go_stale(word: &AtomicI64) {
    let _ = word.fetch_update(Ordering::Release, Ordering::Relaxed, |w| {
        (w >= 0).then(|| stale_at(w))
    });
}

/// Makes sure a ticker serves this process: spawns it (publishing a first reading before
/// returning) unless one exists, and wakes it if it went quiet. Where the thread cannot be
/// spawned, the word stays stale and reads take the precise clock.
pub fn start() {
    crate::fork::register_fork_handler();
    #[cfg(unix)]
    ATFORK.call_once(|| {
        // SAFETY: registering a plain `extern "C"` function without prepare/parent hooks; it
        // stays valid for the life of the process.
        unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
    });
    let word = &CACHE.0.unix_nanos;
    let running = crate::fork::fork_generation() + 1;
    let exists = TICKER_GENERATION.load(Ordering::Acquire);
    if exists == running {
        if word.load(Ordering::Acquire) < 0 {
            WANTED.store(true, Ordering::Relaxed);
        }
        return;
    }
    if TICKER_GENERATION
        .compare_exchange(exists, running, Ordering::AcqRel, Ordering::Acquire)
        .is_err()
    {
        // Another thread is starting it right now (its reads fall back meanwhile).
        return;
    }
    go_live(word, realtime_unix_nanos());
    let spawned = std::thread::Builder::new()
        .name("sno-fast-clock".into())
        .stack_size(64 << 10)
        .spawn(tick);
    if spawned.is_err() {
        // No ticker in this process (generation): every read takes the precise clock.
        go_stale(word);
    }
}

/// The ticker thread: publishes every [`PERIOD`]; after [`IDLE_PERIODS`] without a read it
/// marks the word stale (reads then take the precise clock and ask for it) and looks every
/// [`QUIET_POLL`] whether it is wanted again: a process that stops making IDs stops paying
/// 2 000 wake-ups a second.
fn tick() {
    let word = &CACHE.0.unix_nanos;
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
        // Cleared before the word goes stale (release), so a read that finds it stale
        // (acquire) and asks again is not lost.
        WANTED.store(false, Ordering::Relaxed);
        go_stale(word);
        while !WANTED.swap(false, Ordering::Relaxed) {
            std::thread::sleep(QUIET_POLL);
        }
        go_live(word, realtime_unix_nanos());
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
    go_stale(&CACHE.0.unix_nanos);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_ahead_of_the_precise_clock_and_never_backwards() {
        start();
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
        start();
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
        let stale = AtomicI64::new(stale_at(0));
        publish_to(&stale, || 5_000);
        assert_eq!(stale.load(Ordering::Relaxed), stale_at(0));
    }

    #[test]
    fn the_time_never_steps_back_when_the_word_goes_stale_or_live() {
        let word = AtomicI64::new(1_000);
        go_stale(&word);
        // Stale: reads return the precise reading and raise the floor with it.
        assert_eq!(cold_read_on(&word, 1_500), 1_500);
        // A reading below the floor (a clock set back, or a read racing another): the floor.
        assert_eq!(cold_read_on(&word, 1_200), 1_500);
        // The ticker goes live with a reading taken before the last cold read: the floor wins.
        go_live(&word, 1_300);
        assert_eq!(word.load(Ordering::Relaxed), 1_500);
        // Live: a cold read (a reader that found it stale a moment ago) returns the live value.
        assert_eq!(cold_read_on(&word, 9_999), 1_500);
        go_live(&word, 1_700); // already live: no change
        assert_eq!(word.load(Ordering::Relaxed), 1_500);
        // Quiet again: the floor is the last live time; a newer ticker reading goes live.
        go_stale(&word);
        go_stale(&word);
        assert_eq!(floor_of(word.load(Ordering::Relaxed)), 1_500);
        go_live(&word, 2_000);
        assert_eq!(word.load(Ordering::Relaxed), 2_000);
    }

    #[test]
    fn after_a_quiet_spell_the_time_moves_again_and_never_reads_ahead() {
        start();
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
        start();
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
