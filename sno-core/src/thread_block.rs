//! Per-thread block reservations (`std`): the one [`Reservation`] each thread keeps for the sno
//! generators' [`try_next`](crate::Generator::try_next), so that a thread hammering a shared
//! generator writes the shared state word once per block, not once per ID (see
//! [per-thread blocks](crate::generator#per-thread-blocks)).
//!
//! One reservation per thread, whatever the number of generators: it is keyed by the
//! generator's instance number, unit and `fork()` generation, and a call that does not match
//! takes a block of one, the per-ID cost. Const-initialised and without a destructor, so a
//! call costs a thread-local address and a borrow flag: no allocation, no registration.

use core::cell::RefCell;

use crate::sno::generator::Reservation;

std::thread_local! {
    static RESERVATION: RefCell<Reservation> = const { RefCell::new(Reservation::new()) };
}

/// Runs `f` with this thread's reservation; with a fresh one when that is already borrowed (a
/// generator called again from inside a call on this thread, as an overflow observer may do)
/// or gone (thread exit). A fresh reservation only means a block of one: never a sequence
/// twice, since the borrowed one is not copied.
#[inline(always)]
pub(crate) fn with_reservation<R>(f: impl Fn(&mut Reservation) -> R) -> R {
    RESERVATION
        .try_with(|cell| cell.try_borrow_mut().ok().map(|mut r| f(&mut r)))
        .ok()
        .flatten()
        .unwrap_or_else(|| f(&mut Reservation::new()))
}
