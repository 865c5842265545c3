//! Atomics shim: `core` atomics (and `std`'s mutex) normally, loom's under `--cfg loom` so the
//! generators can be model-checked.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, Ordering};
#[cfg(all(loom, feature = "std"))]
pub(crate) use loom::sync::{Mutex, atomic::fence};

#[cfg(all(not(loom), target_has_atomic = "64"))]
pub(crate) use core::sync::atomic::{AtomicI64, AtomicU64};
#[cfg(not(loom))]
pub(crate) use core::sync::atomic::{AtomicU32, Ordering};
#[cfg(all(not(loom), feature = "std"))]
pub(crate) use std::sync::{Mutex, atomic::fence};

/// Keeps a value on its own cache line(s), so hot atomics do not false-share.
#[repr(align(128))]
#[derive(Debug, Default)]
pub(crate) struct CachePadded<T>(pub(crate) T);
