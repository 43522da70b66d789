//! `ordered`: a loop with the `ordered` clause runs in sequential order on thread 0 of the team
//! (see `__cape_loop_init_ordered`), so the construct itself only has to run its block; the
//! runtime check in `__cape_ordered_begin` catches an orphaned construct reached from a loop
//! without the clause. `ordered depend(...)` (doacross) needs nothing at all.

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::{emit_span, Context, Env, Out};
use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind};
use crate::template::{render, CONSTRUCTS};

/// `#pragma omp ordered` must bind to a loop with the `ordered` clause: its innermost enclosing
/// construct in this function is such a loop (or a `simd` loop for `ordered simd`), or it has
/// none (orphaned: checked at run time by `__cape_ordered_begin`).
pub fn check_nesting(cx: &Context, d: &Directive) -> Result<(), Diagnostic> {
    use DirectiveKind::*;
    let enclosing = cx.constructs().enclosing(cx, d);
    let Some(e) = enclosing else {
        return Ok(());
    };
    let has_ordered = e.clauses.iter().any(|c| c.kind == ClauseKind::Ordered);
    // `ordered depend(...)` binds to a loop with `ordered(n)`, the block form to one with a
    // plain `ordered` (gcc refuses either in the other's loop)
    let doacross = d.clauses.iter().any(|c| c.kind == ClauseKind::Depend);
    let ordered_n = e
        .clauses
        .iter()
        .any(|c| c.kind == ClauseKind::Ordered && matches!(c.args, ClauseArgs::Expr { .. }));
    if e.kind.is_loop() && has_ordered && doacross != ordered_n {
        let (this, needs) = if doacross {
            (
                "`#pragma omp ordered depend(...)`",
                "an `ordered(n)` clause",
            )
        } else {
            (
                "`#pragma omp ordered` without `depend`",
                "an `ordered` clause without argument",
            )
        };
        return Err(Diagnostic::error(format!(
            "{this} must be closely nested in a loop with {needs}"
        ))
        .with_primary(d.name_span, "this `ordered` construct")
        .with_secondary(
            e.name_span,
            format!("this `#pragma omp {}` has the other form", e.kind.name()),
        ));
    }
    let ok = match e.kind {
        _ if e.kind.is_loop() => has_ordered,
        Simd => d.clauses.iter().any(|c| c.kind == ClauseKind::Simd),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let label = match e.kind {
        _ if e.kind.is_loop() => {
            format!(
                "this `#pragma omp {}` has no `ordered` clause",
                e.kind.name()
            )
        }
        _ => format!(
            "the innermost enclosing construct is `#pragma omp {}`",
            e.kind.name()
        ),
    };
    Err(Diagnostic::error(
        "`#pragma omp ordered` must be closely nested in a loop with the `ordered` clause",
    )
    .with_primary(d.name_span, "this `ordered` construct")
    .with_secondary(e.name_span, label))
}

/// The `ordered` construct with its block (`ordered simd` inside a `simd` loop: just the block).
pub fn lower(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let span = super::body_span(cx, d, stmt);
    let mut body = cx.marker_before(span.start);
    if !cx.line_markers {
        body.push_str("    ");
    }
    let text = emit_span(cx, out, span, env);
    body.push_str(&super::reindent(cx, &text, stmt.span.start, 4));
    let only_simd = d.clauses.iter().any(|c| c.kind == ClauseKind::Simd)
        && !d.clauses.iter().any(|c| c.kind == ClauseKind::Threads);
    render(
        CONSTRUCTS,
        if only_simd { "ordered_simd" } else { "ordered" },
        &[
            ("construct", d.kind.name()),
            ("location", &cx.location(d.span.start)),
            ("body", &body),
        ],
    )
    .map_err(|e| vec![e])
}
