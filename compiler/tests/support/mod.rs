//! Helpers shared by the golden and run tests.

use std::path::{Path, PathBuf};
use std::process::Command;

use capecc::diag::{Diagnostic, Severity, Span};
use capecc::preprocess::LineMap;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Include directories: the runtime's headers, with the test stub of capert.h while the real
/// one does not exist yet.
pub fn include_dirs() -> Vec<PathBuf> {
    let runtime = root().join("../capert/include");
    let mut dirs = Vec::new();
    if !runtime.join("capert.h").exists() {
        dirs.push(root().join("tests/ui/stub"));
    }
    dirs.push(runtime);
    dirs
}

pub fn preprocess(dir: &Path, file: &str) -> String {
    let mut cmd = Command::new("cc");
    cmd.current_dir(dir).args(["-E", "-dD", "-D_OPENMP=201511"]);
    for d in include_dirs() {
        cmd.arg("-I").arg(d);
    }
    let out = cmd.arg(file).output().expect("cc runs");
    assert!(
        out.status.success(),
        "cc -E {file} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn render_span(lines: &LineMap, span: Span) -> String {
    match lines.locate(span.start) {
        Some(l) => format!("{}:{}:{}", l.file, l.line, l.column),
        None => "?".to_string(),
    }
}

/// Plain-text rendering for tests: `file:line:col: error: message`, then labels and notes.
pub fn render_diagnostics(pre: &str, diags: &[Diagnostic]) -> String {
    let lines = LineMap::new(pre);
    let mut out = String::new();
    for d in diags {
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        let at = d
            .primary
            .as_ref()
            .map_or("?".to_string(), |(s, _)| render_span(&lines, *s));
        out.push_str(&format!("{at}: {severity}: {}\n", d.message));
        if let Some((_, label)) = &d.primary {
            out.push_str(&format!("  label: {label}\n"));
        }
        for (s, label) in &d.secondary {
            out.push_str(&format!("  {}: {label}\n", render_span(&lines, *s)));
        }
        for n in &d.notes {
            out.push_str(&format!("  = note: {n}\n"));
        }
    }
    out
}
