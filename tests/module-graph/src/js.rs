//! The JavaScript checker: the graph of one npm package's own files.
//!
//! Every `.js`, `.mjs` and `.cjs` file read is a node. An edge `a -> b` is a string specifier
//! starting with `./` or `../` in `a`'s `require('…')`, `import … from '…'`, `export … from
//! '…'`, `import '…'` or `import('…')` that resolves to `b` as Node resolves a relative
//! specifier: the path itself, then with `.js`, `.cjs`, `.mjs`, then its `index.js`. A specifier
//! that names no file read (`./package.json`, a `.node` addon) or another package makes no
//! edge. Comments, other strings, template literals and regular expressions are not
//! dependencies; a member call (`x.require(…)`) is not one either.
//!
//! Std only, a deliberately small lexer: it understands the code of this package, not all of
//! JavaScript.

use std::collections::BTreeSet;

use crate::graph::{Graph, Site};

/// Whether `relative` is a JavaScript file (`.js`, `.mjs`, `.cjs`).
pub fn is_js_file(relative: &str) -> bool {
    [".js", ".mjs", ".cjs"]
        .iter()
        .any(|ext| relative.ends_with(ext))
}

/// A token: an identifier or number, a string literal's value, or one punctuation character.
#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Str(String),
    Punct(char),
}

/// The tokens of `source` with their lines. Comments, regular expressions and template
/// literals with substitutions are dropped; a template literal without any is a string.
fn tokens(source: &str) -> Vec<(Token, usize)> {
    let c: Vec<char> = source.chars().collect();
    let at = |k: usize| c.get(k).copied().unwrap_or('\0');
    let is_word = |ch: char| ch.is_alphanumeric() || ch == '_' || ch == '$';
    let mut out: Vec<(Token, usize)> = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Skips `c[i..]` up to and including the unescaped `close`, counting lines.
    let skip_to = |i: &mut usize, line: &mut usize, close: char| {
        while *i < c.len() && c[*i] != close {
            if c[*i] == '\\' {
                *i += 1;
            }
            if at(*i) == '\n' {
                *line += 1;
            }
            *i += 1;
        }
        *i += 1;
    };
    while i < c.len() {
        let ch = c[i];
        // A `/` starts a regular expression where a value may start: not after a value.
        let after_value = match out.last() {
            Some((Token::Word(w), _)) => !matches!(
                w.as_str(),
                "return"
                    | "typeof"
                    | "instanceof"
                    | "in"
                    | "of"
                    | "new"
                    | "delete"
                    | "void"
                    | "throw"
                    | "case"
                    | "do"
                    | "else"
                    | "yield"
                    | "await"
            ),
            Some((Token::Str(_), _)) => true,
            Some((Token::Punct(p), _)) => matches!(p, ')' | ']' | '}'),
            None => false,
        };
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            i += 2;
            while i < c.len() && !(c[i] == '*' && at(i + 1) == '/') {
                if c[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
        } else if ch == '/' && !after_value {
            // A regular expression: up to the `/` outside a class, then its flags.
            let mut class = false;
            i += 1;
            while i < c.len() && c[i] != '\n' && (class || c[i] != '/') {
                match c[i] {
                    '\\' => i += 1,
                    '[' => class = true,
                    ']' => class = false,
                    _ => {}
                }
                i += 1;
            }
            i += 1;
            while i < c.len() && is_word(c[i]) {
                i += 1;
            }
            // A value: what follows it is not a regular expression.
            out.push((Token::Punct(')'), line));
        } else if ch == '\'' || ch == '"' {
            let (start, first_line) = (i + 1, line);
            i += 1;
            skip_to(&mut i, &mut line, ch);
            let text: String = c[start..(i - 1).min(c.len())].iter().collect();
            out.push((Token::Str(text), first_line));
        } else if ch == '`' {
            // A template literal; substitutions (`${…}`, braces counted) make it no string.
            let (start, first_line) = (i + 1, line);
            let mut substituted = false;
            i += 1;
            while i < c.len() && c[i] != '`' {
                if c[i] == '\\' {
                    i += 1;
                } else if c[i] == '$' && at(i + 1) == '{' {
                    substituted = true;
                    let mut depth = 0;
                    while i < c.len() {
                        match c[i] {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            '\n' => line += 1,
                            _ => {}
                        }
                        if depth == 0 && c[i] == '}' {
                            break;
                        }
                        i += 1;
                    }
                } else if c[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
            let token = if substituted {
                Token::Punct(')')
            } else {
                Token::Str(c[start..(i - 1).min(c.len())].iter().collect())
            };
            out.push((token, first_line));
        } else if is_word(ch) {
            let start = i;
            while i < c.len() && is_word(c[i]) {
                i += 1;
            }
            out.push((Token::Word(c[start..i].iter().collect()), line));
        } else {
            out.push((Token::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// Every module specifier of `source`: (line, specifier, the import as written).
fn specifiers(source: &str) -> Vec<(usize, String, String)> {
    let toks = tokens(source);
    let word = |k: usize| match toks.get(k) {
        Some((Token::Word(w), _)) => w.as_str(),
        _ => "",
    };
    let punct = |k: usize, p: char| matches!(toks.get(k), Some((Token::Punct(q), _)) if *q == p);
    let string = |k: usize| match toks.get(k) {
        Some((Token::Str(s), _)) => Some(s.clone()),
        _ => None,
    };
    let mut found = Vec::new();
    for (k, (_, line)) in toks.iter().enumerate() {
        if k > 0 && punct(k - 1, '.') {
            continue;
        }
        let call = punct(k + 1, '(') && punct(k + 3, ')');
        let (spec, written) = match word(k) {
            "require" if call => (string(k + 2), "require('{}')"),
            "import" if call => (string(k + 2), "import('{}')"),
            "import" => (string(k + 1), "import '{}'"),
            "from" => (string(k + 1), "from '{}'"),
            _ => continue,
        };
        if let Some(spec) = spec {
            let written = written.replace("{}", &spec);
            found.push((*line, spec, written));
        }
    }
    found
}

/// `path` with `.` and `..` segments resolved, or `None` if it leaves the package.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            seg => parts.push(seg),
        }
    }
    Some(parts.join("/"))
}

/// The file a relative specifier written in `from` names among `files`, or `None`.
fn resolve(from: &str, spec: &str, files: &BTreeSet<String>) -> Option<String> {
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let path = normalize(&format!("{dir}/{spec}"))?;
    [
        path.clone(),
        format!("{path}.js"),
        format!("{path}.cjs"),
        format!("{path}.mjs"),
        format!("{path}/index.js"),
    ]
    .into_iter()
    .find(|p| files.contains(p))
}

/// The graph of `files` (path relative to the package, source).
pub fn graph(files: &[(String, String)]) -> Graph {
    let names: BTreeSet<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut g = Graph::default();
    for (file, source) in files {
        let out = g.edges.entry(file.clone()).or_default();
        for (line, spec, path) in specifiers(source) {
            let to = (spec.starts_with("./") || spec.starts_with("../"))
                .then(|| resolve(file, &spec, &names))
                .flatten();
            if let Some(to) = to {
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

    /// Each kind of import makes an edge, the rest none, and a cycle through them is reported.
    #[test]
    fn a_js_cycle_is_reported() {
        let file = |path: &str, source: &str| (path.to_owned(), source.to_owned());
        let files = vec![
            file(
                "a.js",
                "'use strict'\nconst b = require('./b')\nconst pkg = require('./package.json')\n\
                 const addon = require('./a.linux-x64-gnu.node')\nconst fs = require('node:fs')\n",
            ),
            file(
                "b.mjs",
                "// require('./a.js')\n/* import './a.js' */\nconst s = \"require('./a.js')\"\n\
                 const r = /require\\('.\\/a.js'\\)/g\nconst t = `${x} import('./a.js')`\n\
                 x.require('./a.js')\nimport { c } from './lib/c.mjs'\n",
            ),
            file(
                "lib/c.mjs",
                "export * from '../d.cjs'\nimport '../native.js'\nimport v8 from 'node:v8'\n",
            ),
            file("d.cjs", "module.exports = {}\n"),
            file("native.js", "const { x } = require('./lib')\n"),
            file("lib/index.js", "module.exports = 1\n"),
        ];
        let g = graph(&files);
        let edges = |g: &Graph, m: &str| g.edges[m].keys().cloned().collect::<Vec<_>>();
        assert_eq!(edges(&g, "a.js"), ["b.mjs"]);
        assert_eq!(edges(&g, "b.mjs"), ["lib/c.mjs"], "{g:#?}");
        assert_eq!(edges(&g, "lib/c.mjs"), ["d.cjs", "native.js"]);
        assert_eq!(edges(&g, "native.js"), ["lib/index.js"]);
        assert!(cycles(&g).is_empty());

        // A dynamic import back to `a.js` closes a cycle.
        let mut cyclic = files.clone();
        cyclic[3].1.push_str("\nconst a = await import('./a.js')\n");
        let g = graph(&cyclic);
        let found = cycles(&g);
        let cycle = ["a.js", "b.mjs", "lib/c.mjs", "d.cjs", "a.js"]
            .map(String::from)
            .to_vec();
        assert_eq!(found, [cycle], "{g:#?}");
        assert!(
            describe(&g, &found).contains("d.cjs -> a.js   (d.cjs:3: import('./a.js'))"),
            "{}",
            describe(&g, &found)
        );
    }
}
