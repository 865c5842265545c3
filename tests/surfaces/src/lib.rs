//! The bindings' generated surfaces: files (or marked blocks of files) that list the formats,
//! written from the core's format table ([`sno_core::for_each_format!`] and [`sno_core::Format`])
//! so that a format added to the core reaches C, Python and Node without a hand-written line.
//!
//! Each module returns the surfaces of one binding; the tests in `tests/` compare them with the
//! committed files and, with `SNO_BLESS=1`, write them (`include/sno.h`, which cbindgen writes
//! from the C surface, is checked by `sno-ffi/tests/header.rs`: re-bless it after the C files).

use std::path::{Path, PathBuf};

pub mod c;
pub mod node;
pub mod python;

/// The core's prose with each error code in backquotes (`` `invalid_prefix` ``) written as
/// `spell` names that kind in a binding (C's status, JavaScript's code); other backquoted text
/// stays as it is.
pub fn prose_with_codes(text: &str, spell: impl Fn(sno_core::ErrorKind) -> String) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        let kind = sno_core::ErrorKind::ALL.iter().find(|k| k.code() == part);
        match (i % 2, kind) {
            (1, Some(kind)) => out.push_str(&spell(*kind)),
            (1, None) => out.push_str(&format!("`{part}`")),
            _ => out.push_str(part),
        }
    }
    out
}

/// The text of `path` (relative to the repository root).
pub fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path))
        .unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

/// The core's prose (`"the 40 lower-case hex digits"`) as a sentence: a capital, a full stop.
pub fn sentence(doc: &str) -> String {
    let mut chars = doc.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

/// A named field's documentation as every binding gives its getter or property: its width and
/// what it holds, in the core's words (`FieldSpec::doc`, the table's one description of it).
pub fn field_doc(field: &sno_core::model::FieldSpec) -> String {
    use sno_core::model::FieldKind;
    match field.kind {
        FieldKind::Bool => sentence(&format!("a flag: {}", field.doc)),
        FieldKind::Text => sentence(&format!("{} (text, outside the binary form)", field.doc)),
        _ => sentence(&format!("{} bits: {}", field.bits(), field.doc)),
    }
}

/// `text`'s words in lines of at most `width` bytes (a longer word alone on its line); one
/// empty line for no words.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("one line at least");
        if line.is_empty() {
            line.push_str(word);
        } else if line.len() + 1 + word.len() > width {
            lines.push(word.to_owned());
        } else {
            line.push(' ');
            line.push_str(word);
        }
    }
    lines
}

/// One generated file: its path relative to the repository root and its whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Surface {
    /// Repository-relative path, `/`-separated.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// The repository root (this crate lives in `tests/surfaces`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// Compares each surface with the committed file; with `SNO_BLESS=1` in the environment, writes
/// the ones that differ instead. Returns the paths that differ (empty when all match or were
/// written).
pub fn check_or_bless(surfaces: &[Surface]) -> Vec<String> {
    let bless = std::env::var_os("SNO_BLESS").is_some_and(|v| v == "1");
    let root = repo_root();
    let mut stale = Vec::new();
    for surface in surfaces {
        let path = root.join(&surface.path);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == surface.text {
            continue;
        }
        if bless {
            std::fs::write(&path, &surface.text)
                .unwrap_or_else(|e| panic!("writing {}: {e}", surface.path));
        } else {
            stale.push(surface.path.clone());
        }
    }
    stale
}
