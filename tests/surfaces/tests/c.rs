//! The C ABI's generated files (`sno-ffi/src/generated.rs`, `sno-ffi/src/status.rs`) must equal
//! what `sno_surfaces::c` writes from the core's tables. After a change of a table: `SNO_BLESS=1
//! cargo test -p sno-surfaces`, then `SNO_BLESS=1 cargo test -p sno-ffi --test header`, and
//! commit them.

use sno_core::{ErrorKind, Format};
use sno_surfaces::{c, check_or_bless};

#[test]
fn the_committed_c_surfaces_are_current() {
    let stale = check_or_bless(&c::surfaces());
    assert!(
        stale.is_empty(),
        "stale generated C files: {}; run `SNO_BLESS=1 cargo test -p sno-surfaces`, then \
         `SNO_BLESS=1 cargo test -p sno-ffi --test header`, and commit them",
        stale.join(", ")
    );
}

#[test]
fn the_c_surface_covers_every_format() {
    let surfaces = c::surfaces();
    let generated = &surfaces[0].text;
    for format in Format::ALL {
        assert!(
            generated.contains(&format!("(sno_core::Format::{format:?}, ")),
            "{format} is not in sno_format"
        );
        if format.param().is_none() && format != Format::Sno {
            let decode = format!("pub unsafe extern \"C\" fn sno_{}_decode(", format.name());
            assert!(generated.contains(&decode), "no {decode}");
        }
    }
}

#[test]
fn every_status_note_names_a_core_kind_and_c_numbers_are_free() {
    let (numbers, noted) = c::status_numbers();
    for variant in noted {
        assert!(
            ErrorKind::ALL.iter().any(|k| format!("{k:?}") == variant),
            "a note for {variant}, which the core does not have"
        );
    }
    for number in c::statuses::C_ONLY.iter().map(|c| c.number) {
        assert!(
            ErrorKind::from_status(number).is_none(),
            "C's own status {number} is a core kind's"
        );
    }
    assert!(
        numbers.windows(2).all(|w| w[0] < w[1]),
        "a status number twice: {numbers:?}"
    );
}
