//! `#pragma omp ...` lines: lexer, parser and the directive syntax tree.

pub mod ast;
mod kind;
mod lexer;
mod parser;
mod rules;
mod unsupported;

pub use ast::*;
pub use parser::constant_value;
pub use rules::{allowed_clauses, clause_allowed};

use crate::diag::Diagnostic;

/// Parse one pragma line of the preprocessed text. `line` is the whole line starting at `#`
/// (e.g. `#pragma omp parallel for private(i) reduction(+:s)`), `offset` the byte offset of that
/// `#` in the preprocessed text; every span produced is absolute (offset + position in line).
/// Returns `Ok(None)` for non-OpenMP pragmas (`#pragma once`, `#pragma GCC ...`), which pass
/// through untouched.
pub fn parse_pragma(line: &str, offset: usize) -> Result<Option<Directive>, Diagnostic> {
    parser::parse_pragma(line, offset)
}

/// Every `#pragma omp` line of a preprocessed translation unit (lines starting with `#pragma`
/// or `# pragma` at column 0), parsed, in order. Errors for bad ones are collected, not fatal
/// for the scan. A pragma line ending in `\` continues on the next line.
pub fn scan(preprocessed: &str) -> (Vec<Directive>, Vec<Diagnostic>) {
    let mut directives = Vec::new();
    let mut errors = Vec::new();
    let mut offset = 0;
    let mut rest = preprocessed;
    while !rest.is_empty() {
        let mut len = pragma_line_len(rest);
        let is_pragma = is_pragma_line(rest);
        if is_pragma {
            // join backslash-newline continuations; the lexer treats them as whitespace
            while rest[..len].trim_end_matches(['\n', '\r']).ends_with('\\') && len < rest.len() {
                len += pragma_line_len(&rest[len..]);
            }
            let line = rest[..len].trim_end_matches(['\n', '\r']);
            match parse_pragma(line, offset) {
                Ok(Some(d)) => directives.push(d),
                Ok(None) => {}
                Err(e) => errors.push(e),
            }
        }
        offset += len;
        rest = &rest[len..];
    }
    errors.extend(unbalanced_declare_target(&directives));
    (directives, errors)
}

/// A warning for each `#pragma omp` line that names no directive: gcc -fopenmp ignores such a
/// line (a warning under `-Wunknown-pragmas`), so capecc ignores it too, and says so.
pub fn bare_pragmas(preprocessed: &str) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let mut offset = 0;
    for line in preprocessed.split_inclusive('\n') {
        if is_pragma_line(line) {
            let toks = lexer::tokenize(line);
            let bare = toks.len() == 3
                && toks[0].is_punct("#")
                && toks[1].is_ident("pragma")
                && toks[2].is_ident("omp");
            if bare {
                let span = crate::diag::Span::new(offset + toks[0].start, offset + toks[2].end);
                warnings.push(
                    Diagnostic::warning("`#pragma omp` without a directive name is ignored")
                        .with_primary(span, "no directive after `omp`")
                        .with_note("gcc ignores it too (`-Wunknown-pragmas`)"),
                );
            }
        }
        offset += line.len();
    }
    warnings
}

/// `declare target` without a list or clauses opens a declaration region that `end declare
/// target` closes (regions may nest): a region left open or an `end` with none open.
fn unbalanced_declare_target(directives: &[Directive]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let mut open: Vec<&Directive> = Vec::new();
    for d in directives {
        match d.kind {
            DirectiveKind::DeclareTarget if d.list_arg.is_empty() && d.clauses.is_empty() => {
                open.push(d)
            }
            DirectiveKind::EndDeclareTarget if open.pop().is_none() => errors.push(
                Diagnostic::error(
                    "`#pragma omp end declare target` without a matching `#pragma omp declare target`",
                )
                .with_primary(d.name_span, "no `declare target` is open here")
                .with_note(
                    "help: remove it, or put `#pragma omp declare target` before the \
                     declarations it closes",
                ),
            ),
            _ => {}
        }
    }
    for d in open {
        errors.push(
            Diagnostic::error(
                "`#pragma omp declare target` without a matching `#pragma omp end declare target`",
            )
            .with_primary(d.name_span, "never closed")
            .with_note(
                "help: put `#pragma omp end declare target` after the declarations it applies to",
            ),
        );
    }
    errors
}

/// Length of the first line of `text`, newline included.
fn pragma_line_len(text: &str) -> usize {
    text.find('\n').map_or(text.len(), |i| i + 1)
}

/// `#pragma` or `# pragma` (spaces or tabs between) at the start of `text`.
fn is_pragma_line(text: &str) -> bool {
    text.strip_prefix('#')
        .map(|t| t.trim_start_matches([' ', '\t']))
        .is_some_and(|t| {
            t.strip_prefix("pragma")
                .is_some_and(|r| r.is_empty() || r.starts_with(|c: char| c.is_whitespace()))
        })
}

#[cfg(test)]
mod tests;
