//! The check that no module of any crate reaches a module that reaches it back: every `crate::` and
//! `super::` path in a crate's sources (grouped imports expanded; test modules and doc links
//! counted, plain `//` comments left out) is an edge between two modules, compared at every depth of the module tree
//! (siblings under one parent, then their children…); a strongly connected group of two or more
//! is a cycle, reported by the modules that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path, its segments from the crate root (`["judge", "verdict"]`).
type Module = Vec<String>;

/// Edges from a module to the modules its code names.
type Graph = BTreeMap<Module, BTreeSet<Module>>;

/// Checks every crate under `crates/`.
pub fn check(root: &Path) -> Result<(), String> {
    let crates = root.join("crates");
    let entries = std::fs::read_dir(&crates)
        .map_err(|error| format!("cannot list {}: {error}", crates.display()))?;
    let mut found = Vec::new();
    let mut names: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    names.sort();
    for crate_dir in names {
        let sources = read_sources(&crate_dir.join("src"))?;
        for cycle in cycles(&sources) {
            found.push(format!("{}: {cycle}", crate_dir.display()));
        }
    }
    if found.is_empty() {
        println!("layers: no module cycle in any crate");
        Ok(())
    } else {
        Err(format!("module cycles:\n{}", found.join("\n")))
    }
}

/// Each `.rs` file under `src` with its module path.
fn read_sources(src: &Path) -> Result<Vec<(Module, String)>, String> {
    let mut files = Vec::new();
    let mut pending = vec![src.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|error| format!("cannot list {}: {error}", dir.display()))?;
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
                let relative = path.strip_prefix(src).unwrap_or(&path).with_extension("");
                let mut module: Module = relative
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(
                    module.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    module.pop();
                }
                files.push((module, text));
            }
        }
    }
    Ok(files)
}

/// The cycles among `sources` (module path, text), each as its edges.
fn cycles(sources: &[(Module, String)]) -> Vec<String> {
    let modules: BTreeSet<Module> = sources.iter().map(|(module, _)| module.clone()).collect();
    let mut edges: Graph = BTreeMap::new();
    for (module, text) in sources {
        for target in named_paths(module, &code_of(text)) {
            if let Some(resolved) = longest_module(&modules, &target) {
                edges.entry(module.clone()).or_default().insert(resolved);
            }
        }
    }
    let depth = modules.iter().map(Vec::len).max().unwrap_or(0);
    let mut reported = BTreeSet::new();
    let mut found = Vec::new();
    for level in 1..=depth {
        let graph = at_depth(&edges, level);
        for group in strongly_connected(&graph) {
            if reported.insert(group.clone()) {
                let names: Vec<String> = group.iter().map(|module| module.join("::")).collect();
                found.push(format!("{{{}}}", names.join(", ")));
            }
        }
    }
    found
}

/// The text without its plain comment lines; doc comments stay, for their links are edges too.
fn code_of(text: &str) -> String {
    text.lines()
        .filter(|line| {
            let line = line.trim_start();
            !line.starts_with("//") || line.starts_with("///") || line.starts_with("//!")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module path `code` (in `module`) names through `crate::` or `super::`, absolute.
fn named_paths(module: &Module, code: &str) -> Vec<Module> {
    let bytes = code.as_bytes();
    let mut paths = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let rest = code.get(at..).unwrap_or("");
        let boundary = at == 0
            || !bytes
                .get(at - 1)
                .is_some_and(|byte| byte.is_ascii_alphanumeric() || *byte == b'_' || *byte == b':');
        if boundary && rest.starts_with("crate::") {
            expand(Vec::new(), code, at + "crate::".len(), &mut paths);
            at += "crate::".len();
        } else if boundary && rest.starts_with("super::") {
            let mut base = module.clone();
            let mut cursor = at;
            while code
                .get(cursor..)
                .is_some_and(|tail| tail.starts_with("super::"))
            {
                base.pop();
                cursor += "super::".len();
            }
            expand(base, code, cursor, &mut paths);
            at = cursor;
        } else {
            at += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    paths
}

/// The paths of the use tree starting at `at` under `prefix`: `a::b`, `{a, b::{c, d}}`.
fn expand(prefix: Module, code: &str, at: usize, out: &mut Vec<Module>) -> usize {
    let mut path = prefix;
    let mut cursor = at;
    loop {
        let rest = code.get(cursor..).unwrap_or("");
        if rest.starts_with('{') {
            cursor += 1;
            loop {
                cursor += leading_space(code.get(cursor..).unwrap_or(""));
                let tail = code.get(cursor..).unwrap_or("");
                if tail.is_empty() || tail.starts_with('}') {
                    return cursor + 1;
                }
                cursor = expand(path.clone(), code, cursor, out);
                cursor += leading_space(code.get(cursor..).unwrap_or(""));
                if code.get(cursor..).is_some_and(|tail| tail.starts_with(',')) {
                    cursor += 1;
                }
            }
        }
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            break;
        }
        cursor += ident.len();
        if ident != "self" {
            path.push(ident);
        }
        if code
            .get(cursor..)
            .is_some_and(|tail| tail.starts_with("::"))
        {
            cursor += 2;
        } else {
            break;
        }
    }
    out.push(path);
    skip_rest_of_item(code, cursor)
}

fn leading_space(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// Past ` as name` after a path in a use tree.
fn skip_rest_of_item(code: &str, at: usize) -> usize {
    let rest = code.get(at..).unwrap_or("");
    let trimmed = rest.trim_start();
    if let Some(after) = trimmed.strip_prefix("as ") {
        let name = after.trim_start();
        let length = name
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .count();
        return code.len() - name.len() + length;
    }
    at
}

/// The longest prefix of `path` that is a module.
fn longest_module(modules: &BTreeSet<Module>, path: &Module) -> Option<Module> {
    (0..=path.len())
        .rev()
        .filter_map(|length| path.get(..length))
        .find(|prefix| modules.contains(*prefix))
        .map(<[String]>::to_vec)
}

/// The edges between modules cut to `level` segments, none between a module and its ancestor.
fn at_depth(edges: &Graph, level: usize) -> Graph {
    let cut = |module: &Module| {
        module
            .get(..level.min(module.len()))
            .unwrap_or(module)
            .to_vec()
    };
    let mut graph: Graph = BTreeMap::new();
    for (from, targets) in edges {
        for to in targets {
            let (from, to) = (cut(from), cut(to));
            if !from.starts_with(&to) && !to.starts_with(&from) {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// The strongly connected groups of two or more modules (Tarjan).
fn strongly_connected(graph: &Graph) -> Vec<BTreeSet<Module>> {
    struct Search<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on_stack: BTreeSet<&'g Module>,
        groups: Vec<BTreeSet<Module>>,
    }
    impl<'g> Search<'g> {
        fn visit(&mut self, node: &'g Module) {
            let number = self.index.len();
            self.index.insert(node, number);
            self.low.insert(node, number);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let lowest = self.low[node].min(self.low[next]);
                    self.low.insert(node, lowest);
                } else if self.on_stack.contains(next) {
                    let lowest = self.low[node].min(self.index[next]);
                    self.low.insert(node, lowest);
                }
            }
            if self.low[node] == self.index[node] {
                let mut group = BTreeSet::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    group.insert(member.clone());
                    if member == node {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.groups.push(group);
                }
            }
        }
    }
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for node in graph.keys() {
        if !search.index.contains_key(node) {
            search.visit(node);
        }
    }
    search.groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(path: &str) -> Module {
        path.split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    }

    fn source(path: &str, text: &str) -> (Module, String) {
        (module(path), text.to_owned())
    }

    #[test]
    fn grouped_and_relative_paths_are_expanded() {
        let named = named_paths(
            &module("judge::verdict"),
            "use crate::{json::{Map, Value}, outcome};\nuse super::super::report as r;\nlet x = super::reply::read();",
        );
        assert_eq!(
            named,
            vec![
                module("json::Map"),
                module("json::Value"),
                module("outcome"),
                module("report"),
                module("judge::reply::read"),
            ]
        );
    }

    #[test]
    fn a_cycle_between_siblings_is_found_at_its_depth_and_plain_comments_are_not_edges() {
        let sources = vec![
            source("", "mod a; mod b;"),
            source("a", "mod x; mod y;"),
            source("a::x", "use super::y::Thing;"),
            source("a::y", "use crate::a::x::Other;"),
            source("b", "// see crate::a\n   // and crate::a::x"),
            source("a::z", "use crate::b;"),
        ];
        assert_eq!(cycles(&sources), vec!["{a::x, a::y}".to_owned()]);
    }

    #[test]
    fn test_modules_and_doc_links_are_edges() {
        let through_a_test_module = vec![
            source("", ""),
            source("a", "use crate::b;"),
            source("b", "fn f() {}\n#[cfg(test)]\nmod tests { use crate::a; }"),
        ];
        assert_eq!(cycles(&through_a_test_module), vec!["{a, b}".to_owned()]);
        let through_a_tests_file = vec![
            source("", ""),
            source("a", "use crate::b;"),
            source("b", "#[cfg(test)]\nmod tests;"),
            source("b::tests", "use crate::a::run;"),
        ];
        assert_eq!(cycles(&through_a_tests_file), vec!["{a, b}".to_owned()]);
        let through_a_doc_link = vec![
            source("", ""),
            source("a", "use crate::b;"),
            source("b", "/// As [`crate::a::run`] does.\npub fn f() {}"),
        ];
        assert_eq!(cycles(&through_a_doc_link), vec!["{a, b}".to_owned()]);
    }

    #[test]
    fn a_reach_into_a_parent_is_no_cycle_but_a_reach_across_is() {
        let parent_child = vec![
            source("", ""),
            source("engine", "pub mod judged; use crate::engine::judged::run;"),
            source("engine::judged", "use super::Session;"),
        ];
        assert!(cycles(&parent_child).is_empty());
        let across = vec![
            source("", ""),
            source("report", "use crate::dataset::Row;"),
            source("dataset", "mod m365;"),
            source("dataset::m365", "use crate::report::Dialect;"),
        ];
        assert_eq!(cycles(&across), vec!["{dataset, report}".to_owned()]);
    }
}
