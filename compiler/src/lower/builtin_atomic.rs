//! C11 `_Atomic` objects and gcc's `__atomic_*` / `__sync_*` builtins. A statement that only
//! updates (`__atomic_fetch_add(&x, e, order);` with its result unused, `x += e` or `x++` on an
//! `_Atomic` variable) is a mergeable update like `#pragma omp atomic`, lowered wherever it is.
//! Inside a parallel region any other use (a fetch whose result is used, exchange,
//! compare-exchange, a load or store of a shared `_Atomic` variable) would silently count once
//! per process, so it is refused at its line.

use lang_c::ast::{BinaryOperator, Expression, Statement, UnaryOperator};
use lang_c::span::Node;

use super::atomic::{update_of_expression, Update};
use super::{contains, emit_span, span_of, statement_span, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::resolve::{Binding, VarId};
use crate::template::{render, CONSTRUCTS};

/// An update statement lowered to `__cape_atomic_update`.
pub struct AtomicStatement {
    /// the statement, `;` included
    pub span: Span,
    /// the builtin's name, or `None` for an update of an `_Atomic` variable
    builtin: Option<String>,
    /// the builtin's pointer argument (the lvalue is `*pointer`), or the updated lvalue
    target: Target,
    operand: Option<Span>,
    op: &'static str,
}

enum Target {
    /// `__atomic_fetch_add(p, ...)`: the lvalue is `*(p)`, or `x` when `p` is `&x`
    Pointer(Span),
    Lvalue(Span),
}

/// Builtins that only order memory: every merge is a full barrier already.
const FENCES: &[&str] = &[
    "__atomic_thread_fence",
    "__atomic_signal_fence",
    "__sync_synchronize",
];

/// The combiner of an update builtin: `__atomic_fetch_add`, `__atomic_add_fetch`,
/// `__sync_fetch_and_add`, `__sync_add_and_fetch` and the sub/and/or/xor variants.
fn update_builtin(name: &str) -> Option<&'static str> {
    let op = name
        .strip_prefix("__atomic_fetch_")
        .or_else(|| name.strip_prefix("__sync_fetch_and_"))
        .or_else(|| {
            name.strip_prefix("__atomic_")
                .and_then(|n| n.strip_suffix("_fetch"))
        })
        .or_else(|| {
            name.strip_prefix("__sync_")
                .and_then(|n| n.strip_suffix("_and_fetch"))
        })?;
    match op {
        "add" => Some("ADD"),
        "sub" => Some("SUB"),
        "and" => Some("AND"),
        "or" => Some("OR"),
        "xor" => Some("XOR"),
        _ => None,
    }
}

fn is_atomic_builtin(name: &str) -> bool {
    name.starts_with("__atomic_") || name.starts_with("__sync_")
}

/// The update statement `s` is, if it is one.
fn atomic_statement(cx: &Context, s: &Node<Statement>) -> Option<AtomicStatement> {
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let span = statement_span(cx, s.span);
    if let Expression::Call(call) = &e.node {
        let Expression::Identifier(id) = &call.node.callee.node else {
            return None;
        };
        let name = id.node.name.as_str();
        let op = update_builtin(name)?;
        let (pointer, value) = match call.node.arguments.as_slice() {
            [p, v] if name.starts_with("__sync_") => (p, v),
            [p, v, _order] if name.starts_with("__atomic_") => (p, v),
            _ => return None,
        };
        let target = match &pointer.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                Target::Lvalue(span_of(u.node.operand.span))
            }
            _ => Target::Pointer(span_of(pointer.span)),
        };
        return Some(AtomicStatement {
            span,
            builtin: Some(name.to_string()),
            target,
            operand: Some(span_of(value.span)),
            op,
        });
    }
    // C makes a compound assignment, `++` and `--` of an `_Atomic` object atomic (not `x = x + e`)
    if matches!(&e.node, Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign)
    {
        return None;
    }
    let Update {
        lvalue,
        operand,
        op,
    } = update_of_expression(cx, e)?;
    let root = super::uses_in(cx, lvalue).first()?;
    let Binding::Var(v) = root.binding else {
        return None;
    };
    cx.program
        .vars
        .get(v)?
        .is_atomic
        .then_some(AtomicStatement {
            span,
            builtin: None,
            target: Target::Lvalue(lvalue),
            operand,
            op,
        })
}

/// Every atomic update statement in the user's functions.
pub fn atomic_statements(cx: &Context) -> Vec<AtomicStatement> {
    cx.program
        .items
        .iter()
        .filter_map(|item| item.statement)
        .filter(|s| {
            cx.program
                .function_at(s.span.start)
                .and_then(|f| cx.program.functions.get(f))
                .is_some_and(|f| !f.is_system)
        })
        .filter_map(|s| atomic_statement(cx, s))
        .collect()
}

/// An expression's text on one line: the line markers inside it dropped (`<stdatomic.h>`'s
/// macros mix system-header and user lines, and the text becomes a macro argument).
fn code_only(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text that replaces an atomic update statement.
pub fn lower(
    cx: &Context,
    out: &mut Out,
    a: &AtomicStatement,
    env: &Env,
) -> Result<String, Diagnostic> {
    out.needs_atomic_prelude = true;
    let mut text_of = |s: Span| code_only(&emit_span(cx, out, s, env));
    let lvalue = match a.target {
        Target::Lvalue(s) => text_of(s),
        Target::Pointer(p) => format!("*({})", text_of(p)),
    };
    let operand = match a.operand {
        Some(s) => text_of(s),
        None => "1".to_string(),
    };
    let update = render(
        CONSTRUCTS,
        "update",
        &[("lvalue", &lvalue), ("operand", &operand), ("op", a.op)],
    )?;
    let what = match &a.builtin {
        Some(name) => format!("`{name}`"),
        None => "update of an `_Atomic` variable".to_string(),
    };
    render(
        CONSTRUCTS,
        "builtin_update",
        &[
            ("what", &what),
            ("location", &cx.location(a.span.start)),
            ("update", &update),
        ],
    )
}

/// Uses of atomic builtins and of shared `_Atomic` variables inside parallel regions that are
/// not lowered updates.
pub fn check_regions(cx: &Context) -> Vec<Diagnostic> {
    let statements = atomic_statements(cx);
    let regions: Vec<(Span, Span, Vec<VarId>)> = cx
        .directives
        .iter()
        .filter(|d| d.kind.is_parallel())
        .filter_map(|d| {
            let stmt = cx.constructs().statement(cx, d).ok()?;
            let span = statement_span(cx, stmt.span);
            // variables the directive makes private to each thread
            let private: Vec<VarId> = d
                .clauses
                .iter()
                .filter(|c| c.kind.gives_private_copy())
                .flat_map(|c| super::clause_vars(cx, d, c.span))
                .map(|(_, v)| v)
                .collect();
            Some((span, d.name_span, private))
        })
        .collect();
    let mut errors = Vec::new();
    let mut reported: Vec<Span> = Vec::new();
    for (region, directive, private) in &regions {
        for u in super::uses_in(cx, *region) {
            if reported.contains(&u.span) {
                continue;
            }
            let in_update = |allowed: &dyn Fn(&AtomicStatement) -> bool| {
                statements
                    .iter()
                    .any(|a| contains(a.span, u.span) && allowed(a))
            };
            let diagnostic = match u.binding {
                Binding::Other if is_atomic_builtin(&u.name) => {
                    if FENCES.contains(&u.name.as_str())
                        || in_update(&|a| a.builtin.as_deref() == Some(u.name.as_str()))
                    {
                        continue;
                    }
                    Diagnostic::error(format!(
                        "`{}` inside a parallel region cannot be reproduced across processes",
                        u.name
                    ))
                    .with_primary(u.span, "its result or effect depends on the other threads")
                }
                Binding::Var(v) => {
                    let Some(var) = cx.program.vars.get(v) else {
                        continue;
                    };
                    let shared = var.is_atomic
                        && !contains(*region, var.ident_span)
                        && !private.contains(&v);
                    // the updated variable itself (the first identifier of the lvalue)
                    let updated = |a: &AtomicStatement| match a.target {
                        Target::Lvalue(l) => super::uses_in(cx, l)
                            .first()
                            .is_some_and(|f| f.span == u.span),
                        Target::Pointer(_) => false,
                    };
                    if !shared || in_update(&updated) {
                        continue;
                    }
                    Diagnostic::error(format!(
                        "the shared `_Atomic` variable `{}` is used inside a parallel region in a \
                         way that cannot be reproduced across processes",
                        u.name
                    ))
                    .with_primary(u.span, "not an update whose result is unused")
                    .with_secondary(var.ident_span, "declared `_Atomic` here")
                }
                _ => continue,
            };
            reported.push(u.span);
            errors.push(
                diagnostic
                    .with_secondary(*directive, "in this parallel region")
                    .with_note(SUPPORTED)
                    .with_note(
                        "CAPE threads are processes: each one sees its own copy of shared memory \
                         until the next merge point, so a value read from an atomic variable, \
                         exchanged or compared would differ from OpenMP's",
                    ),
            );
        }
    }
    errors
}

const SUPPORTED: &str = "supported inside a region: `__atomic_fetch_OP(&x, e, order);`, \
     `__atomic_OP_fetch`, `__sync_fetch_and_OP`, `__sync_OP_and_fetch` (OP in add sub and or \
     xor) as statements whose result is unused, and `x op= e`, `x++`, `x--` on an `_Atomic` \
     variable; `#pragma omp atomic capture` takes a value from a shared counter";
