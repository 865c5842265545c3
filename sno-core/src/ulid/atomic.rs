//! [`AtomicGenerator`]: a thread-safe monotonic ULID generator that takes no lock on its hot
//! path: one `fetch_add` per ULID (or per block of up to 64 ULIDs), and a mutex only to open a
//! new *epoch* (a new millisecond, or the next 2^21 increments within one). The design is
//! documented on the type.

use rand_core::RngCore;

use super::id::{MAX_RANDOMNESS, Ulid};
use crate::bytes::{be_bytes, millis48};
use crate::clock::{MillisClock, SystemClock};
use crate::error::Error;
use crate::millis_block::{BlockSource, next_per_thread, next_source_id, refill};
use crate::monotonic::{Block, MAX_BLOCK};
use crate::rng::ThreadRng;
use crate::sync::{AtomicU64, CachePadded, Mutex, Ordering, fence};

/// Bits of the ticket in the state word; the other 42 count epochs.
#[cfg(not(loom))]
const TICKET_BITS: u32 = 22;
/// Tickets one epoch hands out. The ticket field has room for twice as many: a `fetch_add` adds
/// at most [`MAX_BLOCK`] (64), one may cross `TICKETS` (its block is cut short there), and after
/// that each thread adds at most once more before the epoch changes or, once the millisecond is
/// exhausted, the ticket is pulled back; so the word never carries into the epoch bits while
/// fewer than 2^21 / 64 − 1 = 32 767 threads share the generator.
#[cfg(not(loom))]
const TICKETS: u64 = 1 << (TICKET_BITS - 1);
/// Small under loom, so the models use epochs up within a millisecond; room for 3 threads
/// taking blocks of 2 (4 − 1 + (3 + 1) × 2 < 16).
#[cfg(loom)]
const TICKET_BITS: u32 = 4;
#[cfg(loom)]
const TICKETS: u64 = 4;
/// How many threads may share a generator (see [`TICKETS`]): 32 767, under loom 5.
const MAX_THREADS: u64 = ((1 << TICKET_BITS) - TICKETS) / MAX_BLOCK as u64 - 1;
const _: () = assert!(MAX_THREADS >= 3, "the loom models run 3 threads");
/// Epoch numbers wrap at 2^(64 − TICKET_BITS) (a reader would have to stall that many epochs to
/// be fooled).
const EPOCH_MASK: u64 = (1 << (64 - TICKET_BITS)) - 1;
/// Epoch entries kept; a reader that stalls for this many epochs retries.
#[cfg(not(loom))]
const RING: usize = 64;
/// Small under loom, so the models reach the wrap-around.
#[cfg(loom)]
const RING: usize = 2;

/// One epoch: its tag (epoch + 1; 0 while being written), the fork generation it was opened in,
/// its millisecond and the high and low words of its randomness base.
#[derive(Debug, Default)]
struct Entry {
    tag: AtomicU64,
    generation: AtomicU64,
    ms: AtomicU64,
    base_hi: AtomicU64,
    base_lo: AtomicU64,
}

/// What a reader needs of an epoch.
#[derive(Clone, Copy)]
struct Epoch {
    generation: u64,
    ms: u64,
    base: u128,
}

impl Entry {
    /// The epoch `epoch`, if this entry holds it (seqlock read: the tag before and after).
    #[inline]
    fn read(&self, epoch: u64) -> Option<Epoch> {
        let tag = self.tag.load(Ordering::Acquire);
        let read = Epoch {
            generation: self.generation.load(Ordering::Relaxed),
            ms: self.ms.load(Ordering::Relaxed),
            base: (u128::from(self.base_hi.load(Ordering::Relaxed)) << 64)
                | u128::from(self.base_lo.load(Ordering::Relaxed)),
        };
        fence(Ordering::Acquire);
        (tag == epoch + 1 && self.tag.load(Ordering::Relaxed) == tag).then_some(read)
    }

    /// Publishes `epoch` (the slow-path mutex is held: one writer at a time).
    fn write(&self, epoch: u64, value: Epoch) {
        self.tag.store(0, Ordering::Relaxed);
        fence(Ordering::Release);
        self.generation.store(value.generation, Ordering::Relaxed);
        self.ms.store(value.ms, Ordering::Relaxed);
        self.base_hi
            .store((value.base >> 64) as u64, Ordering::Relaxed);
        self.base_lo.store(value.base as u64, Ordering::Relaxed);
        self.tag.store(epoch + 1, Ordering::Release);
    }
}

/// A thread-safe monotonic ULID generator with one atomic `fetch_add` per ULID; [`super::new`]
/// uses one, through per-thread blocks ([`try_next_per_thread`](Self::try_next_per_thread)).
/// Compared with [`Generator`](super::Generator) (a [`Monotonic`](super::Monotonic) behind a
/// mutex), every ULID of [`try_next`](Self::try_next) still follows the spec's order across all
/// threads, but within a millisecond the randomness may skip values (never repeat them) when
/// threads race into the next millisecond.
///
/// # Design
///
/// A ULID of one epoch is `(ms, base + ticket)`: the epoch's millisecond and 80-bit randomness
/// `base` are published once, and each caller takes a `ticket` from a counter. The 64-bit
/// `state` word holds `epoch:42 | ticket:22`, so one `fetch_add` both picks the epoch and takes
/// a ticket. The epochs live in a ring of 64 entries; an entry is written only while the
/// slow-path mutex is held, *before* `state` is swapped (release) to the new epoch and ticket 1
/// (ticket 0 is the opener's own ULID). A `fetch_add` (acquire) that returns the new epoch
/// therefore sees its entry. The entry is read as a seqlock (tag = epoch + 1, 0 while written),
/// so a reader stalled for 64 epochs, whose entry was overwritten meanwhile, sees the tag
/// change and starts over instead of reading a torn or foreign base.
///
/// The ULIDs stay strictly increasing in the order of their `fetch_add`s: within an epoch by
/// ticket, and a new epoch has a later millisecond or, in the same millisecond, a base past every
/// ticket of the previous one (`base + 2^21`). A ticket whose caller finds its epoch over (the
/// clock moved on) is dropped, so within a millisecond the randomness can skip values; it never
/// repeats or goes back. Like [`Monotonic`](super::Monotonic), a clock that goes back keeps the
/// last millisecond and increments, and using up the 80 bits of one millisecond is
/// [`Error::RandomnessExhausted`].
///
/// After `fork()`, the child sees a new fork generation (stored in each entry) and opens a new
/// epoch with fresh randomness instead of continuing the parent's tickets.
///
/// [`try_reserve`](Self::try_reserve) takes up to [`MAX_BLOCK`] consecutive tickets with one
/// `fetch_add(n)`: a [`Block`] of the ULIDs those tickets stand for, cut short at the end of the
/// epoch or of the 80 bits. Every argument above holds per ticket, so the tickets of a block are
/// in no other hands; the `fetch_add` of `n` only needs more room in the ticket field (see
/// `TICKETS` in the source: up to 32 767 threads). The per-thread path makes its ULIDs from such
/// blocks: one shared write per up to 64 ULIDs, strictly increasing per thread, unique in the
/// process, across threads ordered by millisecond only.
///
/// ```
/// let g = sno_core::ulid::AtomicGenerator::default();
/// let (a, b) = (g.try_next()?, g.try_next()?);
/// assert!(a < b);
/// # Ok::<(), sno_core::Error>(())
/// ```
#[derive(Debug)]
pub struct AtomicGenerator<C = SystemClock, R = ThreadRng> {
    state: CachePadded<AtomicU64>,
    /// The id of the per-thread blocks cut from this generator.
    id: u64,
    ring: [Entry; RING],
    /// Held to open an epoch; the randomness source is only used then.
    opener: Mutex<R>,
    clock: C,
}

impl Default for AtomicGenerator {
    fn default() -> Self {
        AtomicGenerator::with_clock_and_rng(SystemClock::default(), ThreadRng)
    }
}

impl<C: MillisClock, R: RngCore> AtomicGenerator<C, R> {
    /// A generator reading `clock` and drawing each millisecond's randomness from `rng`.
    pub fn with_clock_and_rng(clock: C, rng: R) -> Self {
        crate::fork::register_fork_handler();
        AtomicGenerator {
            // Epoch 0 is never published: the first call opens epoch 1.
            state: CachePadded(AtomicU64::new(0)),
            id: next_source_id(),
            ring: core::array::from_fn(|_| Entry::default()),
            opener: Mutex::new(rng),
            clock,
        }
    }

    /// The next ULID, or [`Error::RandomnessExhausted`] when this millisecond's 80 bits are used
    /// up, or [`Error::MillisOutOfRange`] for a clock outside 1970 … 2^48 − 1 ms.
    #[inline]
    pub fn try_next(&self) -> Result<Ulid, Error> {
        let block = self.reserve_at(self.clock.now_unix_millis(), 1)?;
        Ok(mint(block.unix_ms, block.counter))
    }

    /// Up to `n` consecutive ULIDs (0 counts as 1, more than [`MAX_BLOCK`] as `MAX_BLOCK`) with
    /// one `fetch_add`: the ULIDs `(unix_ms, counter + i)` for `i < count`, which no other call
    /// makes. Fewer than `n` at the end of an epoch or of the 80 bits. Errors as
    /// [`try_next`](Self::try_next).
    ///
    /// ```
    /// let g = sno_core::ulid::AtomicGenerator::default();
    /// let block = g.try_reserve(8)?;
    /// assert!((1..=8).contains(&block.count));
    /// let last = sno_core::ulid::Ulid::from_fields(block.unix_ms, block.counter + u128::from(block.count - 1))?;
    /// assert!(g.try_next()? > last);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    pub fn try_reserve(&self, n: u32) -> Result<Block, Error> {
        self.reserve_at(self.clock.now_unix_millis(), n)
    }

    /// The next ULID from the calling thread's block of this generator's tickets, taking a new
    /// block (one `fetch_add`) once per up to [`MAX_BLOCK`] ULIDs; see [`Block`] for the
    /// per-thread cache. Unique within the process, strictly increasing per thread; across
    /// threads ordered by millisecond only. Errors as [`try_next`](Self::try_next).
    ///
    /// ```
    /// let g = sno_core::ulid::AtomicGenerator::default();
    /// let a = g.try_next_per_thread()?;
    /// assert!(g.try_next_per_thread()? > a);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    #[inline]
    pub fn try_next_per_thread(&self) -> Result<Ulid, Error> {
        next_per_thread(self, |now| refill(self, now))
    }

    /// [`try_next_per_thread`](Self::try_next_per_thread), waiting as [`next`](Self::next)
    /// does.
    #[inline]
    pub fn next_per_thread(&self) -> Result<Ulid, Error> {
        crate::monotonic::next_per_thread_waiting(self)
    }

    /// One `fetch_add(n)`: a block of the current epoch, or the first of a new one.
    #[inline]
    fn reserve_at(&self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        let now = millis48(unix_millis)?;
        let n = u64::from(n.clamp(1, MAX_BLOCK));
        let generation = crate::fork::fork_generation();
        loop {
            let word = self.state.0.fetch_add(n, Ordering::Acquire);
            let (epoch, ticket) = (word >> TICKET_BITS, word & ((1 << TICKET_BITS) - 1));
            if let Some(e) = self.entry(epoch).read(epoch) {
                // Same millisecond, or the clock went back: stay in the epoch's millisecond.
                if e.generation == generation && now <= e.ms && ticket < TICKETS {
                    let first = e.base + u128::from(ticket);
                    if first <= MAX_RANDOMNESS {
                        return Ok(block(e.ms, first, n.min(TICKETS - ticket)));
                    }
                }
            }
            if let Some(result) = self.open_epoch(now, generation, n) {
                return result;
            }
        }
    }

    /// The next ULID; when this millisecond's randomness is used up, sleeps until the next one
    /// (for at most [`DEFAULT_MAX_WAIT`](crate::time::DEFAULT_MAX_WAIT) in all). Fails
    /// with [`Error::MillisOutOfRange`] or [`Error::RandomnessUnavailable`].
    pub fn next(&self) -> Result<Ulid, Error> {
        crate::monotonic::next_within_max_wait(|| self.try_next())
    }

    #[inline]
    fn entry(&self, epoch: u64) -> &Entry {
        &self.ring[epoch as usize % RING]
    }

    /// The slow path, under the mutex: `None` when the current epoch can serve `now` after all
    /// (another thread opened it; take tickets again), else the first `n` tickets of a new
    /// epoch, or [`Error::RandomnessExhausted`].
    #[cold]
    fn open_epoch(&self, now: u64, generation: u64, n: u64) -> Option<Result<Block, Error>> {
        // A panic under the lock leaves no half-made epoch (the tag marks it), so poisoning is
        // ignored.
        let mut rng = self.opener.lock().unwrap_or_else(|p| p.into_inner());
        let word = self.state.0.load(Ordering::Acquire);
        let (epoch, tickets) = (word >> TICKET_BITS, word & ((1 << TICKET_BITS) - 1));
        let next = match self.entry(epoch).read(epoch) {
            Some(e) if e.generation == generation && now <= e.ms => {
                if tickets < TICKETS && e.base + u128::from(tickets) <= MAX_RANDOMNESS {
                    return None;
                }
                // This millisecond's epoch is used up: continue past all its tickets.
                let base = e.base + u128::from(TICKETS);
                if base > MAX_RANDOMNESS {
                    // Every call until the next millisecond lands here; pull the ticket back so
                    // their `fetch_add`s never carry into the epoch bits.
                    self.state
                        .0
                        .swap((epoch << TICKET_BITS) | TICKETS, Ordering::AcqRel);
                    return Some(Err(Error::RandomnessExhausted { unix_millis: e.ms }));
                }
                Epoch { base, ..e }
            }
            // A new millisecond, the first call, or a fork child: fresh randomness.
            _ => {
                let mut fresh = [0u8; 16];
                if let Err(e) = crate::rng::thread_rng_ready() {
                    // No epoch opens; as for exhaustion, keep the failed calls' `fetch_add`s
                    // from carrying into the epoch bits.
                    self.state
                        .0
                        .swap((epoch << TICKET_BITS) | TICKETS, Ordering::AcqRel);
                    return Some(Err(e));
                }
                rng.fill_bytes(&mut fresh[6..]);
                Epoch {
                    generation,
                    ms: now,
                    base: u128::from_be_bytes(fresh),
                }
            }
        };
        let epoch = (epoch + 1) & EPOCH_MASK;
        self.entry(epoch).write(epoch, next);
        // A plain store would do (the mutex orders it before the next opener's load), but loom
        // 0.7 lets a thread that did a `fetch_add` before locking read a value older than it
        // (tokio-rs/loom#424); a swap, one instruction on this once-per-epoch path, keeps every
        // write of the word a read-modify-write, which loom models correctly. Tickets `0 .. n`
        // are the opener's own (`n` ≤ MAX_BLOCK < TICKETS).
        self.state
            .0
            .swap((epoch << TICKET_BITS) | n, Ordering::AcqRel);
        Some(Ok(block(next.ms, next.base, n)))
    }
}

/// The block of `n` tickets from randomness `first` (≤ [`MAX_RANDOMNESS`]) at `ms`, cut short
/// at the end of the 80 bits.
#[inline]
fn block(ms: u64, first: u128, n: u64) -> Block {
    Block {
        unix_ms: ms,
        counter: first,
        // At least 1, at most `n` ≤ MAX_BLOCK.
        count: (MAX_RANDOMNESS - first).min(u128::from(n) - 1) as u32 + 1,
        earliest: 0,
    }
}

/// The ULID of randomness `counter` (≤ [`MAX_RANDOMNESS`]) at `ms` (< 2^48).
#[inline]
fn mint(ms: u64, counter: u128) -> Ulid {
    Ulid(be_bytes((u128::from(ms) << 80) | counter))
}

impl<C: MillisClock, R: RngCore> BlockSource for AtomicGenerator<C, R> {
    type Id = Ulid;
    #[inline]
    fn source_id(&self) -> u64 {
        self.id
    }
    #[inline]
    fn now_unix_millis(&self) -> i64 {
        self.clock.now_unix_millis()
    }
    #[inline]
    fn take_block(&self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        self.reserve_at(unix_millis, n)
    }
    #[inline]
    fn mint(unix_ms: u64, counter: u128) -> Ulid {
        mint(unix_ms, counter)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicI64;

    /// Yields the bytes it is given, then zeros.
    struct FixedRng(u128);

    impl RngCore for FixedRng {
        fn next_u32(&mut self) -> u32 {
            unimplemented!("only fill_bytes is used")
        }
        fn next_u64(&mut self) -> u64 {
            unimplemented!("only fill_bytes is used")
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            let bytes = self.0.to_be_bytes();
            dst.copy_from_slice(&bytes[16 - dst.len()..]);
        }
    }

    fn generator(
        base: u128,
        clock: &'static AtomicI64,
    ) -> AtomicGenerator<impl MillisClock, FixedRng> {
        AtomicGenerator::with_clock_and_rng(move || clock.load(Ordering::Relaxed), FixedRng(base))
    }

    #[test]
    fn increments_within_a_millisecond_and_draws_for_the_next() {
        let _serial = crate::fork::GENERATION_LOCK.lock();
        static CLOCK: AtomicI64 = AtomicI64::new(1_000);
        let g = generator(5, &CLOCK);
        let a = g.try_next().unwrap();
        assert_eq!((a.unix_ms(), a.randomness()), (1_000, 5));
        assert_eq!(g.try_next().unwrap().randomness(), 6);
        // The clock goes back: the last millisecond is kept.
        CLOCK.store(999, Ordering::Relaxed);
        let c = g.try_next().unwrap();
        assert_eq!((c.unix_ms(), c.randomness()), (1_000, 7));
        CLOCK.store(1_001, Ordering::Relaxed);
        let d = g.try_next().unwrap();
        assert_eq!((d.unix_ms(), d.randomness()), (1_001, 5));
        assert!(a < c && c < d);
    }

    #[test]
    fn a_used_up_epoch_continues_past_its_tickets_then_the_80_bits_run_out() {
        let _serial = crate::fork::GENERATION_LOCK.lock();
        static CLOCK: AtomicI64 = AtomicI64::new(7);
        let start = MAX_RANDOMNESS - u128::from(TICKETS) - 2;
        let g = generator(start, &CLOCK);
        let mut last = g.try_next().unwrap();
        for _ in 1..TICKETS {
            let u = g.try_next().unwrap();
            assert_eq!(u.to_u128(), last.to_u128() + 1);
            last = u;
        }
        // A new epoch in the same millisecond starts right after the last ticket.
        let u = g.try_next().unwrap();
        assert_eq!(u.randomness(), start + u128::from(TICKETS));
        assert_eq!(g.try_next().unwrap().randomness(), MAX_RANDOMNESS - 1);
        assert_eq!(g.try_next().unwrap().randomness(), MAX_RANDOMNESS);
        assert_eq!(
            g.try_next(),
            Err(Error::RandomnessExhausted { unix_millis: 7 })
        );
        assert_eq!(
            g.try_next(),
            Err(Error::RandomnessExhausted { unix_millis: 7 })
        );
        // However long the millisecond lasts, its failed calls never reach the epoch bits.
        if !cfg!(miri) {
            for _ in 0..2 * TICKETS {
                assert!(matches!(
                    g.try_next(),
                    Err(Error::RandomnessExhausted { .. })
                ));
            }
        }
        CLOCK.store(8, Ordering::Relaxed);
        assert_eq!(g.try_next().unwrap().unix_ms(), 8);
    }

    #[test]
    #[cfg_attr(miri, ignore = "2^15 blocks")]
    fn blocks_follow_each_other_across_epochs_until_the_80_bits_run_out() {
        let _serial = crate::fork::GENERATION_LOCK.lock();
        static CLOCK: AtomicI64 = AtomicI64::new(9);
        let start = MAX_RANDOMNESS - u128::from(TICKETS) - 100;
        let g = generator(start, &CLOCK);
        // One ticket first, so that the epoch's end cuts a block short.
        let mut next = g.try_next().unwrap().randomness() + 1;
        let mut cut = 0;
        loop {
            match g.try_reserve(64) {
                Ok(b) => {
                    assert_eq!((b.unix_ms, b.counter, b.earliest), (9, next, 0));
                    assert!((1..=64).contains(&b.count));
                    cut += usize::from(b.count < 64);
                    next += u128::from(b.count);
                }
                Err(e) => {
                    assert_eq!(e, Error::RandomnessExhausted { unix_millis: 9 });
                    break;
                }
            }
        }
        assert_eq!(next, MAX_RANDOMNESS + 1, "every value, none twice");
        assert_eq!(cut, 2, "at the epoch's end and at the top of the 80 bits");
        assert_eq!(g.try_reserve(0), g.try_reserve(1000), "still exhausted");
        CLOCK.store(10, Ordering::Relaxed);
        let b = g.try_reserve(1000).unwrap();
        assert_eq!((b.unix_ms, b.count), (10, MAX_BLOCK));
    }

    #[test]
    fn a_fork_child_does_not_continue_a_per_thread_block() {
        let _serial = crate::fork::GENERATION_LOCK.lock();
        static CLOCK: AtomicI64 = AtomicI64::new(5);
        let g = AtomicGenerator::with_clock_and_rng(|| CLOCK.load(Ordering::Relaxed), ThreadRng);
        for _ in 0..4 {
            g.try_next_per_thread().unwrap(); // blocks of 1 and 2, then 1 of a block of 4
        }
        let parent = g.try_next_per_thread().unwrap();
        crate::fork::after_fork();
        let child = g.try_next_per_thread().unwrap();
        assert_eq!(child.unix_ms(), 5);
        assert_ne!(
            child.randomness(),
            parent.randomness() + 1,
            "fresh randomness"
        );
    }

    #[test]
    fn a_clock_out_of_range_is_an_error() {
        static CLOCK: AtomicI64 = AtomicI64::new(-1);
        let g = generator(0, &CLOCK);
        assert_eq!(
            g.try_next(),
            Err(Error::MillisOutOfRange { unix_millis: -1 })
        );
        CLOCK.store(1 << 48, Ordering::Relaxed);
        assert!(matches!(g.try_next(), Err(Error::MillisOutOfRange { .. })));
    }

    #[test]
    fn a_fork_child_opens_a_fresh_epoch() {
        let _serial = crate::fork::GENERATION_LOCK.lock();
        static CLOCK: AtomicI64 = AtomicI64::new(3);
        let g = AtomicGenerator::with_clock_and_rng(|| CLOCK.load(Ordering::Relaxed), ThreadRng);
        let a = g.try_next().unwrap();
        crate::fork::after_fork();
        let b = g.try_next().unwrap();
        assert_eq!(b.unix_ms(), 3);
        assert_ne!(
            b.randomness(),
            a.randomness() + 1,
            "fresh randomness, not the next ticket"
        );
    }
}
