//! `critical` and `atomic`: every statement must be a mergeable update of an lvalue (`x op= e`,
//! `x = x op e`, `x++`, `if (e > x) x = e;` ...). Each becomes `__cape_atomic_update`, whose
//! operands the runtime applies on every rank in rank order at the next merge point. Anything
//! else (a lock around arbitrary code) cannot be merged across processes and is refused.

use lang_c::ast::{BinaryOperator, BlockItem, Expression, IfStatement, Statement, UnaryOperator};
use lang_c::span::Node;

use super::{emit_span, span_of, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseKind, Directive, DirectiveKind};
use crate::template::{render, CONSTRUCTS};

const SUPPORTED: &str = "supported updates: `x op= e` (op in + - * / & | ^ << >>), `x = x op e`, \
     `x = e op x` (+ * & | ^), `x++`, `++x`, `x--`, `--x`, and in `critical` also \
     `if (e > x) x = e;` (max) and `if (e < x) x = e;` (min); `x` is any lvalue";

/// One mergeable update: the lvalue, the operand and the combiner name (`ADD`, `MAX`, ...).
pub(super) struct Update {
    pub(super) lvalue: Span,
    /// None: the constant 1
    pub(super) operand: Option<Span>,
    pub(super) op: &'static str,
}

fn same_text(cx: &Context, a: Span, b: Span) -> bool {
    let strip = |s: Span| -> String { cx.text(s).chars().filter(|c| !c.is_whitespace()).collect() };
    strip(a) == strip(b)
}

pub(super) fn update_of_expression(cx: &Context, e: &Node<Expression>) -> Option<Update> {
    match &e.node {
        Expression::UnaryOperator(u) => {
            let op = match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => "ADD",
                UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => "SUB",
                _ => return None,
            };
            Some(Update {
                lvalue: span_of(u.node.operand.span),
                operand: None,
                op,
            })
        }
        Expression::BinaryOperator(b) => {
            let lvalue = span_of(b.node.lhs.span);
            let compound = match b.node.operator.node {
                BinaryOperator::AssignPlus => Some("ADD"),
                BinaryOperator::AssignMinus => Some("SUB"),
                BinaryOperator::AssignMultiply => Some("MUL"),
                BinaryOperator::AssignBitwiseAnd => Some("AND"),
                BinaryOperator::AssignBitwiseOr => Some("OR"),
                BinaryOperator::AssignBitwiseXor => Some("XOR"),
                BinaryOperator::AssignDivide => Some("DIV"),
                BinaryOperator::AssignShiftLeft => Some("SHL"),
                BinaryOperator::AssignShiftRight => Some("SHR"),
                BinaryOperator::Assign => None,
                _ => return None,
            };
            if let Some(op) = compound {
                return Some(Update {
                    lvalue,
                    operand: Some(span_of(b.node.rhs.span)),
                    op,
                });
            }
            let Expression::BinaryOperator(r) = &b.node.rhs.node else {
                return None;
            };
            let (op, commutative) = match r.node.operator.node {
                BinaryOperator::Plus => ("ADD", true),
                BinaryOperator::Minus => ("SUB", false),
                BinaryOperator::Multiply => ("MUL", true),
                BinaryOperator::BitwiseAnd => ("AND", true),
                BinaryOperator::BitwiseOr => ("OR", true),
                BinaryOperator::BitwiseXor => ("XOR", true),
                BinaryOperator::Divide => ("DIV", false),
                BinaryOperator::ShiftLeft => ("SHL", false),
                BinaryOperator::ShiftRight => ("SHR", false),
                _ => return None,
            };
            if same_text(cx, span_of(r.node.lhs.span), lvalue) {
                Some(Update {
                    lvalue,
                    operand: Some(span_of(r.node.rhs.span)),
                    op,
                })
            } else if commutative && same_text(cx, span_of(r.node.rhs.span), lvalue) {
                Some(Update {
                    lvalue,
                    operand: Some(span_of(r.node.lhs.span)),
                    op,
                })
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `if (e > x) x = e;` (max) and the other orderings and min forms.
fn update_of_if(cx: &Context, i: &Node<IfStatement>) -> Option<Update> {
    if i.node.else_statement.is_some() {
        return None;
    }
    let mut then: &Node<Statement> = &i.node.then_statement;
    while let Statement::Compound(items) = &then.node {
        match items.as_slice() {
            [Node {
                node: BlockItem::Statement(s),
                ..
            }] => then = s,
            _ => return None,
        }
    }
    let Statement::Expression(Some(assign)) = &then.node else {
        return None;
    };
    let Expression::BinaryOperator(a) = &assign.node else {
        return None;
    };
    if a.node.operator.node != BinaryOperator::Assign {
        return None;
    }
    let x = span_of(a.node.lhs.span);
    let e = span_of(a.node.rhs.span);
    let Expression::BinaryOperator(c) = &i.node.condition.node else {
        return None;
    };
    let (l, r) = (span_of(c.node.lhs.span), span_of(c.node.rhs.span));
    let greater = match c.node.operator.node {
        BinaryOperator::Greater | BinaryOperator::GreaterOrEqual => true,
        BinaryOperator::Less | BinaryOperator::LessOrEqual => false,
        _ => return None,
    };
    // `e > x`: e is on the left
    let e_left = if same_text(cx, l, e) && same_text(cx, r, x) {
        true
    } else if same_text(cx, l, x) && same_text(cx, r, e) {
        false
    } else {
        return None;
    };
    let op = if greater == e_left { "MAX" } else { "MIN" };
    Some(Update {
        lvalue: x,
        operand: Some(e),
        op,
    })
}

/// The updates of a statement, or the offending statement.
pub(super) fn updates_of(
    cx: &Context,
    s: &Node<Statement>,
    allow_if: bool,
    found: &mut Vec<Update>,
) -> Result<(), Span> {
    match &s.node {
        Statement::Compound(items) => {
            for item in items {
                match &item.node {
                    BlockItem::Statement(inner) => updates_of(cx, inner, allow_if, found)?,
                    _ => return Err(span_of(item.span)),
                }
            }
            Ok(())
        }
        Statement::Expression(None) => Ok(()),
        Statement::Expression(Some(e)) => match update_of_expression(cx, e) {
            Some(u) => {
                found.push(u);
                Ok(())
            }
            None => Err(span_of(s.span)),
        },
        Statement::If(i) if allow_if => match update_of_if(cx, i) {
            Some(u) => {
                found.push(u);
                Ok(())
            }
            None => Err(span_of(s.span)),
        },
        _ => Err(span_of(s.span)),
    }
}

pub fn lower(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let location = cx.location(d.span.start);
    let construct = d.kind.name();
    let is_atomic = d.kind == DirectiveKind::Atomic;
    if is_atomic {
        if let Some(c) = d.clauses.iter().find(|c| c.kind == ClauseKind::Capture) {
            return lower_capture(cx, out, d, c.span, stmt, env);
        }
        if let Some(c) = d
            .clauses
            .iter()
            .find(|c| matches!(c.kind, ClauseKind::Read | ClauseKind::Write))
        {
            let read = c.kind == ClauseKind::Read;
            if !is_read_or_write(stmt, read) {
                let (form, wanted) = if read {
                    (
                        "read",
                        "`v = x;` (`x` an lvalue: a variable, an element, a member, `*p`)",
                    )
                } else {
                    ("write", "`x = expr;` (`x` an lvalue)")
                };
                return Err(vec![Diagnostic::error(format!(
                    "this statement is not an `atomic {form}`"
                ))
                .with_primary(span_of(stmt.span), format!("expected {wanted}"))
                .with_secondary(c.span, form)]);
            }
            let span = span_of(stmt.span);
            let mut body = emit_span(cx, out, span, env);
            if !cx.line_markers {
                body.insert_str(0, "    ");
            }
            return render(
                CONSTRUCTS,
                "plain",
                &[
                    ("construct", construct),
                    ("location", &location),
                    ("body", &body),
                ],
            )
            .map_err(|e| vec![e]);
        }
    }
    let mut updates = Vec::new();
    let allow_if = !is_atomic;
    let shape_ok = if is_atomic {
        matches!(&stmt.node, Statement::Expression(Some(_)))
    } else {
        true
    };
    let result = if shape_ok {
        updates_of(cx, stmt, allow_if, &mut updates)
    } else {
        Err(span_of(stmt.span))
    };
    if let Err(offending) = result {
        let what = if is_atomic {
            "this atomic update cannot be merged across processes"
        } else {
            "this critical section cannot be merged across processes"
        };
        return Err(vec![Diagnostic::error(what)
            .with_primary(offending, "not a mergeable update of a variable")
            .with_secondary(d.name_span, format!("in this `#pragma omp {construct}`"))
            .with_note(SUPPORTED)
            .with_note(
                "CAPE threads are processes: a critical section can only be reproduced when \
                 its effect is an update that can be re-applied in any order",
            )
            .with_note(
                "help: write any other update (such as `x = e - x`) in a `#pragma omp critical` \
                 section, which runs under a lock shared by the processes",
            )]);
    }
    // the combiners exist for arithmetic types only
    for u in &updates {
        let whole_var = match super::uses_in(cx, u.lvalue) {
            [only] if cx.text(u.lvalue).trim() == only.name => Some(only),
            _ => None,
        };
        if let Some(crate::resolve::Use {
            binding: crate::resolve::Binding::Var(v),
            ..
        }) = whole_var
        {
            let var = &cx.program.vars[*v];
            if !var.class.is_arithmetic() {
                return Err(vec![Diagnostic::error(format!(
                    "`{}` is not an arithmetic variable",
                    var.name
                ))
                .with_primary(u.lvalue, "updated here")
                .with_secondary(var.ident_span, "declared here")
                .with_note(
                    "`atomic` and `critical` updates are supported on integer and floating-point lvalues",
                )]);
            }
        }
    }
    updates_text(cx, out, &updates, construct, &location, env)
}

/// The lowered text of mergeable updates (a `critical` block of `__cape_atomic_update`s).
fn updates_text(
    cx: &Context,
    out: &mut Out,
    updates: &[Update],
    construct: &str,
    location: &str,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    out.needs_atomic_prelude = true;
    let mut text = String::new();
    for u in updates {
        text.push_str(&render_update(cx, out, u, env)?);
    }
    render(
        CONSTRUCTS,
        "critical",
        &[
            ("construct", construct),
            ("location", location),
            ("updates", &text),
        ],
    )
    .map_err(|e| vec![e])
}

/// One mergeable update as `__cape_atomic_update` text.
pub(super) fn render_update(
    cx: &Context,
    out: &mut Out,
    u: &Update,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    if let Some(counted) = super::update_reads::counted(cx, out, u, env) {
        return counted;
    }
    let lvalue = emit_span(cx, out, u.lvalue, env).trim().to_string();
    let operand = match u.operand {
        Some(s) => emit_span(cx, out, s, env).trim().to_string(),
        None => "1".to_string(),
    };
    render(
        CONSTRUCTS,
        "update",
        &[("lvalue", &lvalue), ("operand", &operand), ("op", u.op)],
    )
    .map_err(|e| vec![e])
}

/// `omp_set_lock(l); <statements> omp_unset_lock(l);` (or the nest-lock pair) in one block.
/// With only mergeable updates in between (`mergeable`) it is lowered like a named `critical`,
/// the lock calls dropped; otherwise around a cross-rank lock (`critical.rs`). Other uses of
/// locks are left alone (fine outside a region; a clear runtime error inside one).
pub struct LockPair<'a> {
    /// from the set call's statement to the unset call's
    pub span: Span,
    pub(super) body: Vec<&'a Node<Statement>>,
    /// declarations between the calls (not mergeable; their calls are checked by name)
    pub(super) decls: Vec<Span>,
    pub(super) lock: String,
    /// the set call's argument (the lock's address)
    pub(super) arg: Span,
    /// the set call
    pub(super) set: Span,
    pub(super) nest: bool,
    pub(super) mergeable: bool,
}

/// `name(arg);` as (name, argument text without whitespace, argument span).
fn lock_call<'c>(cx: &'c Context, s: &Node<Statement>) -> Option<(&'c str, String, Span)> {
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let Expression::Call(call) = &e.node else {
        return None;
    };
    let Expression::Identifier(id) = &call.node.callee.node else {
        return None;
    };
    let name = match id.node.name.as_str() {
        "omp_set_lock" => "omp_set_lock",
        "omp_unset_lock" => "omp_unset_lock",
        "omp_set_nest_lock" => "omp_set_nest_lock",
        "omp_unset_nest_lock" => "omp_unset_nest_lock",
        _ => return None,
    };
    let [arg] = call.node.arguments.as_slice() else {
        return None;
    };
    let text: String = cx
        .text(span_of(arg.span))
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    Some((name, text, span_of(arg.span)))
}

pub fn lock_pairs<'a>(cx: &Context<'_, 'a>) -> Vec<LockPair<'a>> {
    let items = &cx.program.items;
    let mut pairs = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(set) = item.statement else { continue };
        let Some((name, lock, arg)) = lock_call(cx, set) else {
            continue;
        };
        let unset_name = match name {
            "omp_set_lock" => "omp_unset_lock",
            "omp_set_nest_lock" => "omp_unset_nest_lock",
            _ => continue,
        };
        if !cx.text(item.parent).starts_with('{') {
            continue;
        }
        let mut body = Vec::new();
        let mut decls = Vec::new();
        let mut end = None;
        for sibling in items.get(i + 1..).unwrap_or(&[]) {
            crate::work::count(1);
            if sibling.span.start >= item.parent.end {
                break; // past the block: no unset call in it
            }
            if sibling.parent != item.parent || sibling.span.start < item.span.end {
                continue;
            }
            let Some(s) = sibling.statement else {
                decls.push(sibling.span);
                continue;
            };
            if let Some((n, l, _)) = lock_call(cx, s) {
                if n == unset_name && l == lock {
                    end = Some(super::statement_span(cx, s.span).end);
                }
                break;
            }
            body.push(s);
        }
        let Some(end) = end else { continue };
        let span = Span::new(item.span.start, end);
        // a directive in between is lowered on its own
        let first_after = cx.directives.partition_point(|d| d.span.start < span.start);
        if cx
            .directives
            .get(first_after)
            .is_some_and(|d| super::contains(span, d.span))
        {
            continue;
        }
        let mut found = Vec::new();
        let mergeable = decls.is_empty()
            && body
                .iter()
                .all(|s| updates_of(cx, s, true, &mut found).is_ok())
            && super::update_reads::independent(cx, &body);
        pairs.push(LockPair {
            span,
            body,
            decls,
            lock,
            arg,
            set: span_of(set.span),
            nest: name == "omp_set_nest_lock",
            mergeable,
        });
    }
    super::update_reads::settle_lock_pairs(cx, &mut pairs);
    pairs
}

/// The text that replaces a lock pair.
pub fn lower_lock_pair(
    cx: &Context,
    out: &mut Out,
    pair: &LockPair,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut updates = Vec::new();
    for s in &pair.body {
        if updates_of(cx, s, true, &mut updates).is_err() {
            return Err(vec![Diagnostic::error(
                "internal error: a lock pair without mergeable updates",
            )
            .with_primary(pair.span, "here")]);
        }
    }
    let construct = format!("critical for the lock `{}`", pair.lock);
    updates_text(
        cx,
        out,
        &updates,
        &construct,
        &cx.location(pair.span.start),
        env,
    )
}

/// An `atomic capture`: `v` receives `x`'s value before (`new_value` false) or after the update.
pub(super) struct Capture {
    v: Span,
    pub(super) update: Update,
    new_value: bool,
}

/// `v = x = e` style assignment: (lhs, rhs).
fn assignment(e: &Node<Expression>) -> Option<(&Node<Expression>, &Node<Expression>)> {
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            Some((&b.node.lhs, &b.node.rhs))
        }
        _ => None,
    }
}

fn expression_of(s: &Node<Statement>) -> Option<&Node<Expression>> {
    match &s.node {
        Statement::Expression(Some(e)) => Some(e),
        _ => None,
    }
}

/// The capture forms of OpenMP 4.5: `v = x++`, `v = --x`, `v = x op= e`, `v = x = x op e`,
/// `{v = x; x op= e;}`, `{x op= e; v = x;}` (and the `++`/`--` and `x = x op e` updates).
pub(super) fn capture_of(cx: &Context, stmt: &Node<Statement>) -> Option<Capture> {
    if let Some(e) = expression_of(stmt) {
        let (v, rhs) = assignment(e)?;
        let update = update_of_expression(cx, rhs)?;
        let new_value = !matches!(
            &rhs.node,
            Expression::UnaryOperator(u) if matches!(
                u.node.operator.node,
                UnaryOperator::PostIncrement | UnaryOperator::PostDecrement
            )
        );
        return Some(Capture {
            v: span_of(v.span),
            update,
            new_value,
        });
    }
    let Statement::Compound(items) = &stmt.node else {
        return None;
    };
    let statements: Vec<&Node<Statement>> = items
        .iter()
        .map(|i| match &i.node {
            BlockItem::Statement(s) => Some(s),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let [first, second] = statements.as_slice() else {
        return None;
    };
    let (first, second) = (expression_of(first)?, expression_of(second)?);
    // `v = x` next to an update of x; which one comes first says old or new value
    let read_of = |e: &Node<Expression>, x: Span| -> Option<Span> {
        let (v, rhs) = assignment(e)?;
        same_text(cx, span_of(rhs.span), x).then(|| span_of(v.span))
    };
    if let Some(update) = update_of_expression(cx, second) {
        if let Some(v) = read_of(first, update.lvalue) {
            return Some(Capture {
                v,
                update,
                new_value: false,
            });
        }
    }
    let update = update_of_expression(cx, first)?;
    let v = read_of(second, update.lvalue)?;
    Some(Capture {
        v,
        update,
        new_value: true,
    })
}

/// `atomic capture` of a `+`/`-` update of an integer: the captured value comes from a shared
/// counter on rank 0 (`__cape_atomic_fetch_add`), the update itself merges like any atomic
/// update, so every rank captures a distinct value of one sequence, as threads would.
fn lower_capture(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    clause: Span,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let capture = capture_of(cx, stmt).filter(|c| matches!(c.update.op, "ADD" | "SUB"));
    let Some(c) = capture else {
        return Err(vec![Diagnostic::error(
            "this `atomic capture` cannot be reproduced across processes",
        )
        .with_primary(span_of(stmt.span), "not a captured `+` or `-` update")
        .with_secondary(clause, "capture")
        .with_note(
            "supported: `v = x++`, `v = x--`, `v = ++x`, `v = --x`, `v = x += e`, `v = x -= e`, \
             `v = x = x + e`, and `{v = x; x += e;}` / `{x += e; v = x;}` with any of those \
             updates, on integer variables",
        )
        .with_note(
            "CAPE threads are processes: a captured value is taken from a counter they share, \
             which exists for sums only",
        )]);
    };
    // a variable known not to be an integer is refused here; other lvalues by the static
    // assertion in the generated code
    if let [only] = super::uses_in(cx, c.update.lvalue) {
        if let crate::resolve::Binding::Var(var) = only.binding {
            let var = &cx.program.vars[var];
            if cx.text(c.update.lvalue).trim() == only.name
                && !matches!(
                    var.class,
                    crate::resolve::TypeClass::Integer | crate::resolve::TypeClass::Unknown
                )
            {
                return Err(vec![Diagnostic::error(format!(
                    "`atomic capture` of `{}`, which is not an integer variable",
                    var.name
                ))
                .with_primary(c.update.lvalue, "captured here")
                .with_secondary(var.ident_span, "declared here")
                .with_secondary(clause, "capture")
                .with_note(
                    "CAPE takes captured values from a shared integer counter; a floating-point \
                     sum would depend on the order of the updates",
                )]);
            }
        }
    }
    out.needs_atomic_prelude = true;
    let x = emit_span(cx, out, c.update.lvalue, env).trim().to_string();
    let v = emit_span(cx, out, c.v, env).trim().to_string();
    let operand = match c.update.operand {
        Some(s) => emit_span(cx, out, s, env).trim().to_string(),
        None => "1".to_string(),
    };
    let update = render(
        CONSTRUCTS,
        "update",
        &[
            ("lvalue", &x),
            ("operand", "__cape_operand"),
            ("op", c.update.op),
        ],
    )
    .map_err(|e| vec![e])?;
    render(
        CONSTRUCTS,
        "capture",
        &[
            ("location", &cx.location(d.span.start)),
            ("x", &x),
            ("v", &v),
            ("operand", &operand),
            ("sign", if c.update.op == "SUB" { "-" } else { "" }),
            (
                "plus_delta",
                if c.new_value {
                    " + (unsigned __int128)__cape_delta"
                } else {
                    ""
                },
            ),
            ("update", update.trim_end()),
        ],
    )
    .map_err(|e| vec![e])
}

/// `v = x;` for `atomic read` (`x` an lvalue), `x = expr;` for `atomic write`: the forms gcc
/// takes (an atomic read of `x + 1` is refused there, not read plainly).
fn is_read_or_write(stmt: &Node<Statement>, read: bool) -> bool {
    let Statement::Expression(Some(e)) = &stmt.node else {
        return false;
    };
    let Expression::BinaryOperator(assign) = &e.node else {
        return false;
    };
    let assign = &assign.node;
    assign.operator.node == BinaryOperator::Assign
        && is_lvalue(&assign.lhs.node)
        && (!read || is_lvalue(&assign.rhs.node))
}

fn is_lvalue(e: &Expression) -> bool {
    match e {
        Expression::Identifier(_) | Expression::Member(_) => true,
        Expression::BinaryOperator(b) => b.node.operator.node == BinaryOperator::Index,
        Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
        _ => false,
    }
}
