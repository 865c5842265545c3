//! Randomness for the random-based formats (ULID, UUIDv7, SCRU128).
//!
//! Generators take any [`RngCore`] (so no_std users bring their own). With `std`, [`ThreadRng`]
//! is a per-thread ChaCha12 CSPRNG seeded from the operating system (`getrandom`) on first use:
//! no system call per ID. In a `web` build without `std` it is the JavaScript host's CSPRNG.
//! After `fork()` the child's copy of every thread's state would repeat the
//! parent's stream, so the fork handler bumps a generation counter and each thread reseeds on its
//! next draw.

pub use rand_core::RngCore;

#[cfg(feature = "std")]
pub use crate::fork::{fork_generation, watch_forks};
#[cfg(all(
    feature = "web",
    not(feature = "std"),
    target_family = "wasm",
    target_os = "unknown"
))]
pub use host::ThreadRng;
#[cfg(feature = "std")]
pub use thread::ThreadRng;

#[cfg(all(
    feature = "web",
    not(feature = "std"),
    target_family = "wasm",
    target_os = "unknown"
))]
mod host {
    use core::cell::UnsafeCell;

    use rand_core::RngCore;

    use crate::wasm_host::fill_random;

    /// Bytes drawn from the host at a time: one `crypto.getRandomValues` call serves many IDs
    /// (a UUIDv7 takes 4 bytes per ID; a call per draw cost more than the rest of the ID).
    const POOL_LEN: usize = 256;

    /// Random bytes drawn from the host, not yet handed out (`used ..`); each byte is handed out
    /// once, and zeroed as it is.
    struct Pool {
        bytes: [u8; POOL_LEN],
        used: usize,
    }

    /// The instance's pool.
    struct Shared(UnsafeCell<Pool>);

    // A module built with threads (the atomics feature) could share the pool between threads.
    #[cfg(target_feature = "atomics")]
    compile_error!(
        "sno-core's web ThreadRng keeps its pool in a static of one thread: build without the atomics feature"
    );

    // SAFETY: without the atomics target feature a WebAssembly instance runs on one thread, so the
    // pool is never reached from two threads.
    unsafe impl Sync for Shared {}

    static POOL: Shared = Shared(UnsafeCell::new(Pool {
        bytes: [0; POOL_LEN],
        used: POOL_LEN,
    }));

    /// Fills `dst` from the pool (refilled from the host when it has too few bytes left); a
    /// draw longer than the pool goes to the host directly.
    fn take(dst: &mut [u8]) {
        if dst.len() > POOL_LEN {
            fill_random(dst);
            return;
        }
        // SAFETY: the instance has one thread (above), and this is the only place that borrows
        // the pool, for the length of this call, which calls nothing that re-enters it (the
        // host's `crypto.getRandomValues` does not call into the module).
        let pool = unsafe { &mut *POOL.0.get() };
        if POOL_LEN - pool.used < dst.len() {
            fill_random(&mut pool.bytes);
            pool.used = 0;
        }
        let fresh = pool.bytes.get_mut(pool.used..).unwrap_or_default();
        for (to, from) in dst.iter_mut().zip(fresh.iter_mut()) {
            *to = core::mem::take(from);
        }
        pool.used += dst.len();
    }

    /// The CSPRNG of the random-based formats' generators in a `web` build without `std`
    /// (wasm32-unknown-unknown in a JavaScript engine): the host's `crypto.getRandomValues`,
    /// drawn [`POOL_LEN`] bytes at a time into the instance's pool, where std builds seed a
    /// per-thread ChaCha12 from the operating system (a JavaScript engine runs an instance on
    /// one thread, has no `fork()`, and its source is a CSPRNG already). A zero-sized handle, as
    /// std's.
    #[derive(Debug, Clone, Copy, Default)]
    pub struct ThreadRng;

    impl RngCore for ThreadRng {
        #[inline]
        fn next_u32(&mut self) -> u32 {
            let mut b = [0u8; 4];
            take(&mut b);
            u32::from_le_bytes(b)
        }
        #[inline]
        fn next_u64(&mut self) -> u64 {
            let mut b = [0u8; 8];
            take(&mut b);
            u64::from_le_bytes(b)
        }
        #[inline]
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            take(dst)
        }
    }
}
#[cfg(feature = "std")]
pub(crate) use thread::thread_rng_ready;

#[cfg(feature = "std")]
mod thread {
    use core::cell::{Cell, RefCell};
    use core::sync::atomic::Ordering;

    use rand_chacha::ChaCha12Rng;
    use rand_core::{RngCore, SeedableRng};

    use crate::entropy::os_seed;
    use crate::fork::FORK_GENERATION;

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
        crate::fork::register_fork_handler();
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

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::fork::{GENERATION_LOCK, after_fork};

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
