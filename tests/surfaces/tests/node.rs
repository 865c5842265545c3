//! The committed Node surfaces (`bindings/node/sno.d.ts`, `index.mjs`, `wasm/libsno.mjs`) must equal
//! what `sno_surfaces::node` writes from the core's format table and `sno.d.ts.in`. After a
//! change of the table or the template: `SNO_BLESS=1 cargo test -p sno-surfaces`, then commit.

use sno_core::Format;

#[test]
fn the_node_surfaces_cover_every_format() {
    let surfaces = sno_surfaces::node::surfaces();
    assert!(!surfaces.is_empty());
    let text = |path: &str| {
        &surfaces
            .iter()
            .find(|s| s.path == path)
            .unwrap_or_else(|| panic!("no surface {path}"))
            .text
    };
    let dts = text("bindings/node/sno.d.ts");
    for format in Format::ALL {
        let class = format.node_class();
        for declaration in [
            format!("\nexport interface {class}Fields {{\n"),
            format!("\nexport declare class {class} extends "),
        ] {
            assert!(dts.contains(&declaration), "sno.d.ts lacks `{declaration}`");
        }
        assert!(
            dts.contains(&format!("\n  {class}: typeof {class}\n")),
            "the default export lacks {class}"
        );
        if format != Format::Sno {
            let namespace = format!("\nexport declare const {}: ", format.name());
            assert!(dts.contains(&namespace), "sno.d.ts lacks `{namespace}`");
        }
        assert!(
            dts.lines().any(|l| l.starts_with("export type AnyId = ")
                && l.split(" = ")
                    .nth(1)
                    .is_some_and(|u| u.split(" | ").any(|c| c == class))),
            "AnyId lacks {class}"
        );
    }
    for entry in ["bindings/node/index.mjs", sno_surfaces::node::WEB_ENTRY] {
        let mut exported: Vec<&str> = text(entry)
            .lines()
            .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(','))
            .collect();
        let mut declared = sno_surfaces::node::exported_values(dts);
        // The web entry lists the native-only names apart (from native-only.js).
        exported.sort_unstable();
        declared.sort_unstable();
        assert_eq!(exported, declared, "{entry} exports what sno.d.ts declares");
        for format in Format::ALL {
            assert!(exported.contains(&format.node_class()), "{entry}: {format}");
            if format != Format::Sno {
                assert!(exported.contains(&format.name()), "{entry}: {format}");
            }
        }
    }
}

#[test]
fn the_committed_node_surfaces_are_current() {
    let stale = sno_surfaces::check_or_bless(&sno_surfaces::node::surfaces());
    assert!(
        stale.is_empty(),
        "stale generated files: {}; run `SNO_BLESS=1 cargo test -p sno-surfaces` and commit them",
        stale.join(", ")
    );
}
