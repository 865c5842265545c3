//! The `sno` binary on the shared vectors of every format: `inspect` prints the vectors'
//! columns (as text and as JSON), `convert` maps ULID <-> UUIDv7 as the vectors do, `new`
//! makes IDs that read back; ambiguous and unreadable text exit 1 and say why, usage errors
//! exit 2 on one line.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn sno<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_sno"))
        .args(args)
        .env_remove("SNO_PARTITION")
        .env_remove("SNO_LEASE_URL")
        .output()
        .expect("the sno binary runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    Out {
        code: out.status.code().expect("an exit status"),
        stdout: text(out.stdout),
        stderr: text(out.stderr),
    }
}

/// Every row of a vector file, by column name.
fn rows(name: &str) -> Vec<BTreeMap<String, String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/vectors")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the vector file");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), header.len(), "{line}");
            header
                .iter()
                .zip(cells)
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect()
        })
        .collect()
}

/// `INPUT name=value ...` as (input, values).
fn parse_line(line: &str) -> (String, BTreeMap<String, String>) {
    let mut words = line.split(' ');
    let input = words.next().expect("the input").to_owned();
    let values = words
        .map(|w| {
            let (name, value) = w.split_once('=').expect("name=value");
            (name.to_owned(), value.to_owned())
        })
        .collect();
    (input, values)
}

fn hex_to_decimal(hex: &str) -> String {
    u128::from_str_radix(hex, 16).expect("hex").to_string()
}

/// What one vector column must read as: the output name and the expected text.
type Expect = fn(&BTreeMap<String, String>) -> Vec<(&'static str, String)>;

/// Inspects the `text_column` of every row (with `extra` arguments), as text and as
/// JSON, and checks each reading against `expect`.
/// `wide` names the fields of more than 53 bits, which JSON gives as strings.
fn check_vectors(
    rows: &[BTreeMap<String, String>],
    text_column: &str,
    (format, wide): (&str, &[&str]),
    extra: &[&str],
    expect: Expect,
) {
    assert!(!rows.is_empty());
    let inputs: Vec<&str> = rows.iter().map(|r| r[text_column].as_str()).collect();
    let mut args = vec!["inspect"];
    args.extend(extra);
    args.extend(&inputs);
    let plain = sno(&args);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(plain.stderr, "");
    args.insert(1, "--json");
    let json = sno(&args);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let lines: Vec<&str> = plain.stdout.lines().collect();
    let objects: Vec<&str> = json.stdout.lines().collect();
    assert_eq!(lines.len(), rows.len());
    assert_eq!(objects.len(), rows.len());
    for ((row, line), object) in rows.iter().zip(lines).zip(objects) {
        let (input, values) = parse_line(line);
        assert_eq!(input, row[text_column]);
        assert_eq!(values["format"], format, "{line}");
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(object).expect("a JSON object");
        assert_eq!(object["input"], input.as_str());
        for (name, want) in expect(row) {
            assert_eq!(values.get(name), Some(&want), "{name} of {line}");
        }
        // The JSON object holds the same values, numbers of more than 53 bits as strings.
        for (name, text) in &values {
            let value = &object[name.as_str()];
            match value {
                serde_json::Value::String(s) => {
                    assert_eq!(s, text, "{name}");
                    let number =
                        !["input", "format", "text", "time", "hex", "prefix"].contains(&&**name);
                    assert_eq!(number, wide.contains(&&**name), "{name} is a string");
                }
                serde_json::Value::Number(n) => {
                    assert_eq!(&n.to_string(), text, "{name}");
                    assert!(!wide.contains(&&**name), "{name} is a number");
                    let exact = n.as_i64().is_some_and(|v| v.unsigned_abs() < 1 << 53);
                    assert!(exact, "{name}: {n}");
                }
                serde_json::Value::Bool(b) => assert_eq!(&b.to_string(), text, "{name}"),
                other => panic!("{name}: {other}"),
            }
        }
        for name in ["format", "text", "hex", "unix_ms", "time"] {
            assert!(object.contains_key(name), "{name} missing in {object:?}");
        }
        if !values.contains_key("time") {
            assert!(object["time"].is_null());
        }
    }
}

#[test]
fn sno_vectors() {
    check_vectors(&rows("sno_codec.tsv"), "encoded", ("sno", &[]), &[], |r| {
        let unix_ns: i64 = r["unix_ns"].parse().expect("unix_ns");
        vec![
            ("text", r["encoded"].clone()),
            ("hex", r["hex"].clone()),
            ("units", r["ts_units"].clone()),
            ("tick_tock", (r["tick"] == "1").to_string()),
            ("meta", r["meta"].clone()),
            ("partition", r["partition"].clone()),
            ("sequence", r["sequence"].clone()),
            ("unix_ms", (unix_ns / 1_000_000).to_string()),
            ("time", r["time_utc"].clone()),
        ]
    });
}

#[test]
fn ulid_vectors() {
    // Named: 26 digits are also a TypeID with no prefix (the ambiguity test covers detection).
    check_vectors(
        &rows("ulid_vectors.tsv"),
        "ulid",
        ("ulid", &["randomness"]),
        &["--format", "ulid"],
        |r| {
            vec![
                ("hex", r["hex"].clone()),
                ("unix_ms", r["timestamp_ms"].clone()),
                ("randomness", hex_to_decimal(&r["randomness_hex"])),
            ]
        },
    );
}

#[test]
fn uuid7_vectors() {
    check_vectors(
        &rows("uuidv7_vectors.tsv"),
        "uuid",
        ("uuid7", &["rand_b"]),
        &[],
        |r| {
            vec![
                ("text", r["uuid"].to_lowercase()),
                ("hex", r["hex"].clone()),
                ("unix_ms", r["unix_ts_ms"].clone()),
                ("version", "7".to_owned()),
                ("variant", "2".to_owned()),
                ("rand_a", hex_to_decimal(&r["rand_a_hex"])),
                ("rand_b", hex_to_decimal(&r["rand_b_hex"])),
            ]
        },
    );
}

#[test]
fn scru128_vectors() {
    check_vectors(
        &rows("scru128_vectors.tsv"),
        "scru128",
        ("scru128", &[]),
        &[],
        |r| {
            vec![
                ("hex", r["hex"].clone()),
                ("unix_ms", r["timestamp_ms"].clone()),
                ("counter_hi", r["counter_hi"].clone()),
                ("counter_lo", r["counter_lo"].clone()),
                ("entropy", r["entropy"].clone()),
            ]
        },
    );
}

#[test]
fn scru160_vectors() {
    check_vectors(
        &rows("scru160_vectors.tsv"),
        "base32hex",
        ("scru160", &["random80"]),
        &[],
        |r| {
            vec![
                ("hex", r["hex"].clone()),
                ("unix_ms", r["timestamp_ms"].clone()),
                ("counter", r["counter"].clone()),
                ("random16", r["random16"].clone()),
                ("random80", hex_to_decimal(&r["random80_hex"])),
            ]
        },
    );
}

#[test]
fn nanoflake_vectors() {
    // Nanoflake text is recognisable only when named; the epoch gives the time.
    let all = rows("nanoflakes_vectors.tsv");
    let mut epochs: Vec<&str> = all.iter().map(|r| r["epoch_ms"].as_str()).collect();
    epochs.sort_unstable();
    epochs.dedup();
    for epoch in epochs {
        let rows: Vec<_> = all
            .iter()
            .filter(|r| r["epoch_ms"] == epoch)
            .cloned()
            .collect();
        let extra = ["--format", "nanoflake", "--nanoflake-epoch", epoch];
        check_vectors(
            &rows,
            "base36",
            ("nanoflake", &[]),
            &extra,
            nanoflake_columns,
        );
    }
}

fn nanoflake_columns(r: &BTreeMap<String, String>) -> Vec<(&'static str, String)> {
    vec![
        ("hex", r["hex"].clone()),
        ("timestamp_ms", r["timestamp_field"].clone()),
        ("generator_id", r["generator_id"].clone()),
        ("sequence", r["sequence"].clone()),
        ("epoch_ms", r["epoch_ms"].clone()),
        ("unix_ms", r["unix_ms"].clone()),
    ]
}

#[test]
fn ulidflake_vectors() {
    let extra = ["--format", "ulidflake"];
    check_vectors(
        &rows("ulidflake_vectors.tsv"),
        "ulidflake",
        ("ulidflake", &[]),
        &extra,
        |r| {
            vec![
                ("text", r["ulidflake"].to_uppercase()),
                ("hex", r["hex"].clone()),
                ("timestamp_ms", r["timestamp_ms"].clone()),
                ("unix_ms", r["unix_ms"].clone()),
                ("epoch_ms", "1704067200000".to_owned()),
                ("randomness", r["randomness20"].clone()),
                ("scalable_randomness", r["scalable_randomness15"].clone()),
                ("sid", r["scalable_sid"].clone()),
            ]
        },
    );
}

#[test]
fn typeid_vectors() {
    let extra = ["--format", "typeid"];
    check_vectors(
        &rows("typeid_valid.tsv"),
        "typeid",
        ("typeid", &["rand_b"]),
        &extra,
        |r| {
            vec![
                ("text", r["typeid"].clone()),
                ("prefix", r["prefix"].clone()),
                ("hex", r["uuid"].replace('-', "")),
            ]
        },
    );
    // A TypeID's time is its UUIDv7's; other UUID versions have none.
    let out = sno(&[
        "inspect",
        "--json",
        "prefix_01h455vb4pex5vsknk084sn02q",
        "prefix_0123456789abcdefghjkmnpqrs",
    ]);
    let objects: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(objects[0]["time"], "2023-06-30T03:34:18.518Z");
    assert_eq!(objects[0]["unix_ms"], 1_688_096_058_518_i64);
    assert!(objects[1]["time"].is_null() && objects[1]["unix_ms"].is_null());
    assert_eq!(objects[1]["version"], 5);
}

#[test]
fn typeid_invalid_vectors_print_the_core_error() {
    for row in rows("typeid_invalid.tsv") {
        let text = &row["typeid"];
        let error = sno_core::typeid::TypeId::decode(text.as_bytes()).expect_err("invalid");
        assert_eq!(error.kind().code(), row["error_code"], "{text:?}");
        let out = sno(&["inspect", "--format", "typeid", "--", text]);
        assert_eq!(out.code, 1, "{text:?}");
        assert_eq!(out.stdout, "");
        assert_eq!(out.stderr, format!("{text}: {error}\n"));
    }
}

#[test]
fn epochs_move_the_time_of_flakes() {
    let out = sno(&[
        "inspect",
        "--format",
        "ulidflake",
        "--ulidflake-epoch",
        "0",
        "00CMXB6TAK4SA",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(" unix_ms=13586766666 epoch_ms=0 "),
        "{}",
        out.stdout
    );
    // A Nanoflake has no time without its epoch: none is printed (null in JSON).
    let out = sno(&["inspect", "--format", "nanoflake", "--json", "jnxxr658jlkw"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let object: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert!(
        object["time"].is_null() && object["unix_ms"].is_null() && object["epoch_ms"].is_null()
    );
    let out = sno(&[
        "inspect",
        "--format",
        "nanoflake",
        "--epoch",
        "1640995200000",
        "jnxxr658jlkw",
    ]);
    assert!(
        out.stdout.contains(" time=2041-07-22T11:41:41.244Z "),
        "{}",
        out.stdout
    );
    // Past year 9999: the number, no ISO time.
    let out = sno(&["inspect", "VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV"]);
    assert_eq!(out.code, 0);
    assert!(!out.stdout.contains("time=") && out.stdout.contains(" unix_ms=281474976710655 "));
}

#[test]
fn ambiguous_text_prints_every_reading_and_exits_1() {
    let out = sno(&["inspect", "00CMXB6TAK4SA", "brpk4q72xwf2m63l"]);
    assert_eq!(out.code, 1);
    let formats: Vec<String> = out
        .stdout
        .lines()
        .map(|l| parse_line(l).1["format"].clone())
        .collect();
    assert_eq!(formats, ["nanoflake", "ulidflake", "sno"]);
    assert_eq!(
        out.stderr,
        "00CMXB6TAK4SA: sno: the text reads as more than one format (Nanoflake, Ulid-Flake): name the format\n"
    );
    let out = sno(&["inspect", "--json", "jnxxr658jlkw"]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout.lines().count(), 1);
    assert!(
        out.stderr
            .starts_with("jnxxr658jlkw: sno: the text reads only as a Nanoflake")
    );
    let named = sno(&["inspect", "--format", "ulid-flake", "00CMXB6TAK4SA"]);
    assert_eq!((named.code, named.stderr.as_str()), (0, ""));
}

#[test]
fn unreadable_text_exits_1_with_the_core_error() {
    let long = "x".repeat(50);
    let out = sno(&[
        "inspect",
        "BRPK4Q72XWF2M63L",
        "00CMXB6TAK4S-",
        &long,
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
    ]);
    assert_eq!(out.code, 1);
    // What can be read is still printed.
    assert!(
        out.stdout
            .starts_with("01ARZ3NDEKTSV4RRFFQ69G5FAV format=ulid ")
    );
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "BRPK4Q72XWF2M63L: sno: the text (16 bytes) is an ID of no format libsno knows; as sno: invalid byte 'B' at position 0: not in the alphabet",
            "00CMXB6TAK4S-: sno: the text (13 bytes) is an ID of no format libsno knows; as nanoflake: invalid byte '-' at position 12: not in the alphabet; as ulidflake: invalid byte '-' at position 12: not in the alphabet",
            &format!("{long}: sno: the text (50 bytes) is an ID of no format libsno knows"),
        ]
    );
    let out = sno(&["inspect", "--format", "ulid", "brpk4q72xwf2m63l"]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .starts_with("brpk4q72xwf2m63l: sno: invalid length 16"),
        "{}",
        out.stderr
    );
}

#[test]
fn usage_errors_exit_2_on_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let cases: Vec<Vec<&std::ffi::OsStr>> = [
        &["bogus"][..],
        &["inspect"],
        &["inspect", "--jsn", "x"],
        &["inspect", "--format", "nope", "x"],
        &["inspect", "--epoch", "1", "--nanoflake-epoch", "2", "x"],
        &[
            "inspect",
            "1",
            "--nanoflake-epoch",
            "-1000000000000000000000000000000",
        ],
        &[
            "inspect",
            "00CMXB6TAK4SA",
            "--ulidflake-epoch",
            "1000000000000000000000000000000",
        ],
        &["new", "-n", "-1"],
        &["new", "-n", "16777217"],
        &["new", "-n", "1000000000000"],
        &["new", "--meta", "256"],
        &["new", "--partition", "65536"],
        &["new", "--format", "ulid", "--meta", "1"],
        &["new", "--format", "ulid", "--partition", "1"],
        &["new", "--epoch", "0"],
        &["new", "--format", "nanoflake"],
        &["new", "--format", "nanoflake", "--epoch", "0"],
        &[
            "new",
            "--format",
            "nanoflake",
            "--epoch",
            "-1",
            "--generator-id",
            "1",
        ],
        &[
            "new",
            "--format",
            "nanoflake",
            "--epoch",
            "0",
            "--generator-id",
            "1024",
        ],
        &["new", "--format", "ulidflake", "--sid", "32"],
        &["new", "--format", "ulidflake", "--generator-id", "1"],
        &["convert", "01ARZ3NDEKTSV4RRFFQ69G5FAV"],
        &["convert", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "--to", "nope"],
        &[
            "convert",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "--to",
            "typeid",
            "--prefix",
            "User",
        ],
        &[
            "convert",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "--to",
            "uuid7",
            "--prefix",
            "user",
        ],
        &["new", "--prefix", "user"],
        &["new", "--format", "typeid", "--prefix", "user_"],
        &["new", "--format", "typeid", "--meta", "1"],
    ]
    .iter()
    .map(|args| args.iter().map(std::ffi::OsStr::new).collect())
    .collect();
    let not_utf8 = [
        std::ffi::OsStr::new("inspect"),
        std::ffi::OsStr::from_bytes(b"\xff\xfe"),
    ];
    for args in cases.iter().map(Vec::as_slice).chain([&not_utf8[..]]) {
        let out = sno(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with("sno: error: "),
            "{args:?}: {}",
            out.stderr
        );
        assert!(
            out.stderr.ends_with(" --help)\n"),
            "{args:?}: {}",
            out.stderr
        );
    }
    let out = sno(&["new", "--format", "ulid", "--meta", "1"]);
    assert_eq!(
        out.stderr,
        "sno: error: --meta applies to sno IDs only, not ulid (see sno new --help)\n"
    );
    // No command at all: the help, on stderr.
    let out = sno::<&str>(&[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("Usage: sno <COMMAND>"));
}

#[test]
fn help_and_version() {
    let out = sno(&["--version"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, &*format!("sno {}\n", env!("CARGO_PKG_VERSION")))
    );
    for (args, want) in [
        (&["--help"][..], "Usage: sno <COMMAND>"),
        (&["help"], "Usage: sno <COMMAND>"),
        (&["new", "--help"], "Usage: sno new [OPTIONS]"),
        (&["help", "new"], "Usage: sno new [OPTIONS]"),
        (
            &["inspect", "--help"],
            "Usage: sno inspect [OPTIONS] <ID>...",
        ),
        (
            &["convert", "-h"],
            "Usage: sno convert [OPTIONS] --to <FORMAT> <ID>...",
        ),
    ] {
        let out = sno(args);
        assert_eq!(out.code, 0, "{args:?}");
        assert!(out.stdout.contains(want), "{args:?}: {}", out.stdout);
        assert_eq!(out.stderr, "");
    }
    // The formats come from the core's table.
    let out = sno(&["inspect", "--help"]);
    assert!(
        out.stdout
            .contains("sno, ulid, uuid7, scru128, scru160, nanoflake, ulidflake, typeid")
    );
}

/// `sno new` with `args`: the IDs, each read back (`--format`) as `format`.
fn new_ids(args: &[&str], format: &str, extra: &[&str]) -> Vec<BTreeMap<String, String>> {
    let out = sno(args);
    assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    let ids: Vec<&str> = out.stdout.lines().collect();
    let mut inspect = vec!["inspect", "--format", format];
    inspect.extend(extra);
    inspect.extend(&ids);
    let read = sno(&inspect);
    assert_eq!(read.code, 0, "{}", read.stderr);
    let values: Vec<_> = read.stdout.lines().map(|l| parse_line(l).1).collect();
    assert_eq!(values.len(), ids.len());
    for (id, v) in ids.iter().zip(&values) {
        assert_eq!(v["text"], *id, "new prints the canonical text");
    }
    // Increasing (the bytes sort as the IDs were made), hence distinct.
    for pair in values.windows(2) {
        assert!(pair[0]["hex"] < pair[1]["hex"], "{pair:?}");
    }
    values
}

#[test]
fn new_makes_increasing_ids_of_every_format() {
    assert_eq!(
        new_ids(&["new", "-n", "3", "--format", "ulid"], "ulid", &[]).len(),
        3
    );
    for format in ["sno", "uuid7", "scru128", "scru160", "ulidflake"] {
        assert_eq!(
            new_ids(&["new", "-n", "50", "--format", format], format, &[]).len(),
            50
        );
    }
    assert_eq!(new_ids(&["new"], "sno", &[]).len(), 1);
    let ids = new_ids(
        &["new", "-n", "3", "--meta", "0x07", "--partition", "258"],
        "sno",
        &[],
    );
    assert!(
        ids.iter()
            .all(|v| v["meta"] == "7" && v["partition"] == "258")
    );
    let nano = [
        "new",
        "-n",
        "3",
        "--format",
        "nanoflake",
        "--epoch",
        "1640995200000",
        "--generator-id",
        "5",
    ];
    let ids = new_ids(&nano, "nanoflake", &["--nanoflake-epoch", "1640995200000"]);
    assert!(
        ids.iter()
            .all(|v| v["generator_id"] == "5" && v.contains_key("time"))
    );
    let ids = new_ids(
        &["new", "-n", "3", "--format", "ulidflake", "--sid", "3"],
        "ulidflake",
        &[],
    );
    assert!(ids.iter().all(|v| v["sid"] == "3"));
    let typeid = ["new", "-n", "3", "--format", "typeid", "--prefix", "user"];
    let ids = new_ids(&typeid, "typeid", &[]);
    assert!(
        ids.iter()
            .all(|v| v["prefix"] == "user" && v["version"] == "7" && v.contains_key("time"))
    );
    let ids = new_ids(&["new", "-n", "3", "--format", "typeid"], "typeid", &[]);
    assert!(
        ids.iter()
            .all(|v| v["prefix"].is_empty() && v["text"].len() == 26)
    );
    let out = sno(&["new", "-n", "0"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, ""));
}

#[test]
fn new_reports_generator_failures_with_status_1() {
    // An epoch after now: the clock reads before it.
    let out = sno(&[
        "new",
        "--format",
        "nanoflake",
        "--epoch",
        "9000000000000000",
        "--generator-id",
        "1",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .starts_with("sno: the Nanoflake epoch 9000000000000000 ms is after the clock"),
        "{}",
        out.stderr
    );
    let out = Command::new(env!("CARGO_BIN_EXE_sno"))
        .args(["new"])
        .env("SNO_PARTITION", "banana")
        .env_remove("SNO_LEASE_URL")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SNO_PARTITION"));
}

#[test]
fn convert_ulid_and_uuid7_both_ways() {
    let rows = rows("uuidv7_vectors.tsv");
    let uuids: Vec<&str> = rows.iter().map(|r| r["uuid"].as_str()).collect();
    let ulids: Vec<&str> = rows
        .iter()
        .map(|r| r["same_bits_as_ulid"].as_str())
        .collect();
    let mut args = vec!["convert", "--to", "ulid"];
    args.extend(&uuids);
    let out = sno(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().collect::<Vec<_>>(), ulids);
    let mut args = vec!["convert", "--to", "uuid7"];
    args.extend(&ulids);
    let out = sno(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lower: Vec<String> = uuids.iter().map(|u| u.to_lowercase()).collect();
    assert_eq!(out.stdout.lines().collect::<Vec<_>>(), lower);
    // The same format: the canonical text.
    let out = sno(&[
        "convert",
        "--format",
        "ulid",
        "--to",
        "ulid",
        "01arz3ndektsv4rrffq69g5fav",
    ]);
    assert_eq!(out.stdout, "01ARZ3NDEKTSV4RRFFQ69G5FAV\n");
}

#[test]
fn convert_typeid_to_and_from_ulid_and_uuid7() {
    for row in rows("typeid_valid.tsv") {
        let (typeid, prefix, uuid) = (&row["typeid"], &row["prefix"], &row["uuid"]);
        // TypeID -> ULID -> TypeID (any 128 bits), and UUIDv7 <-> TypeID for version 7 UUIDs.
        let ulid = sno(&["convert", "--format", "typeid", "--to", "ulid", typeid]);
        assert_eq!(ulid.code, 0, "{typeid}: {}", ulid.stderr);
        let ulid = ulid.stdout.trim_end();
        let back = sno(&[
            "convert", "--format", "ulid", "--to", "typeid", "--prefix", prefix, ulid,
        ]);
        assert_eq!(back.stdout, format!("{typeid}\n"), "{}", back.stderr);
        let to_uuid = sno(&["convert", "--format", "typeid", "--to", "uuid7", typeid]);
        if uuid.as_bytes()[14] == b'7' && (b'8'..=b'b').contains(&uuid.as_bytes()[19]) {
            assert_eq!(
                (to_uuid.code, to_uuid.stdout.trim_end()),
                (0, uuid.as_str())
            );
            let from_uuid = sno(&["convert", "--to", "typeid", "--prefix", prefix, uuid]);
            assert_eq!(
                from_uuid.stdout,
                format!("{typeid}\n"),
                "{}",
                from_uuid.stderr
            );
        } else {
            assert_eq!(to_uuid.code, 1, "{typeid}");
            assert!(
                to_uuid.stderr.contains("not a UUIDv7"),
                "{}",
                to_uuid.stderr
            );
        }
    }
    // A new prefix for a TypeID; without --prefix, its own.
    let out = sno(&[
        "convert",
        "--to",
        "typeid",
        "--prefix",
        "order",
        "user_01h455vb4pex5vsknk084sn02q",
    ]);
    assert_eq!(out.stdout, "order_01h455vb4pex5vsknk084sn02q\n");
    let out = sno(&[
        "convert",
        "--to",
        "typeid",
        "user_01h455vb4pex5vsknk084sn02q",
    ]);
    assert_eq!(out.stdout, "user_01h455vb4pex5vsknk084sn02q\n");
}

#[test]
fn convert_refuses_what_does_not_share_bits() {
    // A ULID whose bits are no UUIDv7 (the ULID vectors' `uuid` column is of another version).
    let out = sno(&[
        "convert",
        "--to",
        "uuid7",
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "01FWHE4YDGFK1SHH6W1G60EECF",
    ]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n");
    assert_eq!(
        out.stderr,
        "01ARZ3NDEKTSV4RRFFQ69G5FAV: sno: not a UUIDv7: version 13, variant bits 01 (7 and 10 required)\n"
    );
    let out = sno(&["convert", "--to", "scru128", "brpk4q72xwf2m63l"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("cannot convert a sno to SCRU128"),
        "{}",
        out.stderr
    );
    let out = sno(&["convert", "--to", "ulid", "00CMXB6TAK4SA"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("name the format"), "{}", out.stderr);
}

#[test]
fn new_inspect_prints_what_inspect_prints() {
    for (format, extra) in [
        ("sno", &[][..]),
        ("ulid", &[][..]),
        (
            "nanoflake",
            &["--epoch", "1640995200000", "--generator-id", "5"][..],
        ),
        ("typeid", &["--prefix", "user"][..]),
    ] {
        let mut args = vec!["new", "-n", "2", "--inspect", "--format", format];
        args.extend(extra);
        let out = sno(&args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let lines: Vec<&str> = out.stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{}", out.stdout);
        for line in lines {
            let (text, fields) = parse_line(line);
            assert_eq!(fields["format"], format);
            let mut again = vec!["inspect", "--format", format];
            if format == "nanoflake" {
                again.extend(["--epoch", "1640995200000"]);
            }
            again.push(&text);
            let read = sno(&again);
            assert_eq!(read.code, 0, "{}", read.stderr);
            assert_eq!(
                read.stdout.trim_end(),
                line,
                "new --inspect and inspect agree"
            );
        }
    }
}

/// Characters a terminal acts on or does not show, each with the text the CLI writes for it
/// (docs/cli.md): every C0 control but NUL (no argument holds it), DEL, every C1 control,
/// format and separator characters, and the backslash, which escapes.
fn hostile() -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = (1..0x20_u8)
        .chain([0x7f])
        .map(|b| {
            let escaped = match b {
                b'\t' => "\\t".to_owned(),
                b'\n' => "\\n".to_owned(),
                b'\r' => "\\r".to_owned(),
                _ => format!("\\x{b:02x}"),
            };
            (char::from(b).to_string(), escaped)
        })
        .collect();
    cases.extend((0x80..0xa0_u32).map(|u| {
        let c = char::from_u32(u).expect("a C1 control");
        (c.to_string(), format!("\\u{{{u:x}}}"))
    }));
    for (raw, escaped) in [
        ("\x1b[2J\x1b[31m", "\\x1b[2J\\x1b[31m"),
        ("\u{202e}", "\\u{202e}"),
        ("\u{2066}", "\\u{2066}"),
        ("\u{200b}", "\\u{200b}"),
        ("\u{feff}", "\\u{feff}"),
        ("\u{2028}", "\\u{2028}"),
        ("\u{a0}", "\\u{a0}"),
        ("\u{e0001}", "\\u{e0001}"),
        ("\\", "\\\\"),
        ("\\n", "\\\\n"),
        ("é'\"", "é'\""),
    ] {
        cases.push((raw.to_owned(), escaped.to_owned()));
    }
    cases
}

/// `text` is lines (each ending in `\n`) of characters that show as themselves.
fn assert_clean_lines(text: &str) {
    assert!(text.is_empty() || text.ends_with('\n'), "{text:?}");
    for line in text.lines() {
        for c in line.chars() {
            let shows = c.escape_debug().len() == 1 || matches!(c, '\\' | '\'' | '"');
            assert!(shows && !c.is_control(), "{c:?} in {line:?}");
        }
    }
}

#[test]
fn a_newline_in_the_input_cannot_fake_a_reading() {
    let out = sno(&["inspect", "x\n01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    assert_eq!((out.code, out.stdout.as_str()), (1, ""));
    assert_eq!(
        out.stderr,
        "x\\n01ARZ3NDEKTSV4RRFFQ69G5FAV: sno: the text (28 bytes) is an ID of no format libsno knows\n"
    );
    let out = sno(&[
        "inspect",
        "--json",
        "01ARZ3NDEKTSV4RRFFQ69G5FAV\n01ARZ3NDEKTSV4RRFFQ69G5FAV",
    ]);
    assert_eq!((out.code, out.stdout.as_str()), (1, ""));
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
}

#[test]
fn inspect_and_convert_escape_what_they_echo() {
    for command in [&["inspect"][..], &["convert", "--to", "ulid"]] {
        let cases = hostile();
        // Longer than any format's text but a TypeID's, which needs a '_': no format's error.
        let tail = "y".repeat(50);
        let inputs: Vec<String> = cases
            .iter()
            .map(|(raw, _)| format!("x{raw}{tail}"))
            .collect();
        let mut args: Vec<&str> = command.to_vec();
        args.push("--");
        args.extend(inputs.iter().map(String::as_str));
        let out = sno(&args);
        assert_eq!((out.code, out.stdout.as_str()), (1, ""), "{command:?}");
        assert_clean_lines(&out.stderr);
        let want: String = cases
            .iter()
            .zip(&inputs)
            .map(|((_, escaped), input)| {
                let length = input.len();
                format!(
                    "x{escaped}{tail}: sno: the text ({length} bytes) is an ID of no format libsno knows\n"
                )
            })
            .collect();
        assert_eq!(out.stderr, want, "{command:?}");
    }
    // A core message quotes a byte as it is, the backslash included: escaped as well.
    let out = sno(&["inspect", "--format", "sno", "brpk4q72xwf2m63\\"]);
    assert_eq!(
        out.stderr,
        "brpk4q72xwf2m63\\\\: sno: invalid byte '\\\\' at position 15: not in the alphabet\n"
    );
}

#[test]
fn usage_errors_escape_the_arguments_they_quote() {
    for (raw, escaped) in hostile() {
        let text = format!("a{raw}\n\nb");
        let escaped = format!("a{escaped}\\n\\nb");
        let cases: [(&[&str], String); 6] = [
            (
                &["new", "--format", &text],
                format!("invalid value '{escaped}' for '--format <FORMAT>'"),
            ),
            (
                &["inspect", "--nanoflake-epoch", &text, "1"],
                format!("invalid value '{escaped}' for '--nanoflake-epoch <MS>'"),
            ),
            (
                &["convert", "--to", &text, "1"],
                format!("invalid value '{escaped}' for '--to <FORMAT>'"),
            ),
            (
                &["inspect", &format!("--{text}"), "1"],
                format!("unexpected argument '--{escaped}' found"),
            ),
            (&[&text], format!("unrecognized subcommand '{escaped}'")),
            (
                &["new", "--format", "typeid", "--prefix", &text],
                "invalid TypeID prefix".to_owned(),
            ),
        ];
        for (args, want) in cases {
            let out = sno(args);
            assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{args:?}");
            assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
            assert_clean_lines(&out.stderr);
            assert!(out.stderr.starts_with("sno: error: "), "{}", out.stderr);
            assert!(
                out.stderr.contains(&want),
                "{args:?}: {} lacks {want}",
                out.stderr
            );
        }
    }
}

#[test]
fn times_past_i64_and_json_numbers_past_2_53_are_not_capped() {
    let nanoflake = |epoch: &str, json: bool| {
        let mut args = vec![
            "inspect",
            "--format",
            "nanoflake",
            "--nanoflake-epoch",
            epoch,
        ];
        if json {
            args.push("--json");
        }
        args.push("jnxxr658jlkw"); // timestamp_ms 617110901244
        let out = sno(&args);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{args:?}");
        out.stdout
    };
    // The sum is past i64: a word, not i64::MAX.
    let text = nanoflake("9223372036854775000", false);
    assert_eq!(
        text,
        "jnxxr658jlkw format=nanoflake text=jnxxr658jlkw unix_ms=out-of-range epoch_ms=9223372036854775000 timestamp_ms=617110901244 generator_id=5 sequence=0 hex=23ebab447f005000\n"
    );
    let object: serde_json::Value =
        serde_json::from_str(&nanoflake("9223372036854775000", true)).expect("JSON");
    assert!(
        object["unix_ms"].is_null() && object["time"].is_null(),
        "{object}"
    );
    assert!(object["epoch_ms"].is_null(), "past 2^53: {object}");
    assert_eq!(object["timestamp_ms"], 617_110_901_244_i64);
    // In i64 but past 2^53 (either sign): exact in the text, null in JSON.
    for (epoch, unix_ms) in [
        ("9007199254740992", "9007816365642236"),
        ("-9223372036854775808", "-9223371419743874564"),
    ] {
        let text = nanoflake(epoch, false);
        assert!(
            text.contains(&format!(" unix_ms={unix_ms} epoch_ms={epoch} ")),
            "{text}"
        );
        assert!(!text.contains("time="), "{text}");
        let object: serde_json::Value =
            serde_json::from_str(&nanoflake(epoch, true)).expect("JSON");
        assert!(
            object["unix_ms"].is_null() && object["epoch_ms"].is_null(),
            "{object}"
        );
    }
    // 2^53 - 1 is still a number.
    let object: serde_json::Value = serde_json::from_str(&nanoflake(
        &((1_i64 << 53) - 1 - 617_110_901_244).to_string(),
        true,
    ))
    .expect("JSON");
    assert_eq!(object["unix_ms"], (1_i64 << 53) - 1);
    // Ulid-Flakes likewise.
    let out = sno(&[
        "inspect",
        "--format",
        "ulidflake",
        "--ulidflake-epoch",
        "9223372036854775807",
        "00CMXB6TAK4SA",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains(" unix_ms=out-of-range epoch_ms=9223372036854775807 "),
        "{}",
        out.stdout
    );
}

#[test]
fn new_blames_the_epoch_for_a_clock_outside_its_range() {
    for (format, extra) in [
        ("nanoflake", &["--generator-id", "1"][..]),
        ("ulidflake", &[][..]),
    ] {
        let name = if format == "nanoflake" {
            "Nanoflake"
        } else {
            "Ulid-Flake"
        };
        // 2^53 ms is year 287396; 4102444800000 is 2100-01-01.
        for (epoch, shown) in [
            ("9007199254740992", "9007199254740992 ms".to_owned()),
            (
                "4102444800000",
                "2100-01-01T00:00:00.000Z (4102444800000 ms)".to_owned(),
            ),
        ] {
            let mut args = vec!["new", "--format", format, "--epoch", epoch];
            args.extend(extra);
            let out = sno(&args);
            assert_eq!((out.code, out.stdout.as_str()), (1, ""), "{args:?}");
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
            let want = format!("sno: the {name} epoch {shown} is after the clock, ");
            assert!(out.stderr.starts_with(&want), "{}", out.stderr);
            assert!(
                out.stderr.ends_with(": an epoch must be in the past\n"),
                "{}",
                out.stderr
            );
            assert!(!out.stderr.contains("millisecond range"), "{}", out.stderr);
        }
        // Before 1970: a usage error that names the epoch.
        let mut args = vec!["new", "--format", format, "--epoch", "-1"];
        args.extend(extra);
        let out = sno(&args);
        assert_eq!(out.code, 2);
        assert_eq!(
            out.stderr,
            format!(
                "sno: error: --epoch -1: a {name} epoch is 0 or later (Unix milliseconds) (see sno new --help)\n"
            )
        );
    }
}
