//! Every row of `testdata/bad_input.tsv` through the C ABI's `sno_id_decode_at`, called as C
//! would call it (raw pointers and lengths, NULL where a row says so).

#[path = "../../sno-core/tests/common/bad_input.rs"]
mod bad_input;

use std::ffi::c_char;

use sno::{sno_id, sno_id_decode_at, sno_status};

/// The status name and, when one was written, the error position.
fn answer(text: *const c_char, len: usize, out: *mut sno_id) -> String {
    let mut position = usize::MAX;
    // SAFETY: every caller passes `text` valid for `len` reads (or NULL, which the function
    // checks), and `out` NULL or writable.
    let status = unsafe { sno_id_decode_at(text, len, out, &mut position) };
    let name = match status {
        sno_status::Ok => return "ok".into(),
        sno_status::InvalidLength => "SNO_STATUS_INVALID_LENGTH",
        sno_status::InvalidByte => "SNO_STATUS_INVALID_BYTE",
        sno_status::NullArgument => "SNO_STATUS_NULL_ARGUMENT",
        other => return format!("{other:?}"),
    };
    if position == usize::MAX {
        name.into()
    } else {
        format!("{name}@{position}")
    }
}

#[test]
fn every_row() {
    let mut checked = 0;
    let mut id = sno_id { bytes: [0; 10] };
    for case in bad_input::cases("c").iter() {
        if case.expand.starts_with("call:") {
            continue; // tests/c/test_bad_calls.c
        }
        let inputs = match bad_input::byte_inputs(case) {
            Some(inputs) => inputs,
            None => {
                let text = bad_input::text(case);
                let len = text.len();
                let text = text.as_ptr().cast::<c_char>();
                let got = match case.expand.as_str() {
                    "c:null-text" => answer(std::ptr::null(), 16, &mut id),
                    "c:null-text-empty" => answer(std::ptr::null(), 0, &mut id),
                    "c:null-out" => answer(text, len, std::ptr::null_mut()),
                    // Refused before the bytes are touched, so the 1-byte buffer is never read.
                    "c:len-max" => answer(text, usize::MAX, &mut id),
                    other => panic!("unknown expansion {other}"),
                };
                assert_eq!(got, case.expected, "{}", case.name);
                checked += 1;
                continue;
            }
        };
        for input in inputs {
            let got = answer(input.as_ptr().cast(), input.len(), &mut id);
            assert_eq!(got, case.expected, "{}: {input:?}", case.name);
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked} inputs");
}
