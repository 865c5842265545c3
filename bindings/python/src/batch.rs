//! What never crashes and never hangs: fallible allocation (`MemoryError`, not an abort), lists
//! built without panicking, and waits in short steps with the thread detached, checking for
//! signals (Ctrl-C) between steps and between chunks of a batch. The same for the sno
//! generators of every kind: plain, leased and process-wide.

use std::time::Duration;

use pyo3::exceptions::PyMemoryError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyList;
use sno_core::monotonic::{MillisState, Shared};
use sno_core::{Error, Id, SystemClock};
use sno_lease::Mint;

use crate::to_py;

/// The longest sleep between two checks for signals: Ctrl-C interrupts a wait within this.
pub(crate) const WAIT_STEP: Duration = Duration::from_millis(20);

/// Items of a batch made between two checks for signals.
const CHUNK: usize = 1 << 14;

fn no_memory(what: &str, n: usize) -> PyErr {
    PyMemoryError::new_err(format!("cannot allocate {what} for {n} items"))
}

/// An empty `Vec` with room for exactly `n` items, or `MemoryError`.
pub(crate) fn try_vec<T>(n: usize) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| no_memory("a buffer", n))?;
    Ok(v)
}

/// Pushes with amortised growth, or `MemoryError`.
pub(crate) fn try_push<T>(v: &mut Vec<T>, item: T) -> PyResult<()> {
    if v.len() == v.capacity() {
        v.try_reserve(v.capacity().max(64))
            .map_err(|_| no_memory("a buffer", v.len()))?;
    }
    v.push(item);
    Ok(())
}

/// Between two chunks of a batch: runs pending signal handlers (`KeyboardInterrupt`).
#[inline]
pub(crate) fn chunk_check(py: Python<'_>, i: usize) -> PyResult<()> {
    if i % CHUNK == CHUNK - 1 {
        py.check_signals()?;
    }
    Ok(())
}

/// A list of `n` items made by `item(i)`, built without panicking: `MemoryError` when the list
/// cannot be allocated, and any error of `item` (or a signal, checked every chunk) propagated.
///
/// The list is allocated at its full length and filled in place (as `PyList::new` does; appending
/// costs more per item: scripts/bench-notes.md, "Python: lists filled in place"). Until it is
/// full it holds empty (NULL) slots, which no Python code may see: it is kept out of the garbage
/// collector's lists meanwhile, so that not even `gc.get_objects()` in a signal handler (run
/// between chunks) or a finalizer (run by an allocation) can reach it; nothing else refers to it.
pub(crate) fn list_of<'py>(
    py: Python<'py>,
    n: usize,
    mut item: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let len = ffi::Py_ssize_t::try_from(n).map_err(|_| no_memory("a list", n))?;
    // SAFETY: PyList_New returns a new reference, or NULL with an exception set.
    let list = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyList_New(len))? };
    // SAFETY: a live, GC-tracked list. Its deallocation (on an early return below) untracks only
    // if tracked and releases only the slots that are set.
    unsafe { ffi::PyObject_GC_UnTrack(list.as_ptr().cast()) };
    for i in 0..n {
        chunk_check(py, i)?;
        let obj = item(i)?;
        // SAFETY: `i` < `len`; the slot is empty; PyList_SetItem steals the reference to `obj`.
        if unsafe { ffi::PyList_SetItem(list.as_ptr(), i as ffi::Py_ssize_t, obj.into_ptr()) } != 0
        {
            return Err(PyErr::fetch(py));
        }
    }
    // SAFETY: untracked above, every slot now set.
    unsafe { ffi::PyObject_GC_Track(list.as_ptr().cast()) };
    // SAFETY: PyList_New made a list.
    Ok(unsafe { list.cast_into_unchecked::<PyList>() })
}

/// The next ID of a sno generator: the lock-free attempt with the thread attached; when the
/// 4 ms pool is used up, the clock regressed or a lease is being renewed, the core's wait policy
/// (`sno_core::wait`) in steps of at most [`WAIT_STEP`] with the thread detached, checking for
/// signals after each, for at most the generator's maximum wait (5 s by default; then the
/// error; a lease's new grant during the wait gets a whole maximum wait). A retry time further away than that, or past the end of the sno range, is raised at
/// once, as the core's `next` does; so is an error no wait can end (a closed lease).
#[inline]
pub(crate) fn next_id<G: Mint>(py: Python<'_>, g: &G, meta: u8) -> PyResult<Id> {
    loop {
        let token = g.token();
        let waited = sno_core::wait::retry(
            g.max_wait(),
            SystemClock::precise_unix_ns,
            |e| g.can_wait(e),
            || g.try_next(meta),
            |pause| {
                // Each step is counted in stats()["waits"]; a lease's wait ends early when it is
                // renewed or closed.
                py.detach(|| g.wait_step(pause.error, WAIT_STEP.min(pause.budget)));
                py.check_signals()
            },
        )?;
        match waited {
            // A new grant during the wait gets a whole maximum wait (the Rust `next`'s rule).
            Err(e) if g.waits_again(token, &e) => continue,
            result => return result.map_err(|e| to_py(py, e)),
        }
    }
}

/// The next value of a millisecond-format generator under the core's wait policy
/// (`sno_core::wait`: a used-up millisecond, a Nanoflakes clock gone back by at most
/// `MAX_ROLLBACK_WAIT_MS`; at most the core's `DEFAULT_MAX_WAIT`, 5 s, in all): the attempt with
/// the thread attached, sleeps of at most [`WAIT_STEP`] with the thread detached, signals
/// checked after each sleep.
pub(crate) fn next<S>(py: Python<'_>, g: &Shared<S>) -> PyResult<S::Id>
where
    S: MillisState + Clone + Send,
    S::Id: Send,
{
    let waited = sno_core::wait::retry(
        sno_core::time::DEFAULT_MAX_WAIT,
        SystemClock::precise_unix_ns,
        sno_core::wait::can_wait,
        || g.try_next(),
        |pause| {
            py.detach(|| pause.sleep_at_most(WAIT_STEP));
            py.check_signals()
        },
    )?;
    waited.map_err(|e| to_py(py, e))
}

/// The next value of a format's process-wide generator (the core's `try_new_nonblocking`,
/// `try_new`): the call that never blocks, and only when it
/// asks to wait (a used-up millisecond), the core's bounded wait with the thread detached, so
/// other Python threads run meanwhile.
#[inline]
pub(crate) fn global_value<Id: Send>(
    py: Python<'_>,
    try_now: impl FnOnce() -> Result<Id, Error>,
    wait: impl FnOnce() -> Result<Id, Error> + Send,
) -> Result<Id, Error> {
    match try_now() {
        Err(e) if e.is_retryable() => py.detach(wait),
        other => other,
    }
}
