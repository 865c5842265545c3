//! Every row of `testdata/bad_input.tsv` against `Id::decode` (the Rust layer).

#[path = "common/bad_input.rs"]
mod bad_input;

use sno_core::{Error, Id};

fn answer(r: Result<Id, Error>) -> String {
    match r {
        Ok(_) => "ok".into(),
        Err(Error::InvalidLength { actual, .. }) => format!("InvalidLength@{actual}"),
        Err(Error::InvalidByte { position, .. }) => format!("InvalidByte@{position}"),
        Err(e) => format!("{e:?}"),
    }
}

#[test]
fn every_row() {
    let mut checked = 0;
    for case in bad_input::cases("rust").iter() {
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
