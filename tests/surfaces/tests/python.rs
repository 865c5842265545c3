//! The Python binding's generated files (`sno_surfaces::python`) must equal the committed ones.
//! After a change of the core's format table, of the stub template
//! (`bindings/python/stubs/_sno.pyi.in`) or of `sno/_sqlalchemy.py`, regenerate them with
//! `SNO_BLESS=1 cargo test -p sno-surfaces --test python` and commit them.

use sno_core::Format;
use sno_surfaces::{check_or_bless, python};

#[test]
fn python_surfaces_are_current() {
    let surfaces = python::surfaces();
    assert!(!surfaces.is_empty(), "no Python surfaces");
    let stale = check_or_bless(&surfaces);
    assert!(
        stale.is_empty(),
        "stale generated Python files: {stale:?}; regenerate them with \
         `SNO_BLESS=1 cargo test -p sno-surfaces --test python` and commit them"
    );
}

#[test]
fn python_surfaces_cover_every_format() {
    let surfaces = python::surfaces();
    let text = |path: &str| {
        let path = format!("bindings/python/python/sno/{path}");
        surfaces
            .iter()
            .find(|s| s.path == path)
            .unwrap_or_else(|| panic!("no surface {path}"))
            .text
            .clone()
    };
    let (stub, formats, sqlalchemy) =
        (text("_sno.pyi"), text("_formats.py"), text("sqlalchemy.py"));
    let hand_written = std::fs::read_to_string(
        sno_surfaces::repo_root().join("bindings/python/python/sno/_sqlalchemy.py"),
    )
    .expect("sno/_sqlalchemy.py");
    let detect = stub
        .lines()
        .find(|l| l.starts_with("def detect("))
        .expect("detect in the stub");
    for format in Format::ALL {
        let class = format.python_class();
        assert!(
            stub.contains(&format!("\nclass {class}(")),
            "{class} in _sno.pyi"
        );
        assert!(
            stub.contains(&format!("        type[{class}],\n")),
            "{class} in ID_CLASSES"
        );
        assert!(detect.contains(&format!(" {class}")), "{class} in detect");
        assert!(
            formats.contains(&format!("    {class},\n")),
            "{class} in _formats.py"
        );
        let column = format!("IDTypeBase[sno.{class}], id_class=sno.{class}");
        assert!(
            sqlalchemy.contains(&column) || hand_written.contains(&column),
            "no SQLAlchemy column type of {class}"
        );
        if format.has_generator() {
            assert!(
                stub.contains(&format!("\nclass {class}Generator:")),
                "{class}Generator"
            );
        }
        if format.has_process_generator() {
            let name = format.name();
            assert!(
                stub.contains(&format!("\ndef {name}_new() -> {class}: ...")),
                "{name}_new"
            );
        }
        if format.name() != "sno" {
            let module = text(&format!("{}.py", format.name()));
            assert!(
                module.contains(&format!("from sno._sno import {class}\n")),
                "{class} module"
            );
            assert!(
                module.contains(">>> "),
                "{class}: no example in the module's docstring"
            );
        }
    }
}
