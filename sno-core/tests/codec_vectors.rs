//! Every row of sno_codec.tsv, sno_decode_invalid.tsv and sno_decode_api.tsv.

mod common;

use common::{each, expected_text_error, go_unquote, hex, rows, to_hex};
use sno_core::{Error, Id};

#[test]
fn codec_rows_match_the_reference() {
    let rows = rows("sno_codec.tsv");
    common::assert_row_count(&rows, 5974);
    let mut buf = [0u8; 16];
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    for r in each(&rows) {
        let label = &r["label"];
        let bytes: [u8; 10] = hex(&r["hex"]).try_into().unwrap();
        let id = Id::from_bytes(bytes);
        assert_eq!(id.encode(&mut buf), r["encoded"], "{label}");
        assert_eq!(id.to_string(), r["encoded"], "{label}");
        assert_eq!(Id::decode(r["encoded"].as_bytes()), Ok(id), "{label}");
        assert_eq!(r["encoded"].parse::<Id>(), Ok(id), "{label}");
        assert_eq!(Id::try_from(&bytes[..]), Ok(id), "{label}");
        assert_eq!(id.timestamp().to_string(), r["ts_units"], "{label}");
        assert_eq!(u8::from(id.tick_tock()).to_string(), r["tick"], "{label}");
        assert_eq!(id.unix_ns().to_string(), r["unix_ns"], "{label}");
        assert_eq!(id.unix_ms(), id.unix_ns() / 1_000_000, "{label}");
        assert_eq!(
            sno_core::time::format_utc(id.unix_ns(), &mut utc),
            r["time_utc"],
            "{label}"
        );
        assert_eq!(id.meta().to_string(), r["meta"], "{label}");
        assert_eq!(id.partition().to_string(), r["partition"], "{label}");
        assert_eq!(
            u16::from_be_bytes(id.partition_bytes()),
            id.partition(),
            "{label}"
        );
        assert_eq!(id.sequence().to_string(), r["sequence"], "{label}");
        assert_eq!(id.is_zero(), bytes == [0; 10], "{label}");
        let rebuilt = Id::from_fields(
            id.timestamp(),
            id.tick_tock(),
            id.meta(),
            id.partition(),
            id.sequence(),
        );
        assert_eq!(rebuilt, Ok(id), "{label}");
    }
}

/// The reference decodes every 16-byte input into something; we reject every byte outside the
/// alphabet at its position (the documented divergence) and agree on every valid input.
#[test]
fn invalid_decode_rows_are_rejected_with_position() {
    let rows = rows("sno_decode_invalid.tsv");
    common::assert_row_count(&rows, 625);
    let (mut agreed, mut diverged) = (0, 0);
    for r in each(&rows) {
        let label = &r["label"];
        let input = hex(&r["input_hex"]);
        assert_eq!(
            input,
            go_unquote(&r["input_go_quoted"]),
            "{label}: hex and quoted forms differ"
        );
        assert_eq!(input.len().to_string(), r["len_bytes"], "{label}");
        let ours = Id::decode(&input);
        match expected_text_error(&input) {
            Some(err) => {
                assert_eq!(ours, Err(err), "{label}");
                if let Error::InvalidLength { actual, .. } = err {
                    // The reference rejects exactly these too.
                    assert!(
                        r["error"].starts_with(&format!("InvalidDataSizeError{{Size:{actual}}}")),
                        "{label}"
                    );
                    agreed += 1;
                } else {
                    assert_eq!(r["error"], "-", "{label}: reference accepted it");
                    diverged += 1;
                }
            }
            None => {
                let id = ours.unwrap_or_else(|e| panic!("{label}: {e}"));
                assert_eq!(to_hex(id.as_bytes()), r["result_amd64_simd"], "{label}");
                assert_eq!(r["paths_agree"], "yes", "{label}");
                assert_eq!(r["simd_roundtrips"], "yes", "{label}");
                agreed += 1;
            }
        }
    }
    assert_eq!(agreed + diverged, rows.len());
    assert!(
        diverged > common::scaled(500, 0),
        "the reference accepts most of these rows; we reject them"
    );
}

/// Length and type handling per API of the reference, mapped onto ours: the text decoder for
/// string APIs, the 10-byte binary decoder for binary ones, serde for Scan's foreign types.
#[test]
fn decode_api_rows() {
    let rows = rows("sno_decode_api.tsv");
    assert_eq!(rows.len(), 69);
    for r in each(&rows) {
        let (api, kind) = (r["api"].as_str(), r["input_kind"].as_str());
        let label = format!("{api}({kind}) {}", r["input_go_quoted"]);
        let input = hex(r["input_hex"].trim_start_matches('-'));
        let go_ok = r["error"] == "-";
        let binary_api = matches!(api, "FromBinaryBytes" | "ID.UnmarshalBinary")
            || (api == "ID.Scan" && kind.starts_with("[]byte"));
        let text_api = matches!(
            api,
            "FromEncodedString" | "FromEncodedBytes" | "ID.UnmarshalText"
        ) || (api == "ID.Scan" && kind == "string");
        if binary_api {
            let ours = Id::try_from(&input[..]);
            if input.len() == 10 {
                assert!(go_ok, "{label}");
                assert_eq!(to_hex(ours.unwrap().as_bytes()), r["result"], "{label}");
            } else {
                // Go's Scan turns an empty []byte into the zero ID; we call it what it is.
                assert_eq!(
                    ours,
                    Err(Error::InvalidLength {
                        expected: 10,
                        actual: input.len()
                    }),
                    "{label}"
                );
                assert!(!go_ok || input.is_empty(), "{label}");
            }
        } else if text_api {
            let ours = Id::decode(&input);
            match expected_text_error(&input) {
                None => {
                    assert!(go_ok, "{label}");
                    assert_eq!(to_hex(ours.unwrap().as_bytes()), r["result"], "{label}");
                }
                Some(err) => {
                    assert_eq!(ours, Err(err), "{label}");
                    // Divergences: upper case (Go's SIMD path accepts it) and Scan("") (Go: zero ID).
                    let upper = input.iter().any(u8::is_ascii_uppercase);
                    assert!(!go_ok || upper || input.is_empty(), "{label}");
                }
            }
        } else {
            assert_eq!(api, "ID.Scan", "{label}");
            check_foreign_type(kind, &r["input_go_quoted"], &r["error"], &label);
        }
    }
}

/// Scan of a non-string, non-bytes value: the Rust type system rules most of these out; where a
/// value can arrive dynamically (serde), it must be refused unless it is a valid ID string.
#[cfg(feature = "serde")]
fn check_foreign_type(kind: &str, shown: &str, go_error: &str, label: &str) {
    let json = match kind {
        "<nil>" => "null".to_string(),
        "int64" | "float64" | "bool" => go_unquote(shown).into_iter().map(char::from).collect(),
        "time.Time" | "sno.ID" => format!("\"{}\"", String::from_utf8(go_unquote(shown)).unwrap()),
        other => panic!("{label}: unknown kind {other}"),
    };
    let ours = serde_json::from_str::<Id>(&json);
    if kind == "sno.ID" {
        // An ID is already an ID: no type error exists to mirror.
        assert!(ours.is_ok(), "{label}");
    } else {
        // Go zeroes on nil and refuses the rest; we refuse all of them.
        assert!(ours.is_err(), "{label}: {json} accepted");
        assert!(
            kind == "<nil>" || go_error.starts_with("InvalidTypeError"),
            "{label}"
        );
    }
}

#[cfg(not(feature = "serde"))]
fn check_foreign_type(kind: &str, _shown: &str, go_error: &str, label: &str) {
    assert!(
        kind == "<nil>" || go_error.starts_with("InvalidTypeError"),
        "{label}"
    );
}

#[test]
fn error_messages_name_position_and_byte() {
    let e = Id::decode(b"brpk4q72xwf2m63L").unwrap_err();
    assert_eq!(
        e,
        Error::InvalidByte {
            position: 15,
            byte: b'L'
        }
    );
    assert_eq!(
        e.to_string(),
        "sno: invalid byte 'L' at position 15: not in the alphabet"
    );
    assert_eq!(e.code(), "invalid_byte");
    let e = Id::decode(b"brpk4q72\0wf2m63l").unwrap_err();
    assert_eq!(
        e.to_string(),
        "sno: invalid byte 0x00 at position 8: not in the alphabet"
    );
    let e = Id::decode("ééééééééé".as_bytes()).unwrap_err();
    assert_eq!(
        e,
        Error::InvalidLength {
            expected: 16,
            actual: 18
        }
    );
    let e = Id::decode("éééééééé".as_bytes()).unwrap_err();
    assert_eq!(
        e,
        Error::InvalidByte {
            position: 0,
            byte: 0xc3
        }
    );
}
