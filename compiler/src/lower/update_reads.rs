//! What the updates of a `critical` section or a lock pair read and write, which decides how
//! they merge:
//!
//! - a section of updates merges as independent updates (`critical.rs`, `atomic.rs`) only when
//!   no update reads what an update of the section writes (`{ c += 1; s += c; }`, `x += x`,
//!   `hist[k]++; if (hist[k] > mx) mx = hist[k];`) and no operand has an effect of its own (a
//!   call of a function that is not a pure library function, an assignment, `++`/`--`, a
//!   `volatile` read). Every rank applies its updates with its own operands, so an operand
//!   that depends on the section's own writes would be evaluated on a rank's partial state.
//!   Reads through pointers (`*p`, `p->f`, `p[i]` of a pointer) may alias any updated object
//!   that a pointer can reach; objects are told apart by their variable only (`a[i]` and
//!   `b[j]` of two arrays are different, `a[i]` and `a[j]` are not).
//! - a `+`/`-` update of an lvalue that an `atomic capture` of the same file may also update
//!   goes through the captures' counter on rank 0 (`counted`), so that every captured value
//!   counts the plain updates made before it, as threads would.

use lang_c::ast::{
    BinaryOperator, BinaryOperatorExpression, BlockItem, CallExpression, Expression,
    MemberExpression, MemberOperator, Statement, UnaryOperator, UnaryOperatorExpression,
};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::atomic::{capture_of, update_of_expression, LockPair, Update};
use super::common::is_assignment;
use super::write_scope::{prints, writes_nothing};
use super::{emit_span, span_of, uses_in, var_at, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseKind, DirectiveKind};
use crate::resolve::{Binding, Step, Storage, TypeClass, VarId};
use crate::template::{render, CONSTRUCTS};

/// The object an updated lvalue belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Root {
    /// (part of) a named variable, reached without going through a pointer
    Named(VarId),
    /// through a pointer, or not known
    Unknown,
}

/// What the operands and the address computations of a section read.
#[derive(Default)]
struct Reads {
    /// variables read by name
    names: Vec<VarId>,
    /// memory read through a pointer
    through_pointer: bool,
    /// an operand with an effect of its own (call, assignment, `++`, `volatile` read)
    effect: bool,
}

/// Whether level `depth` of variable `v`'s type is an array (indexing it stays in `v`).
fn array_at(cx: &Context, v: VarId, depth: usize) -> bool {
    let var = &cx.program.vars[v];
    if depth == 0 && var.param_array_dim.is_some() {
        return false;
    }
    matches!(var.shape.steps.get(depth), Some(Step::Array { .. }))
}

/// The variable an lvalue expression designates part of without a pointer: (variable, array
/// levels indexed, a member taken).
fn object_of(cx: &Context, e: &Node<Expression>) -> Option<(VarId, usize, bool)> {
    match &e.node {
        Expression::Identifier(id) => var_at(cx, span_of(id.span)).map(|v| (v, 0, false)),
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            object_of(cx, &m.node.expression).map(|(v, d, _)| (v, d, true))
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            let (v, d, member) = object_of(cx, &b.node.lhs)?;
            (!member && array_at(cx, v, d)).then_some((v, d + 1, member))
        }
        _ => None,
    }
}

fn root_of(cx: &Context, e: &Node<Expression>) -> Root {
    object_of(cx, e).map_or(Root::Unknown, |(v, _, _)| Root::Named(v))
}

/// Whether a pointer may point to variable `v` (its address is taken, it is an array, or
/// another file may take its address).
fn may_be_pointed(cx: &Context, v: VarId) -> bool {
    let var = &cx.program.vars[v];
    var.address_taken
        || matches!(var.shape.steps.first(), Some(Step::Array { .. }))
        || matches!(var.storage, Storage::Global | Storage::Extern)
}

fn is_volatile(cx: &Context, v: VarId) -> bool {
    let var = &cx.program.vars[v];
    var.type_specifiers
        .iter()
        .chain([&var.declarator])
        .any(|s| cx.text(*s).contains("volatile"))
}

struct ValueReads<'c, 'p, 'a> {
    cx: &'c Context<'p, 'a>,
    reads: &'c mut Reads,
}

impl<'ast> Visit<'ast> for ValueReads<'_, '_, '_> {
    fn visit_identifier(
        &mut self,
        id: &'ast lang_c::ast::Identifier,
        span: &'ast lang_c::span::Span,
    ) {
        if let Some(v) = var_at(self.cx, span_of(*span)) {
            if is_volatile(self.cx, v) {
                self.reads.effect = true;
            }
            self.reads.names.push(v);
        }
        visit::visit_identifier(self, id, span);
    }

    fn visit_call_expression(&mut self, e: &'ast CallExpression, _: &'ast lang_c::span::Span) {
        let pure = match &e.callee.node {
            Expression::Identifier(id) => {
                let name = id.node.name.as_str();
                writes_nothing(name) && !prints(name)
            }
            _ => false,
        };
        if !pure {
            self.reads.effect = true;
        }
        // the callee's name is not a variable read
        for a in &e.arguments {
            self.visit_expression(&a.node, &a.span);
        }
    }

    fn visit_unary_operator_expression(
        &mut self,
        e: &'ast UnaryOperatorExpression,
        span: &'ast lang_c::span::Span,
    ) {
        use UnaryOperator::*;
        match e.operator.node {
            PreIncrement | PreDecrement | PostIncrement | PostDecrement => self.reads.effect = true,
            Indirection => self.reads.through_pointer = true,
            _ => {}
        }
        visit::visit_unary_operator_expression(self, e, span);
    }

    fn visit_binary_operator_expression(
        &mut self,
        e: &'ast BinaryOperatorExpression,
        span: &'ast lang_c::span::Span,
    ) {
        if is_assignment(&e.operator.node) {
            self.reads.effect = true;
        }
        if e.operator.node == BinaryOperator::Index {
            let indexed = object_of(self.cx, &e.lhs)
                .is_some_and(|(v, d, member)| !member && array_at(self.cx, v, d));
            if !indexed {
                self.reads.through_pointer = true;
            }
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_member_expression(&mut self, e: &'ast MemberExpression, _: &'ast lang_c::span::Span) {
        if e.operator.node == MemberOperator::Indirect {
            self.reads.through_pointer = true;
        }
        // the member's name is not a variable read
        self.visit_expression(&e.expression.node, &e.expression.span);
    }

    fn visit_statement(&mut self, _: &'ast Statement, _: &'ast lang_c::span::Span) {
        // a statement expression: anything may happen in it
        self.reads.effect = true;
    }
}

fn read_value(cx: &Context, e: &Node<Expression>, reads: &mut Reads) {
    ValueReads { cx, reads }.visit_expression(&e.node, &e.span);
}

/// The reads of an lvalue's address: indices, pointers it goes through.
fn address_reads(cx: &Context, e: &Node<Expression>, reads: &mut Reads) {
    match &e.node {
        Expression::Identifier(_) => {}
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            address_reads(cx, &m.node.expression, reads)
        }
        Expression::Member(m) => read_value(cx, &m.node.expression, reads),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            read_value(cx, &b.node.rhs, reads);
            if object_of(cx, e).is_some() {
                address_reads(cx, &b.node.lhs, reads);
            } else {
                read_value(cx, &b.node.lhs, reads);
            }
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
            read_value(cx, &u.node.operand, reads)
        }
        _ => read_value(cx, e, reads),
    }
}

/// One update's lvalue and operand (None: `++`/`--`).
fn parts<'e>(
    cx: &Context,
    e: &'e Node<Expression>,
) -> Option<(&'e Node<Expression>, Option<&'e Node<Expression>>)> {
    let u = update_of_expression(cx, e)?;
    match &e.node {
        Expression::UnaryOperator(un) => Some((&un.node.operand, None)),
        Expression::BinaryOperator(b) => {
            let operand = u.operand.map(|s| -> &Node<Expression> {
                match &b.node.rhs.node {
                    Expression::BinaryOperator(r)
                        if b.node.operator.node == BinaryOperator::Assign =>
                    {
                        if span_of(r.node.lhs.span) == s {
                            &r.node.lhs
                        } else {
                            &r.node.rhs
                        }
                    }
                    _ => &b.node.rhs,
                }
            });
            Some((&b.node.lhs, operand))
        }
        _ => None,
    }
}

/// The single assignment an `if` update makes (`if (e > x) x = e;`).
fn if_assignment(s: &Node<Statement>) -> Option<&Node<Expression>> {
    let mut s = s;
    while let Statement::Compound(items) = &s.node {
        match items.as_slice() {
            [Node {
                node: BlockItem::Statement(inner),
                ..
            }] => s = inner,
            _ => return None,
        }
    }
    match &s.node {
        Statement::Expression(Some(e)) => Some(e),
        _ => None,
    }
}

/// The updated lvalues' roots and what the statements read; false when a statement is not
/// one this module knows (the section is then not a set of updates anyway).
fn collect(cx: &Context, s: &Node<Statement>, roots: &mut Vec<Root>, reads: &mut Reads) -> bool {
    match &s.node {
        Statement::Compound(items) => items.iter().all(|item| match &item.node {
            BlockItem::Statement(inner) => collect(cx, inner, roots, reads),
            _ => false,
        }),
        Statement::For(f) => {
            if let Some(c) = &f.node.condition {
                read_value(cx, c, reads);
            }
            collect(cx, &f.node.statement, roots, reads)
        }
        Statement::Expression(None) => true,
        Statement::Expression(Some(e)) => match parts(cx, e) {
            Some((lvalue, operand)) => {
                roots.push(root_of(cx, lvalue));
                address_reads(cx, lvalue, reads);
                if let Some(o) = operand {
                    read_value(cx, o, reads);
                }
                true
            }
            None => false,
        },
        Statement::If(i) => {
            let Some(Expression::BinaryOperator(a)) =
                if_assignment(&i.node.then_statement).map(|e| &e.node)
            else {
                return false;
            };
            roots.push(root_of(cx, &a.node.lhs));
            address_reads(cx, &a.node.lhs, reads);
            // (the condition compares the same two expressions)
            read_value(cx, &a.node.rhs, reads);
            true
        }
        _ => false,
    }
}

/// Whether the updates of `statements` (already known to be mergeable updates, also in `for`
/// loops) may merge as independent updates: no update reads an object an update of the same
/// section writes, no operand has an effect of its own.
pub fn independent(cx: &Context, statements: &[&Node<Statement>]) -> bool {
    independent_beside(cx, statements, &[])
}

/// [`independent`], where the section also excludes the sections of `others` (those of the
/// same `critical` name or lock): its reads must not see their updates either. (An other
/// section that is not made of updates runs under the lock, and so does this one then.)
pub fn independent_beside(
    cx: &Context,
    statements: &[&Node<Statement>],
    others: &[&Node<Statement>],
) -> bool {
    let mut roots = Vec::new();
    let mut reads = Reads::default();
    for s in statements {
        if !collect(cx, s, &mut roots, &mut reads) {
            return false;
        }
    }
    if reads.effect {
        return false;
    }
    for s in others {
        let mut their_roots = Vec::new();
        if collect(cx, s, &mut their_roots, &mut Reads::default()) {
            roots.extend(their_roots);
        }
    }
    let arithmetic_pointed =
        |v: &VarId| cx.program.vars[*v].class != TypeClass::Pointer && may_be_pointed(cx, *v);
    roots.iter().all(|root| match root {
        Root::Named(v) => {
            !(reads.names.contains(v) || (reads.through_pointer && may_be_pointed(cx, *v)))
        }
        Root::Unknown => !reads.through_pointer && !reads.names.iter().any(arithmetic_pointed),
    })
}

/// The root of the lvalue spelled in `span` (from its text: `v`, `v[i]...`, `v.f...`).
fn text_root(cx: &Context, span: Span) -> Root {
    let Some(first) = uses_in(cx, span).first() else {
        return Root::Unknown;
    };
    let Binding::Var(v) = first.binding else {
        return Root::Unknown;
    };
    let text = cx.text(span);
    if text[..first.span.start - span.start].trim() != "" {
        return Root::Unknown;
    }
    let rest = text[first.span.end - span.start..].trim();
    // leading `[...]` levels, then members (no arrow, no index after a member)
    let (mut depth, mut depth_bracket, mut member) = (0, 0usize, false);
    for c in rest.chars() {
        match c {
            '[' => {
                if depth_bracket == 0 {
                    if member || !array_at(cx, v, depth) {
                        return Root::Unknown;
                    }
                    depth += 1;
                }
                depth_bracket += 1;
            }
            ']' => depth_bracket = depth_bracket.saturating_sub(1),
            '.' if depth_bracket == 0 => member = true,
            '-' | '(' | ')' | '*' | '&' if depth_bracket == 0 => return Root::Unknown,
            _ => {}
        }
    }
    Root::Named(v)
}

fn may_alias(cx: &Context, a: Root, b: Root) -> bool {
    match (a, b) {
        (Root::Named(x), Root::Named(y)) => x == y,
        (Root::Named(x), Root::Unknown) | (Root::Unknown, Root::Named(x)) => may_be_pointed(cx, x),
        (Root::Unknown, Root::Unknown) => true,
    }
}

/// Whether an `atomic capture` of this file may update the object of lvalue `span`.
fn captured(cx: &Context, span: Span) -> bool {
    let root = text_root(cx, span);
    cx.directives
        .iter()
        .filter(|d| {
            d.kind == DirectiveKind::Atomic
                && d.clauses.iter().any(|c| c.kind == ClauseKind::Capture)
        })
        .filter_map(|d| cx.constructs().statement(cx, d).ok())
        .filter_map(|s| capture_of(cx, s))
        .any(|c| may_alias(cx, root, text_root(cx, c.update.lvalue)))
}

/// A `+`/`-` update of an lvalue an `atomic capture` may also update: its delta goes to the
/// captures' counter on rank 0 before the update is made (None: an ordinary update).
pub(super) fn counted(
    cx: &Context,
    out: &mut Out,
    u: &Update,
    env: &Env,
) -> Option<Result<String, Vec<Diagnostic>>> {
    if !matches!(u.op, "ADD" | "SUB") || !captured(cx, u.lvalue) {
        return None;
    }
    let x = emit_span(cx, out, u.lvalue, env).trim().to_string();
    let operand = match u.operand {
        Some(s) => emit_span(cx, out, s, env).trim().to_string(),
        None => "1".to_string(),
    };
    let update = match render(
        CONSTRUCTS,
        "update",
        &[("lvalue", &x), ("operand", "__cape_operand"), ("op", u.op)],
    ) {
        Ok(t) => t,
        Err(e) => return Some(Err(vec![e])),
    };
    Some(
        render(
            CONSTRUCTS,
            "counted_update",
            &[
                ("x", &x),
                ("operand", &operand),
                ("sign", if u.op == "SUB" { "-" } else { "" }),
                ("update", update.trim_end()),
            ],
        )
        .map_err(|e| vec![e]),
    )
}

/// The lock pairs of one lock exclude each other: they merge as updates only when every pair
/// of the lock in the file is made of updates (a general pair runs under the cross-rank lock,
/// which merged updates would not take) and none reads what another writes.
pub(super) fn settle_lock_pairs(cx: &Context, pairs: &mut [LockPair]) {
    let verdicts: Vec<bool> = pairs
        .iter()
        .map(|pair| {
            let same: Vec<&LockPair> = pairs.iter().filter(|p| p.lock == pair.lock).collect();
            let bodies: Vec<&Node<Statement>> =
                same.iter().flat_map(|p| p.body.iter().copied()).collect();
            pair.mergeable
                && same.iter().all(|p| p.mergeable)
                && independent_beside(cx, &pair.body, &bodies)
        })
        .collect();
    for (pair, mergeable) in pairs.iter_mut().zip(verdicts) {
        pair.mergeable = mergeable;
    }
}
