//! No import cycle in any crate of the workspace nor in the Node package's JavaScript: a module
//! only uses modules below it; where two need each other, the shared piece moves into a module
//! below both. The checkers and what counts as an edge: `src/rust.rs`, `src/js.rs`.

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

/// The Node package's own JavaScript files (tests, benchmark and the web build's entry
/// included), as Node resolves them: the API reaches the addon's loader and, where no addon
/// loads, the light web build (`wasm/fallback.js`).
#[test]
fn node_javascript() {
    let files = read_sources(&repo().join("bindings/node"), &js::is_js_file);
    let node = js::graph(&files);
    let reach = node.reach("sno.js");
    assert!(
        reach.contains("native.js") && reach.contains("wasm/fallback.js"),
        "{node:#?}"
    );
    assert_acyclic("bindings/node JavaScript", &node);
}

/// The light web build as `scripts/release-npm.mjs` lays out each of its trees in the npm
/// package (`web/`, `web/fs/`, …): bindings/web/js with the tree's loaders in `load/`, and the
/// entry `libsno.mjs` with `native-only.js` beside it, from bindings/node/wasm.
#[test]
fn web_javascript() {
    let web = repo().join("bindings/web/js");
    let loaders = ["", "fs", "module", "source"];
    for tree in loaders {
        let mut files: Vec<(String, String)> = read_sources(&web, &js::is_js_file)
            .into_iter()
            .filter(|(path, _)| !path.starts_with("load/"))
            .collect();
        let load = web.join("load").join(tree);
        let own = read_sources(&load, &|p: &str| js::is_js_file(p) && !p.contains('/'));
        assert!(!own.is_empty(), "{}: no loader", load.display());
        files.extend(own.into_iter().map(|(p, s)| (format!("load/{p}"), s)));
        if !tree.is_empty() {
            // A tree's own loaders, then the default tree's that it lacks (but its fetch helper).
            let default = read_sources(&web.join("load"), &|p: &str| {
                js::is_js_file(p) && !p.contains('/') && p != "compile.js"
            });
            for (p, s) in default {
                let path = format!("load/{p}");
                if !files.iter().any(|(q, _)| *q == path) {
                    files.push((path, s));
                }
            }
        }
        files.extend(read_sources(
            &repo().join("bindings/node/wasm"),
            &|p: &str| p == "libsno.mjs" || p == "native-only.js",
        ));
        let g = js::graph(&files);
        let what = format!("the web build's JavaScript (web/{tree})");
        let reach = g.reach("libsno.mjs");
        for needed in [
            "index.js",
            "sno.js",
            "formats.js",
            "load/sno.js",
            "native-only.js",
        ] {
            assert!(
                reach.contains(needed),
                "{what}: libsno.mjs does not reach {needed}: {g:#?}"
            );
        }
        assert_acyclic(&what, &g);
    }
}
