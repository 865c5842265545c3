//! The Rust checker: the module graph of one crate's sources.
//!
//! Every `src/**/*.rs` file of the library is a module (`foo/mod.rs` is `foo`, `lib.rs` the
//! crate root; binary targets, `main.rs` and `bin/`, are crates of their own: see
//! [`is_library_file`]). An edge `a -> b` is any path in `a`'s code that names `b` or an item
//! inside it: `crate::b::…`, `$crate::b::…` (a macro counts where it is written, except a
//! table's rows: below), `super::…`, `self::…`, `child::…` for a child module of `a`, or `m::…`
//! for a module `a` brought in with `use`, in `use` trees and inline alike, resolved to the
//! deepest module the path reaches. Paths through the crate root's re-exports (`crate::Id`)
//! count as edges to the module the item comes from; through a glob re-export (`pub use m::*`)
//! they count as edges to the root (write `crate::m::X` instead). Comments (doc links
//! included), strings and visibility restrictions (`pub(in crate::x)`) are not dependencies;
//! test modules inside a file are part of it.
//!
//! A *table macro* (one whose body calls a macro it is handed, `$callback! { rows }`, as
//! sno-core's `for_each_format!` does) is data: its rows' paths are not edges of the module
//! that writes the table but of each module that expands it with a callback that uses them,
//! that is, a callback whose matcher binds a `ty` or `path` fragment that its transcriber writes
//! out. So sno-core's format table can name every ID type and still sit below the formats:
//! `Format` is made by a callback that takes the facts alone, `AnyId` (above the formats) by one
//! that takes the types. Std only, a deliberately small parser: it understands the code of this
//! workspace, not all of Rust.

use std::collections::{BTreeMap, BTreeSet};

use crate::graph::{Graph, Module, Site};

/// Whether `relative` (a path under a crate's `src/`, `/` separators) is a file of the library
/// target: a `.rs` file other than `main.rs` and those under `bin/` (binary targets, each a
/// crate of its own; this workspace's are single files, with no modules to order).
pub fn is_library_file(relative: &str) -> bool {
    relative.ends_with(".rs") && relative != "main.rs" && !relative.starts_with("bin/")
}

/// The module a source file is (`relative` is its path under `src/`, with `/` separators).
fn module_of(relative: &str) -> Module {
    let stem = relative.strip_suffix(".rs").expect("a .rs file");
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" {
        return String::new();
    }
    stem.replace('/', "::")
}

fn join(parent: &str, child: &str) -> Module {
    if parent.is_empty() {
        child.to_owned()
    } else {
        format!("{parent}::{child}")
    }
}

fn parent(module: &str) -> Module {
    module
        .rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_owned())
}

/// `source` with comments, string and character literals blanked out (newlines kept, so that
/// line numbers stay right).
fn strip(source: &str) -> String {
    let c: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < c.len() {
        match literal_end(&c, i) {
            Some(end) => {
                for &ch in &c[i..end] {
                    out.push(if ch == '\n' { '\n' } else { ' ' });
                }
                i = end;
            }
            None => {
                out.push(c[i]);
                i += 1;
            }
        }
    }
    out
}

/// Where the comment, string or character literal that starts at `c[i]` ends (exclusive), if
/// one starts there (lifetimes and labels, `'a`, are not literals).
fn literal_end(c: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| c.get(k).copied().unwrap_or('\0');
    let find = |from: usize, pattern: &[char]| {
        (from..c.len())
            .find(|&k| c[k..].starts_with(pattern))
            .map_or(c.len(), |k| k + pattern.len())
    };
    let ident_before = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
    match (at(i), at(i + 1)) {
        ('/', '/') => Some((i..c.len()).find(|&k| c[k] == '\n').unwrap_or(c.len())),
        ('/', '*') => {
            let (mut depth, mut k) = (0, i);
            while k < c.len() {
                if at(k) == '/' && at(k + 1) == '*' {
                    depth += 1;
                    k += 2;
                } else if at(k) == '*' && at(k + 1) == '/' {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            Some(k.min(c.len()))
        }
        ('"', _) => {
            let mut k = i + 1;
            while k < c.len() && c[k] != '"' {
                k += if c[k] == '\\' { 2 } else { 1 };
            }
            Some((k + 1).min(c.len()))
        }
        ('r', '"' | '#') if !ident_before => {
            let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
            if at(i + 1 + hashes) != '"' {
                return None;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            Some(find(i + 2 + hashes, &close))
        }
        // An escape: '\n', '\'', '\u{..}'.
        ('\'', '\\') => Some(find(i + 3, &['\''])),
        ('\'', _) if at(i + 2) == '\'' => Some(i + 3),
        _ => None,
    }
}

/// Identifiers (`$crate` is one), `::` and single punctuation characters, with their lines.
fn tokens(code: &str) -> Vec<(String, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let is_ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_ident(ch) || (ch == '$' && c.get(i + 1).is_some_and(|&n| is_ident(n))) {
            let start = i;
            i += 1;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            out.push((c[start..i].iter().collect(), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(("::".to_owned(), line));
            i += 2;
        } else {
            out.push((ch.to_string(), line));
            i += 1;
        }
    }
    out
}

/// One path of a path expression or `use` tree: its segments (a `self` inside a group is
/// dropped: it names the prefix) and, in a `use`, the name it binds (`None` for a glob).
struct TreePath {
    segments: Vec<String>,
    binds: Option<String>,
}

/// The paths of a path or `use` tree starting at `tokens[*at]`. Leaves `*at` after the tree.
fn paths(tokens: &[(String, usize)], at: &mut usize, prefix: Vec<String>) -> Vec<TreePath> {
    let mut segments = prefix;
    let tok = |k: usize| tokens.get(k).map_or("", |t| t.0.as_str());
    loop {
        match tok(*at) {
            "{" => {
                *at += 1;
                let mut all = Vec::new();
                while !matches!(tok(*at), "}" | "") {
                    all.extend(paths(tokens, at, segments.clone()));
                    if tok(*at) == "," {
                        *at += 1;
                    }
                }
                *at += 1;
                return all;
            }
            "*" => {
                *at += 1;
                let binds = None;
                return vec![TreePath { segments, binds }];
            }
            "self" if !segments.is_empty() => *at += 1,
            seg if seg.starts_with(|ch: char| ch.is_alphanumeric() || ch == '_' || ch == '$') => {
                segments.push(seg.to_owned());
                *at += 1;
            }
            _ => {
                let binds = segments.last().cloned();
                return vec![TreePath { segments, binds }];
            }
        }
        if tok(*at) == "::" {
            *at += 1;
        } else {
            let mut binds = segments.last().cloned();
            if tok(*at) == "as" {
                binds = Some(tok(*at + 1).to_owned());
                *at += 2;
            }
            return vec![TreePath { segments, binds }];
        }
    }
}

/// The absolute form of `path` (as written in `module`, inside the inline modules `inline`,
/// where `local` maps the names of child modules and of modules brought in by `use` to their
/// absolute paths), or `None` if it does not start in this crate.
fn absolute(
    path: &[String],
    module: &str,
    inline: &[String],
    local: &BTreeMap<String, Vec<String>>,
) -> Option<Vec<String>> {
    let mut here: Vec<String> = module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .chain(inline.iter().cloned())
        .collect();
    let mut rest = path;
    match rest.first()?.as_str() {
        "crate" | "$crate" => {
            here.clear();
            rest = &rest[1..];
        }
        "super" => {
            while rest.first().map(String::as_str) == Some("super") {
                here.pop()?;
                rest = &rest[1..];
            }
        }
        "self" => rest = &rest[1..],
        first => {
            here = local.get(first)?.clone();
            rest = &rest[1..];
        }
    }
    here.extend(rest.iter().cloned());
    Some(here)
}

/// The deepest module `path` reaches, following the crate root's re-exports.
fn target(
    mut path: Vec<String>,
    modules: &BTreeSet<Module>,
    reexports: &BTreeMap<String, Vec<String>>,
) -> Module {
    for _ in 0..8 {
        if let Some(first) = path.first()
            && !modules.contains(first.as_str())
            && let Some(source) = reexports.get(first)
        {
            path = source.iter().chain(&path[1..]).cloned().collect();
            continue;
        }
        break;
    }
    let mut module = String::new();
    for seg in &path {
        let deeper = join(&module, seg);
        if !modules.contains(&deeper) {
            break;
        }
        module = deeper;
    }
    module
}

/// Every crate path in one file: (line, absolute path, the path as written). `modules` are all
/// the crate's modules.
fn references(
    source: &str,
    module: &str,
    modules: &BTreeSet<Module>,
) -> Vec<(usize, Vec<String>, String)> {
    let toks = tokens(&strip(source));
    let tok = |k: usize| toks.get(k).map_or("", |t| t.0.as_str());
    let split = |m: &str| m.split("::").map(str::to_owned).collect::<Vec<_>>();
    // Names that start a path here besides `crate`, `super` and `self`: child modules, then
    // modules brought in by `use`.
    let mut local: BTreeMap<String, Vec<String>> = modules
        .iter()
        .filter(|c| !c.is_empty() && parent(c) == module)
        .map(|c| (c.rsplit("::").next().unwrap().to_owned(), split(c)))
        .collect();
    let mut found = Vec::new();
    // Inline modules (`mod tests { … }`) around the current token, with the brace depth at
    // which each closes.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut at = 0;
    while at < toks.len() {
        match tok(at) {
            "{" => depth += 1,
            "}" => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            "mod" if tok(at + 2) == "{" => inline.push((tok(at + 1).to_owned(), depth + 1)),
            _ => {}
        }
        let first = tok(at);
        let before = at.checked_sub(1).map_or("", tok);
        let starts =
            matches!(first, "crate" | "$crate" | "super" | "self") || local.contains_key(first);
        // Not the middle of a path, nor a visibility (`pub(in crate::x)`).
        if !starts || tok(at + 1) != "::" || before == "::" || before == "in" {
            at += 1;
            continue;
        }
        let (line, start, is_use) = (toks[at].1, at, before == "use");
        let names: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
        for path in paths(&toks, &mut at, Vec::new()) {
            let Some(abs) = absolute(&path.segments, module, &names, &local) else {
                continue;
            };
            if is_use
                && let Some(name) = path.binds
                && modules.contains(&abs.join("::"))
            {
                local.insert(name, abs.clone());
            }
            let written = toks[start..at.max(start + 1)]
                .iter()
                .map(|t| t.0.as_str())
                .collect::<String>();
            found.push((line, abs, written));
        }
        at = at.max(start + 1);
    }
    found
}

/// A `macro_rules!` definition: its name, where its body lies in the stripped source (the
/// characters between its outer braces), and what the analysis needs of it.
struct MacroDef {
    name: String,
    body: std::ops::Range<usize>,
    /// The body calls a macro it is handed (`$callback!`): a table macro.
    is_table: bool,
    /// A rule's matcher binds a `ty` or `path` fragment that its transcriber writes out.
    uses_types: bool,
}

/// Every `macro_rules! name { … }` of a stripped source.
fn macro_defs(stripped: &str) -> Vec<MacroDef> {
    let c: Vec<char> = stripped.chars().collect();
    let text = |r: std::ops::Range<usize>| c[r].iter().collect::<String>();
    let mut defs = Vec::new();
    let mut from = 0;
    let keyword: Vec<char> = "macro_rules!".chars().collect();
    while let Some(found) = (from..c.len()).find(|&k| c[k..].starts_with(&keyword)) {
        let at = found + keyword.len();
        let Some(open) = (at..c.len()).find(|&k| c[k] == '{') else {
            break;
        };
        let name = text(at..open).trim().to_owned();
        let mut depth = 0;
        let Some(close) = (open..c.len()).find(|&k| {
            match c[k] {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth -= 1,
                _ => {}
            }
            depth == 0
        }) else {
            break;
        };
        let body = open + 1..close;
        let toks = tokens(&text(body.clone()));
        let tok = |k: usize| toks.get(k).map_or("", |t| t.0.as_str());
        let is_table = (0..toks.len())
            .any(|k| tok(k).starts_with('$') && tok(k) != "$crate" && tok(k + 1) == "!");
        // Rules: `(matcher) => {transcriber}` (any bracket kind), separated by `;`.
        let mut uses_types = false;
        let mut k = 0;
        let group_end = |start: usize| {
            let mut depth = 0;
            (start..toks.len())
                .find(|&j| {
                    match tok(j) {
                        "{" | "(" | "[" => depth += 1,
                        "}" | ")" | "]" => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .unwrap_or(toks.len())
        };
        while k < toks.len() {
            let matcher_end = group_end(k);
            if tok(matcher_end + 1) != "=" || tok(matcher_end + 2) != ">" {
                break;
            }
            let transcriber = matcher_end + 3..group_end(matcher_end + 3);
            let typed: Vec<&str> = (k..matcher_end)
                .filter(|&j| tok(j + 1) == ":" && matches!(tok(j + 2), "ty" | "path"))
                .map(tok)
                .collect();
            uses_types |= transcriber.clone().any(|j| typed.contains(&tok(j)));
            k = transcriber.end + 1;
            if tok(k) == ";" {
                k += 1;
            }
        }
        defs.push(MacroDef {
            name,
            body,
            is_table,
            uses_types,
        });
        from = close;
    }
    defs
}

/// `stripped` with the bodies of its table macros blanked (newlines kept).
fn without_tables(stripped: &str, defs: &[MacroDef]) -> String {
    let mut c: Vec<char> = stripped.chars().collect();
    for def in defs.iter().filter(|d| d.is_table) {
        for ch in &mut c[def.body.clone()] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    }
    c.into_iter().collect()
}

/// The graph of `files` (path under `src/`, source).
pub fn graph(files: &[(String, String)]) -> Graph {
    let modules: BTreeSet<Module> = files.iter().map(|(p, _)| module_of(p)).collect();
    // The crate root's `use` items: name -> the path it stands for (absolute, or through another
    // of these names, which `target` follows).
    let mut reexports = BTreeMap::new();
    for (file, source) in files {
        if module_of(file).is_empty() {
            let toks = tokens(&strip(source));
            for k in 0..toks.len() {
                if toks[k].0 == "use" {
                    let mut at = k + 1;
                    for path in paths(&toks, &mut at, Vec::new()) {
                        let abs = absolute(&path.segments, "", &[], &BTreeMap::new())
                            .unwrap_or(path.segments);
                        if let Some(name) = path.binds {
                            reexports.insert(name, abs);
                        }
                    }
                }
            }
        }
    }
    // `#[macro_export]` macros live at the crate root (`crate::m!`) but belong to the module that
    // defines them.
    for (file, source) in files {
        let toks = tokens(&strip(source));
        for k in 0..toks.len() {
            if toks[k].0 == "macro_export"
                && let Some(m) = (k..toks.len()).find(|&m| toks[m].0 == "macro_rules")
                && let Some(name) = toks.get(m + 2)
            {
                let module = module_of(file);
                let segments = module
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned);
                reexports.insert(name.0.clone(), segments.collect());
            }
        }
    }
    // Table macros: their rows' targets, by macro name; callbacks: whether each uses types.
    let mut tables: BTreeMap<String, BTreeSet<Module>> = BTreeMap::new();
    let mut typed_callbacks: BTreeMap<String, bool> = BTreeMap::new();
    for (file, source) in files {
        let stripped = strip(source);
        for def in macro_defs(&stripped) {
            typed_callbacks.insert(def.name.clone(), def.uses_types);
            if def.is_table {
                let rows: String = stripped
                    .chars()
                    .take(def.body.end)
                    .skip(def.body.start)
                    .collect();
                let targets = references(&rows, &module_of(file), &modules)
                    .into_iter()
                    .map(|(_, abs, _)| target(abs, &modules, &reexports))
                    .collect();
                tables.insert(def.name, targets);
            }
        }
    }
    let mut g = Graph::default();
    for (file, source) in files {
        let module = module_of(file);
        let out = g.edges.entry(module.clone()).or_default();
        let stripped = strip(source);
        let defs = macro_defs(&stripped);
        // A table's expansions: `table!(callback)` with a callback that uses the types (or one
        // this crate does not define) depends on every row's module.
        let toks = tokens(&stripped);
        let tok = |k: usize| toks.get(k).map_or("", |t| t.0.as_str());
        for (k, (name, line)) in toks.iter().enumerate() {
            if let Some(targets) = tables.get(name)
                && tok(k + 1) == "!"
                && matches!(tok(k + 2), "(" | "{" | "[")
                && typed_callbacks.get(tok(k + 3)).copied().unwrap_or(true)
            {
                for to in targets.iter().filter(|&to| *to != module) {
                    out.entry(to.clone()).or_insert_with(|| Site {
                        file: file.clone(),
                        line: *line,
                        path: format!("{name}!({})", tok(k + 3)),
                    });
                }
            }
        }
        for (line, abs, path) in references(&without_tables(&stripped, &defs), &module, &modules) {
            let to = target(abs, &modules, &reexports);
            if to != module {
                out.entry(to).or_insert_with(|| Site {
                    file: file.clone(),
                    line,
                    path,
                });
            }
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{cycles, describe};

    #[test]
    fn binary_targets_are_not_library_modules() {
        assert!(is_library_file("lib.rs") && is_library_file("a/mod.rs"));
        assert!(is_library_file("a/bin/b.rs"));
        assert!(!is_library_file("main.rs") && !is_library_file("bin/tool.rs"));
        assert!(!is_library_file("a/README.md"));
    }

    /// The checker itself: each kind of path makes an edge, and a cycle through them is reported.
    #[test]
    fn a_cycle_is_reported() {
        let files = |extra: &str| {
            let file = |path: &str, source: &str| (path.to_owned(), source.to_owned());
            vec![
                file(
                    "lib.rs",
                    "mod a;\nmod b;\nmod c;\npub use b::Item as Alias;\npub use Alias as Again;\n",
                ),
                file(
                    "a/mod.rs",
                    "mod inner;\nuse crate::c;\nfn f() { inner::g(); c::d::h() }\n\
                     macro_rules! m { () => { $crate::c::Y }; }\n",
                ),
                file("a/inner.rs", "use super::super::{b::{self, x}, c::Y};\n"),
                file(
                    "b.rs",
                    &format!(
                        "// crate::a is a comment\nconst S: &str = \"crate::a\"; /* crate::a */\n\
                         pub(in crate::b) fn f() {{ let _ = ('{{', '\\'', r#\"crate::a\"#); }}\n\
                         #[cfg(test)]\nmod tests {{ use super::*; }}\n{extra}"
                    ),
                ),
                file("c/mod.rs", "mod d;\nfn k() { crate::Again::new(); }"),
                file("c/d.rs", ""),
            ]
        };
        let g = graph(&files(""));
        let edges = |m: &str| g.edges[m].keys().cloned().collect::<Vec<_>>();
        assert_eq!(edges(""), ["b"]);
        assert_eq!(edges("a"), ["a::inner", "c", "c::d"]);
        assert_eq!(edges("a::inner"), ["b", "c"]);
        assert!(edges("b").is_empty(), "{g:#?}");
        assert_eq!(edges("c"), ["b"]);
        assert!(cycles(&g).is_empty());

        // A table macro in `c::d` names `b`'s type: expanding it with a callback that takes the facts
        // alone makes no edge, with one that writes the type out an edge to `b` (from `a`).
        let mut tabled = files("");
        tabled[5].1 = "#[macro_export]\nmacro_rules! table { ($cb:ident) => { $cb! { Row { ty: $crate::b::T, n: 1 } } }; }\n\
                       macro_rules! facts { ($($r:ident { ty: $t:ty, n: $n:literal }),*) => { const N: u8 = $($n)+*; }; }\n\
                       crate::table!(facts);\n"
            .to_owned();
        tabled[1].1.push_str(
            "macro_rules! types { ($($r:ident { ty: $t:ty, n: $n:literal }),*) => { $(impl X for $t {})* }; }\n\
             crate::table!(types);\n",
        );
        let g = graph(&tabled);
        let edges = |m: &str| g.edges[m].keys().cloned().collect::<Vec<_>>();
        assert!(edges("c::d").is_empty(), "{g:#?}");
        assert_eq!(edges("a"), ["a::inner", "b", "c", "c::d"]);
        assert_eq!(g.edges["a"]["b"].path, "table!(types)");

        // An inline path in an inline module of `b` closes a cycle.
        let g = graph(&files("mod t { fn g() { crate::a::inner::z(); } }"));
        let found = cycles(&g);
        let cycle = ["b", "a::inner", "b"].map(String::from).to_vec();
        assert!(found.contains(&cycle), "{found:?}");
        assert!(describe(&g, &found).contains("b -> a::inner   (b.rs:6: crate::a::inner::z)"));
    }
}
