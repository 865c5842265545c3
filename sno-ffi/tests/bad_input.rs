//! Every row of `testdata/bad_input.tsv` through the C ABI's `sno_id_decode_at`, called as C
//! would call it (raw pointers and lengths, NULL where a row says so).

#[path = "../../sno-core/tests/common/bad_input.rs"]
mod bad_input;

use std::ffi::c_char;

use sno::{
    SNO_PARTITION_DEFAULT, sno_generator, sno_generator_free, sno_generator_new,
    sno_generator_next_many, sno_generator_restore, sno_id, sno_id_decode_at, sno_snapshot,
    sno_status,
};

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
            continue; // every_call_row
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

/// A status as the table spells it.
fn status_name(status: sno_status) -> String {
    match status {
        sno_status::Ok => "ok".into(),
        sno_status::BatchTooLarge => "SNO_STATUS_BATCH_TOO_LARGE".into(),
        sno_status::SnapshotAhead => "SNO_STATUS_SNAPSHOT_AHEAD".into(),
        other => format!("{other:?}"),
    }
}

/// The C answer to a `call:*` row, through the C ABI as C calls it.
fn call(op: &str, input: &serde_json::Value) -> String {
    let mut generator: *mut sno_generator = std::ptr::null_mut();
    let status = match op {
        "new_many:sno" => {
            let count = input.as_u64().expect("a count a size_t holds") as usize;
            // SAFETY: NULL options ask for defaults; `generator` is writable.
            let made = unsafe { sno_generator_new(std::ptr::null(), &mut generator) };
            assert_eq!(made, sno_status::Ok);
            // Refused counts are answered before `out` is touched, so one slot is enough for
            // them; an accepted count gets a buffer of its size.
            let slots = if count > sno::SNO_MAX_BATCH {
                1
            } else {
                count.max(1)
            };
            let mut out = vec![sno_id { bytes: [0; 10] }; slots];
            // SAFETY: live generator; `out` holds `count` slots whenever the call writes.
            unsafe { sno_generator_next_many(generator, 0, out.as_mut_ptr(), count) }
        }
        "restore_snapshot" => {
            let snapshot = sno_snapshot::from(bad_input::snapshot(input, bad_input::now_units()));
            // SAFETY: valid snapshot, writable `generator`.
            unsafe { sno_generator_restore(&snapshot, SNO_PARTITION_DEFAULT, &mut generator) }
        }
        other => panic!("unknown call {other}"),
    };
    // SAFETY: NULL or a live generator, freed once.
    unsafe { sno_generator_free(generator) };
    status_name(status)
}

#[test]
fn every_call_row() {
    let mut checked = 0;
    for case in bad_input::cases("c") {
        if let Some(op) = case.expand.strip_prefix("call:") {
            assert_eq!(call(op, &case.input), case.expected, "{}", case.name);
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} call rows");
}
