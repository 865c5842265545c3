//! The wait-free sno generator.
//!
//! # State
//!
//! Everything the hot path needs lives in **one** `AtomicU64`:
//!
//! ```text
//! bit 63 ............ 25 | 24   | 23 ........ 0
//!     time units (39 b)  | tick | counter (24 b)
//! ```
//!
//! `counter` is the offset, from `sequence_min`, of the next sequence to hand out in that unit.
//! Beside it: `wall_safe` (the highest unit that may hold IDs of the *inactive* timeline), the
//! applied-regression count and statistics, all touched only off the hot path.
//!
//! # Per-thread blocks
//!
//! A call does not have to touch the shared word for every ID. Each thread keeps one
//! [`Reservation`](crate::generator::Reservation) (with `std`, in a thread-local; [`Generator::try_next_with`](crate::generator::Generator::try_next_with) takes one the
//! caller keeps): a block of sequences `[next, end)` of one slot (unit and tick) of one
//! generator, taken by **one** `fetch_add(block)` on the state word. A call whose clock reading
//! equals the reservation's unit, for the same generator (a unique instance number taken at
//! build, never the address, which a later generator may reuse) and the same `fork()`
//! generation, mints `next` with no shared write at all. Otherwise it takes a new block. The
//! block size adapts per thread: 1 after a miss (another generator, unit or generation), doubled
//! each time the thread used up a whole block in the same unit, up to the generator's maximum
//! ([`GeneratorBuilder::max_block`](crate::generator::GeneratorBuilder::max_block); by default `capacity / 1024` clamped to 1..=64, so pools
//! under 2 048 always take 1). A thread hammering one generator thus makes one shared
//! read-modify-write per 64 IDs; a thread alternating between two generators takes blocks of 1,
//! the old per-ID cost, and strands nothing. Without `std` (and in loom models) [`try_next`]
//! uses a fresh reservation each call: blocks of 1, exactly the per-ID algorithm below.
//!
//! What this changes for callers: a thread's own IDs still strictly increase (within a
//! timeline), but across threads, the order of IDs within one 4 ms unit is no longer the order
//! of the calls. And a unit's pool may be refused ([`Error::SequenceExhausted`](crate::Error::SequenceExhausted)) before all of
//! it was minted: sequences reserved by a thread that then left the unit (or the generator) are
//! never issued: at most one block per thread that stays on one generator (with the default
//! maximum, at most `threads × capacity / 1024` of the pool). A thread that switches between
//! generators within a unit can strand a block at each switch, but its blocks only grow while
//! it keeps using them up (1, 2, 4, …), so what it strands is less than what it issued.
//!
//! [`try_next`]: Generator::try_next
//!
//! # Why it is correct
//!
//! The algorithm, and the argument that it makes no duplicate whatever the interleaving and
//! that every path is wait-free (the timeline switch lock-free), are written out in
//! `docs/generator.md`; the loom models (`tests/loom.rs`) check them.
//!
//! The module's parts: `engine` (the [`Generator`](crate::generator::Generator) and its minting paths), `builder`
//! ([`GeneratorBuilder`](crate::generator::GeneratorBuilder)), `snapshot` ([`Snapshot`](crate::generator::Snapshot), [`Stats`](crate::generator::Stats), overflow events), `state` (the
//! packed state word).

pub use super::builder::GeneratorBuilder;
pub use super::engine::{DefaultClock, Generator};
#[cfg(feature = "alloc")]
pub use super::snapshot::OverflowObserver;
pub use super::snapshot::{Overflow, Snapshot, SnapshotField, Stats, StatsField};
pub use super::state::{MAX_BLOCK, MIN_POOL};
pub use crate::thread_block::Reservation;
