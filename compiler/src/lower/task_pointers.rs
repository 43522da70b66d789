//! Where the pointers a spread task uses may point. A task spread over the ranks writes on
//! one rank, and only merged memory (globals, the heap, the stack of the function around the
//! region) reaches the others: a write through a pointer to a local of the region, of the
//! `single`'s thread or of a generating function would stay on the rank that ran the task.
//! So a `single` spreads only when every pointer its tasks take from the code around them
//! provably points into merged memory (task.rs, task_recursion.rs).
//!
//! A pointer value is followed to its origins: the address of (or an array of) a global, a
//! static, or a local of the function around the region declared outside it is merged; a
//! local of the region or of a function is not; a local pointer holds what every assignment
//! in its function gives it (its address must not be taken); a parameter what every call of
//! its function in the file passes (the function's address must not be taken); a pointer
//! loaded from merged memory is merged, since a store of a region-private address into shared
//! memory is refused where it is direct (private_address.rs) and wrong under CAPE anyway.
//! Anything else (a call's result, an integer cast to a pointer) is not followed.

use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};

use lang_c::ast::{
    BinaryOperator, CallExpression, Declarator, Expression, InitDeclarator, Initializer,
    UnaryOperator,
};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::{contains, span_of, uses_in, Context};
use crate::diag::Span;
use crate::resolve::{derivation_steps, Binding, Step, Storage, TypeClass, VarId};

/// Where a value may point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// not a pointer (an integer, a null pointer constant)
    None,
    /// into merged memory only
    Merged,
    /// possibly elsewhere, or not followed
    Unknown,
}

fn join(a: Origin, b: Origin) -> Origin {
    match (a, b) {
        (Origin::Unknown, _) | (_, Origin::Unknown) => Origin::Unknown,
        (Origin::Merged, _) | (_, Origin::Merged) => Origin::Merged,
        _ => Origin::None,
    }
}

/// The assignments and calls of the file's functions, collected once per question.
#[derive(Default)]
struct Flows<'a> {
    /// `v = e` and initialised declarations, by the name's span: (name span, value)
    assigned: Vec<(Span, &'a Node<Expression>)>,
    /// calls by callee name: the arguments
    calls: HashMap<String, Vec<&'a [Node<Expression>]>>,
    /// function names used other than as a callee
    address_taken: HashSet<String>,
}

impl<'a> Visit<'a> for Flows<'a> {
    fn visit_expression(&mut self, e: &'a Expression, span: &'a lang_c::span::Span) {
        match e {
            Expression::Identifier(i) => {
                self.address_taken.insert(i.node.name.clone());
            }
            Expression::Call(c) => self.call(&c.node),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                if let Expression::Identifier(i) = &b.node.lhs.node {
                    self.assigned.push((span_of(i.span), &b.node.rhs));
                }
            }
            _ => {}
        }
        if !matches!(e, Expression::Call(_)) {
            visit::visit_expression(self, e, span);
        }
    }

    fn visit_init_declarator(&mut self, d: &'a InitDeclarator, span: &'a lang_c::span::Span) {
        if let (Some(name), Some(init)) = (declared(&d.declarator.node), &d.initializer) {
            if let Initializer::Expression(value) = &init.node {
                self.assigned.push((name, value));
            }
        }
        visit::visit_init_declarator(self, d, span);
    }
}

impl<'a> Flows<'a> {
    fn call(&mut self, c: &'a CallExpression) {
        match &c.callee.node {
            Expression::Identifier(i) => self
                .calls
                .entry(i.node.name.clone())
                .or_default()
                .push(&c.arguments),
            _ => self.visit_expression(&c.callee.node, &c.callee.span),
        }
        for a in &c.arguments {
            self.visit_expression(&a.node, &a.span);
        }
    }
}

fn declared(d: &Declarator) -> Option<Span> {
    match &d.kind.node {
        lang_c::ast::DeclaratorKind::Identifier(i) => Some(span_of(i.span)),
        lang_c::ast::DeclaratorKind::Declarator(inner) => declared(&inner.node),
        lang_c::ast::DeclaratorKind::Abstract => None,
    }
}

/// Follows pointer values to their origins.
pub(super) struct Origins<'c, 'p, 'a> {
    cx: &'c Context<'p, 'a>,
    /// the statements of the file's parallel constructs, found on first use
    regions: OnceCell<Vec<Span>>,
    flows: OnceCell<Flows<'a>>,
    visiting: RefCell<Vec<VarId>>,
}

const MAX_DEPTH: usize = 64;

impl<'c, 'p, 'a> Origins<'c, 'p, 'a> {
    pub(super) fn new(cx: &'c Context<'p, 'a>) -> Self {
        Origins {
            cx,
            regions: OnceCell::new(),
            flows: OnceCell::new(),
            visiting: RefCell::new(Vec::new()),
        }
    }

    fn flows(&self) -> &Flows<'a> {
        self.flows.get_or_init(|| {
            let mut flows = Flows::default();
            for body in &self.cx.program.function_bodies {
                flows.visit_statement(&body.node, &body.span);
            }
            flows
        })
    }

    /// Whether every pointer that the code in `span` takes from variables declared outside it
    /// points into merged memory: pointer variables, and the arrays and structures `shared`
    /// says are the originals (`shared(v)` holds when `v` is one).
    pub(super) fn span_merged(&self, span: Span, shared: &dyn Fn(VarId) -> bool) -> bool {
        uses_in(self.cx, span).iter().all(|u| {
            let Binding::Var(v) = u.binding else {
                return true;
            };
            let var = &self.cx.program.vars[v];
            if contains(span, var.ident_span)
                || !matches!(var.storage, Storage::Auto | Storage::Param)
            {
                return true;
            }
            let followed = match var.class {
                TypeClass::Pointer | TypeClass::Unknown => true,
                TypeClass::Array | TypeClass::Record => shared(v),
                _ => false,
            };
            !followed || self.variable(v, u.span.start, 0) != Origin::Unknown
        })
    }

    /// Whether local `v` lives in merged memory as seen from `at`: declared in the function
    /// around the innermost parallel region that contains `at`, outside that region.
    fn merged_local(&self, v: VarId, at: usize) -> bool {
        let declared = self.cx.program.vars[v].ident_span;
        let cx = self.cx;
        let regions = self.regions.get_or_init(|| {
            cx.directives
                .iter()
                .filter(|d| d.kind.is_parallel())
                .filter_map(|d| cx.constructs().statement(cx, d).ok())
                .map(|s| span_of(s.span))
                .collect()
        });
        let region = regions
            .iter()
            .filter(|r| r.start <= at && at < r.end)
            .min_by_key(|r| r.end - r.start);
        match region {
            Some(r) => {
                !contains(*r, declared)
                    && self.cx.program.function_at(r.start) == self.cx.program.vars[v].function
            }
            // a call in `main`'s sequential code creates no spread task
            None => self.cx.program.vars[v]
                .function
                .is_some_and(|f| self.cx.program.functions[f].name == "main"),
        }
    }

    /// What variable `v` (used at `at`) gives as a value.
    fn variable(&self, v: VarId, at: usize, depth: usize) -> Origin {
        let var = &self.cx.program.vars[v];
        if matches!(
            var.class,
            TypeClass::Integer | TypeClass::Floating | TypeClass::OtherArithmetic
        ) {
            return Origin::None;
        }
        if !matches!(var.storage, Storage::Auto | Storage::Param) || self.merged_local(v, at) {
            return Origin::Merged;
        }
        if !matches!(var.class, TypeClass::Pointer | TypeClass::Unknown)
            || var.address_taken
            || var.thread_local
            || depth > MAX_DEPTH
        {
            return Origin::Unknown;
        }
        if self.visiting.borrow().contains(&v) {
            // a cycle of assignments adds nothing new
            return Origin::None;
        }
        self.visiting.borrow_mut().push(v);
        let found = if var.storage == Storage::Param {
            self.parameter(v, depth)
        } else {
            self.local_pointer(v, depth)
        };
        self.visiting.borrow_mut().pop();
        found
    }

    /// A local pointer: every value assigned to it (`+=`, `-=`, `++`, `--` stay inside).
    fn local_pointer(&self, v: VarId, depth: usize) -> Origin {
        let Some(f) = self.cx.program.vars[v].function else {
            return Origin::Unknown;
        };
        let body = self.cx.program.functions[f].body;
        let mut origin = Origin::None;
        for &(name, value) in &self.flows().assigned {
            if !contains(body, name) || self.binding(name) != Some(v) {
                continue;
            }
            origin = join(origin, self.pointer_value(value, depth + 1));
        }
        origin
    }

    /// The variable an identifier (a use or a declarator) names.
    fn binding(&self, name: Span) -> Option<VarId> {
        let uses = &self.cx.program.uses;
        let at = uses.partition_point(|u| u.span.start < name.start);
        if let Some(u) = uses.get(at).filter(|u| u.span == name) {
            return match u.binding {
                Binding::Var(v) => Some(v),
                _ => None,
            };
        }
        let text = self.cx.source.get(name.start..name.end)?;
        let f = self.cx.program.function_at(name.start);
        let v = self.cx.program.visible(text, name.end, f)?;
        (self.cx.program.vars[v].ident_span == name).then_some(v)
    }

    /// A parameter: what every call of its function passes.
    fn parameter(&self, v: VarId, depth: usize) -> Origin {
        let program = self.cx.program;
        let Some(f) = program.vars[v].function else {
            return Origin::Unknown;
        };
        let index = program
            .vars
            .iter()
            .take(v)
            .filter(|o| o.function == Some(f) && o.storage == Storage::Param)
            .count();
        let name = &program.functions[f].name;
        let flows = self.flows();
        let Some(calls) = flows.calls.get(name) else {
            return Origin::Unknown;
        };
        if flows.address_taken.contains(name) {
            return Origin::Unknown;
        }
        calls.iter().fold(Origin::None, |origin, args| {
            join(
                origin,
                args.get(index)
                    .map_or(Origin::Unknown, |a| self.pointer_value(a, depth + 1)),
            )
        })
    }

    /// Where the value of `e` may point.
    fn pointer_value(&self, e: &Node<Expression>, depth: usize) -> Origin {
        if depth > MAX_DEPTH {
            return Origin::Unknown;
        }
        let depth = depth + 1;
        match &e.node {
            Expression::Identifier(i) => match self.binding(span_of(i.span)) {
                Some(v) => self.variable(v, i.span.start, depth),
                // an enumeration constant, a function
                None => Origin::None,
            },
            Expression::Constant(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_) => Origin::None,
            Expression::StringLiteral(_) => Origin::Merged,
            Expression::Member(_) => self.place(e, depth),
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Address => self.place(&u.node.operand, depth),
                UnaryOperator::Indirection => self.place(e, depth),
                UnaryOperator::Negate => Origin::None,
                _ => self.pointer_value(&u.node.operand, depth),
            },
            Expression::BinaryOperator(b) => {
                use BinaryOperator as B;
                match b.node.operator.node {
                    B::Index => self.place(e, depth),
                    B::Assign
                    | B::AssignMultiply
                    | B::AssignDivide
                    | B::AssignModulo
                    | B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseXor
                    | B::AssignBitwiseOr => self.pointer_value(&b.node.rhs, depth),
                    B::AssignPlus | B::AssignMinus => self.pointer_value(&b.node.lhs, depth),
                    B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals
                    | B::LogicalAnd
                    | B::LogicalOr => Origin::None,
                    _ => join(
                        self.pointer_value(&b.node.lhs, depth),
                        self.pointer_value(&b.node.rhs, depth),
                    ),
                }
            }
            Expression::Cast(c) => {
                let inner = self.pointer_value(&c.node.expression, depth);
                let to_pointer = c.node.type_name.node.declarator.as_ref().is_some_and(|d| {
                    matches!(
                        derivation_steps(&d.node, false).first(),
                        Some(Step::Pointer)
                    )
                });
                let null = matches!(c.node.expression.node, Expression::Constant(_));
                if inner == Origin::None && to_pointer && !null {
                    // an integer made a pointer
                    Origin::Unknown
                } else {
                    inner
                }
            }
            Expression::Conditional(c) => join(
                self.pointer_value(&c.node.then_expression, depth),
                self.pointer_value(&c.node.else_expression, depth),
            ),
            Expression::Comma(list) => list
                .last()
                .map_or(Origin::Unknown, |l| self.pointer_value(l, depth)),
            _ => Origin::Unknown,
        }
    }

    /// Where an object designated by lvalue `e` lies (its address, an array of it decaying,
    /// or the memory a pointer is loaded from).
    fn place(&self, e: &Node<Expression>, depth: usize) -> Origin {
        if depth > MAX_DEPTH {
            return Origin::Unknown;
        }
        let depth = depth + 1;
        match &e.node {
            Expression::Identifier(i) => match self.binding(span_of(i.span)) {
                Some(v) => {
                    let var = &self.cx.program.vars[v];
                    if !matches!(var.storage, Storage::Auto | Storage::Param)
                        || self.merged_local(v, i.span.start)
                    {
                        Origin::Merged
                    } else {
                        Origin::Unknown
                    }
                }
                None => Origin::Merged,
            },
            Expression::Member(m) => match m.node.operator.node {
                lang_c::ast::MemberOperator::Direct => self.place(&m.node.expression, depth),
                lang_c::ast::MemberOperator::Indirect => {
                    self.pointer_value(&m.node.expression, depth)
                }
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => join(
                self.pointer_value(&b.node.lhs, depth),
                self.pointer_value(&b.node.rhs, depth),
            ),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.pointer_value(&u.node.operand, depth)
            }
            _ => Origin::Unknown,
        }
    }
}
