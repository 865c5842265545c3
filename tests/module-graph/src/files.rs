//! Reading a folder's source files.

use std::path::Path;

/// Every file under `dir` (recursively, in name order) whose path relative to `dir` (with `/`
/// separators) `keep` accepts, as (relative path, contents). Folders named `node_modules` and
/// hidden ones are not entered. Panics, naming the path, when something cannot be read.
pub fn read_sources(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    walk(dir, "", keep, &mut out);
    out
}

fn walk(dir: &Path, under: &str, keep: &dyn Fn(&str) -> bool, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let relative = if under.is_empty() {
            name.clone()
        } else {
            format!("{under}/{name}")
        };
        if path.is_dir() {
            if name != "node_modules" && !name.starts_with('.') {
                walk(&path, &relative, keep, out);
            }
        } else if keep(&relative) {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            out.push((relative, text));
        }
    }
}
