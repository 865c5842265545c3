//! The fast time source behind [`SystemClock::fast`](crate::SystemClock::fast) (`std`): the
//! Unix time in nanoseconds cached in one atomic word that a *ticker* thread refreshes every
//! [`PERIOD`], so that a read costs one load instead of a `clock_gettime` call.
//!
//! # Why a ticker and not the TSC
//!
//! A TSC clock pays `rdtsc` plus a scale on every read and, on the development VM (AMD EPYC,
//! `tsc` clocksource), cannot get under 2 ns per read; a load of the cached word, with the
//! conversion to 4 ms units, can (measured: scripts/bench-notes.md, "The fast clock against the
//! TSC"). See BENCHMARKS.md for the figures of the latest run.
//!
//! # Guarantees
//!
//! * **Never ahead.** Every value stored is a `CLOCK_REALTIME` reading taken before the store,
//!   so a read returns a time at or before the OS clock's (as it was when the value was read).
//! * **Never backwards, except by the OS clock's own steps.** Publishing only raises the word
//!   (a compare-and-swap loop, like `fetch_max`), so publishers racing (the ticker, a waiting
//!   reader, see [`refresh`], a reader that found the word stale, see [`Watch`]) cannot
//!   move it back. Only a publisher that finds its fresh reading *below* the word it loaded
//!   before reading the clock (which proves that `CLOCK_REALTIME` itself was set back in
//!   between) replaces the word by that reading, and only if the word still holds the value it
//!   loaded (a reader refreshing a stale word never does, see [`refresh_if_stale`]): the source
//!   then follows the OS clock back within one period, and the generators handle the step as
//!   they handle it on the precise clock (tick-tock switch, staying in the last millisecond).
//!   Without it a clock set back by an hour would freeze the cached time for an hour, and a
//!   generator waiting for the next unit would sleep towards a target an hour away.
//! * **Lag.** While the ticker gets a CPU, the word lags `CLOCK_REALTIME` by at most [`PERIOD`]
//!   plus the ticker's wake-up delay (the timer slack, 50 µs by default, and the scheduler's
//!   latency). On an oversubscribed machine the ticker waits for a CPU (measured:
//!   scripts/bench-notes.md, "The ticker's lag when oversubscribed"), so readers watch the word
//!   too: now and then (on a value new to the thread, and at growing intervals while it finds
//!   the same value) a read checks the word's age against the precise clock and publishes a
//!   fresh reading when the word lags by more than [`STALE_AFTER`] (see [`Watch`] for when,
//!   what it costs and what it bounds). `scripts/bench` measures the distribution, quiet and
//!   oversubscribed (BENCHMARKS.md, docs/clock.md).
//! * **A stalled ticker only delays time, it never makes duplicates.** When the ticker does not
//!   run (descheduled, a VM paused), reads return an older time. A generator then stamps more
//!   IDs with that older time, which its sequence or counter already keeps unique (exactly as
//!   when the OS clock stands still); when a sno unit's pool or a millisecond's counter runs
//!   out, the generator waits, and the wait ends with [`refresh`], which reads the precise clock
//!   itself and publishes it: progress never depends on the ticker.
//! * **`fork()`.** The child has no ticker thread. This module's hook in the crate's one fork
//!   registry (`fork::on_fork_in_child`, its `FastClock` stage) marks the word stale; the
//!   child's first read restarts the ticker.
//! * **Idle processes pay almost nothing.** After 100 ms without a read the ticker marks the
//!   word stale and sleeps in 20 ms steps (50 wake-ups a second instead of 2 000); reads then
//!   take the precise clock (its cost, its accuracy) and ask for the ticker, which publishes
//!   again within 20 ms. While stale, the word keeps the latest time any read returned (its
//!   floor), and it goes live at no less than that: the time never steps back when the ticker
//!   starts, wakes or restarts after a `fork()`, however long it was delayed between its reading
//!   and its store.
//! * **No ticker at all** (the thread cannot be spawned): every read falls back to the precise
//!   clock (its cost, its accuracy).

use core::cell::Cell;
use core::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use core::time::Duration;

/// How often the ticker refreshes the cached time.
pub const PERIOD: Duration = Duration::from_micros(500);
/// Periods without a read after which the ticker goes quiet (100 ms).
const IDLE_PERIODS: u32 = 200;
/// How often a quiet ticker looks whether it is wanted again.
const QUIET_POLL: Duration = Duration::from_millis(20);
/// How far behind a reader's precise reading the word must lag for the reader to publish that
/// reading ([`refresh_if_stale`]): two periods, so that while the ticker keeps up (a lag of one
/// period plus its wake-up delay) readers only read, and a late ticker is covered.
const STALE_AFTER: i64 = 2 * PERIOD.as_nanos() as i64;
/// The most reads of one unchanged word a thread makes between two checks of its age.
const CHECK_EVERY: u32 = 4_096;

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
/// ticker last looked. Reads set `read` in their checks ([`Watch`]), and only when clear: every
/// thread checks the first value it reads after each publication, so a thread that reads in a
/// period sets it, and a busy reader writes the line about once per period.
struct Cache {
    unix_ns: AtomicI64,
    read: AtomicBool,
}

static CACHE: crate::sync::CachePadded<Cache> = crate::sync::CachePadded(Cache {
    unix_ns: AtomicI64::new(stale_at(0)),
    read: AtomicBool::new(false),
});

/// `1 + ` the fork generation whose ticker thread exists (0: none): the reader that moves it
/// there spawns the thread (a compare-and-swap, no lock: a `fork()` can never leave it held).
static TICKER_GENERATION: AtomicU64 = AtomicU64::new(0);
/// Set by a read that found a quiet ticker: it starts publishing again.
static WANTED: AtomicBool = AtomicBool::new(false);

/// A thread's watch on the word: plain thread-local cells, read and written by their thread
/// only.
///
/// The ticker alone bounds the lag only while it gets a CPU: on an oversubscribed machine it
/// waits for one, and readers saw the word far behind (measured: scripts/bench-notes.md, "The
/// ticker's lag when oversubscribed"). So readers check it themselves, some of the time: a
/// check ([`check`](Self::check)) reads the precise clock and, if the word lags that reading by
/// more than [`STALE_AFTER`], publishes the reading ([`refresh_if_stale`]).
/// Without a clock read a reader cannot tell how old the word is, but it can tell whether it
/// changed since its own last read: a thread checks a value new to it, then its 1st, 2nd, 4th,
/// 8th, … read of the same value (the reads between checks doubling up to [`CHECK_EVERY`],
/// [`next_step`]), then every [`CHECK_EVERY`] reads. The other reads ([`skips`](Self::skips))
/// cost a compare and a decrement of thread-locals.
///
/// * Cost: per thread, one check per value it reads (the ticker publishes one per period) and
///   at most 13 more before the step reaches [`CHECK_EVERY`]: at most about 14 precise
///   readings per period and thread, whatever its rate (under 0.1 % of one core); a thread in a
///   loop pays the precise clock on under 0.1 % of its reads.
/// * Bound: a checked read lags its precise reading by at most [`STALE_AFTER`] (else it
///   publishes and returns that reading); an unchecked read returns the value of the thread's
///   last check, so it lags by at most [`STALE_AFTER`] plus the time since that check, which
///   the doubling keeps under about the time since the thread's first read of the value (a
///   thread at a steady rate: under about 2 × [`STALE_AFTER`], and one check per 4 096 reads
///   in a loop). A thread that reads now and then checks nearly every read. Not bounded: a
///   thread descheduled between two reads of the same value, whose next reads (up to the step)
///   return what it read before, as a precise reading it had taken then would.
struct Watch {
    /// The live value this thread last read (-1: none yet).
    value: Cell<i64>,
    /// Its reads of that value left before the next check (≥ 1 between reads).
    left: Cell<u32>,
    /// The reads between its last check and the next one: 0 after the check of a value new to
    /// the thread (whose next read is checked), then 1, 2, 4, …, [`CHECK_EVERY`].
    step: Cell<u32>,
}

impl Watch {
    const fn new() -> Self {
        Watch {
            value: Cell::new(-1),
            left: Cell::new(1),
            step: Cell::new(0),
        }
    }

    /// Whether this thread's read of the live value `cached` goes without a check: a value it
    /// read last, with reads left before its next check (counted down here).
    #[inline(always)]
    fn skips(&self, cached: i64) -> bool {
        if self.value.get() != cached {
            return false;
        }
        let left = self.left.get() - 1;
        self.left.set(left);
        left != 0
    }

    /// A check of the live value `cached`, loaded from `cache` before the precise reading
    /// `now`: marks the cache read, refreshes a stale word ([`refresh_if_stale`]), returns the
    /// value the read returns, and schedules the next check ([`next_step`]).
    fn check(&self, cache: &Cache, cached: i64, now: i64) -> i64 {
        if !cache.read.load(Ordering::Relaxed) {
            cache.read.store(true, Ordering::Relaxed);
        }
        let value = refresh_if_stale(&cache.unix_ns, cached, now);
        let (step, left) = if value == self.value.get() {
            let step = next_step(self.step.get());
            (step, step)
        } else {
            self.value.set(value);
            (0, 1)
        };
        self.step.set(step);
        self.left.set(left);
        value
    }
}

std::thread_local! {
    /// This thread's watch on the word.
    static SEEN: Watch = const { Watch::new() };
}

/// The cached Unix time in nanoseconds: at or before `CLOCK_REALTIME`, one atomic load and, on
/// most reads, a thread-local count (readers refresh a word the ticker left behind: [`Watch`]).
#[inline]
pub fn now_unix_ns() -> i64 {
    let cached = CACHE.0.unix_ns.load(Ordering::Relaxed);
    if cached >= 0 && SEEN.with(|seen| seen.skips(cached)) {
        return cached;
    }
    slow_read(cached)
}

/// A read that is not one load and a count: of a stale word ([`cold_read`]), or a check of a
/// live one. Both in one function out of line, so that the inlined read stays small enough for
/// the generators' hot paths to be inlined in turn (with two calls, `Generator::try_next` was
/// no longer inlined into the benchmark's loop and cost more per ID; measured:
/// scripts/bench-notes.md, "One out-of-line slow path in the fast clock's read").
#[cold]
#[inline(never)]
fn slow_read(cached: i64) -> i64 {
    if cached < 0 {
        return cold_read();
    }
    SEEN.with(|seen| seen.check(&CACHE.0, cached, realtime_unix_ns()))
}

/// The reads between a check of a value a thread read before and its next check: 1 after the
/// first repeat's check (`step` 0), then doubled after each check, up to [`CHECK_EVERY`].
fn next_step(step: u32) -> u32 {
    step.saturating_mul(2).clamp(1, CHECK_EVERY)
}

/// A reader's refresh: `cached` is the value it loaded from `word` *before* it read the precise
/// clock (`now`). If `cached` lags `now` by more than [`STALE_AFTER`], publishes `now` (as the
/// ticker would, [`publish_reading`]) and returns the word's new value; else returns `cached`.
///
/// This keeps every guarantee of the module: `now` is a `CLOCK_REALTIME` reading taken before
/// the store (never ahead); publishing only raises the word (never backwards by itself: a
/// newer value published meanwhile stays, and is what the read returns); `now` > `cached`, so a
/// reader never takes the step-back branch (following the OS clock back is left to the ticker,
/// which loads and reads in that order every period); a stale word (gone quiet, or a `fork()`
/// child) stays stale and the read returns `cached`, a live value at or below the floor that
/// going stale kept. It takes no lock: one compare-and-swap loop, rare (a late ticker).
fn refresh_if_stale(word: &AtomicI64, cached: i64, now: i64) -> i64 {
    if now - cached <= STALE_AFTER {
        return cached;
    }
    match publish_reading(word, cached, now) {
        value if value < 0 => cached,
        value => value,
    }
}

/// The read when no ticker publishes: make sure one runs (or will publish again shortly), and
/// read the precise clock meanwhile.
#[cold]
fn cold_read() -> i64 {
    start();
    cold_read_on(&CACHE.0.unix_ns, realtime_unix_ns())
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
    crate::fork::on_fork_in_child(crate::fork::ChildHook::FastClock, after_fork_in_child);
    let word = &CACHE.0.unix_ns;
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
    go_live(word, realtime_unix_ns());
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
    let word = &CACHE.0.unix_ns;
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
        go_live(word, realtime_unix_ns());
        idle = 0;
    }
}

/// `CLOCK_REALTIME` in nanoseconds since 1970 (0 before), as [`std::time::SystemTime`] reads it.
fn realtime_unix_ns() -> i64 {
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    return crate::wasm_host::now_unix_ns();
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
}

/// Reads the precise clock and publishes it (see the module's guarantees): the cached time
/// becomes at least this reading unless the OS clock was set back, in which case it follows
/// it back.
fn publish() {
    publish_to(&CACHE.0.unix_ns, realtime_unix_ns);
}

/// [`publish`] on `word`, reading the clock with `read` *after* loading the word. A stale word
/// is left stale (a quiet or absent ticker is woken by reads, not here).
fn publish_to(word: &AtomicI64, read: impl FnOnce() -> i64) {
    let loaded = word.load(Ordering::Relaxed);
    if loaded < 0 {
        return;
    }
    publish_reading(word, loaded, read());
}

/// Publishes the reading `now` to `word`, whose live value `loaded` was loaded *before* `now`
/// was read; returns the word's value afterwards (negative: stale, left so).
fn publish_reading(word: &AtomicI64, loaded: i64, now: i64) -> i64 {
    let update = |current: i64| {
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
    };
    match word.fetch_update(Ordering::Relaxed, Ordering::Relaxed, update) {
        Ok(previous) => update(previous).unwrap_or(previous),
        Err(current) => current,
    }
}

/// Publishes a fresh precise reading now, for a generator that is about to retry after a wait:
/// the time it waited for is then visible at once, whatever the ticker does.
#[inline]
pub fn refresh() {
    publish();
}

/// The `fork()` child hook (`fork`'s `FastClock` stage; atomics only): the child has no ticker.
fn after_fork_in_child() {
    go_stale(&CACHE.0.unix_ns);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_ahead_of_the_precise_clock_and_never_backwards() {
        start();
        let mut last = now_unix_ns();
        assert!(last > 0, "start publishes a first reading");
        for _ in 0..100_000 {
            let cached = now_unix_ns();
            let precise = realtime_unix_ns();
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
        let before = realtime_unix_ns();
        refresh();
        assert!(now_unix_ns() >= before);
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

    /// A process's cache with the live time `unix_ns`, unread.
    fn cache_at(unix_ns: i64) -> Cache {
        Cache {
            unix_ns: AtomicI64::new(unix_ns),
            read: AtomicBool::new(false),
        }
    }

    /// A read of `cache` by the thread watching with `seen`, the precise clock at `now`, as
    /// [`now_unix_ns`] makes it: what it returns, and whether it checked.
    fn read_at(cache: &Cache, seen: &Watch, now: i64) -> (i64, bool) {
        let cached = cache.unix_ns.load(Ordering::Relaxed);
        if seen.skips(cached) {
            (cached, false)
        } else {
            (seen.check(cache, cached, now), true)
        }
    }

    #[test]
    fn a_reader_refreshes_a_word_the_ticker_left_behind() {
        let cache = cache_at(1_000_000);
        let word = &cache.unix_ns;
        let seen = Watch::new();
        let read = |now| read_at(&cache, &seen, now);
        // A value new to this thread is checked (which marks the cache read): lagging the
        // precise reading by just STALE_AFTER, it stays.
        assert_eq!(read(1_000_000 + STALE_AFTER), (1_000_000, true));
        assert_eq!(word.load(Ordering::Relaxed), 1_000_000);
        assert!(cache.read.load(Ordering::Relaxed));
        // The next read finds it unchanged (the ticker is late) and checks it too: lagging by
        // more now, the reader publishes its reading and returns it.
        let now = 1_000_000 + STALE_AFTER + 1;
        assert_eq!(read(now), (now, true));
        assert_eq!(word.load(Ordering::Relaxed), now);
        // Its own value read again: its 1st and 2nd repeats are checked (fresh enough), then
        // the step doubles: 1 read unchecked, then 3, whatever the clock says meanwhile.
        assert_eq!(read(now + 10), (now, true));
        assert_eq!(read(now + 15), (now, true));
        assert_eq!(read(now + 10 * STALE_AFTER), (now, false));
        assert_eq!(read(now + 20), (now, true));
        for _ in 0..3 {
            assert_eq!(read(now + 10 * STALE_AFTER), (now, false));
        }
        assert_eq!(read(now + 30), (now, true));
        // A value another publisher stored meanwhile is new to this thread: checked.
        word.store(now + 100, Ordering::Relaxed);
        let later = now + 100 + STALE_AFTER + 1;
        assert_eq!(read(later), (later, true));
        assert_eq!(word.load(Ordering::Relaxed), later);
        // A word gone stale between a reader's load and its check stays stale; the read
        // returns the live value it loaded.
        go_stale(word);
        assert_eq!(seen.check(&cache, later, later + 10 * STALE_AFTER), later);
        assert_eq!(floor_of(word.load(Ordering::Relaxed)), later);
    }

    #[test]
    fn a_reader_never_moves_the_word_back_nor_makes_a_stale_word_live() {
        // A newer value published between the reader's load and its update stays, and is what
        // the read returns.
        let word = AtomicI64::new(9_000_000);
        assert_eq!(refresh_if_stale(&word, 1_000_000, 5_000_000), 9_000_000);
        assert_eq!(word.load(Ordering::Relaxed), 9_000_000);
        // A reading below the value loaded (the OS clock set back): left to the ticker.
        assert_eq!(refresh_if_stale(&word, 9_000_000, 2_000_000), 9_000_000);
        assert_eq!(word.load(Ordering::Relaxed), 9_000_000);
        // A word that went stale meanwhile stays stale; the read returns the live value it
        // loaded (at or below the floor).
        let stale = AtomicI64::new(stale_at(1_000_000));
        assert_eq!(refresh_if_stale(&stale, 1_000_000, 9_000_000), 1_000_000);
        assert_eq!(stale.load(Ordering::Relaxed), stale_at(1_000_000));
    }

    #[test]
    fn a_reader_in_a_loop_checks_rarely() {
        // The reads between two checks of one value: 1, 2, 4, …, CHECK_EVERY, then the same.
        assert_eq!(next_step(0), 1);
        let mut steps = std::vec![1];
        while steps[steps.len() - 1] < CHECK_EVERY {
            steps.push(next_step(steps[steps.len() - 1]));
        }
        assert_eq!(steps.len(), 13);
        assert_eq!(steps[12], CHECK_EVERY);
        assert_eq!(next_step(CHECK_EVERY), CHECK_EVERY);
        // 100 000 reads of a value the ticker keeps fresh: checked as new, then its 1st, 2nd,
        // 4th, …, 4 096th repeats (13 checks), then every 4 096 (23 more up to 99 999).
        let cache = cache_at(1_000);
        let seen = Watch::new();
        let mut checks = 0;
        for _ in 0..100_000 {
            let (value, checked) = read_at(&cache, &seen, 1_000 + STALE_AFTER);
            assert_eq!(value, 1_000);
            checks += u32::from(checked);
        }
        assert_eq!(checks, 1 + 13 + 23);
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
        let first = now_unix_ns();
        assert!(first <= realtime_unix_ns());
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while now_unix_ns() <= first {
            assert!(std::time::Instant::now() < deadline, "the time stopped");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(now_unix_ns() <= realtime_unix_ns());
    }

    #[test]
    fn the_ticker_moves_the_time_on_its_own() {
        start();
        let first = now_unix_ns();
        // Liveness, not timing: the bound is 10 000 periods.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while now_unix_ns() == first {
            assert!(
                std::time::Instant::now() < deadline,
                "the ticker did not run"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
