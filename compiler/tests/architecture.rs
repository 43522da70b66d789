//! ARCHITECTURE.md's code map names every Rust source file of the workspace's crates, by the
//! rule stated at the top of the map: a file is named by its path in its crate's block
//! (`src/diag.rs`), or by its file name in the entry of its directory (`elf.rs` in the
//! `src/driver/` entry); a directory's `mod.rs` is named by the directory's entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The crates whose `src/` the map must cover.
const CRATES: [&str; 4] = ["compiler", "capert", "caperun", "cape-format"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The code map: the first fenced block after `## Code map`.
fn code_map(text: &str) -> &str {
    let start = text
        .find("## Code map")
        .expect("ARCHITECTURE.md has a `## Code map`");
    let rest = &text[start..];
    let open = rest.find("```").expect("the code map is a fenced block") + 3;
    let body = &rest[open..];
    let close = body.find("```").expect("the code map's block is closed");
    &body[..close]
}

/// (crate directory, entry path) -> the entry's text with its continuation lines. Crates start
/// at column 0 (`capert/`), their entries at column 2 (`  src/ft/`), continuations deeper.
fn entries(map: &str) -> BTreeMap<(String, String), String> {
    let mut entries = BTreeMap::new();
    let mut krate = String::new();
    let mut current: Option<(String, String)> = None;
    for line in map.lines() {
        let indent = line.len() - line.trim_start().len();
        let first = line.split_whitespace().next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        if indent == 0 {
            krate = first.trim_end_matches('/').to_string();
            current = Some((krate.clone(), String::new()));
        } else if indent == 2 {
            current = Some((krate.clone(), first.to_string()));
        }
        if let Some(key) = &current {
            let text: &mut String = entries.entry(key.clone()).or_default();
            text.push_str(line);
            text.push('\n');
        }
    }
    entries
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `text` names `file` as a word (not as the tail of a longer name).
fn names(text: &str, file: &str) -> bool {
    text.match_indices(file).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + file.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn code_map_names_every_source_file() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let entries = entries(code_map(&text));
    let mut unnamed = Vec::new();
    for krate in CRATES {
        let base = root.join(krate);
        let mut files = Vec::new();
        rust_files(&base.join("src"), &mut files);
        files.sort();
        for file in files {
            let relative = file
                .strip_prefix(&base)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let key = |entry: &str| (krate.to_string(), entry.to_string());
            let (dir, name) = match relative.rsplit_once('/') {
                Some((dir, name)) => (format!("{dir}/"), name.to_string()),
                None => (String::new(), relative.clone()),
            };
            let named = entries.contains_key(&key(&relative))
                || entries
                    .get(&key(&dir))
                    .is_some_and(|text| name == "mod.rs" || names(text, &name));
            if !named {
                unnamed.push(format!("{krate}/{relative}"));
            }
        }
    }
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md's code map does not name these files (add them to their crate's \
         block, by path or by file name in their directory's entry):\n  {}",
        unnamed.join("\n  ")
    );
}

#[test]
fn the_rule_reads_the_map_as_intended() {
    let map = "capert/   runtime\n  src/ft/   fault tolerance: log.rs (format), auth.rs\n\
               \x20                  replay.rs (checks)\n  src/diff.rs   diffs\n";
    let entries = entries(map);
    let ft = &entries[&("capert".to_string(), "src/ft/".to_string())];
    assert!(names(ft, "replay.rs") && names(ft, "log.rs"));
    assert!(!names(ft, "g.rs") && !names(ft, "diff.rs"));
    assert!(entries.contains_key(&("capert".to_string(), "src/diff.rs".to_string())));
}

/// The code of `file`: without its `#[cfg(test)]` module (tests may read files and print) and
/// without comment lines (docs may name any module).
fn non_test_source(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let code = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Invariant: only `compiler/src/driver/` performs I/O or spawns processes.
#[test]
fn only_the_driver_does_io() {
    let src = root().join("compiler/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let io = [
        "std::fs",
        "std::process",
        "std::io::stdin",
        "std::io::stdout",
        "std::io::stderr",
        "std::net",
        "std::env",
        "File::",
        "Command::",
        "println!",
        "eprintln!",
        "print!(",
        "eprint!(",
    ];
    let mut found = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // the driver does the I/O; main.rs only calls it; tests.rs files are test modules
        if relative.starts_with("driver/")
            || relative == "main.rs"
            || relative.ends_with("tests.rs")
        {
            continue;
        }
        let text = non_test_source(&file);
        for what in io {
            if text.contains(what) {
                found.push(format!("compiler/src/{relative}: {what}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "I/O outside compiler/src/driver/ (the rest of the compiler is pure):\n  {}",
        found.join("\n  ")
    );
}

/// Top-level module -> the top-level modules it names through `crate::` (a directory module
/// counts as one, with all its files).
fn module_graph(src: &Path) -> BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let module = relative
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = non_test_source(&file);
        let uses = graph.entry(module.clone()).or_default();
        for (at, _) in text.match_indices("crate::") {
            let name: String = text[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != module {
                uses.insert(name);
            }
        }
        // `use crate::{a, b::c}` groups
        for (at, _) in text.match_indices("crate::{") {
            let group = &text[at + 8..];
            let group = &group[..group.find('}').unwrap_or(0)];
            for item in group.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    uses.insert(name);
                }
            }
        }
    }
    graph
}

/// A cycle in `graph`, if there is one, as the list of modules around it.
fn find_cycle(graph: &BTreeMap<String, std::collections::BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, std::collections::BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(2) => return None,
            Some(1) => {
                let from = path.iter().position(|n| n == node).unwrap();
                let mut cycle = path[from..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if graph.contains_key(next) {
                if let Some(cycle) = visit(next, graph, state, path) {
                    return Some(cycle);
                }
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, graph, &mut state, &mut Vec::new()) {
            return Some(cycle);
        }
    }
    None
}

/// Invariant: the top-level modules of the runtime and of the compiler depend on each other
/// one way only (no module imports one that imports it back).
#[test]
fn no_module_cycles() {
    for krate in ["compiler", "capert", "caperun", "cape-format"] {
        let graph = module_graph(&root().join(krate).join("src"));
        if let Some(cycle) = find_cycle(&graph) {
            panic!("{krate}: modules import each other: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn a_cycle_is_found() {
    let mut graph: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    graph.entry("a".into()).or_default().insert("b".into());
    graph.entry("b".into()).or_default().insert("c".into());
    graph.entry("c".into()).or_default();
    assert_eq!(find_cycle(&graph), None);
    graph.entry("c".into()).or_default().insert("a".into());
    assert!(find_cycle(&graph).is_some());
}
