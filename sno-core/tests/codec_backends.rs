//! Every codec backend this CPU supports, run explicitly (through the hidden selector) on every
//! row of sno_codec.tsv and sno_decode_invalid.tsv, single and batched, plus property tests that
//! each backend agrees with the scalar reference on arbitrary IDs and arbitrary bytes: same
//! output, same error, same position.

mod common;

use common::{each, expected_text_error, hex, rows, scaled};
use proptest::prelude::*;
use sno_core::__backends::{self as backends, Backend};
use sno_core::{Error, Id};

fn supported() -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_supported())
        .collect()
}

#[test]
fn report_backends() {
    // Not an assertion on the machine: a record in the test log of what was exercised.
    let names: Vec<_> = supported().iter().map(|b| b.name()).collect();
    println!(
        "supported: {names:?}; single encode: {}; single decode: {}; batch: {}",
        Backend::single_encode().name(),
        Backend::single_decode().name(),
        Backend::batch().name()
    );
    assert!(names.contains(&"scalar"));
    for chosen in [
        Backend::single_encode(),
        Backend::single_decode(),
        Backend::batch(),
    ] {
        assert!(chosen.is_supported(), "{chosen:?}");
    }
}

/// The single-ID decoder follows the CPU vendor (`platform::single_decode_calls_ssse3`): SSSE3
/// on Intel CPUs, SSE2 elsewhere. Checked against the kernel's own view of the vendor
/// (`/proc/cpuinfo`), not the crate's CPUID read.
#[cfg(all(
    target_os = "linux",
    target_arch = "x86_64",
    feature = "simd",
    not(miri)
))]
#[test]
fn single_decode_follows_the_vendor() {
    if cfg!(target_feature = "ssse3") {
        assert_eq!(Backend::single_decode(), Backend::Ssse3);
        return;
    }
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo");
    let vendor = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("vendor_id"))
        .and_then(|rest| rest.split(':').nth(1))
        .map(str::trim)
        .expect("vendor_id line");
    let expected = if vendor == "GenuineIntel" && Backend::Ssse3.is_supported() {
        Backend::Ssse3
    } else {
        Backend::Sse2
    };
    assert_eq!(Backend::single_decode(), expected, "vendor {vendor}");
}

/// Every byte value in every position of an otherwise valid text, through the public decoder
/// and every backend, single and as the middle ID of a batch of three: accepted exactly when
/// the byte is in the alphabet (and then re-encoding gives the text back), otherwise the same
/// error and position as the scalar reference.
#[test]
fn every_byte_in_every_position_every_backend() {
    const GOOD: &[u8; 16] = b"brpk4q72xwf2m63l";
    let alphabet = b"23456789abcdefghijklmnopqrstuvwx";
    let backends = supported();
    for pos in 0..16 {
        for byte in 0..=255u8 {
            let mut text = *GOOD;
            text[pos] = byte;
            let expected = backends::decode(Backend::Scalar, &text).unwrap();
            match expected {
                Ok(id) => {
                    assert!(alphabet.contains(&byte), "{byte:#04x} accepted");
                    assert_eq!(&id.encode_bytes(), &text, "{byte:#04x} at {pos}");
                }
                Err(e) => {
                    assert!(!alphabet.contains(&byte), "{byte:#04x} refused");
                    assert_eq!(
                        e,
                        Error::InvalidByte {
                            position: pos,
                            byte
                        }
                    );
                }
            }
            assert_eq!(Id::decode(&text), expected, "public {byte:#04x} at {pos}");
            let batch = [*GOOD, text, *GOOD].concat();
            for &b in &backends {
                assert_eq!(
                    backends::decode(b, &text),
                    Some(expected),
                    "{b:?} {byte:#04x} at {pos}"
                );
                let mut out = [Id::MAX; 3];
                let got = backends::try_decode_many(b, &batch, &mut out).unwrap();
                let good = Id::decode(GOOD).unwrap();
                match expected {
                    Ok(id) => {
                        assert_eq!(got, Ok(()), "{b:?} batch {byte:#04x} at {pos}");
                        assert_eq!(out, [good, id, good], "{b:?} batch {byte:#04x} at {pos}");
                    }
                    Err(_) => {
                        let position = 16 + pos;
                        assert_eq!(got, Err(Error::InvalidByte { position, byte }), "{b:?}");
                        assert_eq!(out, [good, Id::MAX, Id::MAX], "{b:?} batch {byte:#04x}");
                    }
                }
            }
        }
    }
}

#[test]
fn unsupported_backends_refuse() {
    for b in Backend::ALL.into_iter().filter(|b| !b.is_supported()) {
        assert_eq!(backends::encode(b, &Id::ZERO), None, "{b:?}");
        assert_eq!(backends::decode(b, b"2222222222222222"), None, "{b:?}");
    }
}

#[test]
fn codec_rows_every_backend() {
    let rows = rows("sno_codec.tsv");
    let ids: Vec<Id> = rows
        .iter()
        .map(|r| Id::from_bytes(hex(&r["hex"]).try_into().unwrap()))
        .collect();
    let text: Vec<u8> = rows.iter().flat_map(|r| r["encoded"].bytes()).collect();
    for b in supported() {
        for (r, id) in each(&rows).zip(each(&ids)) {
            let label = &r["label"];
            let encoded = backends::encode(b, id).unwrap();
            assert_eq!(&encoded[..], r["encoded"].as_bytes(), "{b:?} {label}");
            assert_eq!(
                backends::decode(b, r["encoded"].as_bytes()),
                Some(Ok(*id)),
                "{b:?} {label}"
            );
        }
        // The whole file as one batch, and every prefix length up to 9 (the kernels' tails).
        for n in (0..=9).chain([rows.len()]) {
            let mut out = vec![0u8; 16 * n];
            backends::try_encode_many(b, &ids[..n], &mut out)
                .unwrap()
                .unwrap();
            assert_eq!(out, text[..16 * n], "{b:?} encode_many n={n}");
            let mut back = vec![Id::MAX; n];
            backends::try_decode_many(b, &text[..16 * n], &mut back)
                .unwrap()
                .unwrap();
            assert_eq!(back, ids[..n], "{b:?} decode_many n={n}");
        }
    }
}

#[test]
fn invalid_rows_every_backend() {
    let rows = rows("sno_decode_invalid.tsv");
    for b in supported() {
        for r in each(&rows) {
            let input = hex(&r["input_hex"]);
            let expected = match expected_text_error(&input) {
                Some(err) => Err(err),
                None => Ok(Id::decode(&input).unwrap()),
            };
            assert_eq!(
                backends::decode(b, &input),
                Some(expected),
                "{b:?} {}",
                r["label"]
            );
        }
    }
}

/// A bad ID in every slot of batches of every size up to 11: the error names the byte's
/// position in the whole input, the IDs before it are written, the ones after are untouched.
#[test]
fn batch_errors_every_backend() {
    for b in supported() {
        for n in 1..=11 {
            for bad in 0..n {
                for pos in [0, 7, 15] {
                    let mut text = b"brpk4q72xwf2m63l".repeat(n);
                    text[16 * bad + pos] = b'!';
                    let mut out = vec![Id::MAX; n];
                    let got = backends::try_decode_many(b, &text, &mut out).unwrap();
                    assert_eq!(
                        got,
                        Err(Error::InvalidByte {
                            position: 16 * bad + pos,
                            byte: b'!'
                        }),
                        "{b:?} n={n} bad={bad} pos={pos}"
                    );
                    let good = Id::decode(b"brpk4q72xwf2m63l").unwrap();
                    assert!(out[..bad].iter().all(|id| *id == good), "{b:?} {n} {bad}");
                    assert!(
                        out[bad..].iter().all(|id| *id == Id::MAX),
                        "{b:?} {n} {bad}"
                    );
                }
            }
        }
    }
}

#[test]
fn batch_length_mismatch_every_backend() {
    for b in supported() {
        let mut out = [0u8; 31];
        assert_eq!(
            backends::try_encode_many(b, &[Id::ZERO; 2], &mut out),
            Some(Err(Error::InvalidLength {
                expected: 32,
                actual: 31
            }))
        );
        let mut ids = [Id::ZERO; 2];
        assert_eq!(
            backends::try_decode_many(b, &[b'2'; 33], &mut ids),
            Some(Err(Error::InvalidLength {
                expected: 32,
                actual: 33
            }))
        );
        assert_eq!(backends::try_encode_many(b, &[], &mut []), Some(Ok(())));
        assert_eq!(backends::try_decode_many(b, &[], &mut []), Some(Ok(())));
    }
}

/// Bytes biased towards the alphabet's edges and the invalid neighbours of its runs.
fn text_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => prop::sample::select(b"23456789abcdefghijklmnopqrstuvwx".to_vec()),
        1 => prop::sample::select(b"0191:`yzAXZ\x00\x7f\x80\xb2\xe1\xff".to_vec()),
        1 => any::<u8>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(scaled(2000, 4) as u32))]

    #[test]
    fn backends_agree_on_ids(bytes in prop::collection::vec(any::<[u8; 10]>(), 0..40)) {
        let ids: Vec<Id> = bytes.into_iter().map(Id::from_bytes).collect();
        let mut reference = vec![0u8; 16 * ids.len()];
        backends::try_encode_many(Backend::Scalar, &ids, &mut reference).unwrap().unwrap();
        for b in supported() {
            let mut out = vec![0u8; 16 * ids.len()];
            backends::try_encode_many(b, &ids, &mut out).unwrap().unwrap();
            prop_assert_eq!(&out, &reference, "{:?}", b);
            let mut back = vec![Id::ZERO; ids.len()];
            prop_assert_eq!(backends::try_decode_many(b, &out, &mut back), Some(Ok(())));
            prop_assert_eq!(&back, &ids);
        }
    }

    #[test]
    fn backends_agree_on_bytes(text in prop::collection::vec(text_byte(), 0..100)) {
        let whole = text.len() / 16 * 16;
        let n = whole / 16;
        let mut reference = vec![Id::MAX; n];
        let expected = backends::try_decode_many(Backend::Scalar, &text[..whole], &mut reference);
        for b in supported() {
            prop_assert_eq!(backends::decode(b, &text), backends::decode(Backend::Scalar, &text));
            for chunk in text.chunks(16) {
                prop_assert_eq!(backends::decode(b, chunk), backends::decode(Backend::Scalar, chunk));
            }
            let mut out = vec![Id::MAX; n];
            prop_assert_eq!(backends::try_decode_many(b, &text[..whole], &mut out), expected);
            prop_assert_eq!(&out, &reference, "{:?}", b);
        }
    }
}
