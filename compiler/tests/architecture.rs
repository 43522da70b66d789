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
    let start = text.find("## Code map").expect("ARCHITECTURE.md has a `## Code map`");
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
            let relative = file.strip_prefix(&base).unwrap().to_string_lossy().into_owned();
            let key = |entry: &str| (krate.to_string(), entry.to_string());
            let (dir, name) = match relative.rsplit_once('/') {
                Some((dir, name)) => (format!("{dir}/"), name.to_string()),
                None => (String::new(), relative.clone()),
            };
            let named = entries.contains_key(&key(&relative))
                || entries.get(&key(&dir)).is_some_and(|text| {
                    name == "mod.rs" || names(text, &name)
                });
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
