//! The write scope of a parallel region: the shared objects its code (every function it calls
//! included) can write, so that the runtime looks for written pages there only. A region
//! writes either inside the listed objects (globals, shared locals of the encountering
//! function, heap blocks) or anywhere ([`Scope::Unknown`]); a region that writes no shared
//! local has no stack page scanned.
//!
//! Soundness is the whole point: a store outside the scope would never be merged. So anything
//! the analysis does not follow makes the scope unknown: a call to a function that is not a
//! known non-writing libc/math/`omp_*` one, a pointer loaded from memory, a pointer changed by
//! the region, `asm`, `copyin`/`copyprivate`, threadprivate and thread-local variables.
//! A written lvalue is classified by its root: a global, static or shared local variable
//! reached without a pointer dereference is written whole; memory reached through a pointer
//! variable whose value cannot change during the region is the heap block (or the globals)
//! it points into; a pointer private to the region contributes the roots of every value
//! assigned to it.

use std::cell::RefCell;
use std::collections::HashSet;

use lang_c::ast::{
    BinaryOperator, BinaryOperatorExpression, CallExpression, Declarator, Expression, Identifier,
    InitDeclarator, Initializer, MemberOperator, UnaryOperator, UnaryOperatorExpression,
};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::data_sharing::{is_threadprivate, Sharing};
use super::{contains, Context};
use crate::diag::Span;
use crate::directive::{ClauseArgs, ClauseKind, Directive, ReductionOp};
use crate::resolve::{derivation_steps, Step, Storage, VarId};

/// Where a region may write shared memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// anywhere: the runtime looks at all tracked memory
    Unknown,
    /// inside these objects only (sorted, without duplicates; empty: nowhere)
    Known(Vec<Object>),
}

/// One shared object a region may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Object {
    /// a global or static variable, or a local (or parameter) of the encountering function
    /// that the region shares, all of its bytes (for a local: the stack pages it lies on,
    /// which are all the runtime scans of the stack)
    Variable(VarId),
    /// the heap block (or the globals) that this pointer variable points into; its value does
    /// not change while the region runs
    BlockOf(VarId),
}

/// The region as [`write_scope`] sees it.
pub struct RegionView<'r, 'n> {
    pub directive: &'r Directive,
    pub stmt: &'n Node<lang_c::ast::Statement>,
    /// the region's code (stacked directives included)
    pub span: Span,
    pub function: usize,
    /// the data-sharing clauses of the region's directive
    pub sharing: &'r std::collections::HashMap<VarId, (Sharing, Span)>,
    /// the loop variable of a combined `parallel for` (private in the whole region; those of
    /// loops inside are private in their loop only)
    pub loop_var: Option<VarId>,
    pub has_copyin: bool,
}

/// Functions that write no memory the program can see (libc's own buffers aside).
const NON_WRITING: &[&str] = &[
    "sqrt",
    "sqrtf",
    "sqrtl",
    "cbrt",
    "exp",
    "expf",
    "exp2",
    "expm1",
    "log",
    "logf",
    "log2",
    "log10",
    "log1p",
    "pow",
    "powf",
    "fabs",
    "fabsf",
    "fabsl",
    "sin",
    "cos",
    "tan",
    "sinf",
    "cosf",
    "tanf",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "floor",
    "floorf",
    "ceil",
    "ceilf",
    "round",
    "trunc",
    "fmod",
    "fmin",
    "fmax",
    "fma",
    "hypot",
    "erf",
    "erfc",
    "copysign",
    "rint",
    "lrint",
    "lround",
    "nearbyint",
    "abs",
    "labs",
    "llabs",
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "fputs",
    "fputc",
    "fflush",
    "omp_get_thread_num",
    "omp_get_num_threads",
    "omp_get_max_threads",
    "omp_get_num_procs",
    "omp_in_parallel",
    "omp_get_wtime",
    "omp_get_wtick",
    "omp_get_level",
    "omp_get_active_level",
    "omp_get_team_size",
    "omp_get_ancestor_thread_num",
    "omp_get_dynamic",
    "omp_get_nested",
    "omp_get_thread_limit",
    "omp_get_max_active_levels",
    "__builtin_expect",
    "__builtin_isnan",
    "__builtin_isinf",
    "__builtin_fabs",
    "__builtin_sqrt",
    "__assert_fail",
];

/// Whether `name` is a libc/math/`omp_*` function that writes no memory the program sees.
pub fn writes_nothing(name: &str) -> bool {
    NON_WRITING.contains(&name)
}

/// Whether `name` is one of [`NON_WRITING`]'s output functions.
pub fn prints(name: &str) -> bool {
    name.starts_with("print")
        || name.starts_with("fprint")
        || name.starts_with("put")
        || name.starts_with("fput")
        || name == "fflush"
}

/// Functions that write through their first argument only.
const WRITES_FIRST: &[&str] = &[
    "memset",
    "memcpy",
    "memmove",
    "__builtin_memset",
    "__builtin_memcpy",
    "__builtin_memmove",
];

/// The write scope of a parallel region.
pub fn write_scope(cx: &Context, region: &RegionView) -> Scope {
    let mut walk = Walk::default();
    walk.visit_statement(&region.stmt.node, &region.stmt.span);
    analyse(cx, region, &walk).map_or(Scope::Unknown, |mut objects| {
        objects.sort();
        objects.dedup();
        Scope::Known(objects)
    })
}

/// What the region's syntax writes, collected in one walk.
#[derive(Default)]
struct Walk<'n> {
    /// something the analysis does not follow (`asm`, `va_arg`)
    opaque: bool,
    /// lvalues assigned, incremented or decremented
    written: Vec<&'n Node<Expression>>,
    /// `x = e` with `x` a plain identifier, and initialised declarations: (name, value)
    assigned: Vec<(&'n Node<Identifier>, &'n Node<Expression>)>,
    /// pointer values written through (the first argument of `memset`, ...)
    written_through: Vec<&'n Node<Expression>>,
    /// operands of `&`: conservatively written (what the address reaches is not followed)
    addressed: Vec<&'n Node<Expression>>,
    /// callees
    calls: Vec<&'n Node<Expression>>,
}

impl<'n> Visit<'n> for Walk<'n> {
    fn visit_binary_operator_expression(
        &mut self,
        e: &'n BinaryOperatorExpression,
        span: &'n lang_c::span::Span,
    ) {
        use BinaryOperator as B;
        if matches!(
            e.operator.node,
            B::Assign
                | B::AssignMultiply
                | B::AssignDivide
                | B::AssignModulo
                | B::AssignPlus
                | B::AssignMinus
                | B::AssignShiftLeft
                | B::AssignShiftRight
                | B::AssignBitwiseAnd
                | B::AssignBitwiseXor
                | B::AssignBitwiseOr
        ) {
            self.written.push(&e.lhs);
            if let (B::Assign, Expression::Identifier(i)) = (&e.operator.node, &e.lhs.node) {
                self.assigned.push((i, &e.rhs));
            }
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        e: &'n UnaryOperatorExpression,
        span: &'n lang_c::span::Span,
    ) {
        use UnaryOperator as U;
        match e.operator.node {
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                self.written.push(&e.operand)
            }
            U::Address => self.addressed.push(&e.operand),
            _ => {}
        }
        visit::visit_unary_operator_expression(self, e, span);
    }

    fn visit_call_expression(&mut self, e: &'n CallExpression, span: &'n lang_c::span::Span) {
        self.calls.push(&e.callee);
        if let Expression::Identifier(name) = &e.callee.node {
            let name = name.node.name.as_str();
            if WRITES_FIRST.contains(&name) {
                self.written_through.extend(e.arguments.first());
            }
            // `%n` writes through its argument; a format that is not a literal may hold one
            let format = match name {
                "printf" => e.arguments.first(),
                "fprintf" => e.arguments.get(1),
                _ => None,
            };
            if format.is_some_and(|f| !is_format_without_n(&f.node)) {
                self.opaque = true;
            }
        }
        visit::visit_call_expression(self, e, span);
    }

    fn visit_init_declarator(&mut self, d: &'n InitDeclarator, span: &'n lang_c::span::Span) {
        if let (Some(name), Some(init)) = (declared_identifier(&d.declarator.node), &d.initializer)
        {
            if let Initializer::Expression(value) = &init.node {
                self.assigned.push((name, value));
            }
        }
        visit::visit_init_declarator(self, d, span);
    }

    fn visit_asm_statement(&mut self, _: &'n lang_c::ast::AsmStatement, _: &'n lang_c::span::Span) {
        self.opaque = true;
    }

    fn visit_va_arg_expression(
        &mut self,
        _: &'n lang_c::ast::VaArgExpression,
        _: &'n lang_c::span::Span,
    ) {
        self.opaque = true;
    }
}

/// A string literal format with no `%n` conversion.
fn is_format_without_n(format: &Expression) -> bool {
    let Expression::StringLiteral(pieces) = format else {
        return false;
    };
    pieces.node.iter().all(|piece| {
        let mut chars = piece.chars();
        while let Some(c) = chars.next() {
            if c == '%' {
                let conversion = chars.find(|c| !"-+ #0123456789.*'hlLqjzt".contains(*c));
                if conversion == Some('n') {
                    return false;
                }
            }
        }
        true
    })
}

fn declared_identifier(d: &Declarator) -> Option<&Node<Identifier>> {
    match &d.kind.node {
        lang_c::ast::DeclaratorKind::Identifier(i) => Some(i),
        lang_c::ast::DeclaratorKind::Declarator(inner) => declared_identifier(&inner.node),
        lang_c::ast::DeclaratorKind::Abstract => None,
    }
}

/// Not followed: the scope is unknown.
struct Unknown;

type Found<T> = Result<T, Unknown>;

/// The derivations left in an expression's type; `None`: not known.
type Ty = Option<Vec<Step>>;

/// The objects written, or `Unknown`.
fn analyse(cx: &Context, region: &RegionView, walk: &Walk) -> Found<Vec<Object>> {
    if walk.opaque || region.has_copyin {
        return Err(Unknown);
    }
    let facts = Facts::new(cx, region, walk)?;
    for callee in &walk.calls {
        facts.check_callee(callee)?;
    }
    let mut objects = Vec::new();
    for &v in &facts.written_back {
        objects.extend(facts.original_home(v)?);
    }
    for lvalue in walk.written.iter().chain(&walk.addressed) {
        objects.extend(facts.lvalue(lvalue, 0)?.0);
    }
    for pointer in &walk.written_through {
        objects.extend(facts.pointer(pointer, 0)?.0);
    }
    Ok(objects)
}

/// How deep the analysis follows expressions and private pointers before giving up.
const MAX_DEPTH: usize = 64;

/// The region's facts the classification needs.
struct Facts<'w, 'c, 'p, 'a, 'n> {
    cx: &'c Context<'p, 'a>,
    region: &'w RegionView<'w, 'n>,
    walk: &'w Walk<'n>,
    /// variables the region's clauses make private (`true`: initialised from the original)
    private: Vec<(VarId, bool)>,
    /// originals written at the region's end or by a construct inside (lastprivate, reduction,
    /// linear)
    written_back: Vec<VarId>,
    /// variables assigned, incremented, decremented or whose address the region takes
    modified: HashSet<VarId>,
    /// the private pointers whose values are being followed (a cycle of assignments adds nothing)
    visiting: RefCell<Vec<VarId>>,
}

impl<'w, 'c, 'p, 'a, 'n> Facts<'w, 'c, 'p, 'a, 'n> {
    fn new(
        cx: &'c Context<'p, 'a>,
        region: &'w RegionView<'w, 'n>,
        walk: &'w Walk<'n>,
    ) -> Found<Self> {
        let mut facts = Facts {
            cx,
            region,
            walk,
            private: Vec::new(),
            written_back: Vec::new(),
            modified: HashSet::new(),
            visiting: RefCell::new(Vec::new()),
        };
        for (&v, (sharing, _)) in region.sharing {
            match sharing {
                Sharing::Shared => {}
                Sharing::Private => facts.private.push((v, false)),
                Sharing::Firstprivate => facts.private.push((v, true)),
                Sharing::Lastprivate | Sharing::Reduction(_) => facts.private.push((v, false)),
                Sharing::FirstLastprivate => facts.private.push((v, true)),
            }
        }
        facts
            .private
            .extend(region.loop_var.iter().map(|&v| (v, false)));
        facts.clauses()?;
        for e in walk.written.iter().chain(&walk.addressed) {
            if let Expression::Identifier(i) = &e.node {
                if let Some(v) = facts.var(i) {
                    facts.modified.insert(v);
                }
            }
        }
        facts.modified.extend(facts.written_back.iter().copied());
        Ok(facts)
    }

    /// The clauses of the region's directive and of the directives inside it.
    fn clauses(&mut self) -> Found<()> {
        let cx = self.cx;
        let d = self.region.directive;
        let inside = cx.constructs().inside(cx, d);
        for (dir, clause) in std::iter::once(d)
            .chain(inside.iter())
            .flat_map(|dir| dir.clauses.iter().map(move |c| (dir, c)))
        {
            let own = std::ptr::eq(dir, d);
            match (&clause.kind, &clause.args) {
                (ClauseKind::Copyin | ClauseKind::Copyprivate, _) => return Err(Unknown),
                (ClauseKind::Reduction, ClauseArgs::Reduction { op, items, .. })
                    // an array section is written through its pointer
                    if *op == ReductionOp::Custom || items.iter().any(|i| i.span != i.name_span) =>
                {
                    return Err(Unknown)
                }
                (
                    ClauseKind::Reduction | ClauseKind::Lastprivate | ClauseKind::Linear,
                    ClauseArgs::List(items)
                    | ClauseArgs::Reduction { items, .. }
                    | ClauseArgs::ListWithExpr { items, .. },
                ) => {
                    // the originals are written back (the private copies are written inside)
                    let vars: Vec<VarId> = items
                        .iter()
                        .flat_map(|item| super::clause_vars(cx, dir, item.name_span))
                        .map(|(_, v)| v)
                        .collect();
                    self.written_back.extend(&vars);
                    if own && clause.kind == ClauseKind::Linear {
                        self.private.extend(vars.iter().map(|&v| (v, true)));
                    }
                }
                (ClauseKind::Reduction | ClauseKind::Lastprivate | ClauseKind::Linear, _) => {
                    return Err(Unknown)
                }
                _ => {}
            }
            // expressions evaluated inside the region (a nested `if`, a schedule's chunk)
            let evaluated_inside = !own || !super::data_sharing::parallel_part(clause.kind);
            let expression = match &clause.args {
                ClauseArgs::Expr { expr, .. } => Some(*expr),
                ClauseArgs::Schedule { chunk, .. } => *chunk,
                ClauseArgs::ListWithExpr { expr, .. } => *expr,
                _ => None,
            };
            if let Some(expr) = expression.filter(|_| evaluated_inside) {
                let text = cx.text(expr);
                if ["(", "=", "++", "--"].iter().any(|t| text.contains(t)) {
                    return Err(Unknown);
                }
            }
        }
        Ok(())
    }

    /// A call is followed when it names a known libc/math/`omp_*` function that the program
    /// does not declare itself.
    fn check_callee(&self, callee: &Node<Expression>) -> Found<()> {
        let Expression::Identifier(i) = &callee.node else {
            return Err(Unknown);
        };
        let name = i.node.name.as_str();
        let known = NON_WRITING.contains(&name) || WRITES_FIRST.contains(&name);
        if !known || self.var(i).is_some() || self.cx.user_functions().contains(name) {
            return Err(Unknown);
        }
        Ok(())
    }

    fn var(&self, i: &Node<Identifier>) -> Option<VarId> {
        super::var_at(self.cx, Span::new(i.span.start, i.span.end))
    }

    /// Declared inside the region as an automatic variable, or made private by a clause.
    fn is_region_private(&self, v: VarId) -> bool {
        let var = &self.cx.program.vars[v];
        (contains(self.region.span, var.ident_span) && var.storage == Storage::Auto)
            || self.private.iter().any(|&(p, _)| p == v)
    }

    /// Where a direct write of `v` lands: `None` for the region's private memory.
    fn home(&self, v: VarId) -> Found<Option<Object>> {
        if self.is_region_private(v) && !self.is_thread_specific(v) {
            return Ok(None);
        }
        self.original_home(v)
    }

    fn is_thread_specific(&self, v: VarId) -> bool {
        self.cx.program.vars[v].thread_local || is_threadprivate(self.cx, v)
    }

    /// Where a write of the variable `v` names outside the region lands (a clause's copy-out
    /// or reduction writes the original, not the private copy).
    fn original_home(&self, v: VarId) -> Found<Option<Object>> {
        let var = &self.cx.program.vars[v];
        if self.is_thread_specific(v) {
            return Err(Unknown);
        }
        if contains(self.region.span, var.ident_span) {
            if var.storage == Storage::Auto {
                return Ok(None);
            }
            // a static or extern declared inside: not visible where the scope is built
            return Err(Unknown);
        }
        Ok(Some(Object::Variable(v)))
    }

    fn var_type(&self, v: VarId) -> Ty {
        let shape = &self.cx.program.vars[v].shape;
        (!shape.opaque_base || !shape.steps.is_empty()).then(|| shape.steps.clone())
    }

    /// The objects an lvalue lies in, and its type.
    fn lvalue(&self, e: &Node<Expression>, depth: usize) -> Found<(Vec<Object>, Ty)> {
        let depth = deeper(depth)?;
        match &e.node {
            Expression::Identifier(i) => {
                let v = self.var(i).ok_or(Unknown)?;
                Ok((self.home(v)?.into_iter().collect(), self.var_type(v)))
            }
            Expression::Member(m) => {
                let objects = match m.node.operator.node {
                    MemberOperator::Direct => self.lvalue(&m.node.expression, depth)?.0,
                    MemberOperator::Indirect => self.pointer(&m.node.expression, depth)?.0,
                };
                let member = self.cx.program.members.get(&m.node.identifier.node.name);
                let ty = match member {
                    Some(Some(shape)) if !shape.opaque_base || !shape.steps.is_empty() => {
                        Some(shape.steps.clone())
                    }
                    _ => None,
                };
                Ok((objects, ty))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                // `a[i]` is `*(a + i)`: either operand may be the pointer
                self.pointer(&b.node.lhs, depth)
                    .or_else(|_| self.pointer(&b.node.rhs, depth))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.pointer(&u.node.operand, depth)
            }
            _ => Err(Unknown),
        }
    }

    /// The objects a pointer-valued expression may point into, and the pointed-to type. Fails
    /// for anything not known to be a pointer (so `p + i` finds the pointer among its operands).
    fn pointer(&self, e: &Node<Expression>, depth: usize) -> Found<(Vec<Object>, Ty)> {
        let depth = deeper(depth)?;
        match &e.node {
            Expression::Identifier(i) => {
                let v = self.var(i).ok_or(Unknown)?;
                match self.var_type(v).as_deref() {
                    Some([Step::Pointer, rest @ ..]) => {
                        Ok((self.pointer_var(v, depth)?, Some(rest.to_vec())))
                    }
                    _ => self.decayed(e, depth),
                }
            }
            Expression::Member(_)
            | Expression::BinaryOperator(_)
            | Expression::UnaryOperator(_)
                if is_lvalue(e) =>
            {
                self.decayed(e, depth)
            }
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::Plus => self
                    .pointer(&b.node.lhs, depth)
                    .or_else(|_| self.pointer(&b.node.rhs, depth)),
                BinaryOperator::Minus => self.pointer(&b.node.lhs, depth),
                _ => Err(Unknown),
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.lvalue(&u.node.operand, depth)
            }
            Expression::Cast(c) => {
                let (objects, _) = self.pointer(&c.node.expression, depth)?;
                let steps = c
                    .node
                    .type_name
                    .node
                    .declarator
                    .as_ref()
                    .map(|d| derivation_steps(&d.node, false))
                    .unwrap_or_default();
                let opaque = c.node.type_name.node.specifiers.iter().any(|s| {
                    matches!(
                        &s.node,
                        lang_c::ast::SpecifierQualifier::TypeSpecifier(t)
                            if matches!(t.node, lang_c::ast::TypeSpecifier::TypedefName(_)
                                | lang_c::ast::TypeSpecifier::TypeOf(_)
                                | lang_c::ast::TypeSpecifier::Atomic(_))
                    )
                });
                match steps.as_slice() {
                    [Step::Pointer, rest @ ..] => {
                        let known = !opaque || !rest.is_empty();
                        Ok((objects, known.then(|| rest.to_vec())))
                    }
                    // a pointer cast to an integer (or to a typedef'd type)
                    _ => Err(Unknown),
                }
            }
            Expression::Conditional(c) => {
                let (mut objects, then_ty) = self.pointer(&c.node.then_expression, depth)?;
                let (others, else_ty) = self.pointer(&c.node.else_expression, depth)?;
                objects.extend(others);
                Ok((objects, if then_ty == else_ty { then_ty } else { None }))
            }
            Expression::Comma(list) => self.pointer(list.last().ok_or(Unknown)?, depth),
            _ => Err(Unknown),
        }
    }

    /// An array lvalue used as a pointer to its first element; any other lvalue holds a
    /// pointer loaded from memory, which the analysis does not follow.
    fn decayed(&self, e: &Node<Expression>, depth: usize) -> Found<(Vec<Object>, Ty)> {
        let (objects, ty) = self.lvalue(e, depth)?;
        match ty.as_deref() {
            Some([Step::Array { .. }, rest @ ..]) => Ok((objects, Some(rest.to_vec()))),
            _ => Err(Unknown),
        }
    }

    /// The objects pointer variable `v` may point into during the region.
    fn pointer_var(&self, v: VarId, depth: usize) -> Found<Vec<Object>> {
        let var = &self.cx.program.vars[v];
        if var.thread_local || is_threadprivate(self.cx, v) || var.address_taken {
            return Err(Unknown);
        }
        if !self.is_region_private(v) {
            // a shared pointer: usable if the region never changes it
            if self.modified.contains(&v) || contains(self.region.span, var.ident_span) {
                return Err(Unknown);
            }
            return Ok(vec![Object::BlockOf(v)]);
        }
        if self.visiting.borrow().contains(&v) {
            // a cycle of assignments adds nothing new
            return Ok(Vec::new());
        }
        self.visiting.borrow_mut().push(v);
        let found = self.private_pointer(v, depth);
        self.visiting.borrow_mut().pop();
        found
    }

    /// A private pointer points where the values assigned to it point (`+=`, `-=`, `++` and
    /// `--` keep it inside the same objects).
    fn private_pointer(&self, v: VarId, depth: usize) -> Found<Vec<Object>> {
        let mut objects = Vec::new();
        if self.private.contains(&(v, true)) {
            // initialised from the original, whose value the region cannot change
            objects.push(Object::BlockOf(v));
        }
        for (name, value) in &self.walk.assigned {
            if self.var(name).or_else(|| self.declared(name)) == Some(v) {
                objects.extend(self.pointer(value, depth)?.0);
            }
        }
        Ok(objects)
    }

    /// The variable a declarator inside the region declares.
    fn declared(&self, name: &Node<Identifier>) -> Option<VarId> {
        let at = Span::new(name.span.start, name.span.end);
        let v =
            self.cx
                .program
                .visible(&name.node.name, name.span.end, Some(self.region.function))?;
        (self.cx.program.vars[v].ident_span == at).then_some(v)
    }
}

fn deeper(depth: usize) -> Found<usize> {
    if depth >= MAX_DEPTH {
        Err(Unknown)
    } else {
        Ok(depth + 1)
    }
}

fn is_lvalue(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Member(_) => true,
        Expression::BinaryOperator(b) => b.node.operator.node == BinaryOperator::Index,
        Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
        _ => false,
    }
}
