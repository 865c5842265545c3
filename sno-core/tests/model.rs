//! The format model: every format's vectors read the same through `AnyId` as through the
//! concrete type, detection finds each format (or says it is ambiguous), and the error table is
//! consistent.

mod common;

use sno_core::{AnyId, Error, ErrorKind, FieldValue, Format, FormatSet, IdFormat};

/// (format, vector file, text column, hex column)
const TABLES: &[(Format, &str, &str, &str)] = &[
    (Format::Sno, "sno_codec.tsv", "encoded", "hex"),
    (Format::Ulid, "ulid_vectors.tsv", "ulid", "hex"),
    (Format::Uuid7, "uuidv7_vectors.tsv", "uuid", "hex"),
    (Format::Scru128, "scru128_vectors.tsv", "scru128", "hex"),
    (Format::Scru160, "scru160_vectors.tsv", "base32hex", "hex"),
    (Format::Nanoflake, "nanoflakes_vectors.tsv", "base36", "hex"),
    (
        Format::UlidFlake,
        "ulidflake_vectors.tsv",
        "ulidflake",
        "hex",
    ),
    (Format::TypeId, "typeid_valid.tsv", "typeid", "uuid"),
    (Format::Ksuid, "ksuid_vectors.tsv", "ksuid", "hex"),
];

#[test]
fn every_format_has_a_vector_table() {
    let covered: Vec<Format> = TABLES.iter().map(|t| t.0).collect();
    assert_eq!(covered, Format::ALL);
}

#[test]
fn vectors_read_the_same_through_any_id() {
    for &(format, file, text_col, hex_col) in TABLES {
        for row in common::rows(file) {
            let text = &row[text_col];
            let id = AnyId::parse_as(format, text.as_bytes())
                .unwrap_or_else(|e| panic!("{file} {text}: {e}"));
            assert_eq!(id.format(), format);
            assert_eq!(
                common::to_hex(id.as_slice()),
                row[hex_col].replace('-', "").to_lowercase(),
                "{file} {text}"
            );
            let back = AnyId::from_slice_as(format, id.as_slice()).unwrap();
            assert_eq!(back.as_slice(), id.as_slice());
            // The binary form is the whole value, except a param (a TypeID's prefix).
            if format.param().is_none() || id.param().is_empty() {
                assert_eq!(back, id);
            }
            // The canonical text decodes to the same value.
            assert_eq!(
                AnyId::parse_as(format, id.text().as_bytes()),
                Ok(id),
                "{file} {text}"
            );
            assert!(id.text().len() <= format.max_text_len());
            assert_eq!(id.as_slice().len(), format.binary_len());
            // Detection names the format, or says the text is ambiguous and lists it.
            match AnyId::detect(text.as_bytes()) {
                Ok(found) => assert_eq!(found, id, "{file} {text}"),
                Err(Error::AmbiguousFormat { candidates }) => {
                    assert!(candidates.contains(format), "{file} {text}: {candidates}")
                }
                Err(e) => panic!("{file} {text}: {e}"),
            }
        }
    }
}

#[test]
fn fields_match_the_vectors() {
    for row in common::rows("sno_codec.tsv") {
        let id = AnyId::parse_as(Format::Sno, row["encoded"].as_bytes()).unwrap();
        let fields = id.fields();
        let get = |name: &str| fields.get(name).unwrap().value;
        assert_eq!(
            get("units"),
            FieldValue::Uint(row["ts_units"].parse().unwrap())
        );
        assert_eq!(get("tick_tock"), FieldValue::Bool(row["tick"] == "1"));
        assert_eq!(get("meta"), FieldValue::Uint(row["meta"].parse().unwrap()));
        assert_eq!(
            get("partition"),
            FieldValue::Uint(row["partition"].parse().unwrap())
        );
        assert_eq!(
            get("sequence"),
            FieldValue::Uint(row["sequence"].parse().unwrap())
        );
        let nanos: i64 = row["unix_ns"].parse().unwrap();
        assert_eq!(id.unix_ns(), Some(nanos));
        assert_eq!(id.unix_ms(), Some(nanos / 1_000_000));
    }
    for row in common::rows("scru128_vectors.tsv") {
        let id = AnyId::parse_as(Format::Scru128, row["scru128"].as_bytes()).unwrap();
        let names: Vec<(&str, String)> = id
            .fields()
            .iter()
            .map(|f| (f.name, f.value.to_string()))
            .collect();
        assert_eq!(
            names,
            [
                ("unix_ms", row["timestamp_ms"].clone()),
                ("counter_hi", row["counter_hi"].clone()),
                ("counter_lo", row["counter_lo"].clone()),
                ("entropy", row["entropy"].clone()),
            ]
        );
    }
    for row in common::rows("nanoflakes_vectors.tsv") {
        let id = AnyId::parse_as(Format::Nanoflake, row["base36"].as_bytes()).unwrap();
        assert_eq!(id.unix_ms(), None, "the value does not carry its epoch");
        assert_eq!(id.fields()[0].value.to_string(), row["timestamp_field"]);
    }
    for row in common::rows("ulidflake_vectors.tsv") {
        let id = AnyId::parse_as(Format::UlidFlake, row["ulidflake"].as_bytes()).unwrap();
        assert_eq!(
            id.unix_ms().map(|m| m.to_string()).as_deref(),
            Some(&*row["unix_ms"])
        );
    }
}

#[test]
fn field_widths_cover_the_binary_form() {
    let samples = [
        AnyId::detect(b"brpk4q72xwf2m63l").unwrap(),
        AnyId::detect(b"01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap(),
        AnyId::detect(b"017f22e2-79b0-7cc3-98c4-dc0c0c07398f").unwrap(),
        AnyId::detect(b"0372hg16csmsm50l8dikcvukc").unwrap(),
        AnyId::detect(b"05TTUP1HNCPNH30VEK64KDQT9BSNU4C4").unwrap(),
        AnyId::detect(b"user_01h455vb4pex5vsknk084sn02q").unwrap(),
        AnyId::detect(b"0ujtsYcgvSTl8PAuAdqWYSMnLOv").unwrap(),
    ];
    for id in samples {
        let bits: u32 = id.fields().iter().map(|f| u32::from(f.bits)).sum();
        assert_eq!(
            bits as usize,
            8 * id.format().binary_len(),
            "{}",
            id.format()
        );
        for f in id.fields().iter() {
            if let FieldValue::Uint(v) = f.value {
                assert!(
                    f.bits == 128 || v >> f.bits == 0,
                    "{} {} wider than {} bits",
                    id.format(),
                    f.name,
                    f.bits
                );
            }
        }
    }
}

#[test]
fn detection_reports_ambiguity_and_unknown_text() {
    // A 13-character Crockford/base36 text is a Ulid-Flake and a Nanoflake.
    assert_eq!(
        AnyId::detect(b"00CMXB6TAK4SA"),
        Err(Error::AmbiguousFormat {
            candidates: FormatSet::EMPTY
                .with(Format::Nanoflake)
                .with(Format::UlidFlake)
        })
    );
    assert_eq!(
        AnyId::parse_as(Format::UlidFlake, b"00CMXB6TAK4SA").map(|id| id.format()),
        Ok(Format::UlidFlake)
    );
    // Any short word is a Nanoflake: never chosen on its own.
    let hello = AnyId::detect(b"hello").unwrap_err();
    assert_eq!(hello.kind(), ErrorKind::AmbiguousFormat);
    assert!(hello.to_string().contains("Nanoflake"), "{hello}");
    assert!(AnyId::parse_as(Format::Nanoflake, b"hello").is_ok());
    assert_eq!(
        AnyId::detect(b""),
        Err(Error::UnrecognizedFormat { length: 0 })
    );
    assert_eq!(
        AnyId::detect(b"not an id!"),
        Err(Error::UnrecognizedFormat { length: 10 })
    );
}

#[test]
fn format_names_round_trip() {
    for f in Format::ALL {
        assert_eq!(f.name().parse::<Format>(), Ok(f));
        assert_eq!(f.display_name().parse::<Format>(), Ok(f));
        assert_eq!(f.name().to_uppercase().parse::<Format>(), Ok(f));
    }
    assert_eq!("uuidv7".parse::<Format>(), Ok(Format::Uuid7));
    let err = "xid".parse::<Format>().unwrap_err();
    assert_eq!(err, Error::UnknownFormat);
    assert!(err.to_string().contains("ulidflake"), "{err}");
}

#[test]
fn error_table_is_consistent() {
    let mut statuses = std::collections::HashSet::new();
    let mut codes = std::collections::HashSet::new();
    for &kind in ErrorKind::ALL {
        assert!(
            statuses.insert(kind.status()),
            "status {} twice",
            kind.status()
        );
        assert!(codes.insert(kind.code()), "code {} twice", kind.code());
        assert_eq!(
            kind.js_code(),
            format!("ERR_SNO_{}", kind.code().to_uppercase())
        );
        assert_eq!(ErrorKind::from_status(kind.status()), Some(kind));
        assert!(!kind.summary().is_empty() && !kind.summary().ends_with('.'));
        // Statuses 0, 1, 13 and 255 are the C layer's own (success, NULL, buffer, panic); the
        // lease errors' are 26..=33 and 41.
        assert!(![0, 1, 13, 255].contains(&kind.status()));
        assert_eq!(
            kind.is_lease(),
            (26..=33).contains(&kind.status()) || kind.status() == 41,
            "{kind:?}"
        );
        // The core's own lease errors: the generator's refusals outside its lease's window.
        let core_lease = matches!(kind, ErrorKind::LeaseExpired | ErrorKind::LeasePending);
        assert_eq!(
            kind.is_lease() || core_lease,
            kind.code().starts_with("lease_"),
            "{kind:?}"
        );
    }
    for e in [
        Error::InvalidLength {
            expected: 1,
            actual: 2,
        },
        Error::ValueOverflow,
        Error::UnknownFormat,
        Error::AmbiguousFormat {
            candidates: FormatSet::EMPTY,
        },
        Error::InvalidPrefix { reason: "x" },
        Error::InvalidArgument {
            name: "sid",
            reason: "must be in 0 ..= 31",
        },
    ] {
        assert_eq!(e.code(), e.kind().code());
        assert!(e.to_string().starts_with("sno: "), "{e}");
    }
}

#[test]
fn the_trait_drives_generic_code() {
    fn roundtrip<T: IdFormat>(text: &str) -> String {
        let id = T::decode(text.as_bytes()).unwrap();
        assert_eq!(T::from_slice(id.as_slice()), Ok(id));
        assert_eq!(T::FORMAT.binary_len(), id.as_slice().len());
        id.text().to_string()
    }
    assert_eq!(
        roundtrip::<sno_core::Id>("brpk4q72xwf2m63l"),
        "brpk4q72xwf2m63l"
    );
    assert_eq!(
        roundtrip::<sno_core::ulid::Ulid>("01arz3ndektsv4rrffq69g5fav"),
        "01ARZ3NDEKTSV4RRFFQ69G5FAV"
    );
    assert_eq!(
        roundtrip::<sno_core::nanoflake::Nanoflake>("0jnxxr658jlkw"),
        "jnxxr658jlkw"
    );
}

#[test]
fn each_row_s_type_is_that_format() {
    macro_rules! check {
        ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {{
            let rows = [$((Format::$variant, <$ty as IdFormat>::FORMAT, $name, $display, $bin, $text)),*];
            assert_eq!(rows.len(), Format::ALL.len());
            for (i, (variant, of_type, name, display, bin, text)) in rows.into_iter().enumerate() {
                assert_eq!(variant, Format::ALL[i], "same order");
                assert_eq!(of_type, variant, "{name}: the type's FORMAT");
                assert_eq!((variant.name(), variant.display_name()), (name, display));
                assert_eq!((variant.binary_len(), variant.max_text_len()), (bin, text), "{name}");
                assert!(variant.min_text_len() <= variant.max_text_len(), "{name}");
            }
        }};
    }
    sno_core::for_each_format!(check);
}

#[test]
fn column_types_fit_the_binary_forms() {
    use sno_core::ColumnType;
    macro_rules! check {
        ($($variant:ident { ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt, max_text_len: $text:tt $(, $fact:ident: $value:tt)* $(,)? }),* $(,)?) => {{
            $(
                let format = Format::$variant;
                match format.column_type() {
                    ColumnType::Uuid => assert_eq!(format.binary_len(), 16, "{}", $name),
                    ColumnType::BigInt => {
                        assert_eq!(format.binary_len(), 8, "{}", $name);
                        // A signed 64-bit column keeps the order only if the sign bit is
                        // never set: a value with it set must not decode.
                        let mut top = [0u8; 8];
                        top[0] = 0x80;
                        assert!(<$ty as IdFormat>::from_slice(&top).is_err(), "{}", $name);
                    }
                    ColumnType::Bytes => assert!(format.binary_len() > 0, "{}", $name),
                    _ => unreachable!("a column type without a check"),
                }
                let (pg, lite) = (format.column_type().postgres(), format.column_type().sqlite());
                assert!(["bytea", "uuid", "bigint"].contains(&pg) && ["BLOB", "INTEGER"].contains(&lite));
            )*
        }};
    }
    sno_core::for_each_format!(check);
}

/// Every text the decoders accept (the valid tables, the accepted rows of the invalid tables,
/// and the canonical text of each) matches `Format::text_pattern` and lies within
/// `min_text_len..=max_text_len`.
#[test]
fn text_patterns_cover_every_accepted_text() {
    let invalid: &[(Format, &str, &str)] = &[
        (Format::Ulid, "ulid_invalid.tsv", "input_json"),
        (Format::Uuid7, "uuidv7_invalid.tsv", "input_json"),
        (Format::Scru128, "scru128_invalid.tsv", "input_json"),
        (Format::Scru160, "scru160_invalid.tsv", "input_json"),
        (Format::Nanoflake, "nanoflakes_invalid.tsv", "input_json"),
        (Format::UlidFlake, "ulidflake_invalid.tsv", "input_json"),
        (Format::TypeId, "typeid_invalid.tsv", "typeid"),
        (Format::Ksuid, "ksuid_invalid.tsv", "input_json"),
    ];
    let mut texts: Vec<(Format, String)> = Vec::new();
    for &(format, file, text_col, _) in TABLES {
        texts.extend(
            common::rows(file)
                .iter()
                .map(|r| (format, r[text_col].clone())),
        );
    }
    for &(format, file, col) in invalid {
        for row in common::rows(file) {
            let raw = &row[col];
            let text = if col == "input_json" {
                serde_json::from_str::<String>(raw).unwrap_or_else(|e| panic!("{file} {raw}: {e}"))
            } else {
                raw.clone()
            };
            texts.push((format, text));
        }
    }
    let mut accepted = [0usize; Format::ALL.len()];
    for (format, text) in texts {
        let Ok(id) = AnyId::parse_as(format, text.as_bytes()) else {
            continue;
        };
        let pattern = regex::Regex::new(format.text_pattern()).expect("a valid pattern");
        for t in [text.clone(), id.text().to_string()] {
            assert!(
                pattern.is_match(&t),
                "{format}: {t:?} is accepted but does not match {}",
                format.text_pattern()
            );
            assert!(
                (format.min_text_len()..=format.max_text_len()).contains(&t.len()),
                "{format}: {t:?} length"
            );
        }
        accepted[format as usize] += 1;
    }
    // Each format had texts to check, the alternative forms included.
    assert!(accepted.iter().all(|&n| n > 0), "{accepted:?}");
    // The second forms, named: UUIDv7's URN and SCRU160's 40 hex digits.
    for (format, text) in [
        (
            Format::Uuid7,
            "urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
        ),
        (Format::Scru160, "017bdf6431bb33788c1f750c4a375d4af97f1184"),
    ] {
        assert!(AnyId::parse_as(format, text.as_bytes()).is_ok());
        assert!(
            regex::Regex::new(format.text_pattern())
                .unwrap()
                .is_match(text)
        );
    }
}

/// Values of `format` from pseudo-random bytes (those the format accepts), and its vectors.
fn sample(format: Format) -> Vec<AnyId> {
    let mut values: Vec<AnyId> = TABLES
        .iter()
        .filter(|t| t.0 == format)
        .flat_map(|&(_, file, text_col, _)| {
            common::rows(file)
                .into_iter()
                .map(move |row| row[text_col].clone())
        })
        .map(|text| AnyId::parse_as(format, text.as_bytes()).expect("a vector"))
        .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..4000 {
        let mut bytes = [0u8; 20];
        for b in &mut bytes {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *b = state as u8;
        }
        let bytes = &mut bytes[..format.binary_len()];
        bytes[0] &= 0x7f; // the 64-bit formats keep the sign bit 0
        if let Ok(id) = AnyId::from_slice_as(format, bytes) {
            values.push(id);
        }
    }
    assert!(values.len() > 100, "{format}: too few values accepted");
    values
}

/// `Format::text_order`: where it says so, texts sort as the binary forms (the IDs' order) do;
/// where it does not, a pair of values shows that they do not.
#[test]
fn text_order_is_what_the_table_says() {
    for format in Format::ALL {
        let values = sample(format);
        let disagree = values
            .windows(2)
            .chain(values.chunks(2).skip(1))
            .any(|pair| {
                let (a, b) = (&pair[0], &pair[pair.len() - 1]);
                a.as_slice().cmp(b.as_slice()) != a.text().as_str().cmp(b.text().as_str())
            });
        assert_eq!(!disagree, format.text_order(), "{format}");
    }
}

/// `Format::epoch`: a format whose values do not carry their epoch has no `unix_ms`; the others
/// have one (`FixedWhenPresent`: some of them).
#[test]
fn epochs_are_what_the_table_says() {
    use sno_core::Epoch;
    for format in Format::ALL {
        let values = sample(format);
        let timed = values.iter().filter(|id| id.unix_ms().is_some()).count();
        match format.epoch() {
            Epoch::Required => assert_eq!(timed, 0, "{format}"),
            Epoch::FixedWhenPresent => assert!(timed > 0 && timed < values.len(), "{format}"),
            _ => assert_eq!(timed, values.len(), "{format}"),
        }
    }
}

/// `AnyId::try_new`: the formats with a process-wide generator make increasing values of their
/// own format from it; the others have none there.
#[test]
#[cfg(feature = "std")]
fn process_wide_generators_are_what_the_table_says() {
    for format in Format::ALL {
        let plain = format.has_process_generator();
        let Some(first) = AnyId::try_new(format) else {
            assert!(
                !plain,
                "{format}: the table says it has a process-wide generator"
            );
            assert!(AnyId::try_new_nonblocking(format).is_none());
            continue;
        };
        assert!(plain, "{format}");
        let (a, b) = (
            first.expect("a value"),
            AnyId::try_new_nonblocking(format)
                .unwrap()
                .expect("a value"),
        );
        assert_eq!((a.format(), b.format()), (format, format));
        assert!(a.as_slice() < b.as_slice(), "{format}: {a} then {b}");
        for setting in format.required_settings() {
            assert!(format.settings().contains(setting), "{format}: {setting:?}");
        }
    }
}

/// A format's param (`Extras::param`), as the bindings' generators read it: its setting names a
/// text field and a setting of the format; its source format has a process-wide generator whose
/// values are binary forms of the format (the same length; a new value is the source's bits with
/// the param); its longest length is refused one character further; `check_param` and `with`
/// agree; the formats without one answer `None` everywhere.
#[test]
#[cfg(feature = "std")]
fn params_are_what_the_bindings_read() {
    for format in Format::ALL {
        let Some(p) = format.param_facts() else {
            assert!(format.param().is_none() && format.check_param("").is_none());
            assert!(AnyId::try_new_with_param(format, "").is_none());
            assert!(AnyId::with_param(format, "", &[0; 16]).is_none());
            continue;
        };
        assert_eq!(format.param(), Some(p.setting), "{format}");
        assert!(
            format.settings().contains(&p.setting),
            "{format}: {:?}",
            p.setting
        );
        let field = format.fields().iter().find(|f| f.name == p.setting.name());
        assert!(
            field.is_some(),
            "{format}: no text field {}",
            p.setting.name()
        );
        assert!(!p.binary.is_empty() && !p.doc.is_empty(), "{format}");
        assert_eq!(
            p.source.binary_len(),
            format.binary_len(),
            "{format}: its source's bits"
        );
        assert!(
            p.source.has_process_generator(),
            "{format}: {} has no generator",
            p.source
        );
        let longest = "a".repeat(p.max_len);
        assert!(
            matches!(format.check_param(&longest), Some(Ok(()))),
            "{format}"
        );
        let longer = "a".repeat(p.max_len + 1);
        let refusal = format
            .check_param(&longer)
            .expect("a param")
            .expect_err("too long");
        assert_eq!(
            AnyId::try_new_with_param(format, &longer).expect("a param"),
            Err(refusal),
            "{format}: a new value checks the param first"
        );
        let id = AnyId::try_new_with_param(format, &longest)
            .expect("a param")
            .expect("a new value");
        assert_eq!((id.format(), id.param()), (format, longest.as_str()));
        let again = AnyId::with_param(format, &longest, id.as_slice()).expect("a param");
        assert_eq!(
            again,
            Ok(id),
            "{format}: the param and the binary form are the value"
        );
    }
}

/// `AnyId::from_fields` by name: every value is made again from its own fields (the inputs are
/// fields of `fields()`, by the same names); a field of the wrong kind, one bit above its
/// width, or the binding's own error, each comes back as such.
#[test]
fn every_value_is_made_again_from_its_named_fields() {
    for format in Format::ALL {
        let inputs = AnyId::inputs(format);
        assert!(!inputs.is_empty(), "{format}");
        for id in sample(format) {
            let fields = id.fields();
            let made = AnyId::from_fields(format, |input| {
                fields.get(input.name).map(|f| f.value).ok_or(input.name)
            })
            .unwrap_or_else(|missing| panic!("{format}: {missing} is not a field of {id}"))
            .unwrap_or_else(|e| panic!("{format} {id}: {e}"));
            // The inputs are the value's; the computed fields (a TypeID's UUID version and
            // variant) are the format's own, so a value whose computed fields are those is
            // made again exactly.
            let again = made.fields();
            for input in inputs {
                assert_eq!(
                    again.get(input.name),
                    fields.get(input.name),
                    "{format} {id}"
                );
            }
            if again.iter().all(|f| fields.get(f.name) == Some(f)) {
                assert_eq!(made, id, "{format}");
            } else {
                assert_eq!(format, Format::TypeId, "{id}: only a TypeID holds any UUID");
            }
        }
        for (i, input) in inputs.iter().enumerate() {
            let id = sample(format)[0];
            let fields = id.fields();
            let with = |value: FieldValue<'static>| {
                AnyId::from_fields(format, |other| {
                    Ok::<_, ()>(if other.name == input.name {
                        value
                    } else {
                        fields.get(other.name).unwrap().value
                    })
                })
                .unwrap()
            };
            match input.kind {
                sno_core::FieldKind::Uint { bits } => {
                    let wrong = with(FieldValue::Bool(true));
                    assert!(
                        matches!(wrong, Err(Error::InvalidArgument { name, .. }) if name == input.name),
                        "{format}.{}: {wrong:?}",
                        input.name
                    );
                    if bits < 128 {
                        let above = with(FieldValue::Uint(1 << bits));
                        assert!(above.is_err(), "{format}.{}: {above:?}", input.name);
                    }
                }
                _ => {
                    let wrong = with(FieldValue::Uint(1));
                    assert!(
                        matches!(wrong, Err(Error::InvalidArgument { name, .. }) if name == input.name),
                        "{format}.{}: {wrong:?}",
                        input.name
                    );
                }
            }
            let stopped = AnyId::from_fields(format, |other| {
                if other.name == input.name {
                    Err(i)
                } else {
                    Ok(fields.get(other.name).unwrap().value)
                }
            });
            assert_eq!(stopped, Err(i), "{format}");
        }
    }
}

/// The value each format's own typed constructor (`<Type>::from_fields`, with the argument
/// conversions a caller writes: a number beyond the parameter's type is `ValueOverflow`) makes
/// of `args`: what the table-driven `AnyId::from_inputs` must agree with, error for error.
fn typed(format: Format, args: &[FieldValue<'_>]) -> Result<AnyId, Error> {
    use sno_core::{ksuid::Ksuid, nanoflake::Nanoflake, scru128::Scru128Id, scru160::Scru160Id};
    use sno_core::{typeid::TypeId, ulid::Ulid, ulidflake::UlidFlake, uuid7::Uuid7};
    fn n<T: TryFrom<u128>>(args: &[FieldValue<'_>], i: usize) -> Result<T, Error> {
        match args[i] {
            FieldValue::Uint(v) => T::try_from(v).map_err(|_| Error::ValueOverflow),
            _ => unreachable!("the cases give numbers"),
        }
    }
    let a = args;
    Ok(match format {
        Format::Sno => {
            let FieldValue::Bool(tick_tock) = a[1] else {
                unreachable!()
            };
            sno_core::Id::from_fields(n(a, 0)?, tick_tock, n(a, 2)?, n(a, 3)?, n(a, 4)?)?.into()
        }
        Format::Ulid => Ulid::from_fields(n(a, 0)?, n(a, 1)?)?.into(),
        Format::Uuid7 => Uuid7::from_fields(n(a, 0)?, n(a, 1)?, n(a, 2)?)?.into(),
        Format::Scru128 => Scru128Id::from_fields(n(a, 0)?, n(a, 1)?, n(a, 2)?, n(a, 3)?)?.into(),
        Format::Scru160 => Scru160Id::from_fields(n(a, 0)?, n(a, 1)?, n(a, 2)?, n(a, 3)?)?.into(),
        Format::Nanoflake => Nanoflake::from_fields(n(a, 0)?, n(a, 1)?, n(a, 2)?)?.into(),
        Format::UlidFlake => UlidFlake::from_fields(n(a, 0)?, n(a, 1)?)?.into(),
        Format::TypeId => {
            let uuid = Uuid7::from_fields(n(a, 1)?, n(a, 2)?, n(a, 3)?)?;
            let FieldValue::Text(prefix) = a[0] else {
                unreachable!()
            };
            TypeId::from_uuid7(prefix, uuid)?.into()
        }
        Format::Ksuid => Ksuid::from_fields(n(a, 0)?, n(a, 1)?).into(),
        _ => unreachable!("a format without a case here: add one"),
    })
}

/// The table-driven `from_fields` (every format's inputs written into the bits its fields
/// state) agrees with each format's own typed constructor: for each sample, each number input
/// at its width's maximum, one above, at 2^64 - 1, 2^64 and 2^127, the others the sample's;
/// a prefix the spec refuses; the same value or the same error, time errors included.
#[test]
fn the_table_driven_from_fields_agrees_with_each_typed_constructor() {
    let mut cases = 0;
    for format in Format::ALL {
        for id in sample(format) {
            let fields = id.fields();
            let base: Vec<FieldValue<'_>> = AnyId::inputs(format)
                .iter()
                .map(|input| fields.get(input.name).unwrap().value)
                .collect();
            assert_eq!(
                AnyId::from_inputs(format, &base),
                Ok(typed(format, &base).unwrap())
            );
            for (i, input) in AnyId::inputs(format).iter().enumerate() {
                let mut tries: Vec<FieldValue<'_>> = match input.kind {
                    sno_core::FieldKind::Uint { bits } => {
                        let max = if bits == 128 {
                            u128::MAX
                        } else {
                            (1 << bits) - 1
                        };
                        [
                            max,
                            max.saturating_add(1),
                            u64::MAX.into(),
                            1 << 64,
                            1 << 127,
                        ]
                        .map(FieldValue::Uint)
                        .to_vec()
                    }
                    sno_core::FieldKind::Text => ["", "user", "User", "a_", "_a"]
                        .map(FieldValue::Text)
                        .to_vec(),
                    _ => vec![FieldValue::Bool(true), FieldValue::Bool(false)],
                };
                for value in tries.drain(..) {
                    let mut args = base.clone();
                    args[i] = value;
                    assert_eq!(
                        AnyId::from_inputs(format, &args),
                        typed(format, &args),
                        "{format}.{} = {value:?}",
                        input.name
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 100, "{cases} cases");
}

/// `AnyGenerator`: made for exactly the formats the table marks (`generator: true`), from the
/// settings the table lists; each required setting left out is named in the error; the values
/// increase, through `AnyId` and through text alike.
#[test]
#[cfg(feature = "std")]
fn any_generator_follows_the_table() {
    use sno_core::{AnyGenerator, GeneratorSettings, Setting};
    use std::time::Duration;
    let given = |format: Format, leave_out: Option<Setting>| {
        let mut settings = GeneratorSettings::new();
        for &setting in format.required_settings() {
            if Some(setting) != leave_out {
                settings.set(
                    setting,
                    if setting == Setting::EpochMs {
                        1_600_000_000_000
                    } else {
                        3
                    },
                );
            }
        }
        settings
    };
    for format in Format::ALL {
        let made = AnyGenerator::new(format, &given(format, None));
        assert_eq!(made.is_ok(), format.has_generator(), "{format}");
        let Ok(g) = made else {
            assert!(matches!(
                made,
                Err(Error::InvalidArgument { name: "format", .. })
            ));
            continue;
        };
        assert_eq!(g.format(), format);
        let mut last = g.try_next().unwrap();
        let mut buf = [0u8; sno_core::model::MAX_TEXT_LEN];
        for _ in 0..1000 {
            let len = g.next_text(Duration::from_secs(1), &mut buf).unwrap();
            let id = AnyId::parse_as(format, &buf[..len]).unwrap();
            assert!(id.as_slice() > last.as_slice(), "{format}");
            let next = g.next(Duration::from_secs(1)).unwrap();
            assert!(next.as_slice() > id.as_slice(), "{format}");
            last = next;
        }
        for &setting in format.required_settings() {
            let err = AnyGenerator::new(format, &given(format, Some(setting))).unwrap_err();
            assert_eq!(
                err,
                Error::InvalidArgument {
                    name: setting.name(),
                    reason: "is required"
                },
                "{format}"
            );
        }
        for &setting in format.settings() {
            let mut settings = given(format, None);
            settings.set(setting, -1);
            let err = AnyGenerator::new(format, &settings).unwrap_err();
            assert!(
                matches!(err, Error::InvalidArgument { name, .. } if name == setting.name()),
                "{format} {setting:?}: {err}"
            );
            assert_eq!(err.code(), "invalid_argument");
        }
    }
}

/// The names renamed to the one vocabulary (`unix_ns`, docs/layout.md) stay as deprecated
/// aliases that give the same answers.
#[test]
#[cfg(feature = "std")]
#[allow(deprecated)]
fn deprecated_nanosecond_names_answer_as_the_new_ones() {
    use sno_core::time::{
        units_to_unix_nanos, units_to_unix_ns, unix_nanos_to_units, unix_ns_to_units,
    };
    let id = sno_core::Id::from_fields(5, true, 1, 2, 3).unwrap();
    assert_eq!(id.unix_nanos(), id.unix_ns());
    let any = AnyId::from(id);
    assert_eq!(any.unix_nanos(), any.unix_ns());
    assert_eq!(IdFormat::unix_nanos(&id), IdFormat::unix_ns(&id));
    let e = Error::SequenceExhausted { retry_at: 9 };
    assert_eq!(e.retry_at_unix_nanos(), e.retry_at_unix_ns());
    assert_eq!(units_to_unix_nanos(9), units_to_unix_ns(9));
    assert_eq!(
        unix_nanos_to_units(units_to_unix_ns(9)),
        unix_ns_to_units(units_to_unix_ns(9))
    );
    let clock = sno_core::SystemClock::default();
    assert!(clock.now_unix_nanos() <= sno_core::SystemClock::precise_unix_nanos());
    let g = sno_core::Generator::new().unwrap();
    assert_eq!(
        g.new_with_unix_nanos(0, id.unix_ns())
            .map(|i| i.timestamp()),
        g.new_with_unix_ns(0, id.unix_ns()).map(|i| i.timestamp())
    );
}

/// Each format's statement of itself (`IdFormat::FIELDS`, `ABOUT`, `EXTRAS`) is consistent:
/// the fields tile the binary form (the derived ones read bits of others, or are computed),
/// every text form has its length, a format with a param has a text field of that name, the
/// formats of the same bits are 16-byte ones, every format is documented, and conversions and
/// params round-trip.
#[test]
fn every_format_states_itself_consistently() {
    use sno_core::FieldKind;
    for format in Format::ALL {
        let about = format.about();
        assert!(
            !about.summary.is_empty() && !about.text.is_empty() && !about.decode.is_empty(),
            "{format}"
        );
        let generates = format.has_generator() || format.has_process_generator();
        assert_eq!(
            !about.generation.is_empty(),
            generates || format == Format::Sno,
            "{format}"
        );
        // The fields tile the binary form (the 64-bit formats' sign bit aside); a derived field
        // out of that order reads again bits of fields before it.
        let mut next = u32::from(format.column_type() == sno_core::ColumnType::BigInt);
        for f in format.fields() {
            let (at, end) = (u32::from(f.at), u32::from(f.at) + u32::from(f.bits()));
            match f.kind {
                FieldKind::Text => {
                    assert_eq!(format.param().map(|s| s.name()), Some(f.name), "{format}")
                }
                _ if at == next => next = end,
                _ => assert!(!f.input && end <= next, "{format}.{}: out of place", f.name),
            }
        }
        assert_eq!(
            next,
            8 * format.binary_len() as u32,
            "{format}: the fields end at {next}"
        );
        for other in Format::ALL {
            if format.same_bits(other) {
                assert!(
                    other.same_bits(format) && format.binary_len() == 16,
                    "{format} {other}"
                );
            }
        }
        for id in sample(format).into_iter().take(50) {
            let mut buf = [0u8; sno_core::model::MAX_TEXT_LEN];
            for (name, len, _) in format.text_forms() {
                assert_eq!(
                    id.write_text_form(name, &mut buf),
                    Some(len),
                    "{format}.{name}"
                );
            }
            for other in Format::ALL.into_iter().filter(|o| format.same_bits(*o)) {
                if let Some(Ok(converted)) = id.convert(other, None) {
                    let back = converted.convert(format, None).unwrap().unwrap();
                    assert_eq!(back.as_slice(), id.as_slice(), "{format} -> {other}");
                }
            }
            if format.param().is_some() {
                let again = AnyId::with_param(format, id.param(), id.as_slice()).unwrap();
                assert_eq!(again, Ok(id), "{format}");
            }
            assert_eq!(
                id.unix_ms_at(0).is_some(),
                format.epoch().takes_application_epoch()
            );
        }
    }
}
