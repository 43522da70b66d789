//! Pieces shared by the lowerings: canonical loops, clause items, types rebuilt at file scope.

use std::collections::HashMap;

use lang_c::ast::*;
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::{contains, span_of, Context, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::ReductionOp;
use crate::emit::{apply_in, Edit};
use crate::resolve::{Binding, Storage, Var, VarId};

pub struct Captured {
    pub var: VarId,
    pub field: String,
    /// the typed pointer to the original, `__cape_shared_<field>`
    pub pointer: String,
}

pub(crate) fn non_canonical(at: Span, label: &str, pragma: Span, construct: &str) -> Diagnostic {
    Diagnostic::error("loop is not in OpenMP canonical form")
        .with_primary(at, label)
        .with_secondary(
            pragma,
            format!("the loop of this `#pragma omp {construct}`"),
        )
        .with_note(
            "canonical loops look like `for (i = lb; i < ub; i += step)` (OpenMP 4.5 section 2.6)",
        )
}

/// The loop variable and the pieces of the loop header.
pub(crate) struct Canonical {
    pub var: VarId,
    /// the variable is declared in the `for` header
    pub declared_in_header: bool,
    pub lb: Span,
    pub ub: Span,
    pub test: BinaryOperator,
    /// (text span, negate): the step is `span` or `-(span)`; None means the constant 1 or -1
    pub step: StepForm,
}

pub(crate) enum StepForm {
    One,
    MinusOne,
    Plus(Span),
    Minus(Span),
}

pub(crate) fn combine_expression(op: ReductionOp) -> (&'static str, &'static str) {
    match op {
        ReductionOp::Add => ("+", "*__cape_a + *__cape_b"),
        ReductionOp::Sub => ("-", "*__cape_a + *__cape_b"),
        ReductionOp::Mul => ("*", "*__cape_a * *__cape_b"),
        ReductionOp::BitAnd => ("&", "*__cape_a & *__cape_b"),
        ReductionOp::BitOr => ("|", "*__cape_a | *__cape_b"),
        ReductionOp::BitXor => ("^", "*__cape_a ^ *__cape_b"),
        ReductionOp::LogAnd => ("&&", "*__cape_a && *__cape_b"),
        ReductionOp::LogOr => ("||", "*__cape_a || *__cape_b"),
        ReductionOp::Max => ("max", "*__cape_a > *__cape_b ? *__cape_a : *__cape_b"),
        ReductionOp::Min | ReductionOp::Custom => {
            ("min", "*__cape_a < *__cape_b ? *__cape_a : *__cape_b")
        }
    }
}

/// The identity of a reduction, for a private copy named `name`.
pub(crate) fn reduction_identity(out: &mut Out, op: ReductionOp, name: &str) -> String {
    if matches!(op, ReductionOp::Max | ReductionOp::Min) {
        out.needs_minmax_identities = true;
    }
    match op {
        ReductionOp::Mul | ReductionOp::LogAnd => "1".to_string(),
        ReductionOp::BitAnd => format!("~(__typeof__({name}))0"),
        ReductionOp::Max => format!("__CAPE_LOWEST({name})"),
        ReductionOp::Min => format!("__CAPE_HIGHEST({name})"),
        _ => "0".to_string(),
    }
}

/// `=` and the compound assignments.
pub(crate) fn is_assignment(op: &BinaryOperator) -> bool {
    use BinaryOperator::*;
    matches!(
        op,
        Assign
            | AssignMultiply
            | AssignDivide
            | AssignModulo
            | AssignPlus
            | AssignMinus
            | AssignShiftLeft
            | AssignShiftRight
            | AssignBitwiseAnd
            | AssignBitwiseXor
            | AssignBitwiseOr
    )
}

pub(crate) fn resolve_item(
    cx: &Context,
    name: &str,
    at: Span,
    pragma: Span,
    function: usize,
    errors: &mut Vec<Diagnostic>,
) -> Option<VarId> {
    let found = cx.program.visible(name, pragma.start, Some(function));
    if found.is_none() {
        errors.push(
            Diagnostic::error(format!("cannot find variable `{name}` in this scope"))
                .with_primary(at, "not declared at this point"),
        );
    }
    found
}

/// `T (*NAME)` for a variable: its declaration with the name replaced, VLA sizes read through
/// the shared pointers; `__typeof__(g) *NAME` for a file-scope variable.
pub(crate) fn pointer_declaration(
    cx: &Context,
    var: &Var,
    name: &str,
    pointers: &HashMap<VarId, &Captured>,
) -> Result<String, Diagnostic> {
    declaration_as_pointer(cx, var, name, &|dep, _| {
        Ok(pointers.get(&dep).map(|c| format!("(*{})", c.pointer)))
    })
}

/// A pointer to the variable's type usable at file scope (combine functions): a local named
/// in an array size (a variable-length array) becomes `1`, since the combine functions only
/// take the element type from it; a local named elsewhere in the type (`__typeof__(n) x`)
/// cannot be spelled there and is refused.
pub(crate) fn typed_pointer(cx: &Context, v: VarId, name: &str) -> Result<String, Diagnostic> {
    let var = cx
        .program
        .vars
        .get(v)
        .ok_or_else(|| Diagnostic::error("internal error: unknown variable"))?;
    declaration_as_pointer(cx, var, name, &|dep, at| {
        if cx.program.vars[dep].storage == Storage::Global {
            Ok(None)
        } else if contains(var.declarator, at) {
            Ok(Some("1".to_string()))
        } else {
            Err(Diagnostic::error(format!(
                "the type of `{}` names the local variable `{}`: capecc cannot spell it where it \
                 combines the reduction",
                var.name, cx.program.vars[dep].name
            ))
            .with_primary(at, "a local variable in the type")
            .with_note(format!(
                "help: declare `{}` with the type itself instead of `__typeof__`",
                var.name
            )))
        }
    })
}

/// The declaration of `var` with its name replaced by `(*NAME)`; `respell(dep, at)` gives the
/// text that replaces a variable `dep` named in its type at `at` (None: as written).
fn declaration_as_pointer(
    cx: &Context,
    var: &Var,
    name: &str,
    respell: &dyn Fn(VarId, Span) -> Result<Option<String>, Diagnostic>,
) -> Result<String, Diagnostic> {
    if var.storage == Storage::Global {
        return Ok(format!("__typeof__({}) *{name}", var.name));
    }
    let mut edits: Vec<Edit> = Vec::new();
    let replacement = if var.param_array_dim.is_some() {
        format!("(*(*{name}))")
    } else {
        format!("(*{name})")
    };
    edits.push(Edit::replace(var.ident_span, replacement));
    if let Some(dim) = var.param_array_dim {
        edits.push(Edit::replace(dim, String::new()));
    }
    for u in &var.type_uses {
        // the outermost size of an array parameter is dropped with its brackets
        if var.param_array_dim.is_some_and(|d| contains(d, u.span)) {
            continue;
        }
        if let Binding::Var(dep) = u.binding {
            if let Some(text) = respell(dep, u.span)? {
                edits.push(Edit::replace(u.span, text));
            }
        }
    }
    let mut text = String::new();
    if var.type_specifiers.is_empty() {
        // C90's implicit int (a K&R parameter missing from the declaration list)
        text.push_str("int ");
    }
    for s in &var.type_specifiers {
        text.push_str(&apply_in(cx.source, *s, &edits)?);
        text.push(' ');
    }
    text.push_str(apply_in(cx.source, var.declarator, &edits)?.trim_end());
    Ok(text)
}

pub(crate) fn identifier_of(cx: &Context, e: &Node<Expression>) -> Option<VarId> {
    let Expression::Identifier(i) = &e.node else {
        return None;
    };
    let uses = &cx.program.uses;
    let at = uses.partition_point(|u| u.span.start < i.span.start);
    match uses.get(at) {
        Some(u) if u.span.start == i.span.start => match u.binding {
            Binding::Var(v) => Some(v),
            Binding::LocalConstant(_) | Binding::Other => None,
        },
        _ => None,
    }
}

pub(crate) fn canonical_form(
    cx: &Context,
    f: &Node<ForStatement>,
    pragma: Span,
    construct: &str,
) -> Result<Canonical, Diagnostic> {
    let init_span = span_of(f.node.initializer.span);
    let init_label = "expected `var = lb` or `type var = lb`";
    let (var, declared_in_header, lb) = match &f.node.initializer.node {
        ForInitializer::Declaration(d) => {
            let [one] = d.node.declarators.as_slice() else {
                return Err(non_canonical(
                    init_span,
                    "declare exactly one loop variable",
                    pragma,
                    construct,
                ));
            };
            let Some(Initializer::Expression(e)) = one.node.initializer.as_ref().map(|i| &i.node)
            else {
                return Err(non_canonical(init_span, init_label, pragma, construct));
            };
            let ident = crate::resolve::declarator_name(&one.node.declarator.node)
                .ok_or_else(|| non_canonical(init_span, init_label, pragma, construct))?;
            let v = cx
                .program
                .vars
                .iter()
                .position(|v| v.ident_span == ident.1)
                .ok_or_else(|| non_canonical(init_span, init_label, pragma, construct))?;
            (v, true, span_of(e.span))
        }
        ForInitializer::Expression(e) => match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                let v = identifier_of(cx, &b.node.lhs)
                    .ok_or_else(|| non_canonical(init_span, init_label, pragma, construct))?;
                (v, false, span_of(b.node.rhs.span))
            }
            _ => return Err(non_canonical(init_span, init_label, pragma, construct)),
        },
        _ => return Err(non_canonical(init_span, init_label, pragma, construct)),
    };
    let test_label = "expected `var < ub`, `var <= ub`, `var > ub`, `var >= ub` or `var != ub`";
    let cond = f
        .node
        .condition
        .as_ref()
        .ok_or_else(|| non_canonical(init_span, "the loop has no test", pragma, construct))?;
    let cond_span = span_of(cond.span);
    let Expression::BinaryOperator(b) = &cond.node else {
        return Err(non_canonical(cond_span, test_label, pragma, construct));
    };
    let op = b.node.operator.node.clone();
    let (test, ub) = if identifier_of(cx, &b.node.lhs) == Some(var) {
        (op, span_of(b.node.rhs.span))
    } else if identifier_of(cx, &b.node.rhs) == Some(var) {
        let mirrored = match op {
            BinaryOperator::Less => BinaryOperator::Greater,
            BinaryOperator::Greater => BinaryOperator::Less,
            BinaryOperator::LessOrEqual => BinaryOperator::GreaterOrEqual,
            BinaryOperator::GreaterOrEqual => BinaryOperator::LessOrEqual,
            other => other,
        };
        (mirrored, span_of(b.node.lhs.span))
    } else {
        return Err(non_canonical(cond_span, test_label, pragma, construct));
    };
    if !matches!(
        test,
        BinaryOperator::Less
            | BinaryOperator::LessOrEqual
            | BinaryOperator::Greater
            | BinaryOperator::GreaterOrEqual
            | BinaryOperator::NotEquals
    ) {
        return Err(non_canonical(cond_span, test_label, pragma, construct));
    }
    let step_label =
        "expected `var++`, `var--`, `var += c`, `var -= c`, `var = var + c` or `var = var - c`";
    let step_expr =
        f.node.step.as_ref().ok_or_else(|| {
            non_canonical(init_span, "the loop has no increment", pragma, construct)
        })?;
    let step_span = span_of(step_expr.span);
    let bad_step = || non_canonical(step_span, step_label, pragma, construct);
    let increment = |e: &Node<Expression>| (span_of(e.span), integer_constant(e));
    // (the form, the increment's value when it is a constant; `None` for `++`/`--`)
    let (step, value) = match &step_expr.node {
        Expression::UnaryOperator(u) if identifier_of(cx, &u.node.operand) == Some(var) => {
            match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => (StepForm::One, None),
                UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => {
                    (StepForm::MinusOne, None)
                }
                _ => return Err(bad_step()),
            }
        }
        Expression::BinaryOperator(b) if identifier_of(cx, &b.node.lhs) == Some(var) => {
            match b.node.operator.node {
                BinaryOperator::AssignPlus => {
                    let (span, value) = increment(&b.node.rhs);
                    (StepForm::Plus(span), Some(value))
                }
                BinaryOperator::AssignMinus => {
                    let (span, value) = increment(&b.node.rhs);
                    (StepForm::Minus(span), Some(value))
                }
                BinaryOperator::Assign => match &b.node.rhs.node {
                    Expression::BinaryOperator(r) => {
                        let lhs_is_var = identifier_of(cx, &r.node.lhs) == Some(var);
                        let rhs_is_var = identifier_of(cx, &r.node.rhs) == Some(var);
                        match r.node.operator.node {
                            BinaryOperator::Plus if lhs_is_var => {
                                let (span, value) = increment(&r.node.rhs);
                                (StepForm::Plus(span), Some(value))
                            }
                            BinaryOperator::Plus if rhs_is_var => {
                                let (span, value) = increment(&r.node.lhs);
                                (StepForm::Plus(span), Some(value))
                            }
                            BinaryOperator::Minus if lhs_is_var => {
                                let (span, value) = increment(&r.node.rhs);
                                (StepForm::Minus(span), Some(value))
                            }
                            _ => return Err(bad_step()),
                        }
                    }
                    _ => return Err(bad_step()),
                },
                _ => return Err(bad_step()),
            }
        }
        _ => return Err(bad_step()),
    };
    // OpenMP allows `!=` only with an increment of 1 or -1: with another step the loop may
    // never reach its bound, and the trip count computed in advance would be wrong
    if test == BinaryOperator::NotEquals {
        if let Some(value) = value.filter(|v| !matches!(v, Some(1 | -1))) {
            let label = match value {
                Some(v) => format!("the increment is {v}, not 1 or -1"),
                None => "the increment is not the constant 1 or -1".to_string(),
            };
            let at = step_span_of(&step).unwrap_or(step_span);
            return Err(Diagnostic::error(
                "a loop with a `!=` test must have an increment of 1 or -1",
            )
            .with_primary(at, label)
            .with_secondary(cond_span, "the `!=` test")
            .with_secondary(
                pragma,
                format!("the loop of this `#pragma omp {construct}`"),
            )
            .with_note(
                "help: test the bound with `<`, `<=`, `>` or `>=` when the increment is \
                         not 1 or -1 (OpenMP 5.0 section 2.9.1)",
            ));
        }
    }
    Ok(Canonical {
        var,
        declared_in_header,
        lb,
        ub,
        test,
        step,
    })
}

/// The span of the increment expression of a `+=`/`-=` step.
fn step_span_of(step: &StepForm) -> Option<Span> {
    match step {
        StepForm::Plus(s) | StepForm::Minus(s) => Some(*s),
        StepForm::One | StepForm::MinusOne => None,
    }
}

/// The value of an integer constant expression made of literals, casts and arithmetic, or
/// `None` (a variable, a call, an enumerator, an overflow, a division by zero).
pub(crate) fn integer_constant(e: &Node<Expression>) -> Option<i128> {
    match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) if !i.suffix.imaginary => {
                let (digits, radix) = match i.base {
                    IntegerBase::Decimal => (&*i.number, 10),
                    IntegerBase::Octal => (&*i.number, 8),
                    IntegerBase::Hexadecimal => (strip_prefix(&i.number, "0x"), 16),
                    IntegerBase::Binary => (strip_prefix(&i.number, "0b"), 2),
                };
                i128::from_str_radix(digits, radix).ok()
            }
            _ => None,
        },
        Expression::Cast(c) => integer_constant(&c.node.expression),
        Expression::UnaryOperator(u) => {
            let v = integer_constant(&u.node.operand)?;
            match u.node.operator.node {
                UnaryOperator::Plus => Some(v),
                UnaryOperator::Minus => v.checked_neg(),
                UnaryOperator::Complement => Some(!v),
                UnaryOperator::Negate => Some(i128::from(v == 0)),
                _ => None,
            }
        }
        Expression::BinaryOperator(b) => {
            let l = integer_constant(&b.node.lhs)?;
            let r = integer_constant(&b.node.rhs)?;
            match b.node.operator.node {
                BinaryOperator::Plus => l.checked_add(r),
                BinaryOperator::Minus => l.checked_sub(r),
                BinaryOperator::Multiply => l.checked_mul(r),
                BinaryOperator::Divide => l.checked_div(r),
                BinaryOperator::Modulo => l.checked_rem(r),
                _ => None,
            }
        }
        _ => None,
    }
}

fn strip_prefix<'s>(digits: &'s str, prefix: &str) -> &'s str {
    digits
        .strip_prefix(prefix)
        .or_else(|| digits.strip_prefix(&prefix.to_uppercase()))
        .unwrap_or(digits)
}

/// The first place in `body` that assigns, increments or decrements variable `var`.
pub(crate) fn modification_of(cx: &Context, body: &Node<Statement>, var: VarId) -> Option<Span> {
    modifications(cx, body, var).first().map(|m| m.expression)
}

/// The identifiers through which `body` assigns, increments or decrements `var` (each
/// modification's left operand), in source order.
pub(crate) fn modifications_of(cx: &Context, body: &Node<Statement>, var: VarId) -> Vec<Span> {
    modifications(cx, body, var)
        .into_iter()
        .map(|m| m.operand)
        .collect()
}

/// An assignment, increment or decrement of a variable: the whole expression, and the operand
/// it modifies.
struct Modification {
    expression: Span,
    operand: Span,
}

fn modifications(cx: &Context, body: &Node<Statement>, var: VarId) -> Vec<Modification> {
    struct Finder<'c, 'p, 'a> {
        cx: &'c Context<'p, 'a>,
        var: usize,
        found: Vec<Modification>,
    }
    impl<'ast> Visit<'ast> for Finder<'_, '_, '_> {
        fn visit_binary_operator_expression(
            &mut self,
            e: &'ast BinaryOperatorExpression,
            span: &'ast lang_c::span::Span,
        ) {
            if is_assignment(&e.operator.node) && identifier_of(self.cx, &e.lhs) == Some(self.var) {
                self.found.push(Modification {
                    expression: span_of(*span),
                    operand: span_of(e.lhs.span),
                });
            }
            visit::visit_binary_operator_expression(self, e, span);
        }

        fn visit_unary_operator_expression(
            &mut self,
            e: &'ast UnaryOperatorExpression,
            span: &'ast lang_c::span::Span,
        ) {
            use UnaryOperator::*;
            let changes = matches!(
                e.operator.node,
                PostIncrement | PostDecrement | PreIncrement | PreDecrement
            );
            if changes && identifier_of(self.cx, &e.operand) == Some(self.var) {
                self.found.push(Modification {
                    expression: span_of(*span),
                    operand: span_of(e.operand.span),
                });
            }
            visit::visit_unary_operator_expression(self, e, span);
        }
    }
    let mut finder = Finder {
        cx,
        var,
        found: Vec::new(),
    };
    finder.visit_statement(&body.node, &body.span);
    finder.found
}
