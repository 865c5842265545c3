//! Every row of sno_json.tsv and sno_json_unmarshal.tsv against our serde support.
//!
//! Our choices (documented in docs/sno-format.md and `sno_core`'s serde module): the zero ID is
//! `"2222222222222222"` rather than `null`; only a JSON string holding a canonical ID
//! deserialises (no `null`, upper case, unquoted or numeric input).

mod common;

use std::collections::BTreeMap;

use common::{ALPHABET, go_unquote, hex, rows, to_hex};
use serde::{Deserialize, Serialize};
use sno_core::Id;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Wrapper {
    id: Id,
}

#[test]
fn marshal_rows() {
    let rows = rows("sno_json.tsv");
    assert_eq!(rows.len(), 12);
    for r in &rows {
        let label = &r["label"];
        let id = Id::from_bytes(hex(&r["hex"]).try_into().unwrap());
        assert_eq!(id.to_string(), r["String"], "{label}");
        assert_eq!(id.to_string(), r["MarshalText"], "{label}");
        assert_eq!(to_hex(id.as_bytes()), r["MarshalBinary_hex"], "{label}");
        assert_eq!(to_hex(id.as_bytes()), r["Value_hex"], "{label}");
        assert_eq!(id.is_zero().to_string(), r["IsZero"], "{label}");
        let json = serde_json::to_string(&id).unwrap();
        let wrapped = serde_json::to_string(&Wrapper { id }).unwrap();
        if id.is_zero() {
            // Divergence: Go writes null for the zero ID.
            assert_eq!(r["MarshalJSON"], "null");
            assert_eq!(json, "\"2222222222222222\"");
            assert_eq!(wrapped, r#"{"id":"2222222222222222"}"#);
        } else {
            assert_eq!(json, r["MarshalJSON"], "{label}");
            assert_eq!(wrapped, r["json_Marshal_struct"], "{label}");
            assert_eq!(wrapped, r["json_Marshal_struct_omitempty"], "{label}");
        }
        let map: BTreeMap<Id, i32> = [(id, 1)].into();
        assert_eq!(
            serde_json::to_string(&map).unwrap(),
            r["json_Marshal_map_key"],
            "{label}"
        );
        // Round trips, human-readable and binary.
        assert_eq!(serde_json::from_str::<Id>(&json).unwrap(), id, "{label}");
        let bin = postcard::to_allocvec(&id).unwrap();
        assert_eq!(
            &bin[1..],
            id.as_bytes(),
            "{label}: binary formats carry the raw bytes"
        );
        assert_eq!(postcard::from_bytes::<Id>(&bin).unwrap(), id, "{label}");
    }
}

/// The string our strict deserialiser accepts in this JSON value, if any.
fn canonical(value: &serde_json::Value) -> Option<&str> {
    let s = value.as_str()?;
    (s.len() == 16 && s.bytes().all(|c| ALPHABET.contains(&c))).then_some(s)
}

#[test]
fn unmarshal_rows() {
    let rows = rows("sno_json_unmarshal.tsv");
    assert_eq!(rows.len(), 64);
    let mut diverged = 0;
    for r in &rows {
        let api = r["api"].as_str();
        let input = String::from_utf8(go_unquote(&r["input_go_quoted"])).unwrap();
        let label = format!("{api} {input}");
        assert_eq!(input.len().to_string(), r["input_len"], "{label}");
        let go_ok = r["error"] == "-";
        let parsed: Option<serde_json::Value> = serde_json::from_str(&input).ok();
        match api {
            "ID.UnmarshalJSON" | "json.Unmarshal(&id)" | "json.Unmarshal(struct)" => {
                let value = parsed.as_ref().map(|v| {
                    if api.ends_with("(struct)") {
                        &v["id"]
                    } else {
                        v
                    }
                });
                let want = value.and_then(canonical);
                let ours = if api.ends_with("(struct)") {
                    serde_json::from_str::<Wrapper>(&input).map(|w| w.id)
                } else {
                    serde_json::from_str::<Id>(&input)
                };
                match want {
                    Some(text) => {
                        let id = ours.unwrap_or_else(|e| panic!("{label}: {e}"));
                        assert_eq!(id.to_string(), text, "{label}");
                        if go_ok {
                            assert_eq!(to_hex(id.as_bytes()), r["result_hex"], "{label}");
                        } else {
                            // Go's UnmarshalJSON neither skips JSON whitespace nor resolves
                            // escapes such as \u0062; a JSON parser does both.
                            assert!(input.trim() != input || input.contains("\\u"), "{label}");
                            diverged += 1;
                        }
                    }
                    None => {
                        assert!(ours.is_err(), "{label}: accepted");
                        diverged += usize::from(go_ok);
                    }
                }
            }
            "json.Unmarshal(map[ID]int)" => {
                let key = parsed
                    .as_ref()
                    .and_then(|v| v.as_object())
                    .and_then(|o| o.keys().next().cloned())
                    .unwrap();
                let ours = serde_json::from_str::<BTreeMap<Id, i32>>(&input);
                if canonical(&serde_json::Value::String(key.clone())).is_some() {
                    let map = ours.unwrap_or_else(|e| panic!("{label}: {e}"));
                    let id = map.keys().next().unwrap();
                    assert!(go_ok, "{label}");
                    assert_eq!(to_hex(id.as_bytes()), r["result_hex"], "{label}");
                } else {
                    assert!(ours.is_err(), "{label}: accepted");
                    diverged += usize::from(go_ok);
                }
            }
            other => panic!("unknown api {other}"),
        }
    }
    // null (3 rows), upper case (4), unquoted 'x…x' / '…' (1 each), the 18-digit number (3),
    // whitespace around the raw call (2), \u escapes (3).
    assert_eq!(diverged, 17);
}

#[test]
fn snapshot_serialises_with_go_field_names() {
    let s = sno_core::Snapshot {
        partition: 258,
        sequence_min: 1,
        sequence_max: 9,
        sequence: 3,
        now: 5,
        wall_hi: 4,
        wall_safe: 2,
        drifts: 1,
    };
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(
        json,
        r#"{"partition":258,"sequenceMin":1,"sequenceMax":9,"sequence":3,"now":5,"wallHi":4,"wallSafe":2,"drifts":1}"#
    );
    assert_eq!(
        serde_json::from_str::<sno_core::Snapshot>(&json).unwrap(),
        s
    );
    // The bindings' field list is the serde form's, in its order, with its values.
    let listed: Vec<String> = sno_core::Snapshot::FIELDS
        .iter()
        .zip(s.to_values())
        .map(|(f, v)| format!("\"{}\":{v}", f.js_name))
        .collect();
    assert_eq!(json, format!("{{{}}}", listed.join(",")));
}
