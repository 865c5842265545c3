//! Errors at the C boundary: the panic boundary every entry point runs in, each status's
//! description (sno_status_str: a core or lease error's is the summary of the core's one error
//! table), and the message of the last failure (sno_last_error_message's record).

use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use sno_core::ErrorKind;

use crate::status::sno_status;

/// Runs `f`, turning a panic into [`sno_status::Panic`]. Since Rust 1.81 an escaping panic
/// would abort; this buys the caller a status code instead.
///
/// Unwind safety is asserted: the only shared state the bodies touch is a generator, whose
/// state lives in atomics that are consistent after every single operation.
#[inline(always)]
pub(crate) fn ffi_boundary<F: FnOnce() -> Result<(), sno_status>>(f: F) -> sno_status {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => sno_status::Ok,
        Ok(Err(status)) => status,
        Err(_) => sno_status::Panic,
    }
}

/// Like [`ffi_boundary`] for functions that return a plain value: a panic yields `fallback`.
#[inline(always)]
pub(crate) fn value_boundary<T, F: FnOnce() -> T>(fallback: T, f: F) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}

/// The description of a status value (sno_status_str): a core or lease error's is the one-line
/// summary of the core's error table (`sno_core::ErrorKind::summary`); the C layer describes its
/// own statuses (NULL pointers, buffers, calls a leased generator refuses, panics).
pub(crate) fn describe(status: i32) -> &'static CStr {
    crate::status::C_ONLY
        .iter()
        .find(|(s, _)| *s as i32 == status)
        .map(|(_, summary)| *summary)
        .or_else(|| core_summary(status))
        .unwrap_or(c"unknown status")
}

/// The summary of the core error kind numbered `status`, as a static C string.
fn core_summary(status: i32) -> Option<&'static CStr> {
    static SUMMARIES: OnceLock<Vec<(u8, CString)>> = OnceLock::new();
    let kind = ErrorKind::from_status(u8::try_from(status).ok()?)?;
    SUMMARIES
        .get_or_init(|| {
            ErrorKind::ALL
                .iter()
                .filter_map(|k| Some((k.status(), CString::new(k.summary()).ok()?)))
                .collect()
        })
        .iter()
        .find(|(number, _)| *number == kind.status())
        .map(|(_, summary)| summary.as_c_str())
}

/// A failure with its message, for the calls that record it for sno_last_error_message.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) status: sno_status,
    pub(crate) message: String,
}

impl Failure {
    pub(crate) fn new(status: sno_status, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
        }
    }
}

impl From<sno_status> for Failure {
    fn from(status: sno_status) -> Self {
        Failure::new(status, describe(status as i32).to_string_lossy())
    }
}

impl From<sno_core::Error> for Failure {
    #[cold]
    fn from(e: sno_core::Error) -> Self {
        Failure::new(e.into(), e.to_string())
    }
}

impl From<::sno_lease::Error> for Failure {
    #[cold]
    fn from(e: ::sno_lease::Error) -> Self {
        let message = e.to_string();
        Failure::new(e.into(), message)
    }
}

thread_local! {
    /// The message of this thread's last recorded failure (see sno_last_error_message).
    static LAST_ERROR: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Keeps `message` as this thread's last error message.
#[cold]
pub(crate) fn record(message: String) {
    // try_with: during the thread's teardown the slot may be gone; nothing is recorded then.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = message;
        }
    });
}

/// This thread's last error message (empty when none was recorded).
pub(crate) fn last_error() -> String {
    LAST_ERROR
        .try_with(|slot| slot.try_borrow().map(|s| s.clone()).unwrap_or_default())
        .unwrap_or_default()
}

/// [`ffi_boundary`] for the calls that record their failure's message (sno_last_error_message):
/// a failure or a caught panic is recorded on this thread; a success leaves the last message.
#[inline(always)]
pub(crate) fn recording_boundary<F: FnOnce() -> Result<(), Failure>>(f: F) -> sno_status {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => sno_status::Ok,
        Ok(Err(failure)) => {
            record(failure.message);
            failure.status
        }
        Err(_) => {
            record("internal panic caught at the C boundary".into());
            sno_status::Panic
        }
    }
}

/// A static NUL-terminated description of a status value (any integer is accepted; unknown
/// values give "unknown status"). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_status_str(status: i32) -> *const c_char {
    value_boundary(c"unknown status".as_ptr(), || describe(status).as_ptr())
}

/// A core error's status is its kind's number in the core's error table
/// (`sno_core::ErrorKind::status`); the enum above holds every one (tests/model.rs checks that
/// number and name agree).
impl From<sno_core::Error> for sno_status {
    fn from(e: sno_core::Error) -> Self {
        sno_status::from_number(e.kind().status().into()).unwrap_or(sno_status::InvalidArgument)
    }
}

/// A lease error's status is its kind's number in the core's error table too
/// (`sno_lease::Error::kind`).
impl From<::sno_lease::Error> for sno_status {
    fn from(e: ::sno_lease::Error) -> Self {
        sno_status::from_number(e.kind().status().into()).unwrap_or(sno_status::LeaseStore)
    }
}

/// Copies the message of this thread's last recorded failure into `buf`, like snprintf: at
/// most `len - 1` bytes and a terminating NUL (nothing when `buf` is NULL or `len` is 0), and
/// returns the message's full length in bytes (without the NUL; 0 when nothing was recorded),
/// so `sno_last_error_message(NULL, 0) + 1` is the buffer size that holds it all.
///
/// Recorded on failure by sno_lease_acquire, sno_lease_last_error, sno_generator_new_leased,
/// sno_new and sno_process_partition: the store's or the environment's words, e.g. "sno lease:
/// the store refused the credentials: password authentication failed for user \"app\"" or
/// "sno: environment variable SNO_PARTITION: expected a partition number 0 ..= 65535". As with
/// errno, a successful call leaves the message in place: read it right after the failure.
/// The minting calls of generators do not record (their statuses say it all). Per thread,
/// thread-safe.
///
/// # Safety
/// `buf` must be NULL or valid for `len` byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_last_error_message(buf: *mut c_char, len: usize) -> usize {
    value_boundary(0, || {
        let message = last_error();
        let bytes = message.as_bytes();
        if !buf.is_null() && len > 0 {
            let n = bytes.len().min(len - 1);
            // SAFETY: n + 1 <= len bytes, writable per the contract; the message does not
            // overlap the caller's buffer (it is this library's own String).
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), n);
                buf.add(n).write(0);
            }
        }
        bytes.len()
    })
}
