//! Constructs run as a plain block by the thread that reaches it, with their own copies of
//! some variables: device constructs on the host (device.rs), tasks run at once (task.rs).

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::common::{canonical_form, modification_of};
use super::data_sharing::is_threadprivate;
use super::data_sharing::Sharing;
use super::one;
use super::read_only::address_taken_in;
use super::{clause_vars, contains, emit_span, spelled, uses_in, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, Directive};
use crate::resolve::{Binding, VarId};
use crate::template::{render, CONSTRUCTS};

/// `{ copies; body }`: `copies` are private (uninitialised) or firstprivate (copied from the
/// original when the block starts); the body's other variables are the originals. The
/// original of a lastprivate copy is reachable as `__cape_orig_<name>` in the body.
pub fn inline_block(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
    copies: &[(VarId, Sharing)],
    how: &str,
) -> Result<String, Vec<Diagnostic>> {
    let span = super::body_span(cx, d, stmt);
    inline_block_with(cx, out, d, stmt, env, copies, how, &|out, env| {
        emit_span(cx, out, span, env)
    })
}

/// `inline_block` whose body text `emit` makes (given the body's environment).
#[allow(clippy::too_many_arguments)]
pub fn inline_block_with(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
    copies: &[(VarId, Sharing)],
    how: &str,
    emit: &dyn Fn(&mut Out, &Env) -> String,
) -> Result<String, Vec<Diagnostic>> {
    let span = super::body_span(cx, d, stmt);
    let mut originals = String::new();
    let mut privates = String::new();
    let mut body_env = env.clone();
    for &(v, sharing) in copies {
        let name = cx.program.vars[v].name.clone();
        let of = spelled(cx, env, v);
        body_env.remove(&v);
        // a lastprivate copy (taskloop) is copied back through the original's address
        if matches!(
            sharing,
            Sharing::Firstprivate | Sharing::Lastprivate | Sharing::FirstLastprivate
        ) {
            originals.push_str(&one(render(
                CONSTRUCTS,
                "original",
                &[("of", &of), ("var", &name)],
            ))?);
        }
        if matches!(sharing, Sharing::Firstprivate | Sharing::FirstLastprivate) {
            privates.push_str(&one(render(
                CONSTRUCTS,
                "firstprivate",
                &[("of", &format!("*__cape_orig_{name}")), ("var", &name)],
            ))?);
        } else {
            privates.push_str(&one(render(
                CONSTRUCTS,
                "private",
                &[("of", &of), ("var", &name)],
            ))?);
        }
    }
    let mut body = cx.marker_before(span.start);
    if !cx.line_markers {
        body.push_str("        ");
    }
    let text = emit(out, &body_env);
    body.push_str(&super::reindent(cx, &text, stmt.span.start, 8));
    let block = one(render(
        CONSTRUCTS,
        "inline_block",
        &[
            ("construct", d.kind.name()),
            ("how", how),
            ("location", &cx.location(d.span.start)),
            ("privates", &privates),
            ("body", &body),
        ],
    ))?;
    if originals.is_empty() {
        Ok(block)
    } else {
        Ok(format!("{{\n{originals}{block}}}"))
    }
}

/// The loop variables of a loop construct run whole by one thread (and of the loops
/// `collapse` adds) declared outside it: predetermined private, so the originals keep their
/// values.
pub fn loop_variables(cx: &Context, d: &Directive, stmt: &Node<Statement>) -> Vec<VarId> {
    let depth = collapse_depth(cx, d);
    let mut vars = Vec::new();
    let mut current = stmt;
    for _ in 0..depth {
        let Statement::For(f) = &current.node else {
            break;
        };
        if let Ok(c) = canonical_form(cx, f, d.span, d.kind.name()) {
            let var = &cx.program.vars[c.var];
            if !contains(super::span_of(stmt.span), var.ident_span) {
                vars.push(c.var);
            }
        }
        current = super::worksharing::perfectly_nested(&f.node.statement);
    }
    vars
}

/// The number of loops `collapse` associates with `d` (1 without the clause).
pub(super) fn collapse_depth(cx: &Context, d: &Directive) -> usize {
    d.clauses
        .iter()
        .find_map(|c| match (&c.kind, &c.args) {
            (ClauseKind::Collapse, ClauseArgs::Expr { expr, .. }) => {
                cx.text(*expr).trim().parse::<usize>().ok()
            }
            _ => None,
        })
        .unwrap_or(1)
}

/// The loops of a loop construct whose iterations one thread runs in order (`simd`,
/// `taskloop`, `distribute`, `loop` bound to a thread): they run as written, but they must
/// still be loops in OpenMP's canonical form, as `gcc -fopenmp` requires.
pub fn check_loops(cx: &Context, d: &Directive, stmt: &Node<Statement>) -> Result<(), Diagnostic> {
    let depth = collapse_depth(cx, d);
    let mut current = stmt;
    for level in 0..depth {
        let Statement::For(f) = &current.node else {
            let what = if level == 0 {
                format!(
                    "`#pragma omp {}` must be followed by a `for` loop",
                    d.kind.name()
                )
            } else {
                format!("`collapse({depth})` needs {depth} perfectly nested loops")
            };
            return Err(Diagnostic::error(what)
                .with_primary(
                    super::statement_span(cx, current.span),
                    "expected a `for` loop here",
                )
                .with_secondary(d.span, "this directive needs a loop"));
        };
        canonical_form(cx, f, d.span, d.kind.name())?;
        current = super::worksharing::perfectly_nested(&f.node.statement);
    }
    Ok(())
}

/// The loop of a `simd` (which is otherwise ignored), unless it is also the loop of the
/// loop construct the `simd` is stacked on, which checks it.
pub fn check_simd(cx: &Context, d: &Directive) -> Result<(), Diagnostic> {
    let stmt = cx.constructs().statement(cx, d)?;
    let checked_by_enclosing = cx.constructs().enclosing(cx, d).is_some_and(|e| {
        e.kind.is_loop_associated()
            && cx
                .constructs()
                .statement(cx, e)
                .is_ok_and(|s| s.span == stmt.span)
    });
    if checked_by_enclosing {
        return Ok(());
    }
    check_loops(cx, d, stmt)
}

/// The variables declared outside the construct `d` (body `body` of statement `stmt`) that its
/// body writes (or takes the address of), that no clause of `d` names and that are not
/// threadprivate or `const`, in order of first use, and for which `keep` holds: the candidates
/// for a construct's implicit copies.
pub fn written_outer_variables(
    cx: &Context,
    d: &Directive,
    stmt: &Node<Statement>,
    body: Span,
    keep: &dyn Fn(VarId) -> bool,
) -> Vec<VarId> {
    let named: Vec<VarId> = d
        .clauses
        .iter()
        .flat_map(|c| clause_vars(cx, d, c.span))
        .map(|(_, v)| v)
        .collect();
    let mut found: Vec<VarId> = Vec::new();
    for u in uses_in(cx, body) {
        let Binding::Var(v) = u.binding else {
            continue;
        };
        let var = &cx.program.vars[v];
        if found.contains(&v)
            || named.contains(&v)
            || contains(body, var.ident_span)
            || var.is_const
            || is_threadprivate(cx, v)
            || !keep(v)
        {
            continue;
        }
        if modification_of(cx, stmt, v).is_some() || address_taken_in(cx, v, body) {
            found.push(v);
        }
    }
    found
}
