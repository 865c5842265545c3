//! Every row of `testdata/bad_input.tsv` against `Id::decode` (the Rust layer).

#[path = "common/bad_input.rs"]
mod bad_input;

use serde_json::Value;
use sno_core::{Error, GeneratorBuilder, Id, ManualClock};

fn answer(r: Result<Id, Error>) -> String {
    match r {
        Ok(_) => "ok".into(),
        Err(Error::InvalidLength { actual, .. }) => format!("InvalidLength@{actual}"),
        Err(Error::InvalidByte { position, .. }) => format!("InvalidByte@{position}"),
        Err(e) => format!("{e:?}"),
    }
}

/// The Rust answer to a `call:*` row.
fn call(op: &str, input: &Value) -> String {
    let result = match op {
        "new_many:sno" | "new_many:ulid" | "new_many:uuid7" | "new_many:scru128"
        | "new_many:scru160" | "new_many:nanoflake" | "new_many:ulidflake" => {
            let n = input
                .as_i64()
                .map_or_else(|| i128::from(input.as_u64().unwrap()), i128::from);
            sno_core::batch_len(n).map(drop)
        }
        "restore_snapshot" => {
            let now = bad_input::now_units();
            GeneratorBuilder::new(ManualClock::new(now))
                .snapshot(bad_input::snapshot(input, now))
                .build()
                .map(drop)
        }
        other => panic!("unknown call {other}"),
    };
    match result {
        Ok(()) => "ok".into(),
        Err(e) => format!("{e:?}")
            .split([' ', '{'])
            .next()
            .unwrap()
            .to_owned(),
    }
}

#[test]
fn every_call_row() {
    let mut checked = 0;
    for case in bad_input::cases("rust") {
        if let Some(op) = case.expand.strip_prefix("call:") {
            assert_eq!(call(op, &case.input), case.expected, "{}", case.name);
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} call rows");
}

#[test]
fn every_row() {
    let mut checked = 0;
    for case in bad_input::cases("rust").iter() {
        if case.expand.starts_with("call:") {
            continue;
        }
        let inputs = bad_input::byte_inputs(case).expect("a byte case");
        assert!(!inputs.is_empty(), "{}", case.name);
        for input in inputs {
            assert_eq!(
                answer(Id::decode(&input)),
                case.expected,
                "{}: {input:?}",
                case.name
            );
            // `FromStr` agrees whenever the bytes are a str.
            if let Ok(s) = std::str::from_utf8(&input) {
                assert_eq!(
                    answer(s.parse()),
                    case.expected,
                    "{} via FromStr",
                    case.name
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked} inputs");
}
