//! The I/O buffers every export reads its input from and writes its output to, the convention
//! of the exports (the crate's docs: output length, or -1 with the failure kept), and the
//! writing of an output without a path that could panic with a formatted message (no `Vec`
//! growth but `try_reserve`, no `core::fmt` for numbers): a panic's message would bring
//! `core::fmt` into `sno.wasm` (docs/wasm.md, "Sizes").

use alloc::vec::Vec;

use crate::errors::R;
use crate::local::Local;

/// The input JavaScript writes (through `sno_io`) and the output it reads (at `sno_io_ptr`),
/// kept between calls so that a call allocates nothing for them once they are large enough.
struct Io {
    #[cfg(feature = "formats")]
    input: Vec<u8>,
    output: Vec<u8>,
}

static IO: Local<Io> = Local::new(Io {
    #[cfg(feature = "formats")]
    input: Vec::new(),
    output: Vec::new(),
});

/// Makes room for `len` bytes of input and returns where JavaScript writes them (valid until
/// the next call into the module).
#[cfg(feature = "formats")]
#[unsafe(no_mangle)]
pub extern "C" fn sno_io(len: usize) -> *mut u8 {
    IO.with(|io| {
        io.input.clear();
        put_zeros(&mut io.input, len);
        io.input.as_mut_ptr()
    })
}

/// A text of the input (a clock's name, a param, a line of `fromFields`) as the core
/// reads it: `bytes` themselves where they are ASCII, as every such text the core accepts is;
/// otherwise a stand-in the core refuses as it would refuse them, as many `-` as they have
/// bytes (at most 64: a prefix's length counts up to 63). Not `core::str::from_utf8`, whose
/// validation would be 0.5 kB of `formats.wasm` gzipped (docs/wasm.md, "Sizes").
#[cfg(feature = "formats")]
pub(crate) fn ascii_text(bytes: &[u8]) -> &str {
    const STAND_IN: &str = "----------------------------------------------------------------";
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are UTF-8.
        unsafe { core::str::from_utf8_unchecked(bytes) }
    } else {
        STAND_IN.get(..bytes.len()).unwrap_or(STAND_IN)
    }
}

/// Where the last output lies (read it at once: the next call may move it).
#[unsafe(no_mangle)]
pub extern "C" fn sno_io_ptr() -> *const u8 {
    IO.with(|io| io.output.as_ptr())
}

/// Runs `f` on the first `len` bytes of input and writes what it gives as the output: its
/// length, or -1 with the failure kept for `sno_error`.
#[cfg(feature = "formats")]
pub(crate) fn call(len: usize, f: impl FnOnce(&[u8], &mut Vec<u8>) -> R<()>) -> i32 {
    let result = IO.with(|io| {
        io.output.clear();
        let input = io.input.get(..len).unwrap_or(&io.input);
        f(input, &mut io.output).map(|()| io.output.len())
    });
    finish(result)
}

/// `call` for an export without input.
pub(crate) fn output(f: impl FnOnce(&mut Vec<u8>) -> R<()>) -> i32 {
    let result = IO.with(|io| {
        io.output.clear();
        f(&mut io.output).map(|()| io.output.len())
    });
    finish(result)
}

/// An export's return value: the output's length, or -1 with the failure kept.
fn finish(result: R<usize>) -> i32 {
    match result {
        Ok(n) => i32::try_from(n).unwrap_or(i32::MAX),
        Err(fail) => {
            crate::errors::keep(fail);
            -1
        }
    }
}

/// Room for `n` more bytes in `buf`, or a trap when memory cannot grow (as an allocation
/// failure aborts natively; without the panic message that `Vec`'s own growth would format).
pub(crate) fn reserve(buf: &mut Vec<u8>, n: usize) {
    if buf.try_reserve(n).is_err() {
        core::arch::wasm32::unreachable()
    }
}

/// Appends `n` values `make` gives to `vec`, trapping where memory cannot grow (as [`reserve`]):
/// not `Vec::resize` nor `Vec::push`, whose growth fails through the allocator's default error
/// handler, which formats the size with `core::fmt` (docs/wasm.md, "Sizes").
#[cfg(feature = "formats")]
pub(crate) fn put_many<T>(vec: &mut Vec<T>, n: usize, mut make: impl FnMut() -> T) {
    if vec.try_reserve(n).is_err() {
        core::arch::wasm32::unreachable()
    }
    let len = vec.len();
    let mut written = 0;
    for to in vec.spare_capacity_mut().iter_mut().take(n) {
        to.write(make());
        written += 1;
    }
    // SAFETY: the `written` slots after `len` were written just above.
    unsafe { vec.set_len(len + written) };
}

/// `Box::new(value)` for a value of a type that is not zero-sized, trapping where memory cannot
/// grow, without `Box::new`'s failure path (the allocator's default error handler, which formats
/// with `core::fmt`: docs/wasm.md, "Sizes").
#[cfg(feature = "formats")]
pub(crate) fn boxed<T>(value: T) -> alloc::boxed::Box<T> {
    let layout = core::alloc::Layout::new::<T>();
    if layout.size() == 0 {
        return alloc::boxed::Box::new(value);
    }
    // SAFETY: the layout's size is not zero.
    let at = unsafe { alloc::alloc::alloc(layout) }.cast::<T>();
    if at.is_null() {
        core::arch::wasm32::unreachable()
    }
    // SAFETY: `at` is a block of the global allocator with `T`'s layout (size and alignment),
    // written here before the box owns it; the box frees it with the same layout.
    unsafe {
        at.write(value);
        alloc::boxed::Box::from_raw(at)
    }
}

/// Appends `bytes` to `buf` (not inlined: one copy in the module).
#[inline(never)]
pub(crate) fn put(buf: &mut Vec<u8>, bytes: &[u8]) {
    reserve(buf, bytes.len());
    let len = buf.len();
    for (to, from) in buf.spare_capacity_mut().iter_mut().zip(bytes) {
        to.write(*from);
    }
    // SAFETY: `reserve` made room for `bytes.len()` more bytes, all written just above.
    unsafe { buf.set_len(len + bytes.len()) };
}

/// Appends `n` zero bytes to `buf`.
#[cfg(feature = "formats")]
pub(crate) fn put_zeros(buf: &mut Vec<u8>, n: usize) {
    reserve(buf, n);
    let len = buf.len();
    for to in buf.spare_capacity_mut().iter_mut().take(n) {
        to.write(0);
    }
    // SAFETY: `reserve` made room for `n` more bytes, all written just above.
    unsafe { buf.set_len(len + n) };
}

/// Appends the decimal digits of `n` (a minus sign first when `negative`), without
/// `core::fmt`. Not inlined: once in the module for every number it writes.
#[inline(never)]
pub(crate) fn put_decimal(buf: &mut Vec<u8>, negative: bool, mut n: u64) {
    let mut digits = [0u8; 21];
    let mut at = digits.len();
    loop {
        at -= 1;
        if let Some(digit) = digits.get_mut(at) {
            *digit = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        at -= 1;
        if let Some(sign) = digits.get_mut(at) {
            *sign = b'-';
        }
    }
    put(buf, digits.get(at..).unwrap_or_default());
}

/// Appends the decimal digits of a field's value (up to 128 bits): above 64 bits, those of the
/// value divided by 10^9, then its last nine digits (64-bit divisions only: no 128-bit division
/// routine in the module).
#[cfg(feature = "formats")]
pub(crate) fn put_uint(buf: &mut Vec<u8>, n: u128) {
    if let Ok(n) = u64::try_from(n) {
        return put_decimal(buf, false, n);
    }
    const D: u64 = 1_000_000_000;
    let mut high = 0u128;
    let mut low = 0u64;
    for shift in [96, 64, 32, 0] {
        // low < 10^9 < 2^32: the next 32-bit limb joined below it fits 64 bits.
        let limb = (low << 32) | u64::from((n >> shift) as u32);
        high |= u128::from(limb / D) << shift;
        low = limb % D;
    }
    put_uint(buf, high);
    let mut digits = [b'0'; 9];
    for digit in digits.iter_mut().rev() {
        *digit = b'0' + (low % 10) as u8;
        low /= 10;
    }
    put(buf, &digits);
}

/// Appends the decimal digits of a signed `n`.
#[cfg(feature = "formats")]
pub(crate) fn put_int(buf: &mut Vec<u8>, n: i64) {
    put_decimal(buf, n < 0, n.unsigned_abs());
}

/// Appends `name` in JavaScript's camel case (`unix_ms`: `unixMs`), as the core's `CamelCase`
/// writes it, without `core::fmt`.
#[cfg(feature = "formats")]
pub(crate) fn put_camel(buf: &mut Vec<u8>, name: &str) {
    let mut upper = false;
    for &c in name.as_bytes() {
        if c == b'_' {
            upper = true;
        } else {
            let c = if core::mem::take(&mut upper) {
                c.to_ascii_uppercase()
            } else {
                c
            };
            put(buf, &[c]);
        }
    }
}
