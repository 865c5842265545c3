//! `demo inspect`: every format is recognised, ambiguous text lists every reading, and bad text
//! fails with the first matching format's error.

use std::process::Command;

fn demo(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_demo"))
        .args(args)
        .output()
        .expect("the demo runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[test]
fn every_format_is_recognised() {
    let (ok, out, err) = demo(&[
        "inspect",
        "brpk4q72xwf2m63l",
        "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
        "0372hg16csmsm50l8dikcvukc",
        "05TTUP1HNCPNH30VEK64KDQT9BSNU4C4",
        "00CMXB6TAK4SA",
        "jnxxr658jlkw",
    ]);
    assert!(ok, "{err}");
    for want in [
        "brpk4q72xwf2m63l  [sno]  time=2031-05-08T23:03:34.976Z",
        "[ULID]  time=2016-07-30T23:54:10.259Z",
        "[UUIDv7]  time=2022-02-22T19:22:22.000Z",
        "[SCRU128]  time=2022-04-03T08:17:16.097Z  counter_hi=8268596",
        "[SCRU160]  time=2021-09-13T13:41:30.683Z  counter=13176",
        "00CMXB6TAK4SA: 2 readings (ambiguous shape)",
        "00CMXB6TAK4SA  [Ulid-Flake]  time=2024-06-06T06:06:06.666Z (default epoch)  randomness=627498",
        "00CMXB6TAK4SA  [Nanoflake]",
        "jnxxr658jlkw  [Nanoflake]  timestamp=617110901244 ms after the application's epoch  generator_id=5",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn bad_text_fails_with_a_positioned_error() {
    let (ok, _, err) = demo(&[
        "inspect",
        "BRPK4Q72XWF2M63L",
        "00CMXB6TAK4S-",
        &"x".repeat(50),
    ]);
    assert!(!ok);
    assert!(
        err.contains("BRPK4Q72XWF2M63L: sno: invalid byte 'B' at position 0"),
        "{err}"
    );
    assert!(
        err.contains("00CMXB6TAK4S-: sno: invalid byte '-' at position 12"),
        "{err}"
    );
    assert!(err.contains("no format has 50-byte text"), "{err}");
    let (ok, out, _) = demo(&["inspect", "VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV"]);
    assert!(ok && out.contains("outside years 1970..=9999"), "{out}");
}
