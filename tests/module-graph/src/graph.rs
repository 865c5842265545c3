//! The graph both checkers build, its cycles and their report.

use std::collections::{BTreeMap, BTreeSet};

/// A node: a Rust module path (`""` for the crate root, else `a::b`) or a JavaScript file's path
/// under its package (`sno.js`, `browser/native.js`).
pub type Module = String;

/// Where an edge was seen: file, line and the path or specifier as written.
#[derive(Clone, Debug)]
pub struct Site {
    /// The file, relative to the folder that was read.
    pub file: String,
    /// Its line, from 1.
    pub line: usize,
    /// The path (Rust) or the `require` / `import` (JavaScript) as written.
    pub path: String,
}

/// The module graph: for each module, the modules it uses and one site for each edge.
#[derive(Default, Debug)]
pub struct Graph {
    /// `from -> (to -> where)`; every module read has an entry, if only an empty one.
    pub edges: BTreeMap<Module, BTreeMap<Module, Site>>,
}

impl Graph {
    /// The modules `from` reaches through one or more edges (itself included).
    pub fn reach(&self, from: &str) -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(m) = todo.pop() {
            if seen.insert(m.clone()) {
                todo.extend(
                    self.edges
                        .get(&m)
                        .into_iter()
                        .flat_map(|e| e.keys().cloned()),
                );
            }
        }
        seen
    }

    /// How many edges the graph has.
    pub fn edge_count(&self) -> usize {
        self.edges.values().map(BTreeMap::len).sum()
    }
}

/// Every cycle a depth-first search meets (one per back edge), as module lists `a, b, …, a`.
pub fn cycles(g: &Graph) -> Vec<Vec<Module>> {
    fn visit(
        g: &Graph,
        m: &Module,
        stack: &mut Vec<Module>,
        done: &mut BTreeSet<Module>,
        found: &mut Vec<Vec<Module>>,
    ) {
        if let Some(pos) = stack.iter().position(|s| s == m) {
            let mut cycle = stack[pos..].to_vec();
            cycle.push(m.clone());
            found.push(cycle);
            return;
        }
        if done.contains(m) {
            return;
        }
        stack.push(m.clone());
        for next in g.edges.get(m).into_iter().flat_map(BTreeMap::keys) {
            visit(g, next, stack, done, found);
        }
        stack.pop();
        done.insert(m.clone());
    }
    let (mut done, mut found) = (BTreeSet::new(), Vec::new());
    for m in g.edges.keys() {
        visit(g, m, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

/// The cycles, each edge with where it is written (`crate` names a Rust crate's root).
pub fn describe(g: &Graph, cycles: &[Vec<Module>]) -> String {
    let name = |m: &str| {
        if m.is_empty() {
            "crate".to_owned()
        } else {
            m.to_owned()
        }
    };
    let mut text = String::new();
    for cycle in cycles {
        text.push_str("cycle:\n");
        for pair in cycle.windows(2) {
            let site = &g.edges[&pair[0]][&pair[1]];
            text.push_str(&format!(
                "  {} -> {}   ({}:{}: {})\n",
                name(&pair[0]),
                name(&pair[1]),
                site.file,
                site.line,
                site.path
            ));
        }
    }
    text
}
