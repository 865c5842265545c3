//! Differential fuzzing of the sno codec: every backend this CPU supports must give the scalar
//! reference's answer (same ID, or same error and position) on arbitrary bytes, single and
//! batched, and whatever decodes must re-encode to the same text with every backend.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sno_core::__backends::{self as backends, Backend};
use sno_core::Id;

fuzz_target!(|data: &[u8]| {
    let supported = Backend::ALL.into_iter().filter(|b| b.is_supported());
    let reference = backends::decode(Backend::Scalar, data).expect("scalar always runs");
    assert_eq!(Id::decode(data), reference, "public decode");

    let whole = data.len() / 16 * 16;
    let mut expected = vec![Id::MAX; whole / 16];
    let expected_result =
        backends::try_decode_many(Backend::Scalar, &data[..whole], &mut expected).expect("scalar");

    for b in supported {
        assert_eq!(backends::decode(b, data), Some(reference), "{b:?} single");
        let mut out = vec![Id::MAX; whole / 16];
        let got = backends::try_decode_many(b, &data[..whole], &mut out);
        assert_eq!(got, Some(expected_result), "{b:?} batch");
        assert_eq!(out, expected, "{b:?} batch output");
        if let Ok(id) = reference {
            let text = backends::encode(b, &id).expect("supported");
            assert_eq!(&text[..], data, "{b:?} re-encode");
        }
        if expected_result.is_ok() {
            let mut text = vec![0u8; whole];
            backends::try_encode_many(b, &expected, &mut text)
                .expect("supported")
                .expect("lengths");
            assert_eq!(text, &data[..whole], "{b:?} batch re-encode");
        }
    }
});
