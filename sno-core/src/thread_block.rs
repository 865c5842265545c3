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
///
/// `f` runs outside [`LocalKey::try_with`](std::thread::LocalKey::try_with): passing the
/// generator's `Result` out through its closure cost 10–18 ns per ID (measured; the result
/// went through memory in pieces), four times the whole reservation path.
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
