//! Golden tests: each `tests/ui/<name>.c` is preprocessed like the driver does, translated with
//! the `--emit-c` options, and compared with `<name>.out.c` (translation) or `<name>.stderr`
//! (diagnostics). Every emitted file is also compiled. `CAPECC_BLESS=1` rewrites the expectations.

#[allow(dead_code)]
mod support;

use std::path::Path;
use std::process::Command;

use capecc::{translate, TranslateOptions};
use support::{include_dirs, preprocess, render_diagnostics, root};

fn check(path: &Path, actual: &str, bless: bool, failures: &mut Vec<String>) {
    if bless {
        std::fs::write(path, actual).expect("write expectation");
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {}
        Ok(_) => failures.push(format!(
            "{} differs (re-bless with CAPECC_BLESS=1)",
            path.display()
        )),
        Err(_) => failures.push(format!(
            "{} is missing (bless with CAPECC_BLESS=1)",
            path.display()
        )),
    }
}

#[test]
fn golden() {
    let dir = root().join("tests/ui");
    let bless = std::env::var_os("CAPECC_BLESS").is_some();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/ui")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".c") && !n.ends_with(".out.c"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    for name in &names {
        let stem = name.trim_end_matches(".c");
        let pre = preprocess(&dir, name);
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
        let opts = TranslateOptions {
            line_markers: false,
            collapse_system_headers: true,
        };
        let out_path = dir.join(format!("{stem}.out.c"));
        let err_path = dir.join(format!("{stem}.stderr"));
        match translate(&pre, &opts, &read) {
            Ok(t) => {
                check(&out_path, &t.c, bless, &mut failures);
                if bless {
                    let _ = std::fs::remove_file(&err_path);
                }
                let mut cc = Command::new("cc");
                cc.current_dir(&dir)
                    .args(["-fsyntax-only", "-std=gnu11", "-Wall", "-Wno-unused"]);
                for d in include_dirs() {
                    cc.arg("-I").arg(d);
                }
                let result = cc.arg(&out_path).output().expect("cc runs");
                if !result.status.success() {
                    failures.push(format!(
                        "{stem}.out.c does not compile:\n{}",
                        String::from_utf8_lossy(&result.stderr)
                    ));
                }
            }
            Err(diags) => {
                check(
                    &err_path,
                    &render_diagnostics(&pre, &diags),
                    bless,
                    &mut failures,
                );
                if bless {
                    let _ = std::fs::remove_file(&out_path);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
