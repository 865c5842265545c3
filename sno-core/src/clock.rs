//! Time sources for generators.
//!
//! A [`Clock`] reports the current time in sno units (4 ms since 2010). It is injected into each
//! [`Generator`](crate::Generator), so tests, replays and model checks drive time by hand with a
//! [`ManualClock`], while production code uses the [`SystemClock`] (with `std`).

/// A source of time in sno units.
pub trait Clock: Send + Sync {
    /// The current time in 4 ms units since 2010-01-01T00:00:00Z, floored. Values outside
    /// `0..=MAX_TIMESTAMP` are reported as they are; the generator rejects them.
    fn now_units(&self) -> i64;

    /// Blocks the calling thread until the clock is expected to read at least `units`, by
    /// sleeping. The default sleeps a quarter unit (1 ms); the generator re-checks after waking.
    #[cfg(feature = "std")]
    fn wait_until(&self, units: u64) {
        let _ = units;
        std::thread::sleep(core::time::Duration::from_millis(1));
    }
}

/// A millisecond Unix clock, for the millisecond formats (ULID, UUIDv7, SCRU128, SCRU160,
/// Nanoflakes, Ulid-Flake). [`SystemClock`] implements it; so does any `Fn() -> i64` closure, which is how tests
/// and replays inject time.
pub trait MillisClock: Send + Sync {
    /// Milliseconds since 1970-01-01T00:00:00Z (negative before).
    fn now_unix_millis(&self) -> i64;
}

impl<F: Fn() -> i64 + Send + Sync> MillisClock for F {
    #[inline]
    fn now_unix_millis(&self) -> i64 {
        self()
    }
}

/// `Clock` for pointers to a clock (`&C`, `Arc<C>`): each call passed on to the clock.
macro_rules! clock_through {
    ($($(#[$attr:meta])* $pointer:ty;)*) => {$(
        $(#[$attr])*
        impl<C: Clock + ?Sized> Clock for $pointer {
            #[inline]
            fn now_units(&self) -> i64 {
                (**self).now_units()
            }
            #[cfg(feature = "std")]
            fn wait_until(&self, units: u64) {
                (**self).wait_until(units)
            }
        }
    )*};
}

clock_through! {
    &C;
    #[cfg(feature = "alloc")]
    alloc::sync::Arc<C>;
}

#[cfg(target_has_atomic = "64")]
pub use manual::ManualClock;

#[cfg(target_has_atomic = "64")]
mod manual {
    use super::Clock;

    /// A clock that reads whatever was last set: for tests, replays and no_std targets that keep
    /// time themselves. Cloning it is not supported; share it by reference or `Arc`.
    ///
    /// ```
    /// use sno_core::{Clock, ManualClock};
    /// let clock = ManualClock::new(1_000);
    /// clock.advance(2);
    /// assert_eq!(clock.now_units(), 1_002);
    /// ```
    #[derive(Debug, Default)]
    pub struct ManualClock {
        units: crate::sync::AtomicI64,
    }

    impl ManualClock {
        /// A clock reading `units`.
        pub fn new(units: i64) -> Self {
            ManualClock {
                units: crate::sync::AtomicI64::new(units),
            }
        }

        /// Sets the reading (any value, backwards included).
        pub fn set(&self, units: i64) {
            self.units.store(units, crate::sync::Ordering::SeqCst);
        }

        /// Moves the reading by `delta` units (negative moves it back).
        pub fn advance(&self, delta: i64) {
            self.units.fetch_add(delta, crate::sync::Ordering::SeqCst);
        }
    }

    impl Clock for ManualClock {
        #[inline]
        fn now_units(&self) -> i64 {
            self.units.load(crate::sync::Ordering::SeqCst)
        }
    }
}

#[cfg(target_has_atomic = "64")]
pub use leased::LeasedClock;

#[cfg(target_has_atomic = "64")]
mod leased {
    use super::Clock;
    use crate::sync::{AtomicU64, Ordering};

    /// A clock that never reads past a *lease*: the highest unit the application has persisted
    /// as reserved. It makes snapshots crash-safe: persist a lease, then [`extend`] the clock
    /// to it; every ID is then at or below a unit that is on disk, so after a crash (no final
    /// snapshot) a generator restored with [`Snapshot::resume_after`] from the last persisted
    /// lease cannot repeat one, even when the clock is set back.
    ///
    /// When the lease runs out, the reading stays at the lease: the generator uses up that
    /// unit's pool and [`Generator::next`] waits (in 1 ms sleeps) until the lease is extended,
    /// for at most its [maximum wait](crate::GeneratorBuilder::max_wait), then returns the error.
    /// Persist often enough (a lease a few periods ahead of the clock) that it never runs out.
    /// Readings below the lease pass through, backwards steps included.
    ///
    /// ```
    /// use sno_core::{Clock, LeasedClock, ManualClock};
    /// let clock = LeasedClock::new(ManualClock::new(1_000), 1_010);
    /// assert_eq!(clock.now_units(), 1_000);
    /// clock.inner().set(1_020);
    /// assert_eq!(clock.now_units(), 1_010); // the lease
    /// clock.extend(1_100); // after persisting 1 100
    /// assert_eq!(clock.now_units(), 1_020);
    /// ```
    ///
    /// [`extend`]: LeasedClock::extend
    /// [`Snapshot::resume_after`]: crate::Snapshot::resume_after
    /// [`Generator::next`]: crate::Generator::next
    #[derive(Debug)]
    pub struct LeasedClock<C> {
        inner: C,
        lease: AtomicU64,
    }

    impl<C: Clock> LeasedClock<C> {
        /// `inner`, capped at `lease` (a unit already persisted).
        pub fn new(inner: C, lease: u64) -> Self {
            LeasedClock {
                inner,
                lease: AtomicU64::new(lease),
            }
        }

        /// Raises the lease to `units` (never lowers it). Call it only after `units` is
        /// durably persisted.
        pub fn extend(&self, units: u64) {
            self.lease.fetch_max(units, Ordering::AcqRel);
        }

        /// The current lease.
        pub fn lease(&self) -> u64 {
            self.lease.load(Ordering::Acquire)
        }

        /// The wrapped clock.
        pub fn inner(&self) -> &C {
            &self.inner
        }
    }

    impl<C: Clock> Clock for LeasedClock<C> {
        #[inline]
        fn now_units(&self) -> i64 {
            let lease = self.lease.load(Ordering::Acquire);
            // Leases are sno units (≤ 2^39), so the conversion is exact.
            self.inner.now_units().min(lease as i64)
        }

        #[cfg(feature = "std")]
        fn wait_until(&self, units: u64) {
            if units > self.lease() {
                // Only a new lease helps: poll for it at the default pace.
                std::thread::sleep(core::time::Duration::from_millis(1));
            } else {
                self.inner.wait_until(units);
            }
        }
    }
}

/// Which time source a [`SystemClock`] reads: the operating system's clock on every read
/// (`Precise`, the default) or the opt-in cached clock (`Fast`), which a ticker thread refreshes
/// every 0.5 ms. Parsed from `"precise"` or `"fast"` (any case), as `SNO_CLOCK` and the
/// bindings' `clock` options spell it.
///
/// ```
/// use sno_core::ClockKind;
/// assert_eq!("fast".parse::<ClockKind>(), Ok(ClockKind::Fast));
/// assert_eq!(ClockKind::default().name(), "precise");
/// assert!("slow".parse::<ClockKind>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ClockKind {
    /// The OS clock read on every call (`CLOCK_REALTIME`, or `CLOCK_REALTIME_COARSE` where its
    /// resolution is fine enough for the format).
    #[default]
    Precise,
    /// A cached `CLOCK_REALTIME` reading refreshed by a ticker thread: a few nanoseconds to read,
    /// never ahead of the OS clock, behind it by less than 1 ms in steady state (`std` only).
    Fast,
}

impl ClockKind {
    /// Every kind, in declaration order.
    pub const ALL: [ClockKind; 2] = [ClockKind::Precise, ClockKind::Fast];

    /// The kind's name: `"precise"` or `"fast"`.
    pub const fn name(self) -> &'static str {
        match self {
            ClockKind::Precise => "precise",
            ClockKind::Fast => "fast",
        }
    }

    /// The kind `SNO_CLOCK` names for the process-wide generators: [`Precise`](Self::Precise)
    /// when it is unset, [`Error::InvalidEnvironment`](crate::Error::InvalidEnvironment) for
    /// a value that is not a kind's name (an empty value included).
    ///
    /// ```
    /// // Unset in this doctest's environment.
    /// assert_eq!(sno_core::ClockKind::from_env(), Ok(sno_core::ClockKind::Precise));
    /// ```
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<ClockKind, crate::Error> {
        match std::env::var_os("SNO_CLOCK") {
            None => Ok(ClockKind::Precise),
            Some(value) => value.to_str().and_then(|v| v.parse().ok()).ok_or(
                crate::Error::InvalidEnvironment {
                    variable: "SNO_CLOCK",
                    reason: "expected \"precise\" or \"fast\"",
                },
            ),
        }
    }
}

impl core::fmt::Display for ClockKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for ClockKind {
    type Err = crate::Error;
    /// A kind by name, in any case; [`Error::UnknownClock`](crate::Error::UnknownClock) for
    /// anything else.
    fn from_str(name: &str) -> Result<ClockKind, crate::Error> {
        ClockKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
            .ok_or(crate::Error::UnknownClock)
    }
}

/// The host's wall clock (`Date.now()`) as a generator's clock, in sno units and in Unix
/// milliseconds: the system clock of a `web` build. One reading per call, never cached
/// (a page has no ticker thread, so there is no fast clock: docs/clock.md, "no ticker at all").
#[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
#[derive(Clone, Copy, Debug, Default)]
pub struct HostClock;

#[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
impl HostClock {
    /// The host's wall clock in nanoseconds since 1970 (whole milliseconds).
    #[inline]
    pub fn now_unix_ns(&self) -> i64 {
        crate::wasm_host::now_unix_ns()
    }
}

#[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
impl Clock for HostClock {
    #[inline]
    fn now_units(&self) -> i64 {
        (crate::wasm_host::now_unix_ns() - crate::time::EPOCH_UNIX_NANOS)
            .div_euclid(crate::time::UNIT_NANOS)
    }
}

#[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
impl MillisClock for HostClock {
    #[inline]
    fn now_unix_millis(&self) -> i64 {
        crate::wasm_host::now_unix_ms()
    }
}

#[cfg(feature = "std")]
pub use system::SystemClock;

#[cfg(feature = "std")]
mod system {
    use super::{Clock, ClockKind};
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    use crate::time::units_from_secs_nanos;
    use crate::time::{EPOCH_UNIX_NANOS, UNIT_NANOS};
    use core::time::Duration;

    /// The operating system's wall clock.
    ///
    /// On Linux it reads `CLOCK_REALTIME_COARSE` when `clock_getres` reports a resolution of at
    /// most half a 4 ms unit, and `CLOCK_REALTIME` otherwise; the choice is made once per
    /// process. The coarse clock is cheaper to read, but it lags by up to its resolution *plus*
    /// the delay of the kernel's tick handling: on a 250 Hz kernel (resolution 4 ms) it lagged
    /// by more than one unit in many reads (measured: scripts/bench-notes.md, "The coarse
    /// clock's cost and lag"), which breaks the promise that an ID's time is within one unit of
    /// `CLOCK_REALTIME`. Half a unit of resolution leaves room for that delay (1000 Hz kernels
    /// qualify). Elsewhere it reads [`SystemTime`](std::time::SystemTime).
    ///
    /// [`SystemClock::fast`] is the opt-in cached clock ([`ClockKind::Fast`]): one atomic load
    /// per read instead of a `clock_gettime` call, never ahead of `CLOCK_REALTIME` and less than
    /// 1 ms behind it in steady state; a ticker thread keeps it fresh (the guarantees, and why a
    /// stalled ticker can only delay time, never repeat an ID: docs/clock.md).
    #[derive(Debug, Clone, Copy)]
    pub struct SystemClock {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        clock_id: libc::clockid_t,
        fast: bool,
    }

    impl Default for SystemClock {
        fn default() -> Self {
            Self::new()
        }
    }

    impl SystemClock {
        /// The cheapest system clock within one unit of `CLOCK_REALTIME` (decided once per process).
        pub fn new() -> Self {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                SystemClock {
                    clock_id: linux::best_clock(),
                    fast: false,
                }
            }
            #[cfg(not(any(target_os = "linux", target_os = "android")))]
            {
                SystemClock { fast: false }
            }
        }

        /// The opt-in fast clock ([`ClockKind::Fast`]): the process's cached `CLOCK_REALTIME`
        /// reading, refreshed every 0.5 ms by a ticker thread started here (once per process,
        /// and again in a `fork()` child). Where the thread cannot be started, reads fall back
        /// to the precise clock.
        ///
        /// ```
        /// use sno_core::{Clock, ClockKind, SystemClock};
        /// let fast = SystemClock::fast();
        /// assert_eq!(fast.kind(), ClockKind::Fast);
        /// let g = sno_core::Generator::builder().clock(fast).build()?;
        /// assert!(g.try_next(0)?.unix_ns() <= SystemClock::precise_unix_ns());
        /// # Ok::<(), sno_core::Error>(())
        /// ```
        pub fn fast() -> Self {
            crate::fast_time::start();
            // The precise clock's fields (none but `fast` off Linux), then the fast flag.
            let mut clock = Self::precise();
            clock.fast = true;
            clock
        }

        /// The clock of `kind`: [`new`](Self::new) or [`fast`](Self::fast).
        pub fn with_kind(kind: ClockKind) -> Self {
            match kind {
                ClockKind::Precise => Self::new(),
                ClockKind::Fast => Self::fast(),
            }
        }

        /// The clock `SNO_CLOCK` names ([`ClockKind::from_env`]), as the process-wide generators
        /// use it.
        ///
        /// ```
        /// // Unset in this doctest's environment: the precise clock.
        /// assert_eq!(sno_core::SystemClock::from_env()?.kind(), sno_core::ClockKind::Precise);
        /// # Ok::<(), sno_core::Error>(())
        /// ```
        pub fn from_env() -> Result<Self, crate::Error> {
            ClockKind::from_env().map(Self::with_kind)
        }

        /// The clock of the process-wide generators (`sno_core::new`, `ulid::new`, the leased
        /// one of `sno-lease`): the one [`from_env`](Self::from_env) gives, read once per process
        /// so that they all agree.
        ///
        /// ```
        /// // Unset in this doctest's environment: the precise clock.
        /// assert_eq!(sno_core::SystemClock::process_wide()?.kind(), sno_core::ClockKind::Precise);
        /// # Ok::<(), sno_core::Error>(())
        /// ```
        pub fn process_wide() -> Result<Self, crate::Error> {
            static CLOCK: std::sync::OnceLock<Result<SystemClock, crate::Error>> =
                std::sync::OnceLock::new();
            *CLOCK.get_or_init(Self::from_env)
        }

        /// This clock's reading in nanoseconds since 1970: the cached time for the fast clock,
        /// else `CLOCK_REALTIME` (the precise clock, also for a coarse one, whose readings are
        /// only made in units).
        ///
        /// ```
        /// use sno_core::SystemClock;
        /// let fast = SystemClock::fast();
        /// assert!(fast.now_unix_ns() <= SystemClock::precise_unix_ns());
        /// ```
        #[inline]
        pub fn now_unix_ns(&self) -> i64 {
            if self.fast {
                crate::fast_time::now_unix_ns()
            } else {
                Self::precise_unix_ns()
            }
        }

        /// The old name of [`now_unix_ns`](Self::now_unix_ns).
        #[deprecated(since = "0.2.0", note = "renamed `now_unix_ns`")]
        #[inline]
        pub fn now_unix_nanos(&self) -> i64 {
            self.now_unix_ns()
        }

        /// Which source this clock reads.
        pub fn kind(&self) -> ClockKind {
            if self.fast {
                ClockKind::Fast
            } else {
                ClockKind::Precise
            }
        }

        /// The precise clock (`CLOCK_REALTIME`), ignoring the coarse one.
        pub fn precise() -> Self {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                SystemClock {
                    clock_id: libc::CLOCK_REALTIME,
                    fast: false,
                }
            }
            #[cfg(not(any(target_os = "linux", target_os = "android")))]
            {
                SystemClock { fast: false }
            }
        }

        /// Whether this clock reads the coarse kernel clock.
        pub fn is_coarse(&self) -> bool {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                !self.fast && self.clock_id == libc::CLOCK_REALTIME_COARSE
            }
            #[cfg(not(any(target_os = "linux", target_os = "android")))]
            {
                false
            }
        }

        /// Current Unix time in nanoseconds from the precise clock.
        #[inline]
        pub fn precise_unix_ns() -> i64 {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                let (s, n) = linux::read(libc::CLOCK_REALTIME);
                s * 1_000_000_000 + i64::from(n)
            }
            #[cfg(all(target_family = "wasm", target_os = "unknown"))]
            {
                crate::wasm_host::now_unix_ns()
            }
            #[cfg(not(any(
                target_os = "linux",
                target_os = "android",
                all(target_family = "wasm", target_os = "unknown")
            )))]
            {
                let d = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                d.as_nanos() as i64
            }
        }

        /// The old name of [`precise_unix_ns`](Self::precise_unix_ns).
        #[deprecated(since = "0.2.0", note = "renamed `precise_unix_ns`")]
        #[inline]
        pub fn precise_unix_nanos() -> i64 {
            Self::precise_unix_ns()
        }
    }

    impl crate::clock::MillisClock for SystemClock {
        /// Always the precise clock: a 4 ms coarse tick would waste most of a millisecond
        /// format's time resolution.
        #[inline]
        fn now_unix_millis(&self) -> i64 {
            if self.fast {
                return crate::fast_time::now_unix_ns().div_euclid(1_000_000);
            }
            // Seconds and the millisecond within: a 32-bit division instead of the 64-bit
            // one of the nanosecond total (the floor either way, as the nanoseconds are ≥ 0).
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                let (s, n) = linux::read(libc::CLOCK_REALTIME);
                s * 1_000 + i64::from(n / 1_000_000)
            }
            #[cfg(not(any(target_os = "linux", target_os = "android")))]
            {
                SystemClock::precise_unix_ns().div_euclid(1_000_000)
            }
        }
    }

    impl Clock for SystemClock {
        #[inline]
        fn now_units(&self) -> i64 {
            if self.fast {
                return (crate::fast_time::now_unix_ns() - EPOCH_UNIX_NANOS).div_euclid(UNIT_NANOS);
            }
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                let (s, n) = linux::read(self.clock_id);
                units_from_secs_nanos(s, n)
            }
            #[cfg(all(target_family = "wasm", target_os = "unknown"))]
            {
                (crate::wasm_host::now_unix_ns() - EPOCH_UNIX_NANOS).div_euclid(UNIT_NANOS)
            }
            #[cfg(not(any(
                target_os = "linux",
                target_os = "android",
                all(target_family = "wasm", target_os = "unknown")
            )))]
            {
                match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
                    Ok(d) => units_from_secs_nanos(d.as_secs() as i64, d.subsec_nanos()),
                    Err(e) => {
                        let d = e.duration();
                        units_from_secs_nanos(
                            -(d.as_secs() as i64) - 1,
                            1_000_000_000 - d.subsec_nanos(),
                        )
                    }
                }
            }
        }

        /// Sleeps until the start of unit `units` by the precise clock. A coarse clock moves only
        /// on kernel ticks, so when the target has passed but the coarse reading lags, it sleeps
        /// until the next tick is due (one resolution after the coarse reading). The fast clock
        /// publishes a fresh reading after the sleep (at once, when only its cache lags), so the
        /// retry sees the target unit whatever its ticker does.
        fn wait_until(&self, units: u64) {
            let target = EPOCH_UNIX_NANOS + units as i64 * UNIT_NANOS;
            let now = Self::precise_unix_ns();
            let mut wait = target - now;
            if self.fast {
                if wait > 0 {
                    std::thread::sleep(Duration::from_nanos(wait as u64));
                }
                crate::fast_time::refresh();
                return;
            }
            if wait <= 0 {
                wait = self.lag_hint(now);
            }
            std::thread::sleep(Duration::from_nanos(wait as u64));
        }
    }

    impl SystemClock {
        /// How long until a lagging clock's next update, at least 20 µs.
        fn lag_hint(&self, now_precise: i64) -> i64 {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            if self.is_coarse() {
                let (s, n) = linux::read(libc::CLOCK_REALTIME_COARSE);
                let next_tick = s * 1_000_000_000 + i64::from(n) + linux::coarse_resolution();
                return (next_tick - now_precise).clamp(20_000, UNIT_NANOS);
            }
            let _ = now_precise;
            20_000
        }
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[allow(
        clippy::unnecessary_cast,
        reason = "time_t and c_long are 32-bit on some targets"
    )]
    mod linux {
        use core::sync::atomic::{AtomicI64, Ordering};

        /// 0 = unknown, else the coarse clock's resolution in ns.
        static COARSE_RES: AtomicI64 = AtomicI64::new(0);

        pub(super) fn coarse_resolution() -> i64 {
            if cfg!(miri) {
                // Miri cannot call clock_getres; under it the precise clock is always taken.
                return i64::MAX;
            }
            let cached = COARSE_RES.load(Ordering::Relaxed);
            if cached != 0 {
                return cached;
            }
            let mut ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `ts` is a valid, writable timespec; clock_getres only writes through it.
            let rc = unsafe { libc::clock_getres(libc::CLOCK_REALTIME_COARSE, &mut ts) };
            let res = if rc == 0 {
                ts.tv_sec as i64 * 1_000_000_000 + ts.tv_nsec as i64
            } else {
                i64::MAX
            };
            COARSE_RES.store(res.max(1), Ordering::Relaxed);
            res.max(1)
        }

        pub(super) fn best_clock() -> libc::clockid_t {
            // The coarse clock lags by its resolution plus the tick's own delay: keep half a
            // unit for the latter.
            if coarse_resolution().saturating_mul(2) <= crate::time::UNIT_NANOS {
                libc::CLOCK_REALTIME_COARSE
            } else {
                libc::CLOCK_REALTIME
            }
        }

        #[inline]
        pub(super) fn read(id: libc::clockid_t) -> (i64, u32) {
            let mut ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `ts` is a valid, writable timespec and `id` is one of the CLOCK_REALTIME
            // clocks, which every supported kernel provides (served from the vDSO).
            unsafe { libc::clock_gettime(id, &mut ts) };
            (ts.tv_sec as i64, ts.tv_nsec as u32)
        }
    }
}
