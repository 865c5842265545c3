//! What the millisecond formats (ULID, UUIDv7, SCRU128) share: the state-machine trait each
//! format's generator implements, the standard-library wrapper that makes one thread-safe with a
//! clock, and the macro giving every ID type its conversion and formatting traits.

use crate::error::Error;

/// A format's generator state machine: the next ID for a given millisecond. `&mut self`, no
/// clock, no lock: usable in no_std as it is, and wrapped by [`Shared`] with std.
pub trait MillisState {
    /// The ID type produced.
    type Id;
    /// The next ID with the clock reading `unix_millis`.
    fn next_at(&mut self, unix_millis: i64) -> Result<Self::Id, Error>;
    /// Forgets the history (used in a child process after `fork()`, whose copy of the state
    /// would otherwise continue the parent's sequence).
    fn reset(&mut self);
}

#[cfg(feature = "std")]
pub use shared::Shared;
#[cfg(feature = "std")]
pub(crate) use shared::global_next;

#[cfg(feature = "std")]
mod shared {
    use std::sync::{Mutex, MutexGuard};

    use super::MillisState;
    use crate::clock::{MillisClock, SystemClock};
    use crate::error::Error;

    /// A thread-safe generator: a [`MillisState`] behind a mutex, read against a
    /// [`MillisClock`]. Reset in a child process after `fork()`.
    #[derive(Debug)]
    pub struct Shared<S, C = SystemClock> {
        state: Mutex<(u64, S)>,
        clock: C,
    }

    impl<S: MillisState, C: MillisClock> Shared<S, C> {
        /// Wraps `state`, reading time from `clock`.
        pub fn with_state_and_clock(state: S, clock: C) -> Self {
            crate::global::register_fork_handler();
            Shared {
                state: Mutex::new((crate::rng::fork_generation(), state)),
                clock,
            }
        }

        fn lock(&self) -> MutexGuard<'_, (u64, S)> {
            // A panic while holding the lock cannot leave the state half-updated in a way that
            // repeats IDs (every transition is a few assignments), so poisoning is ignored.
            let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
            let generation = crate::rng::fork_generation();
            if guard.0 != generation {
                guard.0 = generation;
                guard.1.reset();
            }
            guard
        }

        /// The next ID, or an error at once (e.g. [`Error::RandomnessExhausted`] for a ULID,
        /// [`Error::MillisOutOfRange`] for a clock outside the format's range).
        pub fn try_next(&self) -> Result<S::Id, Error> {
            let now = self.clock.now_unix_millis();
            self.lock().1.next_at(now)
        }

        /// The next ID; when the current millisecond is used up, sleeps until the next one.
        pub fn next(&self) -> Result<S::Id, Error> {
            loop {
                match self.try_next() {
                    Err(Error::RandomnessExhausted { .. }) => {
                        std::thread::sleep(core::time::Duration::from_micros(200));
                    }
                    other => return other,
                }
            }
        }

        /// The next ID for an explicit time (the clock is not read).
        pub fn next_at(&self, unix_millis: i64) -> Result<S::Id, Error> {
            self.lock().1.next_at(unix_millis)
        }
    }

    /// The next ID of a process-wide generator, created on first use.
    ///
    /// # Panics
    /// If the system clock is outside the format's range.
    pub(crate) fn global_next<S: MillisState + Default>(
        cell: &std::sync::OnceLock<Shared<S>>,
    ) -> S::Id {
        match cell.get_or_init(Shared::default).next() {
            Ok(id) => id,
            Err(e) => panic!("{e}"),
        }
    }

    impl<S: MillisState + Default> Default for Shared<S, SystemClock> {
        fn default() -> Self {
            Shared::with_state_and_clock(S::default(), SystemClock::default())
        }
    }
}

/// `encode` (text into a caller buffer), Display (padded), `FromStr`, binary `TryFrom<&[u8]>`,
/// `From<T> for [u8; N]`, `AsRef<[u8]>` and serde for an ID type with an ASCII
/// `encode_bytes(&self) -> [u8; TEXT]`, `decode(&[u8])` and `from_slice(&[u8])`.
macro_rules! id_traits {
    ($ty:ty, $text:expr, $bin:expr, $what:literal) => {
        impl $ty {
            /// Writes the canonical text into `buf` and returns it (no allocation).
            pub fn encode<'a>(&self, buf: &'a mut [u8; $text]) -> &'a str {
                *buf = self.encode_bytes();
                // SAFETY: `encode_bytes` writes only alphabet symbols (and hyphens), and every
                // alphabet of the crate is ASCII (`Alphabet::new` asserts it at compile time).
                unsafe { core::str::from_utf8_unchecked(buf) }
            }
        }

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
    };
}
pub(crate) use id_traits;

/// A format module's std items: `Generator` (its `Monotonic` state behind [`Shared`], on the
/// system clock and the per-thread CSPRNG) and `new()` (a process-wide one).
macro_rules! std_generator {
    ($id:ty, $what:literal) => {
        #[doc = concat!("A thread-safe ", $what, " generator on the system clock and a per-thread CSPRNG.")]
        #[cfg(feature = "std")]
        pub type Generator<C = $crate::SystemClock> =
            $crate::monotonic::Shared<Monotonic<$crate::rng::ThreadRng>, C>;

        #[doc = concat!("A new ", $what, " from the process-wide generator (created on first use, \
            reset in a `fork()` child).\n\n# Panics\nIf the system clock reads before 1970 or after \
            year 10889.")]
        #[cfg(feature = "std")]
        pub fn new() -> $id {
            static GLOBAL: std::sync::OnceLock<Generator> = std::sync::OnceLock::new();
            $crate::monotonic::global_next(&GLOBAL)
        }
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

/// A 48-bit millisecond timestamp, or [`Error::MillisOutOfRange`].
pub(crate) fn millis48(unix_millis: i64) -> Result<u64, Error> {
    u64::try_from(unix_millis)
        .ok()
        .filter(|&ms| ms < 1 << 48)
        .ok_or(Error::MillisOutOfRange { unix_millis })
}
