//! The state-machine traits each monotonic format's generator implements: [`MillisState`] (the
//! next ID for a millisecond) and [`BlockState`] (a block of consecutive values at once).

use crate::error::Error;
use crate::millis_block::Block;

/// A format's generator state machine: the next ID for a given millisecond. `&mut self`, no
/// clock, no lock: usable in no_std as it is, and wrapped by [`Shared`](crate::monotonic::Shared) with std (which needs
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
    /// child must be given a state of its own ([`Shared::replace_state`](crate::monotonic::Shared::replace_state)).
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

/// A [`MillisState`] that can reserve a [`Block`] of consecutive values at once, which threads
/// then make IDs from without touching the shared state ([`Shared::try_next_per_thread`](crate::monotonic::Shared::try_next_per_thread), the
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
    /// timestamp, run out (the following call does that step) or not continue the sequence at
    /// all (a rollback at that reading), and with the same errors.
    fn reserve(&mut self, unix_millis: i64, n: u32) -> Result<Block, Error>;
    /// The ID of value `counter` of a block at `unix_ms`, drawing its per-ID random part (if
    /// the format has one) from `rng`.
    fn mint<G: rand_core::RngCore + ?Sized>(unix_ms: u64, counter: u128, rng: &mut G) -> Self::Id;
}
