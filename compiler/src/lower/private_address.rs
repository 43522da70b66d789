//! The address of a variable private to the threads of a region stored in shared memory:
//! valid OpenMP (another thread may read the variable through it while it lives), but under
//! capecc each thread's stack is at the same address on every rank, so another thread would
//! read its own rank's copy. The direct cases are refused at the store: `slot[id] = &mine;`,
//! `shared_ptr = private_array;` in the region's own code. A pointer made elsewhere (in a
//! function called from the region, through another pointer) is not followed (README, known
//! limits).

use lang_c::ast::{
    BinaryOperator, BinaryOperatorExpression, Expression, MemberOperator, UnaryOperator,
};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::data_sharing::is_threadprivate;
use super::{contains, span_of, Context};
use crate::diag::{Diagnostic, Span};
use crate::directive::Directive;
use crate::resolve::{Storage, TypeClass, VarId};

/// The stores of region `d` (statement `stmt`) that put the address of one of its private
/// variables into a shared one.
pub fn check(cx: &Context, d: &Directive, stmt: &Node<lang_c::ast::Statement>) -> Vec<Diagnostic> {
    let region = span_of(stmt.span);
    // inner parallel regions are checked when they are lowered
    let inner: Vec<Span> = cx
        .directives_in(region)
        .iter()
        .filter(|i| i.kind.is_parallel() && i.span != d.span)
        .filter_map(|i| cx.constructs().statement(cx, i).ok())
        .map(|s| span_of(s.span))
        .collect();
    let mut stores = Stores::default();
    stores.visit_statement(&stmt.node, &stmt.span);
    let mut errors = Vec::new();
    for (lhs, rhs) in stores.found {
        let at = span_of(lhs.span);
        if inner.iter().any(|s| contains(*s, at)) {
            continue;
        }
        let Some(target) = direct_base(cx, lhs) else {
            continue;
        };
        let Some(source) = private_address(cx, rhs) else {
            continue;
        };
        if !shared_at(cx, d, region, at.start, target) || shared_at(cx, d, region, at.start, source)
        {
            continue;
        }
        let vars = &cx.program.vars;
        let (name, var) = (&vars[source].name, &vars[target].name);
        errors.push(
            Diagnostic::error(format!(
                "the address of `{name}`, private to each thread of the region, is stored in shared `{var}`"
            ))
            .with_primary(span_of(rhs.span), format!("the address of this thread's `{name}`"))
            .with_secondary(at, "shared by the team")
            .with_secondary(d.name_span, "the region")
            .with_note(format!(
                "under capecc every rank runs the region in its own process with its stack at the same addresses: another thread reading through this pointer reads its own copy of `{name}`"
            ))
            .with_note(format!(
                "help: make `{name}` shared (a global, or an array declared before the region, indexed by thread number) and store its address instead"
            )),
        );
    }
    errors
}

/// Assignments `lhs = rhs` of some code.
#[derive(Default)]
struct Stores<'a> {
    found: Vec<(&'a Node<Expression>, &'a Node<Expression>)>,
}

impl<'a> Visit<'a> for Stores<'a> {
    fn visit_binary_operator_expression(
        &mut self,
        e: &'a BinaryOperatorExpression,
        span: &'a lang_c::span::Span,
    ) {
        if e.operator.node == BinaryOperator::Assign {
            self.found.push((&e.lhs, &e.rhs));
        }
        visit::visit_binary_operator_expression(self, e, span);
    }
}

fn var_of(cx: &Context, e: &Node<Expression>) -> Option<VarId> {
    let Expression::Identifier(i) = &e.node else {
        return None;
    };
    super::var_at(cx, span_of(i.span))
}

/// The variable whose own bytes lvalue `e` designates, without following a pointer
/// (`x`, `s.f`, `a[i]` of an array `a`).
fn direct_base(cx: &Context, e: &Node<Expression>) -> Option<VarId> {
    match &e.node {
        Expression::Identifier(_) => var_of(cx, e),
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            direct_base(cx, &m.node.expression)
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            let v = direct_base(cx, &b.node.lhs)?;
            let array = cx.program.vars[v].class == TypeClass::Array
                || !matches!(&b.node.lhs.node, Expression::Identifier(_));
            array.then_some(v)
        }
        _ => None,
    }
}

/// The automatic variable whose address value `e` is: `&x`, `&a[i]`, `&s.f`, an array `a`,
/// through casts, pointer arithmetic, conditionals and assignments.
fn private_address(cx: &Context, e: &Node<Expression>) -> Option<VarId> {
    let automatic = |v: VarId| matches!(cx.program.vars[v].storage, Storage::Auto | Storage::Param);
    match &e.node {
        Expression::Identifier(_) => {
            let v = var_of(cx, e)?;
            (cx.program.vars[v].class == TypeClass::Array && automatic(v)).then_some(v)
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            direct_base(cx, &u.node.operand).filter(|&v| automatic(v))
        }
        Expression::Cast(c) => private_address(cx, &c.node.expression),
        Expression::BinaryOperator(b) => match b.node.operator.node {
            BinaryOperator::Plus => {
                private_address(cx, &b.node.lhs).or_else(|| private_address(cx, &b.node.rhs))
            }
            BinaryOperator::Minus | BinaryOperator::AssignPlus | BinaryOperator::AssignMinus => {
                private_address(cx, &b.node.lhs)
            }
            BinaryOperator::Assign => private_address(cx, &b.node.rhs),
            _ => None,
        },
        Expression::Conditional(c) => private_address(cx, &c.node.then_expression)
            .or_else(|| private_address(cx, &c.node.else_expression)),
        Expression::Comma(list) => private_address(cx, list.last()?),
        _ => None,
    }
}

/// Whether `v` is shared by the team at offset `at` of region `d` (statement `region`).
fn shared_at(cx: &Context, d: &Directive, region: Span, at: usize, v: VarId) -> bool {
    let var = &cx.program.vars[v];
    if var.thread_local || is_threadprivate(cx, v) {
        return false;
    }
    // the innermost construct around the store
    let innermost = cx
        .directives_in(region)
        .iter()
        .filter_map(|i| Some((i, span_of(cx.constructs().statement(cx, i).ok()?.span))))
        .filter(|(_, s)| s.start <= at && at < s.end)
        .min_by_key(|(_, s)| s.end - s.start)
        .map_or((d, region), |(i, s)| (i, s));
    let (e, statement) = innermost;
    if super::task::privatises(cx, e, v)
        || super::task::is_loop_variable(cx, e, v)
        || contains(statement, var.ident_span)
    {
        return false;
    }
    if e.kind.is_parallel() {
        return true;
    }
    if !matches!(var.storage, Storage::Auto | Storage::Param) {
        return true;
    }
    super::task::shared_in_context(cx, e, v)
}
