//! The generator handles of the per-format C functions (`sno_<format>_generator_*`): the
//! trait a handle implements ([`CGenerator`], written by [`c_generator!`]) and the generic
//! bodies of `_new`, `_new_with_clock`, `_free` and the minting calls.

use sno_core::Error;
use sno_core::monotonic::{MillisState, Shared};

use crate::args::write_out;
use crate::errors::ffi_boundary;
use crate::status::sno_status;

use super::value_type::CId;

/// An opaque C generator handle over a core [`Shared`] generator.
pub(crate) trait CGenerator: Sized {
    /// The format's state machine.
    type State: MillisState + Clone;
    /// Wraps a fresh core generator.
    fn wrap(inner: Shared<Self::State>) -> Self;
    /// The core generator.
    fn inner(&self) -> &Shared<Self::State>;
}

/// The state machine behind a core [`Shared`] generator type (a format's `Generator` alias).
pub(crate) trait SharedGenerator {
    /// The format's state machine.
    type State;
}

impl<S> SharedGenerator for Shared<S> {
    type State = S;
}

/// Implements [`CGenerator`] for a `struct X { inner: <format>::Generator }` handle.
macro_rules! c_generator {
    ($handle:ty, $generator:ty) => {
        impl $crate::formats::generators::CGenerator for $handle {
            type State = <$generator as $crate::formats::generators::SharedGenerator>::State;
            fn wrap(inner: sno_core::monotonic::Shared<Self::State>) -> Self {
                Self { inner }
            }
            fn inner(&self) -> &sno_core::monotonic::Shared<Self::State> {
                &self.inner
            }
        }
    };
}
pub(crate) use c_generator;

/// Creates a generator handle with the format's default settings on the system clock.
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn generator_new<G: CGenerator>(out: *mut *mut G) -> sno_status
where
    G::State: Default,
{
    // SAFETY: forwarded contract.
    unsafe { generator_with(out, || Ok(G::State::default())) }
}

/// [`generator_new`] on the C clock value `clock` (a `sno_clock`).
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn generator_new_with_clock<G: CGenerator>(
    clock: i32,
    out: *mut *mut G,
) -> sno_status
where
    G::State: Default,
{
    // SAFETY: forwarded contract.
    unsafe { generator_on(out, clock, || Ok(G::State::default())) }
}

/// Creates a generator handle over the state `make` builds (it may refuse the settings), on
/// the system clock.
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn generator_with<G: CGenerator>(
    out: *mut *mut G,
    make: impl FnOnce() -> Result<G::State, Error>,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { generator_on(out, crate::types::sno_clock::Precise as i32, make) }
}

/// [`generator_with`] on the C clock value `clock` (a `sno_clock`).
///
/// # Safety
/// `out` NULL or writable.
unsafe fn generator_on<G: CGenerator>(
    out: *mut *mut G,
    clock: i32,
    make: impl FnOnce() -> Result<G::State, Error>,
) -> sno_status {
    ffi_boundary(|| {
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        let clock = crate::types::sno_clock::system_clock(clock)?;
        let g = Box::new(G::wrap(Shared::with_state_and_clock(make()?, clock)));
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { write_out(out, Box::into_raw(g)) }
    })
}

/// Frees a generator handle (NULL accepted).
///
/// # Safety
/// `g` NULL or a live handle from `generator_new`, freed once.
pub(crate) unsafe fn generator_free<G: CGenerator>(g: *mut G) {
    // SAFETY: forwarded contract.
    unsafe { crate::args::free_handle(g) }
}

/// Runs `step` on a generator handle and writes the ID it returns.
///
/// # Safety
/// `g` NULL or live; `out` NULL or writable.
pub(crate) unsafe fn generator_step<G, T>(
    g: *const G,
    out: *mut T,
    step: impl FnOnce(&Shared<G::State>) -> Result<T::Core, Error>,
) -> sno_status
where
    G: CGenerator,
    T: CId,
{
    // SAFETY: forwarded contract.
    unsafe { crate::args::read_handle(g, out, |g: &G| step(g.inner()).map(T::from_core)) }
}
