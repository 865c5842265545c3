//! Randomness for the random-based formats (ULID, UUIDv7, SCRU128).
//!
//! Generators take any [`RngCore`] (so no_std users bring their own). With `std`, [`ThreadRng`]
//! is a per-thread ChaCha12 CSPRNG seeded from the operating system (`getrandom`) on first use:
//! no system call per ID. After `fork()` the child's copy of every thread's state would repeat the
//! parent's stream, so the fork handler bumps a generation counter and each thread reseeds on its
//! next draw.

pub use rand_core::RngCore;

#[cfg(all(test, feature = "std", not(loom)))]
pub(crate) use thread::tests::GENERATION_LOCK;
#[cfg(feature = "std")]
pub use thread::{ThreadRng, fork_generation, watch_forks};
#[cfg(feature = "std")]
pub(crate) use thread::{after_fork, thread_rng_ready};

#[cfg(feature = "std")]
mod thread {
    use core::cell::{Cell, RefCell};
    use core::sync::atomic::{AtomicU64, Ordering};

    use rand_chacha::ChaCha12Rng;
    use rand_core::{RngCore, SeedableRng};

    /// Bumped in the child after every `fork()`.
    static FORK_GENERATION: AtomicU64 = AtomicU64::new(0);

    std::thread_local! {
        static STATE: RefCell<Option<(u64, ChaCha12Rng)>> = const { RefCell::new(None) };
        /// The fork generation `STATE` was seeded in (`u64::MAX`: not yet): the cheap check of
        /// [`thread_rng_ready`].
        static SEEDED_IN: Cell<u64> = const { Cell::new(u64::MAX) };
    }

    /// Makes sure the calling thread's [`ThreadRng`] is seeded for this process (after its first
    /// use, or after a `fork()`), or [`Error::RandomnessUnavailable`](crate::Error) when the
    /// operating system's randomness source cannot be read. The generators call it before they
    /// touch their state, so that a draw never needs to seed (and cannot fail half-way).
    #[inline]
    pub(crate) fn thread_rng_ready() -> Result<(), crate::Error> {
        let generation = FORK_GENERATION.load(Ordering::Relaxed);
        if SEEDED_IN.get() == generation {
            return Ok(());
        }
        STATE.with(|cell| {
            let mut state = cell.borrow_mut();
            match &*state {
                Some((g, _)) if *g == generation => Ok(()),
                _ => seed(&mut state, generation)
                    .map(drop)
                    .map_err(|_| crate::Error::RandomnessUnavailable),
            }
        })
    }

    /// How many times this process is a `fork()` child of its ancestors (as far as the crate's
    /// `pthread_atfork` handler saw; building any generator registers it): state copied across
    /// a fork is stale when this changed. One relaxed load.
    ///
    /// ```
    /// let g = sno_core::rng::fork_generation();
    /// assert_eq!(g, sno_core::rng::fork_generation()); // no fork in between
    /// ```
    pub fn fork_generation() -> u64 {
        FORK_GENERATION.load(Ordering::Relaxed)
    }

    /// Registers the crate's `pthread_atfork` handler now (building any generator does it
    /// too), so that [`fork_generation`] counts every later `fork()`. Call it before caching
    /// anything keyed by the fork generation. Idempotent and cheap after the first call.
    ///
    /// ```
    /// sno_core::rng::watch_forks();
    /// ```
    pub fn watch_forks() {
        crate::global::register_fork_handler();
    }

    /// Called by the crate's `pthread_atfork` child handler (atomics only).
    pub(crate) fn after_fork() {
        FORK_GENERATION.fetch_add(1, Ordering::Relaxed);
    }

    /// The calling thread's CSPRNG (ChaCha12, seeded from the OS, reseeded after `fork()`).
    /// A zero-sized handle: copy it freely; every call uses the current thread's state.
    ///
    /// # Panics
    ///
    /// A draw panics when the thread's generator must be seeded and the operating system's
    /// randomness source cannot be read (there is no safe fallback for a cryptographic seed).
    /// The crate's own generators ([`Shared`](crate::monotonic::Shared), `new()`/`try_new()`,
    /// [`AtomicGenerator`](crate::ulid::AtomicGenerator)) return
    /// [`Error::RandomnessUnavailable`](crate::Error::RandomnessUnavailable) instead.
    #[derive(Debug, Clone, Copy, Default)]
    pub struct ThreadRng;

    impl ThreadRng {
        #[inline]
        fn with<T>(f: impl FnOnce(&mut ChaCha12Rng) -> T) -> T {
            STATE.with(|cell| {
                let mut state = cell.borrow_mut();
                let generation = FORK_GENERATION.load(Ordering::Relaxed);
                match &mut *state {
                    Some((g, rng)) if *g == generation => f(rng),
                    stale => match seed(stale, generation) {
                        Ok(rng) => f(rng),
                        Err(e) => panic!("sno: cannot read the OS random source: {e}"),
                    },
                }
            })
        }
    }

    /// Seeds the thread's generator from the operating system (first use, or a `fork()` child).
    #[cold]
    #[inline(never)]
    fn seed(
        state: &mut Option<(u64, ChaCha12Rng)>,
        generation: u64,
    ) -> std::io::Result<&mut ChaCha12Rng> {
        crate::global::register_fork_handler();
        let seed = os_seed()?;
        SEEDED_IN.set(generation);
        Ok(&mut state.insert((generation, ChaCha12Rng::from_seed(seed))).1)
    }

    impl RngCore for ThreadRng {
        #[inline]
        fn next_u32(&mut self) -> u32 {
            Self::with(|r| r.next_u32())
        }
        #[inline]
        fn next_u64(&mut self) -> u64 {
            Self::with(|r| r.next_u64())
        }
        #[inline]
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            Self::with(|r| r.fill_bytes(dst))
        }
    }

    /// 32 bytes from the operating system's CSPRNG (`getrandom`, then `/dev/urandom`).
    fn os_seed() -> std::io::Result<[u8; 32]> {
        let mut seed = [0u8; 32];
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            let mut filled = 0;
            while filled < seed.len() {
                let rest = &mut seed[filled..];
                // SAFETY: `rest` is writable for its length; getrandom writes at most that many.
                let n = unsafe { libc::getrandom(rest.as_mut_ptr().cast(), rest.len(), 0) };
                if n > 0 {
                    filled += n as usize;
                } else if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
                {
                    break;
                }
            }
            if filled == seed.len() {
                return Ok(seed);
            }
        }
        use std::io::Read;
        std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut seed))?;
        Ok(seed)
    }

    #[cfg(test)]
    pub(crate) mod tests {
        use super::*;

        /// Held by the tests that bump the fork generation, and by those whose checks a bump
        /// would upset (a generator with a fixed RNG reopens with the same randomness).
        pub(crate) static GENERATION_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

        #[test]
        fn threads_and_generations_differ() {
            let _serial = GENERATION_LOCK.lock();
            let a = ThreadRng.next_u64();
            let b = std::thread::spawn(|| ThreadRng.next_u64()).join().unwrap();
            assert_ne!(a, b);
            let before = ThreadRng.next_u64();
            after_fork();
            let after = ThreadRng.next_u64();
            assert_ne!(before, after);
        }
    }
}
