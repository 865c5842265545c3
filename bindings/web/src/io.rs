//! The I/O buffer every export reads its input from and writes its output to, and the small
//! readers of numbers the JavaScript side passes as `f64`.

use std::cell::RefCell;

use crate::errors::{Fail, R};

std::thread_local! {
    /// The buffer (one per instance: a wasm32-unknown-unknown module has one thread).
    static BUF: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes room for `len` bytes of input and returns where JavaScript writes them (valid until
/// the next call into the module).
#[unsafe(no_mangle)]
pub extern "C" fn sno_io(len: usize) -> *mut u8 {
    BUF.with_borrow_mut(|buf| {
        buf.clear();
        buf.resize(len, 0);
        buf.as_mut_ptr()
    })
}

/// Where the last output lies (read it at once: the next call may move it).
#[unsafe(no_mangle)]
pub extern "C" fn sno_io_ptr() -> *const u8 {
    BUF.with_borrow(|buf| buf.as_ptr())
}

/// Runs `f` on the first `len` bytes of input and writes what it gives in their place: the
/// output's length, or -1 with the failure kept for `sno_error`.
pub(crate) fn call(len: usize, f: impl FnOnce(&[u8], &mut Vec<u8>) -> R<()>) -> i32 {
    let input = BUF.with_borrow_mut(|buf| {
        buf.truncate(len);
        core::mem::take(buf)
    });
    let mut out = Vec::new();
    let result = f(&input, &mut out);
    match result {
        Ok(()) => {
            let n = out.len();
            BUF.set(out);
            i32::try_from(n).unwrap_or(i32::MAX)
        }
        Err(fail) => {
            BUF.set(input);
            crate::errors::keep(fail);
            -1
        }
    }
}

/// `call` for an export without input.
pub(crate) fn output(f: impl FnOnce(&mut Vec<u8>) -> R<()>) -> i32 {
    call(0, |_, out| f(out))
}

#[cfg(feature = "sno")]
/// The core's default maximum wait in milliseconds, for a `maxWaitMs` not given (negative).
pub(crate) fn max_wait_ms(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(sno_core::time::DEFAULT_MAX_WAIT.as_millis() as u32)
}

/// The clock a generator reads, by the name in `input` (empty: the default). The names are
/// the core's (`ClockKind`); both kinds read the host's clock here: a page has no ticker
/// thread, so the fast clock is the precise one (docs/clock.md, "no ticker at all").
pub(crate) fn clock_arg(name: &[u8]) -> R<()> {
    if name.is_empty() {
        return Ok(());
    }
    core::str::from_utf8(name)
        .map_err(|_| sno_core::Error::UnknownClock)
        .and_then(str::parse::<sno_core::ClockKind>)
        .map(drop)
        .map_err(Fail::Argument)
}

/// A batch count (an integer: JavaScript checks), at most `MAX_BATCH` (the core's check).
pub(crate) fn batch_count(n: f64) -> R<usize> {
    // `as` saturates: ±Infinity are counts above the maximum, or negative.
    Ok(sno_core::batch_len(n as i128)?)
}

/// Checks a clock's name (the input: `precise` or `fast`, the core's names): nothing, or the
/// core's `ERR_SNO_UNKNOWN_CLOCK` (sno's `Generator`; the format generators read it with
/// their settings).
#[unsafe(no_mangle)]
pub extern "C" fn sno_clock(len: usize) -> i32 {
    call(len, |name, _| clock_arg(name))
}
