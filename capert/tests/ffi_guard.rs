//! No panic crosses the C ABI: every symbol `libcapert.a` exports from capert's own code is an
//! `extern "C" fn` of `src/ffi/` whose whole body runs inside `guard(...)`, and so is every
//! other `extern "C" fn` there (callbacks handed to C: the exit hook, the user-stack trampoline).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/libcapert.a`, next to this test's `deps/` directory.
fn static_lib() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let lib = profile_dir.join("libcapert.a");
    assert!(
        lib.is_file(),
        "{} is missing: cargo builds it with the library",
        lib.display()
    );
    lib
}

/// Unmangled global functions defined in capert's own objects of the archive.
fn exported_symbols(lib: &Path) -> Vec<String> {
    let out = Command::new("nm")
        .args(["-g", "--defined-only"])
        .arg(lib)
        .output()
        .expect("`nm` (binutils) is needed to list the exports of libcapert.a");
    assert!(out.status.success(), "nm failed on {}", lib.display());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut ours = false;
    let mut symbols = Vec::new();
    for line in text.lines() {
        if line.ends_with(".o:") {
            ours = line.starts_with("capert-");
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let [_, "T", name] = fields[..] {
            if ours && !name.starts_with("_ZN") && !name.starts_with("_R") {
                symbols.push(name.to_string());
            }
        }
    }
    symbols
}

/// Every `extern "C" fn` of `src/ffi/`: name -> (file, whether its body is one `guard(...)`).
fn ffi_functions() -> BTreeMap<String, (String, bool)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ffi");
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("src/ffi") {
        let path = entry.expect("src/ffi entry").path();
        let text = std::fs::read_to_string(&path).expect("ffi source");
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("extern \"C\" fn ") {
            rest = &rest[at + "extern \"C\" fn ".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // a definition has a body; a type (`type F = extern "C" fn(...)`) does not
            let (Some(open), semi) = (rest.find('{'), rest.find(';')) else {
                continue;
            };
            if semi.is_some_and(|s| s < open) {
                continue;
            }
            let guarded = rest[open + 1..].trim_start().starts_with("guard(");
            found.insert(name, (file.clone(), guarded));
        }
    }
    found
}

#[test]
fn every_export_runs_inside_the_panic_guard() {
    let functions = ffi_functions();
    let unguarded: Vec<_> = functions
        .iter()
        .filter(|(_, (_, guarded))| !guarded)
        .map(|(name, (file, _))| format!("{name} (src/ffi/{file})"))
        .collect();
    assert!(
        unguarded.is_empty(),
        "extern \"C\" functions whose body is not `guard(...)`: {unguarded:?}"
    );
    let exports = exported_symbols(&static_lib());
    assert!(
        exports.len() >= 60,
        "only {} exports found in libcapert.a: {exports:?}",
        exports.len()
    );
    let outside: Vec<_> = exports
        .iter()
        .filter(|name| !functions.contains_key(*name))
        .collect();
    assert!(
        outside.is_empty(),
        "exported from libcapert.a but not an extern \"C\" fn of src/ffi/: {outside:?}"
    );
}
