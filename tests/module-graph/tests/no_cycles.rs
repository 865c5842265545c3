//! No import cycle in any crate of the workspace nor in the Node package's JavaScript: a module
//! only uses modules below it; where two need each other, the shared piece moves into a module
//! below both. The checkers and what counts as an edge: `src/rust.rs`, `src/js.rs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sno_module_graph::files::read_sources;
use sno_module_graph::graph::{Graph, cycles, describe};
use sno_module_graph::{js, rust};

/// The repository root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The module graph of the library of the crate in `dir` (relative to the repository).
fn crate_graph(dir: &str) -> Graph {
    let files = read_sources(&repo().join(dir).join("src"), &rust::is_library_file);
    assert!(
        files.iter().any(|(path, _)| path == "lib.rs"),
        "{dir}/src: no lib.rs among {:?}",
        files.iter().map(|(path, _)| path).collect::<Vec<_>>()
    );
    rust::graph(&files)
}

/// Fails, naming `what` and every edge of each cycle, if `g` has one; also if `g` has several
/// modules but no edge at all (the parser would not be seeing the code). A crate of one file
/// (sno-cli today) has no edge: its check fails once it gains modules in a cycle.
fn assert_acyclic(what: &str, g: &Graph) {
    assert!(
        g.edges.len() < 2 || g.edge_count() > 0,
        "{what}: no edge found: {g:#?}"
    );
    let found = cycles(g);
    assert!(
        found.is_empty(),
        "{what}: modules must not depend on each other in a cycle; move the shared piece into a module below both:\n{}",
        describe(g, &found)
    );
}

#[test]
fn sno_core() {
    let g = crate_graph("sno-core");
    // The parser sees the crate: every format reaches the shared error type.
    for format in [
        "ulid",
        "uuid7",
        "scru128",
        "scru160",
        "nanoflake",
        "ulidflake",
        "ksuid",
    ] {
        assert!(
            g.reach(format).contains("error"),
            "{format} does not reach `error`: {g:#?}"
        );
    }
    assert_acyclic("sno-core", &g);
}

#[test]
fn sno_lease() {
    assert_acyclic("sno-lease", &crate_graph("sno-lease"));
}

#[test]
fn sno_ffi() {
    assert_acyclic("sno-ffi", &crate_graph("sno-ffi"));
}

#[test]
fn sno_cli() {
    assert_acyclic("sno-cli", &crate_graph("sno-cli"));
}

#[test]
fn sno_node() {
    assert_acyclic("bindings/node (sno-node)", &crate_graph("bindings/node"));
}

#[test]
fn sno_python() {
    assert_acyclic(
        "bindings/python (sno-python)",
        &crate_graph("bindings/python"),
    );
}

#[test]
fn sno_postgres() {
    assert_acyclic("sno-postgres", &crate_graph("sno-postgres"));
}

#[test]
fn sno_module_graph() {
    assert_acyclic("tests/module-graph", &crate_graph("tests/module-graph"));
}

/// The Node package's own JavaScript files (tests, benchmark, browser and WebAssembly files
/// included), as Node resolves them and as a browser build does (package.json's `browser`
/// field).
#[test]
fn node_javascript() {
    let dir = repo().join("bindings/node");
    let files = read_sources(&dir, &js::is_js_file);
    let package = std::fs::read_to_string(dir.join("package.json")).expect("read package.json");
    let aliases = js::browser_aliases(&package);
    assert!(
        aliases.get("native.js").map(String::as_str) == Some("browser/native.js"),
        "package.json's browser field: {aliases:?}"
    );
    let node = js::graph(&files, &BTreeMap::new());
    let browser = js::graph(&files, &aliases);
    // The parser sees the package: the API reaches the addon's loader, in the browser its
    // replacement.
    assert!(node.reach("index.mjs").contains("index.js"), "{node:#?}");
    assert!(
        browser.reach("browser.mjs").contains("browser/binding.js"),
        "{browser:#?}"
    );
    assert!(
        browser.edges["sno.js"].contains_key("browser/native.js"),
        "{browser:#?}"
    );
    assert_acyclic("bindings/node JavaScript (Node)", &node);
    assert_acyclic("bindings/node JavaScript (browser field)", &browser);
}
