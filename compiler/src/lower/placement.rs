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
    // a stand-alone directive is not a statement: as the body of `if`, `else`, a loop or a
    // label it would take the next statement's place (C does not see it), so gcc refuses it
    if d.is_stand_alone() && !matches!(code_before(cx.source, d.span.start), Some(';' | '{' | '}'))
    {
        return Err(Diagnostic::error(format!(
            "`#pragma omp {name}` may only be used in compound statements"
        ))
        .with_primary(d.name_span, "the body of a statement or a label")
        .with_note("enclose it in braces `{ ... }` to make it a statement of a block"));
    }
    Ok(())
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
