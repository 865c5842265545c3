//! Per-thread block reservations: the [`Reservation`] a sno generator mints from without
//! touching its shared state word (see [per-thread blocks](crate::generator#per-thread-blocks)),
//! and, with `std`, the one each thread keeps for [`try_next`](crate::Generator::try_next), so
//! that a thread hammering a shared generator writes the state word once per block, not once
//! per ID.
//!
//! One reservation per thread, whatever the number of generators: it is keyed by the
//! generator's instance number, unit and `fork()` generation, and a call that does not match
//! takes a block of one, the per-ID cost. Const-initialised and without a destructor, so a
//! call costs a thread-local address and a borrow flag: no allocation, no registration. Below
//! the generator in the module graph: it knows nothing of the state word's layout.

#[cfg(all(feature = "std", not(loom)))]
use core::cell::RefCell;

/// A block of sequences one thread reserved from a generator's state word, to mint from
/// without touching the shared word: see [per-thread blocks](crate::generator#per-thread-blocks).
///
/// With `std`, every thread keeps one for [`Generator::try_next`](crate::Generator::try_next);
/// callers that keep their own per-thread (or per-core) storage pass one to
/// [`Generator::try_next_with`](crate::Generator::try_next_with). A reservation is
/// neither `Clone` nor `Copy`: its sequences belong to whoever holds it, and using it with
/// another generator, in another unit or after a `fork()` only takes a new block.
///
/// ```
/// use sno_core::{generator::Reservation, GeneratorBuilder, ManualClock};
/// let g = GeneratorBuilder::new(ManualClock::new(10)).partition(1).build()?;
/// let mut mine = Reservation::new();
/// let a = g.try_next_with(&mut mine, 0)?;
/// let b = g.try_next_with(&mut mine, 0)?;
/// assert!(a < b);
/// # Ok::<(), sno_core::Error>(())
/// ```
#[derive(Debug)]
pub struct Reservation {
    /// The generator's instance number (0: none).
    pub(crate) owner: u64,
    /// The `fork()` generation it was taken in (0 without `std`).
    pub(crate) generation: u64,
    /// The slot the block belongs to: unit and tick-tock bit.
    pub(crate) units: u64,
    pub(crate) tick: bool,
    /// Counters `next..end` are this reservation's, not yet issued.
    pub(crate) next: u64,
    pub(crate) end: u64,
    /// The block to take next in the same unit.
    pub(crate) grow: u64,
}

impl Reservation {
    /// An empty reservation: its first use takes a block of one.
    pub const fn new() -> Self {
        Reservation {
            owner: 0,
            generation: 0,
            units: 0,
            tick: false,
            next: 0,
            end: 0,
            grow: 1,
        }
    }

    /// Whether it belongs to `owner` (in `generation`) at unit `now`.
    #[inline(always)]
    pub(crate) fn keyed(&self, owner: u64, generation: u64, now: u64) -> bool {
        self.units == now && self.owner == owner && self.generation == generation
    }
}

impl Default for Reservation {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(all(feature = "std", not(loom)))]
std::thread_local! {
    static RESERVATION: RefCell<Reservation> = const { RefCell::new(Reservation::new()) };
}

/// Runs `f` with this thread's reservation; with a fresh one when that is already borrowed (a
/// generator called again from inside a call on this thread, as an overflow observer may do)
/// or gone (thread exit). A fresh reservation only means a block of one: never a sequence
/// twice, since the borrowed one is not copied.
///
/// `f` runs outside [`LocalKey::try_with`](std::thread::LocalKey::try_with): passing the
/// generator's `Result` out through its closure cost more per ID than the whole reservation
/// path (the result went through memory in pieces; measured: scripts/bench-notes.md,
/// "`with_reservation` outside `try_with`").
#[cfg(all(feature = "std", not(loom)))]
#[inline(always)]
pub(crate) fn with_reservation<R>(f: impl FnOnce(&mut Reservation) -> R) -> R {
    let Ok(cell) = RESERVATION.try_with(|cell| cell as *const RefCell<Reservation>) else {
        return f(&mut Reservation::new());
    };
    // SAFETY: `try_with` handed out the address, so the value is alive; a thread-local is
    // destroyed only when its thread exits (this const-initialised one, which needs no
    // destructor, not even then where thread-locals are native), which cannot happen before
    // this call returns, and the reference is used only during this call, on this thread (a
    // `RefCell` is not `Sync`, and nothing here sends it anywhere). Access to the reservation
    // itself goes through the `RefCell`'s borrow flag, as inside `try_with`.
    let cell = unsafe { &*cell };
    match cell.try_borrow_mut() {
        Ok(mut r) => f(&mut r),
        Err(_) => f(&mut Reservation::new()),
    }
}
