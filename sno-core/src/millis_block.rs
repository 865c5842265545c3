//! Blocks of consecutive values reserved at once from a millisecond format's shared generator
//! (ULID, UUIDv7, SCRU128), and (std) the per-thread cache that the process-wide `new()` of
//! those formats makes its IDs from.
//!
//! # Why
//!
//! A generator shared by threads has one word (a mutex, or the ticket counter of
//! [`ulid::AtomicGenerator`](crate::ulid::AtomicGenerator)) that every ID writes. With two
//! threads that cache line moves between the cores on every ID, and two threads make fewer IDs
//! per second than one. A thread that reserves a [`Block`] of consecutive values with one
//! locked step (or one `fetch_add`) and then makes its IDs from the block alone writes the
//! shared line once per block: at most [`MAX_BLOCK`] (64) IDs per shared write, so the sharing
//! cost per ID falls by the block size and threads scale with cores.
//!
//! # What stays guaranteed
//!
//! A block holds exactly the values that as many successive calls of the state machine would
//! have produced at that millisecond (without the per-ID random parts, drawn when each ID is
//! made), and the state machine moves past them: no other thread, block or direct call gets
//! them again, so **uniqueness within the process stays deterministic** (it never rests on
//! randomness), with the one exception the SCRU128 spec itself makes: a clock set back further
//! than its rollback allowance resets the generator, whose counters are then drawn afresh, so
//! IDs at an already-used millisecond rest on their random bits, and per-thread order restarts
//! there too. What changes is **order across threads**: each thread's IDs still strictly
//! increase, and IDs of different milliseconds compare in time order (a thread gives up its
//! block as soon as its clock reads past the block's millisecond), but within one millisecond
//! two threads' IDs interleave in any order. The explicit generators (`Generator::try_next`,
//! [`ulid::AtomicGenerator::try_next`](crate::ulid::AtomicGenerator::try_next)) keep strict
//! process-wide order.
//!
//! # The per-thread cache (std)
//!
//! Each thread keeps one block per *slot* (4 slots, chosen by the generator's id, so a thread
//! using up to 4 generators keeps a block for each). A slot is keyed by the generator's id (a
//! number from a process-wide counter, never an address, renewed when the generator's state is
//! replaced) and the `fork()` generation: a child process never continues its parent's blocks.
//! A cached value is used only while the thread's clock reads within the block's millisecond
//! range ([`Block::earliest`] ..= [`Block::unix_ms`]: the readings at which the state machine
//! itself would continue the block's sequence, so a reading past it gives up the rest of the
//! block and time stays as accurate as without blocks). The block size adapts: 1 after a miss
//! (another generator, a fork), doubled (up to [`MAX_BLOCK`]) each time a block is used up,
//! kept when a block is given up for a new millisecond. So a thread calling two generators in
//! turn that share a slot takes blocks of 1 and skips no value, and a thread that generates
//! fast reaches 64 after 7 blocks. The values of a given-up block are skipped, never reused.

/// The most values one [`Block`] of the per-thread cache holds (and that
/// [`AtomicGenerator::try_reserve`](crate::ulid::AtomicGenerator::try_reserve) hands out at
/// once): enough that a shared write costs little per ID, small enough that a thread giving up
/// a block at a new millisecond skips few values.
#[cfg(not(loom))]
pub const MAX_BLOCK: u32 = 64;
/// Small under loom, so that the models' epochs still fill up.
#[cfg(loom)]
pub const MAX_BLOCK: u32 = 2;

/// A run of consecutive values reserved from a millisecond format's state machine at one
/// millisecond: the values `counter`, `counter + 1`, … `counter + count − 1` (what the format
/// counts: ULID's 80-bit randomness, UUIDv7's 42-bit counter, SCRU128's
/// `counter_hi << 24 | counter_lo`), each made into an ID by the format's
/// [`BlockState::mint`](crate::monotonic::BlockState::mint).
///
/// ```
/// # #[cfg(feature = "std")] {
/// use sno_core::monotonic::{Block, BlockState};
/// use sno_core::uuid7::{Monotonic, Uuid7};
/// let mut state = Monotonic::new(sno_core::rng::ThreadRng);
/// let block: Block = state.reserve(1_700_000_000_000, 3)?;
/// assert_eq!((block.unix_ms, block.count), (1_700_000_000_000, 3));
/// let ids: Vec<Uuid7> = (0..3)
///     .map(|i| Monotonic::<sno_core::rng::ThreadRng>::mint(
///         block.unix_ms, block.counter + i, &mut sno_core::rng::ThreadRng))
///     .collect();
/// assert!(ids.windows(2).all(|w| w[0] < w[1]));
/// # }
/// # Ok::<(), sno_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The millisecond the values carry (Unix milliseconds; may be ahead of the clock when the
    /// clock went back or a format moved its timestamp ahead on a counter overflow).
    pub unix_ms: u64,
    /// The first value.
    pub counter: u128,
    /// How many values, at least 1 (fewer than asked where the next value would carry into
    /// another field or run out, or where the next call at the same reading would not continue
    /// the sequence: then `earliest` is after that reading).
    pub count: u32,
    /// The earliest clock reading (Unix milliseconds) at which the state machine would still
    /// continue this block's sequence: a reading in `earliest ..= unix_ms` may use the block.
    pub earliest: i64,
}

#[cfg(feature = "std")]
pub(crate) use cache::{BlockSource, next_per_thread, next_source_id, refill};

#[cfg(feature = "std")]
mod cache {
    use core::cell::Cell;
    use core::sync::atomic::{AtomicU64, Ordering};

    use super::{Block, MAX_BLOCK};
    use crate::error::Error;

    /// A generator that hands out [`Block`]s (a [`Shared`](crate::monotonic::Shared) of a
    /// [`BlockState`](crate::monotonic::BlockState), the ULID
    /// [`AtomicGenerator`](crate::ulid::AtomicGenerator)).
    pub(crate) trait BlockSource {
        /// The ID type made.
        type Id;
        /// This generator's id: unique in the process, never 0.
        fn source_id(&self) -> u64;
        /// The generator's clock.
        fn now_unix_millis(&self) -> i64;
        /// Up to `n` values at the clock reading `unix_millis` (the caller made sure the
        /// thread's CSPRNG is seeded).
        fn take_block(&self, unix_millis: i64, n: u32) -> Result<Block, Error>;
        /// The ID of value `counter` of a block at `unix_ms`, its per-ID random part (if any)
        /// drawn from the calling thread's CSPRNG.
        fn mint(unix_ms: u64, counter: u128) -> Self::Id;
    }

    /// Ids for generators: 0 marks an empty slot.
    static NEXT_SOURCE_ID: AtomicU64 = AtomicU64::new(1);

    /// A fresh generator id (never 0 and never repeated: 2^64 generators would take centuries).
    pub(crate) fn next_source_id() -> u64 {
        NEXT_SOURCE_ID.fetch_add(1, Ordering::Relaxed)
    }

    /// One cached block. Only its own thread touches it.
    struct Slot {
        source: Cell<u64>,
        generation: Cell<u64>,
        unix_ms: Cell<u64>,
        earliest: Cell<i64>,
        next: Cell<u128>,
        left: Cell<u32>,
        size: Cell<u32>,
    }

    impl Slot {
        const fn empty() -> Slot {
            Slot {
                source: Cell::new(0),
                generation: Cell::new(0),
                unix_ms: Cell::new(0),
                earliest: Cell::new(0),
                next: Cell::new(0),
                left: Cell::new(0),
                size: Cell::new(0),
            }
        }
    }

    /// Slots per thread.
    const SLOTS: usize = 4;

    std::thread_local! {
        /// No destructor and a const initialiser: a plain thread-local access, no allocation.
        static CACHE: [Slot; SLOTS] = const { [const { Slot::empty() }; SLOTS] };
    }

    /// The next ID of `g` from the calling thread's block, or `on_miss(now)` when there is
    /// none for `g` or the clock reads outside its millisecond range (see the module docs):
    /// [`refill`], or a caller's waiting loop around it. The hit returns at once, not through
    /// the miss path's error check: merged with it, the ID was copied out in pieces that a
    /// caller's 16-byte load cannot be forwarded from (measured: scripts/bench-notes.md, "The
    /// per-thread hit path returns at once").
    #[inline]
    pub(crate) fn next_per_thread<G: BlockSource>(
        g: &G,
        on_miss: impl FnOnce(i64) -> Result<G::Id, Error>,
    ) -> Result<G::Id, Error> {
        let now = g.now_unix_millis();
        match take_cached(g.source_id(), now) {
            Some((unix_ms, counter)) => Ok(G::mint(unix_ms, counter)),
            None => on_miss(now),
        }
    }

    /// The calling thread's next cached value of `source` usable at `now`: its millisecond and
    /// counter. Not generic and not inlined, so that the thread-local is reached directly (a
    /// `thread_local!` used from another crate's instance of a generic function goes through
    /// an indirect call; measured: scripts/bench-notes.md, "`take_cached` is not generic").
    fn take_cached(source: u64, now: i64) -> Option<(u64, u128)> {
        let generation = crate::fork::fork_generation();
        CACHE.with(|slots| {
            let slot = &slots[(source % SLOTS as u64) as usize];
            let left = slot.left.get();
            // `unix_ms` < 2^48: no wrap.
            let unix_ms = slot.unix_ms.get();
            if left > 0
                && slot.source.get() == source
                && slot.generation.get() == generation
                && slot.earliest.get() <= now
                && now <= unix_ms as i64
            {
                let counter = slot.next.get();
                slot.next.set(counter + 1);
                slot.left.set(left - 1);
                return Some((unix_ms, counter));
            }
            None
        })
    }

    /// Gives up what is left of the thread's block of `g` and reserves the next one at the
    /// clock reading `now` (once per block); the first ID of the new block.
    #[inline(never)]
    pub(crate) fn refill<G: BlockSource>(g: &G, now: i64) -> Result<G::Id, Error> {
        let source = g.source_id();
        let size = start_refill(source);
        // Per-ID randomness of cached values is drawn without any further check.
        crate::rng::thread_rng_ready()?;
        let block = g.take_block(now, size)?;
        CACHE.with(|slots| {
            let slot = &slots[(source % SLOTS as u64) as usize];
            slot.unix_ms.set(block.unix_ms);
            slot.earliest.set(block.earliest);
            slot.next.set(block.counter + 1);
            slot.left.set(block.count - 1);
        });
        Ok(G::mint(block.unix_ms, block.counter))
    }

    /// Empties the slot of `source` (its values are given up) and keys it to `source` and the
    /// current `fork()` generation; returns the size of the next block: 1 after a miss,
    /// doubled after a used-up block, else as before.
    fn start_refill(source: u64) -> u32 {
        let generation = crate::fork::fork_generation();
        CACHE.with(|slots| {
            let slot = &slots[(source % SLOTS as u64) as usize];
            let size = if slot.source.get() != source || slot.generation.get() != generation {
                1
            } else if slot.left.get() == 0 {
                (slot.size.get() * 2).clamp(1, MAX_BLOCK)
            } else {
                slot.size.get()
            };
            slot.left.set(0);
            slot.source.set(source);
            slot.generation.set(generation);
            slot.size.set(size);
            size
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use std::cell::RefCell;
        use std::vec::Vec;

        /// A source that hands out blocks of consecutive numbers at a fixed millisecond and
        /// records the sizes asked for.
        struct Counting {
            id: u64,
            next: Cell<u128>,
            asked: RefCell<Vec<u32>>,
            now: Cell<i64>,
        }

        impl Counting {
            fn new() -> Self {
                Counting {
                    id: next_source_id(),
                    next: Cell::new(0),
                    asked: RefCell::new(Vec::new()),
                    now: Cell::new(1_000),
                }
            }
        }

        impl BlockSource for Counting {
            type Id = (u64, u128);
            fn source_id(&self) -> u64 {
                self.id
            }
            fn now_unix_millis(&self) -> i64 {
                self.now.get()
            }
            fn take_block(&self, unix_millis: i64, n: u32) -> Result<Block, Error> {
                self.asked.borrow_mut().push(n);
                let counter = self.next.get();
                self.next.set(counter + u128::from(n));
                Ok(Block {
                    unix_ms: unix_millis as u64,
                    counter,
                    count: n,
                    earliest: unix_millis - 5,
                })
            }
            fn mint(unix_ms: u64, counter: u128) -> (u64, u128) {
                (unix_ms, counter)
            }
        }

        fn next(g: &Counting) -> Result<(u64, u128), Error> {
            next_per_thread(g, |now| refill(g, now))
        }

        #[test]
        fn block_sizes_double_up_to_the_maximum_and_values_follow_each_other() {
            let _serial = crate::fork::GENERATION_LOCK.lock();
            let g = Counting::new();
            let made: Vec<_> = (0..200).map(|_| next(&g).unwrap().1).collect();
            assert_eq!(made, (0..200).collect::<Vec<u128>>());
            let asked = g.asked.borrow();
            assert_eq!(asked[..8], [1, 2, 4, 8, 16, 32, 64, 64]);
            assert!(asked.iter().all(|&n| n <= MAX_BLOCK));
        }

        #[test]
        fn a_new_millisecond_gives_up_the_block_and_keeps_the_size() {
            let _serial = crate::fork::GENERATION_LOCK.lock();
            let g = Counting::new();
            for _ in 0..4 {
                next(&g).unwrap(); // blocks of 1 and 2, then 1 of a block of 4
            }
            // Back within the allowance: the block goes on; past its millisecond: a new one.
            g.now.set(996);
            assert_eq!(next(&g).unwrap(), (1_000, 4));
            g.now.set(994);
            assert_eq!(next(&g).unwrap(), (994, 7), "before `earliest`");
            g.now.set(1_001);
            assert_eq!(next(&g).unwrap(), (1_001, 11));
            assert_eq!(*g.asked.borrow(), [1, 2, 4, 4, 4]);
        }

        #[test]
        fn a_thread_alternating_between_generators_of_one_slot_skips_nothing() {
            let _serial = crate::fork::GENERATION_LOCK.lock();
            // Ids 4 apart share a slot.
            let a = Counting::new();
            let mut b = Counting::new();
            while b.id % SLOTS as u64 != a.id % SLOTS as u64 {
                b = Counting::new();
            }
            for i in 0..10u128 {
                assert_eq!(next(&a).unwrap().1, i);
                assert_eq!(next(&b).unwrap().1, i);
            }
            assert!(a.asked.borrow().iter().all(|&n| n == 1));
        }

        #[test]
        fn a_fork_child_does_not_continue_the_parents_block() {
            let _serial = crate::fork::GENERATION_LOCK.lock();
            let g = Counting::new();
            for _ in 0..3 {
                next(&g).unwrap(); // the block of 2 is used up
            }
            assert_eq!(next(&g).unwrap().1, 3); // first of a block of 4
            crate::fork::after_fork();
            assert_eq!(next(&g).unwrap().1, 7, "a new block of 1");
            assert_eq!(*g.asked.borrow(), [1, 2, 4, 1]);
        }
    }
}
