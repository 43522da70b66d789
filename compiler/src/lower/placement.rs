//! Where a directive may stand, checked before it is lowered (gcc's rules): an executable
//! directive only inside a function, a stand-alone one (`barrier`, `flush`, ...) only as an item
//! of a compound statement, and `threadprivate` before any use of its variables.

use super::Context;
use crate::diag::{Diagnostic, Span};
use crate::directive::Directive;
use crate::resolve::{Binding, VarId};

/// The last character of code before `offset`, skipping whitespace and preprocessor lines
/// (line markers, `#define`s of `-dD`, other pragmas).
fn code_before(source: &str, offset: usize) -> Option<char> {
    let before = source.get(..offset)?;
    before
        .lines()
        .rev()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .find_map(|line| line.chars().last())
}

/// Whether the line before `offset` (blank lines and line markers skipped) is the pragma of a
/// construct, whose statement would be what follows.
fn construct_pragma_before(source: &str, offset: usize) -> bool {
    let Some(before) = source.get(..offset) else {
        return false;
    };
    let Some(line) = before
        .lines()
        .rev()
        .map(str::trim)
        .find(|line| !line.is_empty() && !is_line_marker(line))
    else {
        return false;
    };
    matches!(
        crate::directive::parse_pragma(line, 0),
        Ok(Some(p)) if p.is_construct()
    )
}

/// `# 12 "file.c"` (`#line` form of the preprocessor's output).
fn is_line_marker(line: &str) -> bool {
    line.strip_prefix('#')
        .map(str::trim_start)
        .is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_digit()) || rest.starts_with("line")
        })
}

/// Errors for a directive standing where gcc refuses it.
pub fn check(cx: &Context, d: &Directive) -> Result<(), Diagnostic> {
    if d.kind.is_declarative() {
        return Ok(());
    }
    let name = d.kind.name();
    if cx.program.function_at(d.span.start).is_none() {
        return Err(Diagnostic::error(format!(
            "`#pragma omp {name}` may only be used inside a function"
        ))
        .with_primary(d.name_span, "at file scope")
        .with_note("an executable directive is a statement of a function body"));
    }
    match misplaced_stand_alone(cx.source, d) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The message of [`misplaced_stand_alone`]'s error, which the driver shows rather than the
/// C compiler's (the C without the directive often does not parse: `if (x) }`).
const STAND_ALONE: &str = "may only be used in compound statements";

/// A stand-alone directive is not a statement: as the body of `if`, `else`, a loop or a label
/// it would take the next statement's place (C does not see it), so gcc refuses it. Read from
/// the text alone, so that it is found when the C around it does not parse.
pub fn misplaced_stand_alone(source: &str, d: &Directive) -> Option<Diagnostic> {
    if !d.is_stand_alone() {
        return None;
    }
    // directly after a construct's pragma (`section`, `parallel`, ...) it would be that
    // construct's statement
    let after_construct = construct_pragma_before(source, d.span.start);
    if !after_construct && matches!(code_before(source, d.span.start), Some(';' | '{' | '}')) {
        return None;
    }
    Some(
        Diagnostic::error(format!("`#pragma omp {}` {STAND_ALONE}", d.kind.name()))
            .with_primary(d.name_span, "the body of a statement or a label")
            .with_note("enclose it in braces `{ ... }` to make it a statement of a block"),
    )
}

/// Whether `error` is one of [`misplaced_stand_alone`]'s.
pub fn is_misplaced_stand_alone(error: &Diagnostic) -> bool {
    error.message.ends_with(STAND_ALONE)
}

/// `threadprivate(x)` after a use of `x` (gcc: "declared `threadprivate` after first use"):
/// code before the directive would refer to the shared variable.
pub fn check_threadprivate_use(
    cx: &Context,
    d: &Directive,
    var: VarId,
    name: Span,
) -> Result<(), Diagnostic> {
    let first = cx
        .program
        .uses
        .iter()
        .take_while(|u| u.span.start < d.span.start)
        .find(|u| u.binding == Binding::Var(var));
    match first {
        None => Ok(()),
        Some(u) => Err(Diagnostic::error(format!(
            "`{}` declared `threadprivate` after first use",
            u.name
        ))
        .with_primary(name, "declared `threadprivate` here")
        .with_secondary(u.span, "first used here")
        .with_note("put the `threadprivate` directive right after the variable's declaration")),
    }
}
