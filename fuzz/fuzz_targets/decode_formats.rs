//! Every format's decoders on arbitrary bytes: text and binary. Nothing panics, and whatever
//! decodes re-encodes to text that decodes to the same value (canonical text is a fixed point).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sno_core::{Id, nanoflake::Nanoflake, scru128::Scru128Id, scru160::Scru160Id};
use sno_core::{ulid::Ulid, ulidflake::UlidFlake, uuid7::Uuid7};

/// Text round trip through `decode` and `Display`, and binary through `from_slice`.
macro_rules! check {
    ($data:expr, $($ty:ty),+) => {$(
        if let Ok(v) = <$ty>::decode($data) {
            let text = v.to_string();
            assert_eq!(<$ty>::decode(text.as_bytes()), Ok(v), "{} {text}", stringify!($ty));
            assert_eq!(text.parse::<$ty>(), Ok(v));
        }
        if let Ok(v) = <$ty>::from_slice($data) {
            assert_eq!(<$ty>::from_slice(v.as_ref()), Ok(v), "{} binary", stringify!($ty));
        }
    )+};
}

fuzz_target!(|data: &[u8]| {
    check!(
        data, Id, Ulid, Uuid7, Scru128Id, Scru160Id, Nanoflake, UlidFlake
    );
    if let Ok(v) = Uuid7::decode_lenient(data) {
        assert_eq!(Uuid7::decode(v.to_string().as_bytes()), Ok(v));
    }
    for (hex, b32) in [(
        Scru160Id::decode_hex(data),
        Scru160Id::decode_base32hex(data),
    )] {
        assert!(
            hex.is_err() || b32.is_err(),
            "one text cannot be both forms"
        );
        if let Ok(v) = hex.or(b32) {
            assert_eq!(Scru160Id::decode(data), Ok(v));
        }
    }
});
