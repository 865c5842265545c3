//! What the millisecond formats (ULID, UUIDv7, SCRU128, SCRU160, Nanoflakes, Ulid-Flake) share: the state-machine trait each
//! format's generator implements, the standard-library wrapper that makes one thread-safe with a
//! clock, and the macro giving every ID type its conversion and formatting traits.

use crate::error::Error;

/// A format's generator state machine: the next ID for a given millisecond. `&mut self`, no
/// clock, no lock: usable in no_std as it is, and wrapped by [`Shared`] with std (which needs
/// it `Clone`, to put the state back after a failed draw).
pub trait MillisState {
    /// The ID type produced.
    type Id;
    /// The next ID with the clock reading `unix_millis`.
    fn next_at(&mut self, unix_millis: i64) -> Result<Self::Id, Error>;
    /// Forgets the history (after a failed draw, and in a `fork()` child, whose copy of the
    /// state would otherwise continue the parent's sequence).
    fn reset(&mut self);
    /// Makes the state safe to use in a `fork()` child: by default [`reset`](Self::reset) (the
    /// random-based formats then draw fresh randomness). A format whose uniqueness rests on an
    /// explicit id alone (Nanoflakes' generator id) returns [`Error::Forked`] instead: the
    /// child must be given a state of its own ([`Shared::replace_state`]).
    fn after_fork(&mut self) -> Result<(), Error> {
        self.reset();
        Ok(())
    }
    /// Whether [`next_at`](Self::next_at) may draw from the calling thread's
    /// [`ThreadRng`](crate::rng::ThreadRng): the std wrappers then make sure it is seeded first
    /// (a draw that had to seed and could not would panic). `true` unless the format draws no
    /// randomness (Nanoflakes).
    fn may_draw_thread_rng(&self) -> bool {
        true
    }
}

pub use crate::millis_block::{Block, MAX_BLOCK};

/// A [`MillisState`] that can reserve a [`Block`] of consecutive values at once, which threads
/// then make IDs from without touching the shared state ([`Shared::try_next_per_thread`], the
/// process-wide `new()` of ULID, UUIDv7 and SCRU128; see [`Block`]).
///
/// The format's rules live in [`reserve`](Self::reserve) alone: its
/// [`next_at`](MillisState::next_at) is `reserve(unix_millis, 1)` then [`mint`](Self::mint)
/// with the state's own randomness source, so a block of `n` holds exactly the values `n`
/// successive `next_at` calls would produce (without their per-ID random parts), as the
/// property tests check per format.
///
/// ```
/// # #[cfg(feature = "std")] {
/// use sno_core::monotonic::{BlockState, MillisState};
/// use sno_core::ulid::Monotonic;
/// let mut a = Monotonic::new(sno_core::rng::ThreadRng);
/// let block = a.reserve(1_700_000_000_000, 4)?;
/// let next = a.next_at(1_700_000_000_000)?;
/// assert_eq!(next.randomness(), block.counter + 4); // the state moved past the block
/// # }
/// # Ok::<(), sno_core::Error>(())
/// ```
pub trait BlockState: MillisState {
    /// Reserves up to `n` (0 counts as 1) consecutive values at the clock reading
    /// `unix_millis`: the values as many successive [`next_at`](MillisState::next_at) calls
    /// would produce, cut short where the next one would carry into another field, move the
    /// timestamp or run out (the following call does that step), and with the same errors.
    fn reserve(&mut self, unix_millis: i64, n: u32) -> Result<Block, Error>;
    /// The ID of value `counter` of a block at `unix_ms`, drawing its per-ID random part (if
    /// the format has one) from `rng`.
    fn mint<G: rand_core::RngCore + ?Sized>(unix_ms: u64, counter: u128, rng: &mut G) -> Self::Id;
}

#[cfg(feature = "std")]
pub(crate) use shared::or_panic;
#[cfg(feature = "std")]
pub use shared::{MAX_ROLLBACK_WAIT_MS, Shared, until_next_millisecond};
#[cfg(feature = "std")]
pub(crate) use shared::{next_per_thread_waiting, next_within_max_wait};

#[cfg(feature = "std")]
mod shared {
    use core::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Mutex, MutexGuard};

    use super::{Block, BlockState, MillisState};
    use crate::clock::{MillisClock, SystemClock};
    use crate::error::Error;
    use crate::millis_block::{BlockSource, next_per_thread, next_source_id, refill};
    use crate::rng::ThreadRng;

    /// A thread-safe generator: a [`MillisState`] behind a mutex, read against a
    /// [`MillisClock`]. Reset in a child process after `fork()`.
    ///
    /// [`try_next`](Self::try_next) and [`next`](Self::next) take the lock for every ID: the IDs
    /// strictly increase across all threads in the order of their calls. For a
    /// [`BlockState`] (ULID, UUIDv7, SCRU128), [`try_next_per_thread`](Self::try_next_per_thread)
    /// takes it once per [`Block`] of up to 64 IDs instead: unique in the process, strictly
    /// increasing per thread, ordered across threads by millisecond only.
    #[derive(Debug)]
    pub struct Shared<S, C = SystemClock> {
        state: Mutex<(u64, S)>,
        /// The id of the per-thread blocks cut from this state (renewed when the state is
        /// replaced, so no thread continues a block of the old one).
        id: AtomicU64,
        clock: C,
    }

    /// How far back (ms) a clock may go for [`Shared::next`] to wait instead of failing with
    /// [`Error::ClockRollback`] (only generators that refuse rollbacks return it: Nanoflakes):
    /// the wait policy's ([`crate::wait`]).
    pub use crate::wait::MAX_ROLLBACK_WAIT_MS;

    impl<S: MillisState + Clone> Shared<S, SystemClock> {
        /// Wraps `state` on the system clock.
        pub fn new(state: S) -> Self {
            Shared::with_state_and_clock(state, SystemClock::default())
        }
    }

    impl<S: MillisState + Clone, C: MillisClock> Shared<S, C> {
        /// Wraps `state`, reading time from `clock`.
        pub fn with_state_and_clock(state: S, clock: C) -> Self {
            crate::fork::register_fork_handler();
            Shared {
                state: Mutex::new((crate::fork::fork_generation(), state)),
                id: AtomicU64::new(next_source_id()),
                clock,
            }
        }

        #[inline]
        fn lock(&self) -> Result<MutexGuard<'_, (u64, S)>, Error> {
            let mut guard = self.lock_any();
            let generation = crate::fork::fork_generation();
            if guard.0 != generation {
                guard.1.after_fork()?;
                guard.0 = generation;
            }
            Ok(guard)
        }

        fn lock_any(&self) -> MutexGuard<'_, (u64, S)> {
            // A panic while holding the lock cannot leave the state half-updated in a way that
            // repeats IDs (every transition is a few assignments), so poisoning is ignored.
            self.state.lock().unwrap_or_else(|p| p.into_inner())
        }

        /// Replaces the state, e.g. in a `fork()` child with a generator id of the child's own
        /// (after [`Error::Forked`]); the new state counts as this process's. The formats with
        /// an id of their own have a `repartition` that keeps the history
        /// ([`nanoflake::Generator::repartition`](crate::nanoflake::Generator::repartition),
        /// [`ulidflake::Generator::repartition`](crate::ulidflake::Generator::repartition)).
        pub fn replace_state(&self, state: S) {
            *self.lock_any() = (crate::fork::fork_generation(), state);
            self.id.store(next_source_id(), Ordering::Relaxed);
        }

        /// Replaces the state by `f(current)` under the lock; the new state counts as this
        /// process's.
        pub(crate) fn update_state(
            &self,
            f: impl FnOnce(&S) -> Result<S, Error>,
        ) -> Result<(), Error> {
            let mut guard = self.lock_any();
            let next = f(&guard.1)?;
            *guard = (crate::fork::fork_generation(), next);
            self.id.store(next_source_id(), Ordering::Relaxed);
            Ok(())
        }

        /// `next_at` on the locked state, after making sure the thread's CSPRNG is seeded (so
        /// that no draw fails half-way through a state change).
        #[inline]
        fn next_at_locked(&self, unix_millis: i64) -> Result<S::Id, Error> {
            let mut guard = self.lock()?;
            if guard.1.may_draw_thread_rng() {
                crate::rng::thread_rng_ready()?;
            }
            guard.1.next_at(unix_millis)
        }

        /// The next ID, or an error at once (e.g. [`Error::RandomnessExhausted`] for a ULID,
        /// [`Error::MillisOutOfRange`] for a clock outside the format's range).
        ///
        /// The per-thread CSPRNG ([`ThreadRng`](crate::rng::ThreadRng)) failing to seed from
        /// the operating system is [`Error::RandomnessUnavailable`]: no ID is made from a
        /// missing seed, and the state is left as it was.
        #[inline]
        pub fn try_next(&self) -> Result<S::Id, Error> {
            self.next_at_locked(self.clock.now_unix_millis())
        }

        /// The next ID; when the current millisecond is used up, sleeps until the next one, and
        /// when the clock went back at most [`MAX_ROLLBACK_WAIT_MS`] (for a generator that
        /// refuses rollbacks), sleeps until it caught up; for at most
        /// [`DEFAULT_MAX_WAIT`](crate::time::DEFAULT_MAX_WAIT) (5 s) in all, then the
        /// error is returned (a clock that never gets there cannot hold it longer). Other
        /// errors are returned at once.
        pub fn next(&self) -> Result<S::Id, Error> {
            next_within_max_wait(|| self.try_next())
        }

        /// The next ID for an explicit time (the clock is not read).
        pub fn next_at(&self, unix_millis: i64) -> Result<S::Id, Error> {
            self.next_at_locked(unix_millis)
        }
    }

    impl<S: BlockState + Clone, C: MillisClock> Shared<S, C> {
        /// Reserves up to `n` consecutive values (0 counts as 1) at the clock's current
        /// millisecond with one locked step: a [`Block`], whose values
        /// [`BlockState::mint`] makes into IDs. Nothing else gets those values again.
        ///
        /// ```
        /// use sno_core::monotonic::BlockState;
        /// use sno_core::uuid7::{Generator, Monotonic};
        /// let g = Generator::default();
        /// let block = g.try_reserve(8)?;
        /// assert_eq!(block.count, 8);
        /// let last = Monotonic::<sno_core::rng::ThreadRng>::mint(
        ///     block.unix_ms, block.counter + 7, &mut sno_core::rng::ThreadRng);
        /// assert!(g.try_next()? > last);
        /// # Ok::<(), sno_core::Error>(())
        /// ```
        pub fn try_reserve(&self, n: u32) -> Result<Block, Error> {
            self.reserve_locked(self.clock.now_unix_millis(), n)
        }

        fn reserve_locked(&self, unix_millis: i64, n: u32) -> Result<Block, Error> {
            let mut guard = self.lock()?;
            if guard.1.may_draw_thread_rng() {
                crate::rng::thread_rng_ready()?;
            }
            guard.1.reserve(unix_millis, n)
        }

        /// The next ID from the calling thread's block of this generator's values, taking the
        /// lock only to reserve a new block (once per up to [`MAX_BLOCK`](super::MAX_BLOCK)
        /// IDs; see [`Block`] for the per-thread cache). Unique within the process like
        /// [`try_next`](Self::try_next), and strictly increasing per thread; across threads,
        /// IDs of different milliseconds are in time order, those of one millisecond in any.
        /// The per-ID random parts come from the thread's CSPRNG. Errors as `try_next`.
        ///
        /// ```
        /// let g = sno_core::scru128::Generator::default();
        /// let a = g.try_next_per_thread()?;
        /// assert!(g.try_next_per_thread()? > a);
        /// # Ok::<(), sno_core::Error>(())
        /// ```
        #[inline]
        pub fn try_next_per_thread(&self) -> Result<S::Id, Error> {
            next_per_thread(self, |now| refill(self, now))
        }

        /// [`try_next_per_thread`](Self::try_next_per_thread), waiting as [`next`](Self::next)
        /// does.
        #[inline]
        pub fn next_per_thread(&self) -> Result<S::Id, Error> {
            next_per_thread_waiting(self)
        }
    }

    impl<S: BlockState + Clone, C: MillisClock> BlockSource for Shared<S, C> {
        type Id = S::Id;
        #[inline]
        fn source_id(&self) -> u64 {
            self.id.load(Ordering::Relaxed)
        }
        #[inline]
        fn now_unix_millis(&self) -> i64 {
            self.clock.now_unix_millis()
        }
        fn take_block(&self, unix_millis: i64, n: u32) -> Result<Block, Error> {
            self.reserve_locked(unix_millis, n)
        }
        #[inline]
        fn mint(unix_ms: u64, counter: u128) -> S::Id {
            S::mint(unix_ms, counter, &mut ThreadRng)
        }
    }

    /// The per-thread path of `g` that waits like [`next_within_max_wait`] on a miss whose
    /// refill fails (a used-up millisecond); a hit returns at once.
    #[inline]
    pub(crate) fn next_per_thread_waiting<G: BlockSource>(g: &G) -> Result<G::Id, Error> {
        next_per_thread(g, |now| {
            let mut first = Some(now);
            next_within_max_wait(|| match first.take() {
                Some(now) => refill(g, now),
                None => next_per_thread(g, |now| refill(g, now)),
            })
        })
    }

    /// `try_next()` until it succeeds, under the crate's one wait policy ([`crate::wait`]):
    /// sleeping (never spinning) through a used-up millisecond and a clock that went back at
    /// most [`MAX_ROLLBACK_WAIT_MS`], for at most
    /// [`DEFAULT_MAX_WAIT`](crate::time::DEFAULT_MAX_WAIT) in all by the monotonic clock.
    #[inline]
    pub(crate) fn next_within_max_wait<Id>(
        try_next: impl FnMut() -> Result<Id, Error>,
    ) -> Result<Id, Error> {
        let never_stopped = crate::wait::retry(
            crate::time::DEFAULT_MAX_WAIT,
            SystemClock::precise_unix_ns,
            crate::wait::can_wait,
            try_next,
            |pause| -> Result<(), core::convert::Infallible> {
                pause.sleep();
                Ok(())
            },
        );
        match never_stopped {
            Ok(result) => result,
            Err(never) => match never {},
        }
    }

    /// How long until the system clock's next millisecond starts (plus a few µs, so the wake-up
    /// lands inside it): the shortest sleep after which a used-up millisecond is over. With an
    /// injected clock this is just a short pause before the clock is read again.
    pub fn until_next_millisecond() -> core::time::Duration {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        core::time::Duration::from_micros(u64::from(1_000 - now.subsec_micros() % 1_000) + 5)
    }

    /// `result`'s ID; the panic of a process-wide `new()` (documented under `# Panics`).
    #[track_caller]
    pub(crate) fn or_panic<Id>(result: Result<Id, Error>) -> Id {
        match result {
            Ok(id) => id,
            Err(e) => panic!("{e}"),
        }
    }

    impl<S: MillisState + Clone + Default> Default for Shared<S, SystemClock> {
        fn default() -> Self {
            Shared::with_state_and_clock(S::default(), SystemClock::default())
        }
    }
}

/// `encode` (text into a caller buffer), `encode_bytes`, Display (padded), `FromStr`, binary
/// `TryFrom<&[u8]>`, `From<T> for [u8; N]`, `AsRef<[u8]>` and serde for an ID type with an
/// ASCII `write_text(&self, &mut [u8; TEXT])`, `decode(&[u8])` and `from_slice(&[u8])`. The
/// text is written straight into the caller's buffer: a copy of a temporary would reload it
/// across the kernels' stores, which the CPU cannot forward (measured: scripts/bench-notes.md,
/// "ID text written into the caller's buffer"). With `custom_encode` the type writes its own
/// `encode` (variable-length text).
macro_rules! id_traits {
    ($ty:ty, $text:expr, $bin:expr, $what:literal) => {
        impl $ty {
            /// Writes the canonical text into `buf` and returns it (no allocation).
            #[inline]
            pub fn encode<'a>(&self, buf: &'a mut [u8; $text]) -> &'a str {
                self.write_text(buf);
                // SAFETY: `write_text` writes only alphabet symbols (and hyphens), and every
                // alphabet of the crate is ASCII (`Alphabet::new` asserts it at compile time).
                unsafe { core::str::from_utf8_unchecked(buf) }
            }
            #[doc = concat!("The canonical text of the ", $what, ", as ASCII bytes.")]
            #[inline]
            pub fn encode_bytes(&self) -> [u8; $text] {
                let mut buf = [0u8; $text];
                self.write_text(&mut buf);
                buf
            }
        }
        $crate::monotonic::id_traits!($ty, $text, $bin, $what, custom_encode);
    };
    ($ty:ty, $text:expr, $bin:expr, $what:literal, custom_encode) => {
        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let mut buf = [0u8; $text];
                f.pad(self.encode(&mut buf))
            }
        }
        impl core::str::FromStr for $ty {
            type Err = $crate::Error;
            fn from_str(s: &str) -> Result<Self, $crate::Error> {
                <$ty>::decode(s.as_bytes())
            }
        }
        impl TryFrom<&[u8]> for $ty {
            type Error = $crate::Error;
            /// The binary form; use `decode` for text.
            fn try_from(bytes: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::from_slice(bytes)
            }
        }
        impl From<$ty> for [u8; $bin] {
            fn from(id: $ty) -> Self {
                id.to_bytes()
            }
        }
        impl AsRef<[u8]> for $ty {
            fn as_ref(&self) -> &[u8] {
                self.as_bytes()
            }
        }
        #[cfg(feature = "serde")]
        impl $crate::serde::TextId for $ty {
            const EXPECTING_TEXT: &'static str = concat!("a ", $what, " string");
            const EXPECTING_BYTES: &'static str = concat!("the ", $what, " bytes");
            const BINARY_LEN: usize = $bin;
            fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
                let mut buf = [0u8; $text];
                f(self.encode(&mut buf))
            }
            fn raw(&self) -> &[u8] {
                self.as_bytes()
            }
            fn parse_text(text: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::decode(text)
            }
            fn parse_raw(bytes: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::from_slice(bytes)
            }
        }
        #[cfg(feature = "serde")]
        $crate::serde::text_serde!($ty);
    };
}
pub(crate) use id_traits;

/// The integer face of a 64-bit ID type stored as `[u8; 8]` big-endian with the sign bit 0
/// (Nanoflakes, Ulid-Flake): `from_i64` / `to_i64`, the bytes, `from_slice`, and the `i64`
/// conversions.
macro_rules! i64_id {
    ($ty:ident) => {
        impl $ty {
            /// From the integer; negative values are [`Error::ValueOverflow`] (the sign bit must
            /// be 0).
            pub const fn from_i64(value: i64) -> Result<$ty, $crate::Error> {
                if value < 0 {
                    return Err($crate::Error::ValueOverflow);
                }
                Ok($ty(value.to_be_bytes()))
            }
            /// The integer (never negative).
            pub const fn to_i64(self) -> i64 {
                i64::from_be_bytes(self.0)
            }
            const fn bits(&self) -> u64 {
                u64::from_be_bytes(self.0)
            }
            /// The 8 bytes (big-endian).
            pub const fn to_bytes(self) -> [u8; 8] {
                self.0
            }
            /// The 8 bytes, borrowed.
            pub const fn as_bytes(&self) -> &[u8; 8] {
                &self.0
            }
            /// The 8-byte big-endian binary form (sign bit 0).
            pub fn from_slice(bytes: &[u8]) -> Result<$ty, $crate::Error> {
                $ty::from_i64(i64::from_be_bytes($crate::monotonic::array_from_slice(
                    bytes,
                )?))
            }
        }

        impl TryFrom<i64> for $ty {
            type Error = $crate::Error;
            fn try_from(value: i64) -> Result<$ty, $crate::Error> {
                $ty::from_i64(value)
            }
        }

        impl From<$ty> for i64 {
            fn from(id: $ty) -> i64 {
                id.to_i64()
            }
        }
    };
}
pub(crate) use i64_id;

/// `Default` for a generator state `$ty<R>` with a `const fn new(rng: R)`: a fresh state on
/// `R::default()`.
macro_rules! default_from_rng {
    ($ty:ident) => {
        impl<R: rand_core::RngCore + Default> Default for $ty<R> {
            fn default() -> Self {
                $ty::new(R::default())
            }
        }
    };
}
pub(crate) use default_from_rng;

/// `MillisState` for a block-based state `Monotonic<R>` whose `last: Option<_>` is its whole
/// memory: one ID is a block of one value ([`BlockState::reserve`] then
/// [`BlockState::mint`]), and a reset forgets the last time and value.
macro_rules! block_millis_state {
    ($id:ty) => {
        impl<R: rand_core::RngCore> $crate::monotonic::MillisState for Monotonic<R> {
            type Id = $id;

            fn next_at(&mut self, unix_millis: i64) -> Result<$id, $crate::Error> {
                let block = $crate::monotonic::BlockState::reserve(self, unix_millis, 1)?;
                Ok(<Self as $crate::monotonic::BlockState>::mint(
                    block.unix_ms,
                    block.counter,
                    &mut self.rng,
                ))
            }

            fn reset(&mut self) {
                self.last = None;
            }
        }
    };
}
pub(crate) use block_millis_state;

/// A format module's std items: `Generator` (its `Monotonic` state behind [`Shared`], on the
/// system clock and the per-thread CSPRNG) and `new()` (a process-wide one, unless the module
/// brings its own: `std_generator!(Id, "what", own_new)`). With `per_thread` (the formats with
/// a [`BlockState`]) `new()` makes its IDs from per-thread blocks
/// ([`Shared::try_next_per_thread`]), else it takes the lock per ID.
macro_rules! std_generator {
    (@global $id:ty, $what:literal, $next:ident, $try_next:ident, $order:literal) => {
        $crate::monotonic::std_generator!($id, $what, own_new);

        #[doc = concat!("A new ", $what, " from the process-wide generator (created on first use, \
            reset in a `fork()` child): ", $order, "\n\n# Panics\nIf the system clock reads \
            outside the format's range (see [`try_new`]), or the operating system's randomness \
            source cannot be read.")]
        #[cfg(feature = "std")]
        pub fn new() -> $id {
            $crate::monotonic::or_panic(try_new())
        }

        #[doc = concat!("A new ", $what, " from the process-wide generator, or the error that \
            [`new`] panics with: [`Error::MillisOutOfRange`](crate::Error::MillisOutOfRange) \
            for a system clock outside the format's range, \
            [`Error::RandomnessUnavailable`](crate::Error::RandomnessUnavailable) when the \
            operating system's randomness source cannot be read, \
            [`Error::InvalidEnvironment`](crate::Error::InvalidEnvironment) for an invalid \
            `SNO_CLOCK`.")]
        #[cfg(feature = "std")]
        pub fn try_new() -> Result<$id, $crate::Error> {
            try_global_generator()?.$next()
        }

        #[doc = concat!("The process-wide ", $what, " generator behind [`new`] and [`try_new`] \
            (created on first use, reset in a `fork()` child), on the clock `SNO_CLOCK` names \
            ([`SystemClock::from_env`](crate::SystemClock::from_env)): its `try_next` never \
            blocks.\n\n# Panics\nIf `SNO_CLOCK` holds an invalid value ([`try_new`] returns \
            the error).")]
        #[cfg(feature = "std")]
        pub fn global_generator() -> &'static Generator {
            $crate::monotonic::or_panic(try_global_generator())
        }

        #[doc = concat!("[`try_new`] without waiting: where it would sleep (a used-up \
            millisecond), the error at once, with its retry time.")]
        #[cfg(feature = "std")]
        pub fn try_new_nonblocking() -> Result<$id, $crate::Error> {
            try_global_generator()?.$try_next()
        }

        #[cfg(feature = "std")]
        impl $crate::model::ProcessWide for $id {
            #[inline]
            fn try_new() -> Result<$id, $crate::Error> {
                try_new()
            }
            #[inline]
            fn try_new_nonblocking() -> Result<$id, $crate::Error> {
                try_new_nonblocking()
            }
        }

        #[doc = concat!("[`global_generator`], or the `SNO_CLOCK` error it panics with.")]
        #[cfg(feature = "std")]
        pub fn try_global_generator() -> Result<&'static Generator, $crate::Error> {
            static GLOBAL: std::sync::OnceLock<Result<Generator, $crate::Error>> =
                std::sync::OnceLock::new();
            GLOBAL
                .get_or_init(|| {
                    let clock = $crate::SystemClock::process_wide()?;
                    Ok(Generator::with_state_and_clock(Default::default(), clock))
                })
                .as_ref()
                .map_err(|e| *e)
        }
    };
    ($id:ty, $what:literal) => {
        $crate::monotonic::std_generator!(@global $id, $what, next, try_next,
            "strictly increasing across all threads of the process (one lock per ID).");
    };
    ($id:ty, $what:literal, per_thread) => {
        $crate::monotonic::std_generator!(@global $id, $what, next_per_thread, try_next_per_thread,
            "unique within the process and strictly increasing in each thread; across threads \
            IDs of different milliseconds are in time order, those of one millisecond in any \
            (each thread makes its IDs from a block of up to 64 values reserved with one lock, \
            so threads do not slow each other down; [`Generator::try_next`] keeps strict \
            process-wide order).");
    };
    ($id:ty, $what:literal, own_new) => {
        #[doc = concat!("A thread-safe ", $what, " generator on the system clock and a per-thread CSPRNG.")]
        #[cfg(feature = "std")]
        pub type Generator<C = $crate::SystemClock> =
            $crate::monotonic::Shared<Monotonic<$crate::rng::ThreadRng>, C>;
    };
}
pub(crate) use std_generator;

/// The exact-length binary parser every ID type offers as `from_slice`.
pub(crate) fn array_from_slice<const N: usize>(bytes: &[u8]) -> Result<[u8; N], Error> {
    <[u8; N]>::try_from(bytes).map_err(|_| Error::InvalidLength {
        expected: N,
        actual: bytes.len(),
    })
}

/// `value` as 16 big-endian bytes, written by one 16-byte store on x86_64: a caller that copies a
/// freshly generated ID with one 16-byte load (the usual move of a 16-byte array) is then served
/// from the store buffer, while `u128::to_be_bytes` compiles to two 8-byte stores, from which
/// such a load cannot be forwarded and waits for them to reach the cache.
#[inline]
pub(crate) fn be_bytes(value: u128) -> [u8; 16] {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    {
        use core::arch::x86_64::{_mm_set_epi64x, _mm_storeu_si128};
        let high = ((value >> 64) as u64).swap_bytes() as i64;
        let low = (value as u64).swap_bytes() as i64;
        let mut out = [0u8; 16];
        // SAFETY: SSE2 is part of the x86_64 baseline; `out` is 16 writable bytes and the store
        // is unaligned.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_set_epi64x(low, high)) };
        out
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    value.to_be_bytes()
}

/// A 48-bit millisecond timestamp, or [`Error::MillisOutOfRange`].
#[inline]
pub(crate) fn millis48(unix_millis: i64) -> Result<u64, Error> {
    millis_since(unix_millis, 0, (1 << 48) - 1)
}

/// Milliseconds from `epoch_ms` to `unix_millis`, if within `0 ..= max`, else
/// [`Error::MillisOutOfRange`].
#[inline]
pub(crate) fn millis_since(unix_millis: i64, epoch_ms: i64, max: u64) -> Result<u64, Error> {
    unix_millis
        .checked_sub(epoch_ms)
        .and_then(|ms| u64::try_from(ms).ok())
        .filter(|&ms| ms <= max)
        .ok_or(Error::MillisOutOfRange { unix_millis })
}

/// The property every [`BlockState`] must have, for the formats' property tests.
#[cfg(all(test, feature = "std"))]
pub(crate) mod block_props {
    use super::BlockState;
    use proptest::prelude::*;
    use rand_core::RngCore;
    use std::vec::Vec;

    /// Any value up to `max`, or one of the last 100 (where a format's run ends).
    pub(crate) fn up_to(max: u128) -> impl Strategy<Value = u128> {
        prop_oneof![0..=max, max - 100..=max]
    }

    /// Up to 12 steps `(clock, n, probe)` for [`blocks_match_next_at`], the clock within
    /// `around − 10 .. around + 6`.
    pub(crate) fn steps(around: i64) -> impl Strategy<Value = Vec<(i64, u32, u8)>> {
        proptest::collection::vec((around - 10..around + 6, 0u32..80, any::<u8>()), 1..12)
    }

    /// Returns the same draws every time, so two copies of a state stay in step however many
    /// per-ID draws either makes.
    #[derive(Debug, Clone)]
    pub(crate) struct Fixed {
        pub(crate) word: u64,
        pub(crate) bytes: u128,
    }

    impl RngCore for Fixed {
        fn next_u32(&mut self) -> u32 {
            self.word as u32
        }
        fn next_u64(&mut self) -> u64 {
            self.word
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            let bytes = self.bytes.to_be_bytes();
            dst.copy_from_slice(&bytes[16 - dst.len()..]);
        }
    }

    /// For each step `(clock, n, probe)`: `reserve(clock, n)` on one copy of `state` gives
    /// exactly the IDs (or the error) of `count` successive `next_at(clock)` on another, at most
    /// `n` of them, cut short only where the next call at `clock` would not continue the run;
    /// and a clock reading anywhere in the block's range (`probe` picks one) continues the run
    /// exactly when `clock` does (what lets the per-thread cache use a block at that reading).
    pub(crate) fn blocks_match_next_at<S>(state: S, rng: &Fixed, steps: &[(i64, u32, u8)])
    where
        S: BlockState + Clone,
        S::Id: PartialEq + Clone + core::fmt::Debug,
    {
        let (mut a, mut b) = (state.clone(), state);
        let mut rng = rng.clone();
        for &(clock, n, probe) in steps {
            let block = match a.reserve(clock, n) {
                Err(e) => {
                    assert_eq!(b.next_at(clock), Err(e), "at {clock}");
                    continue;
                }
                Ok(block) => block,
            };
            assert!((1..=n.max(1)).contains(&block.count), "{block:?}, n {n}");
            assert!(
                block.earliest <= clock && clock <= block.unix_ms as i64,
                "{block:?}"
            );
            for i in 0..block.count {
                let minted = S::mint(block.unix_ms, block.counter + u128::from(i), &mut rng);
                assert_eq!(Ok(minted), b.next_at(clock), "value {i} of {block:?}");
            }
            let span = block.unix_ms as i64 - block.earliest;
            let reading = block.earliest + (span as u64 * u64::from(probe) / 255) as i64;
            // A run that ends at 2^128 − 1 (a full 128-bit counter) has no value after it: the next
            // call is an error.
            let Some(next) = block.counter.checked_add(u128::from(block.count)) else {
                assert!(b.clone().next_at(clock).is_err(), "{block:?}");
                continue;
            };
            let following = S::mint(block.unix_ms, next, &mut rng);
            let goes_on = b.clone().next_at(clock) == Ok(following.clone());
            let goes_on_then = b.clone().next_at(reading) == Ok(following);
            assert_eq!(goes_on, goes_on_then, "{block:?}, read at {reading}");
            if block.count < n.max(1) {
                assert!(!goes_on, "{block:?} cut short of {n} for nothing");
            }
        }
    }
}
