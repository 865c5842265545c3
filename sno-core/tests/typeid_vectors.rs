//! TypeID against the spec's own test cases (testdata/vectors/typeid_*.tsv, transcribed from
//! jetify-com/typeid spec v0.3.0), the spec README's examples, generation, and properties.

mod common;

use proptest::prelude::*;
use sno_core::typeid::TypeId;
use sno_core::uuid7::Uuid7;
use sno_core::{AnyId, Error, FieldValue, Format, FormatSet, IdFormat};

/// The 16 bytes of a hyphenated UUID.
fn uuid_bytes(uuid: &str) -> [u8; 16] {
    common::hex(&uuid.replace('-', "")).try_into().unwrap()
}

#[test]
fn every_valid_case_decodes_and_encodes_back() {
    let rows = common::rows("typeid_valid.tsv");
    common::assert_row_count(&rows, 9);
    for row in &rows {
        let (name, text) = (&row["name"], &row["typeid"]);
        let id: TypeId = text.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(id.prefix(), row["prefix"], "{name}");
        assert_eq!(id.uuid_bytes(), uuid_bytes(&row["uuid"]), "{name}");
        assert_eq!(id.to_string(), *text, "{name}");
        // Encoding: the UUID with the prefix gives the text.
        let built = TypeId::from_uuid(&row["prefix"], uuid_bytes(&row["uuid"])).unwrap();
        assert_eq!(built, id, "{name}");
        assert_eq!(built.text().as_str(), text, "{name}");
        let mut suffix = [0u8; 26];
        assert!(text.ends_with(id.encode_suffix(&mut suffix)), "{name}");
        // Through the model.
        assert_eq!(
            AnyId::parse_as(Format::TypeId, text.as_bytes()),
            Ok(AnyId::TypeId(id))
        );
        assert_eq!(
            id.fields()[0].value,
            FieldValue::Text(&row["prefix"]),
            "{name}"
        );
    }
}

#[test]
fn every_invalid_case_fails_with_its_code() {
    let rows = common::rows("typeid_invalid.tsv");
    common::assert_row_count(&rows, 21);
    for row in &rows {
        let (name, text) = (&row["name"], &row["typeid"]);
        let err = TypeId::decode(text.as_bytes()).expect_err(name);
        assert_eq!(err.code(), row["error_code"], "{name}: {err}");
        assert_eq!(
            AnyId::parse_as(Format::TypeId, text.as_bytes()),
            Err(err),
            "{name}"
        );
        assert!(!AnyId::candidates(text.as_bytes()).contains(Format::TypeId));
    }
}

#[test]
fn errors_name_the_position_in_the_whole_text() {
    let at = |text: &str| TypeId::decode(text.as_bytes()).unwrap_err();
    assert_eq!(
        at("prefix_0123456789ABCDEFGHJKMNPQRS"),
        Error::InvalidByte {
            position: 17,
            byte: b'A'
        }
    );
    assert_eq!(
        at("01h455vb4pex5vsknk084sn02Q"),
        Error::InvalidByte {
            position: 25,
            byte: b'Q'
        }
    );
    assert_eq!(
        at("prefix_1234567890123456789012345"),
        Error::InvalidLength {
            expected: 33,
            actual: 32
        }
    );
    assert_eq!(
        at("0123"),
        Error::InvalidLength {
            expected: 26,
            actual: 4
        }
    );
    assert_eq!(
        at("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz"),
        Error::ValueOverflow
    );
    for (text, reason) in [
        ("User_01h455vb4pex5vsknk084sn02q", "a-z"),
        ("_user_01h455vb4pex5vsknk084sn02q", "start"),
        ("user__01h455vb4pex5vsknk084sn02q", "end"),
        ("_01h455vb4pex5vsknk084sn02q", "without a prefix"),
    ] {
        let err = at(text);
        assert!(
            matches!(err, Error::InvalidPrefix { reason: r } if r.contains(reason)),
            "{text}: {err}"
        );
        assert!(err.to_string().starts_with("sno: invalid TypeID prefix: "));
    }
}

#[test]
fn spec_readme_examples() {
    let suffix = "01h5fskfsk4fpeqwnsyz5hj55t";
    let uuid = TypeId::decode(suffix.as_bytes()).unwrap().uuid_bytes();
    let longest = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk";
    assert_eq!(longest.len(), 63);
    for prefix in ["", "user", "my_type", "a_b_c", "my__type", "a", longest] {
        let text = if prefix.is_empty() {
            suffix.to_string()
        } else {
            format!("{prefix}_{suffix}")
        };
        let id: TypeId = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!((id.prefix(), id.uuid_bytes()), (prefix, uuid));
        assert_eq!(TypeId::from_uuid(prefix, uuid).unwrap().to_string(), text);
        assert!(text.len() <= Format::TypeId.max_text_len());
    }
    for bad in [
        "PREFIX_01h5fskfsk4fpeqwnsyz5hj55t",
        "12345_01h5fskfsk4fpeqwnsyz5hj55t",
        "_prefix_01h5fskfsk4fpeqwnsyz5hj55t",
        "prefix__01h5fskfsk4fpeqwnsyz5hj55t",
        "prefix_0123456789ABCDEFGHJKMNPQRS",
        "prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz",
    ] {
        assert!(bad.parse::<TypeId>().is_err(), "{bad}");
    }
    assert!(TypeId::from_uuid(&format!("{longest}a"), uuid).is_err());
}

#[test]
fn uuid_versions_and_time() {
    let v7: TypeId = "prefix_01h455vb4pex5vsknk084sn02q".parse().unwrap();
    let uuid = v7.to_uuid7().unwrap();
    assert_eq!(uuid.to_string(), "01890a5d-ac96-774b-bcce-b302099a8057");
    assert_eq!(v7.unix_ms(), Some(uuid.unix_ms()));
    assert_eq!(IdFormat::unix_ms(&v7), Some(uuid.unix_ms() as i64));
    assert_eq!(TypeId::from_uuid7("prefix", uuid), Ok(v7));
    let names: Vec<&str> = v7.fields().iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        [
            "prefix", "unix_ms", "version", "rand_a", "variant", "rand_b"
        ]
    );
    let field = |name| v7.fields().get(name).unwrap().value;
    assert_eq!(field("unix_ms"), FieldValue::Uint(uuid.unix_ms().into()));
    assert_eq!(field("version"), FieldValue::Uint(7));
    assert_eq!(field("rand_a"), FieldValue::Uint(uuid.rand_a().into()));
    assert_eq!(field("variant"), FieldValue::Uint(0b10));
    assert_eq!(field("rand_b"), FieldValue::Uint(uuid.rand_b().into()));
    let bits: u32 = v7.fields().iter().map(|f| u32::from(f.bits)).sum();
    assert_eq!(bits as usize, 8 * Format::TypeId.binary_len());

    // The nil UUID is a valid TypeID, but not a UUIDv7: no time.
    let nil: TypeId = "00000000000000000000000000".parse().unwrap();
    assert_eq!(
        nil.to_uuid7(),
        Err(Error::NotVersion7 {
            version: 0,
            variant: 0
        })
    );
    assert_eq!(nil.unix_ms(), None);
    assert_eq!(IdFormat::unix_ms(&nil), None);
}

#[test]
fn binary_form_is_the_uuid_without_the_prefix() {
    let id: TypeId = "prefix_01h455vb4pex5vsknk084sn02q".parse().unwrap();
    assert_eq!(id.as_slice(), id.uuid_bytes());
    let back = TypeId::from_slice(id.as_slice()).unwrap();
    assert_eq!((back.prefix(), back.uuid_bytes()), ("", id.uuid_bytes()));
    assert_eq!(back.to_string(), "01h455vb4pex5vsknk084sn02q");
    assert_eq!(
        TypeId::from_slice(&[0; 15]),
        Err(Error::InvalidLength {
            expected: 16,
            actual: 15
        })
    );
}

#[test]
fn detection() {
    let id = AnyId::detect(b"user_01h455vb4pex5vsknk084sn02q").unwrap();
    assert_eq!(id.format(), Format::TypeId);
    assert_eq!(id.text().as_str(), "user_01h455vb4pex5vsknk084sn02q");
    // A bare lower-case suffix is also a ULID (which reads either case): ambiguous.
    assert_eq!(
        AnyId::detect(b"01h455vb4pex5vsknk084sn02q"),
        Err(Error::AmbiguousFormat {
            candidates: FormatSet::EMPTY.with(Format::Ulid).with(Format::TypeId)
        })
    );
    // Upper case is a ULID only.
    assert_eq!(
        AnyId::detect(b"01H455VB4PEX5VSKNK084SN02Q").map(|id| id.format()),
        Ok(Format::Ulid)
    );
    assert_eq!("typeid".parse::<Format>(), Ok(Format::TypeId));
    assert_eq!("TypeID".parse::<Format>(), Ok(Format::TypeId));
    assert_eq!(Format::TypeId.binary_len(), 16);
    assert_eq!(Format::TypeId.max_text_len(), 90);
}

#[test]
fn constructors_check_the_prefix() {
    let uuid = [0x11; 16];
    for bad in ["User", "_user", "user_", "us3r", "ü"] {
        assert!(
            matches!(
                TypeId::from_uuid(bad, uuid),
                Err(Error::InvalidPrefix { .. })
            ),
            "{bad}"
        );
    }
    assert_eq!(TypeId::from_uuid("", uuid).unwrap().prefix(), "");
}

#[cfg(feature = "std")]
#[test]
fn generation_keeps_the_prefix_and_makes_increasing_uuidv7s() {
    let mut last = TypeId::new("user");
    for _ in 0..1000 {
        let id = TypeId::try_new("user").unwrap();
        assert_eq!(id.prefix(), "user");
        let uuid = id.to_uuid7().expect("generated TypeIDs hold UUIDv7s");
        assert_eq!(id.unix_ms(), Some(uuid.unix_ms()));
        assert!(id > last, "{id} after {last}");
        assert!(id.to_string() > last.to_string());
        last = id;
    }
    assert_eq!(
        TypeId::try_new("User").map(|_| ()),
        Err(Error::InvalidPrefix {
            reason: "only the lower-case letters a-z and '_' are allowed"
        })
    );
    assert_eq!(TypeId::new("").prefix(), "");
}

#[cfg(feature = "std")]
#[test]
fn generation_never_repeats_across_threads() {
    common::threads_never_repeat(common::scaled(2_000, 20), || TypeId::new("order"));
}

#[cfg(feature = "serde")]
#[test]
fn serde_keeps_the_prefix_in_every_format() {
    let id: TypeId = "user_01h455vb4pex5vsknk084sn02q".parse().unwrap();
    let json = serde_json::to_string(&id).unwrap();
    assert_eq!(json, "\"user_01h455vb4pex5vsknk084sn02q\"");
    assert_eq!(serde_json::from_str::<TypeId>(&json).unwrap(), id);
    let bytes = postcard::to_allocvec(&id).unwrap();
    assert_eq!(postcard::from_bytes::<TypeId>(&bytes).unwrap(), id);
    assert!(serde_json::from_str::<TypeId>("\"User_01h455vb4pex5vsknk084sn02q\"").is_err());
}

fn prefix() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z]([a-z_]{0,61}[a-z])?"]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::scaled(2000, 4) as u32))]

    #[test]
    fn round_trip_and_order(p in prefix(), q in prefix(), a in any::<u128>(), b in any::<u128>()) {
        let x = TypeId::from_uuid(&p, a.to_be_bytes()).unwrap();
        let y = TypeId::from_uuid(&q, b.to_be_bytes()).unwrap();
        let (tx, ty) = (x.to_string(), y.to_string());
        prop_assert_eq!(tx.parse::<TypeId>(), Ok(x));
        prop_assert_eq!(x.prefix(), p.as_str());
        prop_assert_eq!(x.to_u128(), a);
        prop_assert_eq!(x.cmp(&y), tx.cmp(&ty));
        prop_assert_eq!(x.cmp(&y), (x.prefix(), a).cmp(&(y.prefix(), b)));
        prop_assert_eq!(AnyId::parse_as(Format::TypeId, tx.as_bytes()), Ok(AnyId::TypeId(x)));
        let upper = tx.to_uppercase();
        prop_assert!(upper == tx || upper.parse::<TypeId>().is_err(), "{}", upper);
    }

    #[test]
    fn uuid7_round_trip(p in prefix(), ms in 0u64..1 << 48, ra in 0u16..1 << 12, rb in 0u64..1 << 62) {
        let u = Uuid7::from_fields(ms, ra, rb).unwrap();
        let id = TypeId::from_uuid7(&p, u).unwrap();
        prop_assert_eq!(id.to_uuid7(), Ok(u));
        prop_assert_eq!(id.unix_ms(), Some(ms));
    }

    #[test]
    fn arbitrary_text_is_decoded_or_refused_without_panic(input in proptest::collection::vec(any::<u8>(), 0..100)) {
        if let Ok(id) = TypeId::decode(&input) {
            let text = id.to_string();
            prop_assert_eq!(text.as_bytes(), &input[..]);
        }
    }
}
