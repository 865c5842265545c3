//! The pointer arguments of the C API: NULL checks (`SNO_STATUS_NULL_ARGUMENT`), reads of
//! caller memory, writes of outputs (only on success), and the handles' reads and frees.

use crate::errors::{ffi_boundary, value_boundary};
use crate::status::sno_status;

/// A shared reference from a C pointer, or `NullArgument`.
///
/// # Safety
/// `ptr` must be NULL or point to a valid, initialised `T` that outlives `'a` and is not
/// mutated meanwhile.
pub(crate) unsafe fn try_ref<'a, T>(ptr: *const T) -> Result<&'a T, sno_status> {
    // SAFETY: the caller guarantees ptr is NULL or valid; as_ref checks NULL.
    unsafe { ptr.as_ref() }.ok_or(sno_status::NullArgument)
}

/// Writes `value` through a C out-pointer, or `NullArgument`.
///
/// # Safety
/// `ptr` must be NULL or valid for a write of `T`.
pub(crate) unsafe fn write_out<T>(ptr: *mut T, value: T) -> Result<(), sno_status> {
    if ptr.is_null() {
        return Err(sno_status::NullArgument);
    }
    // SAFETY: non-NULL and, by the caller's contract, valid for writes; write() does not read
    // or drop the old (possibly uninitialised) value.
    unsafe { ptr.write(value) };
    Ok(())
}

/// Writes what `read` gives of the object behind `handle` to `out`, both checked first (a NULL
/// `out` costs no work, no ID).
///
/// # Safety
/// `handle` must be NULL or live; `out` NULL or writable.
pub(crate) unsafe fn read_handle<H, T, E>(
    handle: *const H,
    out: *mut T,
    read: impl FnOnce(&H) -> Result<T, E>,
) -> sno_status
where
    sno_status: From<E>,
{
    ffi_boundary(|| {
        // SAFETY: NULL or live per the contract.
        let h = unsafe { try_ref(handle) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        let value = read(h)?;
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { write_out(out, value) }
    })
}

/// Frees a handle made by `Box::into_raw` (NULL accepted and ignored): its `Drop` runs.
///
/// # Safety
/// `handle` must be NULL or a live pointer from `Box::into_raw`, freed once.
pub(crate) unsafe fn free_handle<H>(handle: *mut H) {
    if !handle.is_null() {
        value_boundary((), || {
            // SAFETY: a live pointer from Box::into_raw per the contract, freed once.
            drop(unsafe { Box::from_raw(handle) });
        })
    }
}

/// A byte slice from a C pointer and length (`len == 0` accepts NULL).
///
/// # Safety
/// Unless `len` is 0, `ptr` must point to `len` readable bytes that outlive `'a`.
pub(crate) unsafe fn try_bytes<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], sno_status> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(sno_status::NullArgument);
    }
    if len > isize::MAX as usize {
        return Err(sno_status::InvalidLength);
    }
    // SAFETY: non-NULL, len ≤ isize::MAX, and the caller guarantees len readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Writes `value` through an optional C out-pointer: NULL means the caller does not want it.
///
/// # Safety
/// `ptr` must be NULL or valid for a write of `T`.
pub(crate) unsafe fn write_optional<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: non-NULL and, by the caller's contract, valid for writes.
        unsafe { ptr.write(value) };
    }
}

/// Copies `text` and a NUL into `out`, or `BufferTooSmall` if it does not fit.
pub(crate) fn copy_text(out: &mut [std::ffi::c_char], text: &str) -> Result<(), sno_status> {
    if text.len() >= out.len() {
        return Err(sno_status::BufferTooSmall);
    }
    for (o, b) in out.iter_mut().zip(text.bytes().chain([0])) {
        *o = b as std::ffi::c_char;
    }
    Ok(())
}
