//! Every kind of the core's error table maps in every layer (issue #45): the table names each
//! kind's C status, Python exception class, JavaScript class and code, and PostgreSQL SQLSTATE,
//! and no layer has a fallback of its own. Here: each status is a `sno_status` of the generated C
//! header under its variant's name, each Python class is a class of `sno/_errors.py`, each SQLSTATE is five characters of
//! PostgreSQL's alphabet (sno-postgres's own test maps each to a code PostgreSQL knows), each
//! JavaScript code is `ERR_SNO_` and the upper-case code.

use std::path::Path;

use sno_core::{ErrorKind, JsClass};

fn repo(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// cbindgen's spelling of an enum variant: `NotVersion7` is `NOT_VERSION7`.
fn screaming(variant: &str) -> String {
    let mut out = String::new();
    for (i, c) in variant.chars().enumerate() {
        if i > 0 && c.is_ascii_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

#[test]
fn every_kind_maps_in_every_layer() {
    let header = repo("include/sno.h");
    let python = repo("bindings/python/python/sno/_errors.py");
    for &kind in ErrorKind::ALL {
        let status = format!(
            "SNO_STATUS_{} = {},",
            screaming(&format!("{kind:?}")),
            kind.status()
        );
        assert!(
            header.contains(&status),
            "{kind:?}: no `{status}` in include/sno.h"
        );
        let class = format!("\nclass {}(", kind.python_class());
        assert!(
            python.contains(&class),
            "{kind:?}: no class {} in sno/_errors.py",
            kind.python_class()
        );
        assert_eq!(
            kind.js_code(),
            format!("ERR_SNO_{}", kind.code().to_uppercase())
        );
        let state = kind.sqlstate();
        assert!(
            state.len() == 5
                && state
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()),
            "{kind:?}: SQLSTATE {state:?}"
        );
    }
}

/// The categories agree across layers where they mean the same: a text that does not decode is
/// Python's `DecodeError` and PostgreSQL's invalid_text_representation, a time out of range
/// `TimeRangeError` and datetime_field_overflow, a generator that cannot mint now
/// object_not_in_prerequisite_state.
#[test]
fn categories_agree() {
    for &kind in ErrorKind::ALL {
        match kind.python_class() {
            "DecodeError" => assert_eq!(kind.sqlstate(), "22P02", "{kind:?}"),
            "TimeRangeError" => assert_eq!(kind.sqlstate(), "22008", "{kind:?}"),
            "SequenceExhaustedError"
            | "ClockRegressionError"
            | "RandomnessExhaustedError"
            | "LeaseExpiredError"
            | "LeasePendingError"
            | "ForkedGeneratorError" => {
                assert_eq!(kind.sqlstate(), "55000", "{kind:?}")
            }
            _ => {}
        }
        if kind.js_class() == JsClass::RangeError {
            assert!(
                matches!(
                    kind.python_class(),
                    "ConfigError" | "LeaseConfigError" | "TimeRangeError"
                ),
                "{kind:?}: a RangeError in JavaScript is a setting or a range in Python"
            );
        }
        if kind.js_class() == JsClass::TypeError {
            assert_eq!(
                kind.python_class(),
                "ConfigError",
                "{kind:?}: a call the object does not take is a ConfigError in Python"
            );
        }
    }
}
