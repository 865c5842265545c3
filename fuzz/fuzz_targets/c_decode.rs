//! The C decoders called as C would: arbitrary bytes with any length up to the buffer (and NULL
//! pointers where the contract allows them, and a NULL `out`, which is refused). No panic escapes, the status agrees with the Rust
//! decoder, the value written is the one Rust decodes, and `error_position` is the Rust error's.
#![no_main]

use std::ffi::c_char;

use libfuzzer_sys::fuzz_target;
use sno::*;
use sno_core::{Error, Id, nanoflake::Nanoflake, scru128::Scru128Id, scru160::Scru160Id};
use sno_core::{ulid::Ulid, ulidflake::UlidFlake, uuid7::Uuid7};

/// What `error_position` should hold for a Rust error (SIZE_MAX: untouched).
fn position(e: &Error, len: usize) -> usize {
    match *e {
        Error::InvalidByte { position, .. } => position,
        Error::InvalidLength { .. } => len,
        _ => usize::MAX,
    }
}

/// Calls one C decoder with and without output pointers and compares with `rust`.
macro_rules! check {
    ($text:expr, $len:expr, $c_fn:ident, $out:ty, $rust:expr, $same:expr) => {{
        let rust = $rust;
        let mut out = std::mem::MaybeUninit::<$out>::zeroed();
        let mut pos = usize::MAX;
        // SAFETY: `text` is valid for `len` reads; both out-pointers are writable.
        let status = unsafe { $c_fn($text, $len, out.as_mut_ptr(), &mut pos) };
        match &rust {
            Ok(v) => {
                assert_eq!(status, sno_status::Ok, "{}", stringify!($c_fn));
                // SAFETY: written on success.
                let got = unsafe { out.assume_init() };
                assert!($same(&got, v), "{} value", stringify!($c_fn));
            }
            Err(e) => {
                assert_ne!(status, sno_status::Ok, "{} accepted {e}", stringify!($c_fn));
                assert_eq!(status, sno_status::from(*e), "{}", stringify!($c_fn));
                let want = position(e, $len);
                if want != usize::MAX {
                    assert_eq!(pos, want, "{} position", stringify!($c_fn));
                }
            }
        }
        // SAFETY: a NULL error position is allowed; a NULL `out` is refused.
        let quiet = unsafe { $c_fn($text, $len, out.as_mut_ptr(), std::ptr::null_mut()) };
        assert_eq!(
            quiet,
            status,
            "{} without error_position",
            stringify!($c_fn)
        );
        // SAFETY: as above.
        let no_out = unsafe { $c_fn($text, $len, std::ptr::null_mut(), std::ptr::null_mut()) };
        assert_eq!(
            no_out,
            sno_status::NullArgument,
            "{} with out NULL",
            stringify!($c_fn)
        );
    }};
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks how much of the rest the C side is told about.
    let Some((&cut, rest)) = data.split_first() else {
        let mut id = sno_id { bytes: [0; 10] };
        // SAFETY: NULL text is allowed with length 0.
        let status = unsafe { sno_id_decode(std::ptr::null(), 0, &mut id) };
        assert_eq!(status, sno_status::InvalidLength);
        return;
    };
    let len = rest.len().saturating_sub(usize::from(cut) % 4);
    let (text, bytes) = (rest.as_ptr().cast::<c_char>(), &rest[..len]);
    let le = |x: &[u8], y: &[u8]| x == y;
    check!(
        text,
        len,
        sno_id_decode_at,
        sno_id,
        Id::decode(bytes),
        |a: &sno_id, b: &Id| le(&a.bytes, b.as_bytes())
    );
    check!(
        text,
        len,
        sno_ulid_decode,
        sno_ulid,
        Ulid::decode(bytes),
        |a: &sno_ulid, b: &Ulid| le(&a.bytes, b.as_ref())
    );
    check!(
        text,
        len,
        sno_uuid7_decode,
        sno_uuid7,
        Uuid7::decode(bytes),
        |a: &sno_uuid7, b: &Uuid7| le(&a.bytes, b.as_ref())
    );
    check!(
        text,
        len,
        sno_uuid7_decode_lenient,
        sno_uuid7,
        Uuid7::decode_lenient(bytes),
        |a: &sno_uuid7, b: &Uuid7| le(&a.bytes, b.as_ref())
    );
    check!(
        text,
        len,
        sno_scru128_decode,
        sno_scru128,
        Scru128Id::decode(bytes),
        |a: &sno_scru128, b: &Scru128Id| le(&a.bytes, b.as_ref())
    );
    check!(
        text,
        len,
        sno_scru160_decode,
        sno_scru160,
        Scru160Id::decode(bytes),
        |a: &sno_scru160, b: &Scru160Id| le(&a.bytes, b.as_ref())
    );
    check!(
        text,
        len,
        sno_nanoflake_decode,
        sno_nanoflake,
        Nanoflake::decode(bytes),
        |a: &sno_nanoflake, b: &Nanoflake| a.0 == b.to_i64()
    );
    check!(
        text,
        len,
        sno_ulidflake_decode,
        sno_ulidflake,
        UlidFlake::decode(bytes),
        |a: &sno_ulidflake, b: &UlidFlake| a.0 == b.to_i64()
    );

    // Batches: `count` whole IDs of text.
    let count = len / 16;
    let mut out = vec![sno_id { bytes: [0; 10] }; count];
    let mut index = usize::MAX;
    // SAFETY: `count * 16 <= len` readable bytes and `count` writable slots.
    let status = unsafe { sno_id_decode_many(text, count, out.as_mut_ptr(), &mut index) };
    let mut ids = vec![Id::MAX; count];
    let rust = Id::decode_many(&bytes[..count * 16], &mut ids);
    assert_eq!(status == sno_status::Ok, rust.is_ok() || count == 0);
    if rust.is_ok() {
        assert!(out.iter().zip(&ids).all(|(a, b)| &a.bytes == b.as_bytes()));
    }
});
