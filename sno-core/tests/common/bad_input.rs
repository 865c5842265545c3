//! `testdata/bad_input.tsv`, shared by the Rust (sno-core) and C ABI (sno-ffi) tests.

use std::path::PathBuf;

/// One row for one layer: the case name, its expansion into inputs, and the expected answer.
pub struct Case {
    pub name: String,
    /// A JSON string for text cases; the JSON argument of the operation for `call:*` rows.
    pub input: serde_json::Value,
    pub expand: String,
    pub expected: String,
}

/// The rows that exist in `layer` (the column name: `rust` or `c`), text and call rows alike.
pub fn cases(layer: &str) -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/bad_input.tsv");
    let text = std::fs::read_to_string(&path).expect("testdata/bad_input.tsv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header = lines.next().expect("header");
    assert_eq!(header, "case\tinput\texpand\trust\tc\tpython\tnode");
    let column = header
        .split('\t')
        .position(|h| h == layer)
        .expect("a layer");
    lines
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 7, "{line}");
            Case {
                name: f[0].into(),
                input: serde_json::from_str(f[1]).expect("a JSON value"),
                expand: f[2].into(),
                expected: f[column].into(),
            }
        })
        .filter(|c| c.expected != "-")
        .collect()
}

/// The text of a text case (its JSON string input).
pub fn text(case: &Case) -> &str {
    case.input
        .as_str()
        .expect("a text case's input is a JSON string")
}

/// The byte inputs of a case whose expansion works on bytes (`-`, `repeat:N`, `ascii@P`,
/// `high@P`); `None` for the layer-specific ones (`c:*`, `type:*`) and the `call:*` rows.
pub fn byte_inputs(case: &Case) -> Option<Vec<Vec<u8>>> {
    if case.expand.starts_with("call:") {
        return None;
    }
    let base = text(case).as_bytes().to_vec();
    let at = |range: std::ops::Range<u16>, p: &str| {
        let p: usize = p.parse().expect("a position");
        range
            .map(|b| b as u8)
            .filter(|&b| sno_core::alphabet::SNO.value(b).is_none())
            .map(|b| {
                let mut v = base.clone();
                v[p] = b;
                v
            })
            .collect()
    };
    Some(match case.expand.split_once([':', '@']) {
        None if case.expand == "-" => vec![base],
        Some(("repeat", n)) => vec![base.repeat(n.parse().expect("a count"))],
        Some(("ascii", p)) => at(0..0x80, p),
        Some(("high", p)) => at(0x80..0x100, p),
        _ => return None,
    })
}

/// The current system time in 4 ms units since 2010 (what `now+N` in a snapshot row adds to).
pub fn now_units() -> i64 {
    let since_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    (since_unix.as_millis() as i64 - sno_core::time::EPOCH_UNIX_SECS * 1000) / 4
}

/// A snapshot field of a `call:restore_snapshot` row: a number, or `"now+N"` units.
fn snapshot_field(snapshot: &serde_json::Value, key: &str, now: i64) -> i64 {
    match &snapshot[key] {
        serde_json::Value::String(s) => {
            now + s.strip_prefix("now+").unwrap().parse::<i64>().unwrap()
        }
        v => v.as_i64().unwrap_or_else(|| panic!("{key}: {v}")),
    }
}

/// The snapshot of a `call:restore_snapshot` row (Go/serde field names), `now` being the clock's
/// current unit.
pub fn snapshot(input: &serde_json::Value, now: i64) -> sno_core::Snapshot {
    let field = |k| snapshot_field(input, k, now);
    sno_core::Snapshot {
        partition: field("partition") as u16,
        sequence_min: field("sequenceMin") as u16,
        sequence_max: field("sequenceMax") as u16,
        sequence: field("sequence") as u32,
        now: field("now"),
        wall_hi: field("wallHi"),
        wall_safe: field("wallSafe"),
        drifts: field("drifts") as u32,
    }
}
