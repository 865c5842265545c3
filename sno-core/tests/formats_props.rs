//! Property tests for ULID, UUIDv7 and SCRU128: round trips through text and bytes, order
//! preserved by the text form, case-insensitive input, serde, and strictness.

use proptest::prelude::*;
use sno_core::scru128::Scru128Id;
use sno_core::ulid::Ulid;
use sno_core::uuid7::Uuid7;

fn uuid7() -> impl Strategy<Value = Uuid7> {
    (0u64..1 << 48, 0u16..1 << 12, 0u64..1 << 62)
        .prop_map(|(ms, a, b)| Uuid7::from_parts(ms, a, b).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn ulid_round_trip_and_order(a in any::<u128>(), b in any::<u128>()) {
        let (x, y) = (Ulid::from_u128(a), Ulid::from_u128(b));
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.parse::<Ulid>(), Ok(x));
        prop_assert_eq!(tx.to_lowercase().parse::<Ulid>(), Ok(x));
        prop_assert_eq!(Ulid::from_slice(x.as_bytes()), Ok(x));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(Ulid::from_parts(x.timestamp_ms(), x.randomness()), Ok(x));
    }

    #[test]
    fn scru128_round_trip_and_order(a in any::<u128>(), b in any::<u128>()) {
        let (x, y) = (Scru128Id::from_u128(a), Scru128Id::from_u128(b));
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.parse::<Scru128Id>(), Ok(x));
        prop_assert_eq!(tx.to_uppercase().parse::<Scru128Id>(), Ok(x));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(
            Scru128Id::from_fields(x.timestamp_ms(), x.counter_hi(), x.counter_lo(), x.entropy()),
            Ok(x)
        );
    }

    #[test]
    fn uuid7_round_trip_and_order(x in uuid7(), y in uuid7()) {
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.parse::<Uuid7>(), Ok(x));
        prop_assert_eq!(Uuid7::decode(tx.to_uppercase().as_bytes()), Ok(x));
        prop_assert_eq!(Uuid7::decode_lenient(tx.replace('-', "").as_bytes()), Ok(x));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(Uuid7::try_from(Ulid::from(x)), Ok(x));
    }

    #[test]
    fn arbitrary_text_is_decoded_or_refused_without_panic(input in proptest::collection::vec(any::<u8>(), 0..48)) {
        // Whatever decodes re-encodes to the same text up to case.
        if let Ok(u) = Ulid::decode(&input) {
            prop_assert!(u.to_string().eq_ignore_ascii_case(std::str::from_utf8(&input).unwrap()));
        }
        if let Ok(s) = Scru128Id::decode(&input) {
            prop_assert!(s.to_string().eq_ignore_ascii_case(std::str::from_utf8(&input).unwrap()));
        }
        if let Ok(u) = Uuid7::decode_lenient(&input) {
            prop_assert_eq!(u.version(), 7);
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_strings_and_bytes() {
    let u = Ulid::from_u128(0x0156_3e3a_b5d3_d676_4c61_efb9_9302_bd5b);
    let json = serde_json::to_string(&u).unwrap();
    assert_eq!(json, "\"01ARZ3NDEKTSV4RRFFQ69G5FAV\"");
    assert_eq!(serde_json::from_str::<Ulid>(&json).unwrap(), u);
    assert!(serde_json::from_str::<Ulid>("\"80000000000000000000000000\"").is_err());
    let v: Uuid7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f".parse().unwrap();
    assert_eq!(
        serde_json::from_str::<Uuid7>(&serde_json::to_string(&v).unwrap()).unwrap(),
        v
    );
    let s: Scru128Id = "0372hg16csmsm50l8dikcvukc".parse().unwrap();
    let bytes = postcard::to_allocvec(&s).unwrap();
    assert_eq!(postcard::from_bytes::<Scru128Id>(&bytes).unwrap(), s);
    assert!(serde_json::from_str::<Uuid7>("\"017f22e2-79b0-4cc3-98c4-dc0c0c07398f\"").is_err());
}
