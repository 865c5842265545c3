//! KSUID against testdata/vectors/ksuid_*.tsv (segmentio/ksuid's README and test examples, and
//! rows made by svix-ksuid and cyksuid, every row checked with segmentio/ksuid v1.0.4 and npm
//! ksuid; see testdata/vectors/KSUID.md), the monotonic generator, detection and properties.

mod common;

use proptest::prelude::*;
use sno_core::ksuid::{self, Ksuid};
use sno_core::monotonic::MillisState;
use sno_core::{AnyId, Error, FieldValue, Format, FormatSet, IdFormat, Unit};

/// The KSUID epoch in Unix milliseconds.
const EPOCH_MS: i64 = 1_400_000_000_000;

#[test]
fn every_vector_row_reads_and_writes() {
    let rows = common::rows("ksuid_vectors.tsv");
    common::assert_row_count(&rows, 41);
    for r in common::each(&rows) {
        let (text, note) = (&r["ksuid"], &r["note"]);
        let bytes: [u8; 20] = common::hex(&r["hex"]).try_into().unwrap();
        let id = Ksuid::from_bytes(bytes);
        assert_eq!(id.to_string(), *text, "{note}");
        assert_eq!(text.parse::<Ksuid>(), Ok(id), "{note}");
        assert_eq!(Ksuid::from_slice(&bytes), Ok(id), "{note}");
        let timestamp: u32 = r["timestamp"].parse().unwrap();
        let payload = u128::from_str_radix(&r["payload_hex"], 16).unwrap();
        assert_eq!(id.timestamp_secs(), timestamp, "{note}");
        assert_eq!(id.unix_secs().to_string(), r["unix_secs"], "{note}");
        assert_eq!(id.unix_ms().to_string(), r["unix_ms"], "{note}");
        assert_eq!(id.payload(), payload, "{note}");
        assert_eq!(Ksuid::from_fields(timestamp, payload), id, "{note}");
        // The model: time, fields in layout order, detection.
        assert_eq!(
            IdFormat::unix_ms(&id).map(|ms| ms.to_string()).as_deref(),
            Some(&*r["unix_ms"])
        );
        let fields = id.fields();
        let described: Vec<_> = fields.iter().map(|f| (f.name, f.bits, f.unit)).collect();
        assert_eq!(
            described,
            [
                ("timestamp_secs", 32, Unit::EpochSecs),
                ("payload", 128, Unit::None)
            ]
        );
        assert_eq!(fields[0].value, FieldValue::Uint(timestamp.into()));
        assert_eq!(fields[1].value, FieldValue::Uint(payload));
        assert_eq!(
            AnyId::detect(text.as_bytes()),
            Ok(AnyId::Ksuid(id)),
            "{note}"
        );
        assert_eq!(
            AnyId::candidates(text.as_bytes()),
            FormatSet::EMPTY.with(Format::Ksuid),
            "{note}: no other format reads 27 characters"
        );
    }
}

/// The exact error the strict decoder owes `input`, worked out here without the codec: the
/// length, then the first byte outside `0-9A-Za-z`, then the value against 2^160 − 1 (the
/// digits read as a big number, by repeated multiplication on u32 limbs, little-endian).
fn expected_error(input: &[u8]) -> Option<Error> {
    if input.len() != 27 {
        return Some(Error::InvalidLength {
            expected: 27,
            actual: input.len(),
        });
    }
    if let Some(position) = input.iter().position(|b| !b.is_ascii_alphanumeric()) {
        return Some(Error::InvalidByte {
            position,
            byte: input[position],
        });
    }
    let mut limbs = [0u64; 6];
    for &c in input {
        let mut carry = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'Z' => c - b'A' + 10,
            _ => c - b'a' + 36,
        } as u64;
        for limb in limbs.iter_mut() {
            let t = *limb * 62 + carry;
            *limb = t & 0xFFFF_FFFF;
            carry = t >> 32;
        }
    }
    (limbs[5] != 0).then_some(Error::ValueOverflow)
}

#[test]
fn every_invalid_row_gets_its_exact_error() {
    let rows = common::rows("ksuid_invalid.tsv");
    common::assert_row_count(&rows, 24);
    let references = [
        "segmentio_Parse",
        "svix_ksuid_from_base62",
        "cyksuid_parse",
        "js_ksuid_parse",
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for r in &rows {
        let input = common::json_str(&r["input_json"]);
        let case = &r["case"];
        let got = Ksuid::decode(input.as_bytes());
        assert_eq!(
            got.err(),
            expected_error(input.as_bytes()),
            "{case}: our decoder against the independent check"
        );
        match r["expected"].as_str() {
            "accept" => {
                let id = got.unwrap();
                assert_eq!(r["error_code"], "-", "{case}");
                // Every reference read the same bytes.
                for reference in references {
                    assert_eq!(
                        r[reference],
                        format!("ok:{}", common::to_hex(id.as_bytes())),
                        "{case}: {reference}"
                    );
                }
                // Canonical input only: the text prints back as given.
                assert_eq!(id.to_string(), input, "{case}");
            }
            "reject" => {
                let err = got.unwrap_err();
                assert_eq!(err.code(), r["error_code"], "{case}: {err}");
                kinds.insert(err.code());
                assert_eq!(AnyId::parse_as(Format::Ksuid, input.as_bytes()), Err(err));
                assert!(!AnyId::candidates(input.as_bytes()).contains(Format::Ksuid));
                // The reference rejects every value above the maximum too.
                if err == Error::ValueOverflow {
                    assert!(r["segmentio_Parse"].starts_with("error:"), "{case}");
                }
            }
            other => panic!("{case}: unknown expectation {other}"),
        }
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["invalid_byte", "invalid_length", "value_overflow"]
    );
}

/// `Format::text_pattern` takes every text the decoder takes (tests/model.rs checks) and
/// refuses the wrong lengths, bytes, and the overflows a first character above `a` makes.
#[test]
fn the_text_pattern_bounds_the_first_character() {
    let pattern = regex::Regex::new(Format::Ksuid.text_pattern()).unwrap();
    for r in common::rows("ksuid_invalid.tsv") {
        let input = common::json_str(&r["input_json"]);
        let matches = pattern.is_match(&input);
        match r["error_code"].as_str() {
            "-" => assert!(matches, "{}", r["case"]),
            "invalid_length" | "invalid_byte" => assert!(!matches, "{}", r["case"]),
            _ => assert_eq!(matches, input.starts_with('a'), "{}", r["case"]),
        }
    }
    assert!(pattern.is_match("aWgEPTl1tmebfsQzFP4bxwgy80V"));
    assert!(!pattern.is_match("b00000000000000000000000000"));
}

#[test]
fn case_is_part_of_the_value() {
    let id: Ksuid = "0ujtsYcgvSTl8PAuAdqWYSMnLOv".parse().unwrap();
    let upper: Ksuid = "0UJTSYCGVSTL8PAUADQWYSMNLOV".parse().unwrap();
    assert_ne!(id, upper);
    assert_eq!(upper.to_string(), "0UJTSYCGVSTL8PAUADQWYSMNLOV");
    assert_eq!(Ksuid::MAX.to_string(), "aWgEPTl1tmebfsQzFP4bxwgy80V");
    assert_eq!(Ksuid::NIL.to_string(), "0".repeat(27));
    assert_eq!(
        Ksuid::from_slice(&[0; 19]),
        Err(Error::InvalidLength {
            expected: 20,
            actual: 19
        })
    );
}

/// A second `s` after the KSUID epoch, `ms` into it, as Unix milliseconds.
fn at(s: i64, ms: i64) -> i64 {
    EPOCH_MS + s * 1_000 + ms
}

/// Each new second draws 16 bytes; within it, and while the clock is back, the payload counts
/// up by 1; an exhausted second is an error that leaves the state, until the next second.
#[test]
fn the_generator_increments_within_a_second() {
    let mut rng = common::Script::default();
    let start = u128::MAX - 2;
    rng.fills.push_back(start.to_be_bytes().to_vec());
    rng.fills.push_back(vec![7; 16]);
    rng.fills.push_back(vec![0; 16]);
    let mut g = ksuid::Monotonic::new(rng);
    let s = 300_000_000;
    let a = g.next_at(at(s, 0)).unwrap();
    assert_eq!((a.timestamp_secs(), a.payload()), (s as u32, start));
    let b = g.next_at(at(s, 999)).unwrap();
    assert_eq!((b.timestamp_secs(), b.payload()), (s as u32, start + 1));
    // The clock went back 5 s: the last second continues.
    let c = g.next_at(at(s - 5, 0)).unwrap();
    assert_eq!((c.timestamp_secs(), c.payload()), (s as u32, u128::MAX));
    assert!(a < b && b < c);
    // The payload is used up in this second: an error (never a wrap), the state unchanged.
    let exhausted = Error::RandomnessExhausted {
        unix_millis: at(s, 999) as u64,
    };
    for _ in 0..2 {
        assert_eq!(g.next_at(at(s, 500)), Err(exhausted));
    }
    assert_eq!(
        exhausted.retry_at_unix_ns(),
        Some(at(s + 1, 0) * 1_000_000),
        "retry from the next second"
    );
    // The next second draws afresh.
    let d = g.next_at(at(s + 1, 0)).unwrap();
    assert_eq!(
        (d.timestamp_secs(), d.payload()),
        (s as u32 + 1, u128::from_be_bytes([7; 16]))
    );
    assert!(c < d);
    // Outside the 32-bit seconds since the epoch.
    for bad in [EPOCH_MS - 1, at(1 << 32, 0), i64::MIN] {
        assert_eq!(
            g.next_at(bad),
            Err(Error::MillisOutOfRange { unix_millis: bad })
        );
    }
    let last = g.next_at(at((1 << 32) - 1, 999)).unwrap();
    assert_eq!(last.timestamp_secs(), u32::MAX);
}

/// The shared generator on a manual clock, one ID at a time and from per-thread blocks:
/// strictly increasing, at the clock's second or (after the clock went back) the last one.
#[cfg(feature = "std")]
#[test]
fn the_shared_generator_follows_its_clock() {
    use sno_core::{Clock, ManualClock};
    use std::sync::Arc;
    for per_thread in [false, true] {
        let clock = Arc::new(ManualClock::new(at(400_000_000, 10)));
        let reading = Arc::clone(&clock);
        let g = sno_core::monotonic::Shared::with_state_and_clock(
            ksuid::Monotonic::new(sno_core::rng::ThreadRng),
            move || reading.now_units(),
        );
        let next = || {
            if per_thread {
                g.try_next_per_thread()
            } else {
                g.try_next()
            }
        };
        let mut prev = next().unwrap();
        assert_eq!(prev.timestamp_secs(), 400_000_000);
        let mut seconds = std::collections::BTreeSet::new();
        for step in 0..300 {
            // Forward within the second, into the next ones, and back.
            clock.advance([400, -1_500, 2_300][step % 3]);
            let id = next().unwrap();
            assert!(id > prev, "step {step}");
            let clock_s = ((clock.now_units() - EPOCH_MS) / 1_000) as u32;
            let want = clock_s.max(prev.timestamp_secs());
            assert_eq!(id.timestamp_secs(), want, "step {step}");
            // A new second starts from a fresh payload; the same one counts up.
            if id.timestamp_secs() == prev.timestamp_secs() && !per_thread {
                assert_eq!(id.payload(), prev.payload() + 1, "step {step}");
            }
            seconds.insert(id.timestamp_secs());
            prev = id;
        }
        assert!(
            seconds.len() > 50,
            "the clock moved through {}",
            seconds.len()
        );
    }
}

#[cfg(feature = "std")]
#[test]
fn new_is_increasing_and_now() {
    let a = ksuid::new();
    let b = ksuid::try_new().unwrap();
    assert!(a < b);
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(now_s.abs_diff(b.unix_secs()) <= 2, "{b:?}");
    common::threads_never_repeat(common::scaled(2_000, 20), ksuid::new);
}

#[cfg(feature = "serde")]
#[test]
fn serde_is_text_or_the_20_bytes() {
    let id: Ksuid = "0ujtsYcgvSTl8PAuAdqWYSMnLOv".parse().unwrap();
    let json = serde_json::to_string(&id).unwrap();
    assert_eq!(json, "\"0ujtsYcgvSTl8PAuAdqWYSMnLOv\"");
    assert_eq!(serde_json::from_str::<Ksuid>(&json).unwrap(), id);
    assert!(serde_json::from_str::<Ksuid>("\"aWgEPTl1tmebfsQzFP4bxwgy80W\"").is_err());
    let bin = postcard::to_allocvec(&id).unwrap();
    assert_eq!(bin[1..], id.to_bytes());
    assert_eq!(postcard::from_bytes::<Ksuid>(&bin).unwrap(), id);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::scaled(2000, 4) as u32))]

    #[test]
    fn round_trip_and_order(a in any::<[u8; 20]>(), b in any::<[u8; 20]>()) {
        let (x, y) = (Ksuid::from_bytes(a), Ksuid::from_bytes(b));
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.len(), 27);
        prop_assert_eq!(tx.parse::<Ksuid>(), Ok(x));
        prop_assert_eq!(Ksuid::from_slice(x.as_bytes()), Ok(x));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(Ksuid::from_fields(x.timestamp_secs(), x.payload()), x);
        prop_assert_eq!(x.unix_ms(), (u64::from(x.timestamp_secs()) + 1_400_000_000) * 1_000);
    }

    /// Any 27 bytes: the decoder's answer is the independent check's, and what it accepts
    /// prints back unchanged.
    #[test]
    fn strict_on_any_27_bytes(
        text in proptest::collection::vec(
            prop_oneof![
                4 => proptest::sample::select(
                    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".to_vec()
                ),
                1 => any::<u8>(),
            ],
            27,
        ),
    ) {
        let got = Ksuid::decode(&text);
        prop_assert_eq!(got.err(), expected_error(&text));
        if let Ok(id) = got {
            prop_assert_eq!(id.to_string().into_bytes(), text);
        }
    }
}
