//! Golden tests: each `tests/ui/<name>.c` is preprocessed like the driver does, translated with
//! the `--emit-c` options, and compared with `<name>.out.c` (translation) and `<name>.stderr`
//! (diagnostics: the errors, or the warnings of a translation that succeeds). Every emitted
//! file is also compiled. `CAPECC_BLESS=1` rewrites the expectations.

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
                // warnings of a translation that succeeds are expectations too
                if !t.warnings.is_empty() {
                    check(
                        &err_path,
                        &render_diagnostics(&pre, &t.warnings),
                        bless,
                        &mut failures,
                    );
                } else if bless {
                    let _ = std::fs::remove_file(&err_path);
                } else if err_path.exists() {
                    failures.push(format!("{stem}.stderr expects warnings; none came"));
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

/// The translator never panics: every golden input with one line removed, or one pragma line
/// duplicated, translates or reports diagnostics.
#[test]
fn mutated_inputs_do_not_panic() {
    let dir = root().join("tests/ui");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/ui")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".c") && !n.ends_with(".out.c"))
        .collect();
    names.sort();
    let opts = TranslateOptions {
        line_markers: true,
        collapse_system_headers: true,
    };
    let mut variants = 0;
    for name in &names {
        let pre = preprocess(&dir, name);
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
        let lines: Vec<&str> = pre.split_inclusive('\n').collect();
        // only the user's part: after the last system-header line marker
        let first = lines
            .iter()
            .rposition(|l| {
                l.starts_with("# ") && l.contains(&format!("\"{name}\"")) && l.ends_with(" 2\n")
            })
            .map_or(0, |i| i + 1);
        // the interesting lines: directives and block boundaries
        let interesting = |l: &str| l.starts_with("#pragma") || l.contains('{') || l.contains('}');
        for i in (first..lines.len()).filter(|&i| lines.get(i).is_some_and(|l| interesting(l))) {
            let mut removed = String::new();
            let mut duplicated = String::new();
            for (k, l) in lines.iter().enumerate() {
                if k != i {
                    removed.push_str(l);
                }
                duplicated.push_str(l);
                if k == i && l.starts_with("#pragma") {
                    duplicated.push_str(l);
                }
            }
            for text in [removed, duplicated] {
                variants += 1;
                let result = std::panic::catch_unwind(|| translate(&text, &opts, &read).is_ok());
                assert!(result.is_ok(), "{name}: panic with line {} changed", i + 1);
            }
        }
    }
    assert!(variants > 100, "only {variants} variants");
}
