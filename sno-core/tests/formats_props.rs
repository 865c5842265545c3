//! Property tests for ULID, UUIDv7, SCRU128, SCRU160, Nanoflakes and Ulid-Flake: round trips through text and bytes, order
//! preserved by the text form, case-insensitive input, serde, and strictness.

mod common;

use proptest::prelude::*;
use sno_core::nanoflake::Nanoflake;
use sno_core::scru128::Scru128Id;
use sno_core::scru160::Scru160Id;
use sno_core::ulid::Ulid;
use sno_core::ulidflake::UlidFlake;
use sno_core::uuid7::Uuid7;

fn uuid7() -> impl Strategy<Value = Uuid7> {
    (0u64..1 << 48, 0u16..1 << 12, 0u64..1 << 62)
        .prop_map(|(ms, a, b)| Uuid7::from_fields(ms, a, b).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::scaled(2000, 4) as u32))]

    #[test]
    fn ulid_round_trip_and_order(a in any::<u128>(), b in any::<u128>()) {
        let (x, y) = (Ulid::from_u128(a), Ulid::from_u128(b));
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.parse::<Ulid>(), Ok(x));
        prop_assert_eq!(tx.to_lowercase().parse::<Ulid>(), Ok(x));
        prop_assert_eq!(Ulid::from_slice(x.as_bytes()), Ok(x));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(Ulid::from_fields(x.unix_ms(), x.randomness()), Ok(x));
    }

    #[test]
    fn scru128_round_trip_and_order(a in any::<u128>(), b in any::<u128>()) {
        let (x, y) = (Scru128Id::from_u128(a), Scru128Id::from_u128(b));
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.parse::<Scru128Id>(), Ok(x));
        prop_assert_eq!(tx.to_uppercase().parse::<Scru128Id>(), Ok(x));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(
            Scru128Id::from_fields(x.unix_ms(), x.counter_hi(), x.counter_lo(), x.entropy()),
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
    fn scru160_round_trip_and_order(a in any::<[u8; 20]>(), b in any::<[u8; 20]>()) {
        let (x, y) = (Scru160Id::from_bytes(a), Scru160Id::from_bytes(b));
        let (tx, ty) = (x.to_string(), y.to_string());
        let (mut hx, mut hy) = ([0u8; 40], [0u8; 40]);
        let (hx, hy) = (x.encode_hex(&mut hx).to_owned(), y.encode_hex(&mut hy).to_owned());
        prop_assert_eq!(tx.parse::<Scru160Id>(), Ok(x));
        prop_assert_eq!(tx.to_lowercase().parse::<Scru160Id>(), Ok(x));
        prop_assert_eq!(hx.to_uppercase().parse::<Scru160Id>(), Ok(x));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(x.cmp(&y), hx.cmp(&hy));
        prop_assert_eq!(
            Scru160Id::from_fields(x.unix_ms(), x.counter(), x.random16(), x.random80()),
            Ok(x)
        );
    }

    #[test]
    fn nanoflake_round_trip_and_order(a in 0..=i64::MAX, b in 0..=i64::MAX) {
        let (x, y) = (Nanoflake::from_i64(a).unwrap(), Nanoflake::from_i64(b).unwrap());
        let tx = x.to_string();
        prop_assert_eq!(tx.parse::<Nanoflake>(), Ok(x));
        prop_assert_eq!(tx.to_uppercase().parse::<Nanoflake>(), Ok(x));
        prop_assert_eq!(Nanoflake::decode(&x.encode_padded()), Ok(x));
        prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        prop_assert_eq!(x.cmp(&y), x.encode_padded().cmp(&y.encode_padded()));
        prop_assert_eq!(Nanoflake::from_fields(x.timestamp(), x.generator_id(), x.sequence()), Ok(x));
        prop_assert_eq!(Nanoflake::from_slice(x.as_bytes()), Ok(x));
    }

    #[test]
    fn ulidflake_round_trip_and_order(a in 0..=i64::MAX, b in 0..=i64::MAX) {
        let (x, y) = (UlidFlake::from_i64(a).unwrap(), UlidFlake::from_i64(b).unwrap());
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.parse::<UlidFlake>(), Ok(x));
        prop_assert_eq!(tx.to_lowercase().parse::<UlidFlake>(), Ok(x));
        prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(UlidFlake::from_fields(x.timestamp(), x.randomness()), Ok(x));
        prop_assert_eq!(UlidFlake::from_slice(x.as_bytes()), Ok(x));
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
        if let Ok(s) = Scru160Id::decode(&input) {
            let mut hex = [0u8; 40];
            let text = if input.len() == 40 { s.encode_hex(&mut hex).to_owned() } else { s.to_string() };
            prop_assert!(text.eq_ignore_ascii_case(std::str::from_utf8(&input).unwrap()));
        }
        if let Ok(n) = Nanoflake::decode(&input) {
            let text = std::str::from_utf8(&input).unwrap().to_ascii_lowercase();
            prop_assert_eq!(n.to_string(), text.trim_start_matches('0').to_owned().max("0".into()));
        }
        if let Ok(u) = UlidFlake::decode(&input) {
            prop_assert!(u.to_string().eq_ignore_ascii_case(std::str::from_utf8(&input).unwrap()));
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
    let s160: Scru160Id = "05TTUP1HNCPNH30VEK64KDQT9BSNU4C4".parse().unwrap();
    assert_eq!(
        serde_json::to_string(&s160).unwrap(),
        "\"05TTUP1HNCPNH30VEK64KDQT9BSNU4C4\""
    );
    let bytes = postcard::to_allocvec(&s160).unwrap();
    assert_eq!(postcard::from_bytes::<Scru160Id>(&bytes).unwrap(), s160);
    let n: Nanoflake = "jnxxr658jlkw".parse().unwrap();
    assert_eq!(serde_json::to_string(&n).unwrap(), "\"jnxxr658jlkw\"");
    assert_eq!(
        serde_json::from_str::<Nanoflake>("\"JNXXR658JLKW\"").unwrap(),
        n
    );
    assert_eq!(
        postcard::from_bytes::<Nanoflake>(&postcard::to_allocvec(&n).unwrap()).unwrap(),
        n
    );
    let f: UlidFlake = "00CMXB6TAK4SA".parse().unwrap();
    assert_eq!(
        serde_json::from_str::<UlidFlake>(&serde_json::to_string(&f).unwrap()).unwrap(),
        f
    );
    assert!(serde_json::from_str::<UlidFlake>("\"8000000000000\"").is_err());
    assert_eq!(
        postcard::from_bytes::<UlidFlake>(&postcard::to_allocvec(&f).unwrap()).unwrap(),
        f
    );
}
