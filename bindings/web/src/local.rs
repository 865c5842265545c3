//! The module's state between calls (the I/O buffer, the last failure, the generators
//! JavaScript holds): a `RefCell` in a `static`, which a module of one thread may share.

use core::cell::RefCell;

/// A `RefCell` that can live in a `static`: the instance has one thread (wasm32-unknown-unknown
/// without the atomics feature), so nothing else can reach it during a borrow.
pub(crate) struct Local<T>(RefCell<T>);

// A module built with threads (the atomics feature) could share these between threads: refuse
// to build it.
#[cfg(target_feature = "atomics")]
compile_error!(
    "sno-web keeps its state in statics of one thread: build without the atomics feature"
);

// SAFETY: without the atomics target feature a WebAssembly instance runs on one thread, so the
// `RefCell` is never reached from two threads.
unsafe impl<T> Sync for Local<T> {}

impl<T> Local<T> {
    /// A cell holding `value`.
    pub(crate) const fn new(value: T) -> Self {
        Local(RefCell::new(value))
    }

    /// Runs `f` on the value, borrowed mutably (a call into the module never re-enters it:
    /// a second borrow traps, as a panic would, without a panic's message).
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        match self.0.try_borrow_mut() {
            Ok(mut value) => f(&mut value),
            Err(_) => core::arch::wasm32::unreachable(),
        }
    }
}
