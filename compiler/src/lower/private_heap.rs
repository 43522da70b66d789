//! Heap blocks allocated inside a parallel region come from the C library heap of the rank that
//! runs the allocation (the shared heap must stay identical on every rank), so their addresses
//! must not reach shared memory: another rank following one after the region would read
//! memory it does not have. A store that visibly puts one there (directly, or through a
//! private pointer the region assigned an allocation) is a compile-time error at the store.
//! Blocks allocated in `single`, `master`, `masked`, `critical` and between a lock's set and
//! unset come from the shared heap (tasks and nested regions are left out too); private
//! scratch buffers are not refused.

use std::collections::HashSet;

use lang_c::ast::{
    BinaryOperator, BinaryOperatorExpression, CallExpression, Expression, Identifier,
    InitDeclarator, Initializer, MemberOperator, UnaryOperator,
};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::critical_spans::{SETS, UNSETS};
use super::data_sharing::{is_threadprivate, Sharing};
use super::write_scope::RegionView;
use super::{contains, span_of, uses_in, Context};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, DirectiveKind};
use crate::resolve::{Binding, Step, Storage, VarId};

/// C library functions that return a newly allocated block.
const ALLOCATORS: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "reallocarray",
    "strdup",
    "strndup",
    "aligned_alloc",
    "memalign",
    "valloc",
];

/// Errors for the stores of the region that put a block allocated in it into shared memory.
pub fn check(cx: &Context, region: &RegionView) -> Vec<Diagnostic> {
    // the block of `parallel master`/`masked` runs on one thread, allocating from the shared
    // heap like a `master` block inside a region
    if region.directive.kind.is_master_block() {
        return Vec::new();
    }
    let mut walk = Walk::default();
    walk.visit_statement(&region.stmt.node, &region.stmt.span);
    // constructs whose allocations come from the shared heap, or that are checked on their own
    let skipped: Vec<Span> = cx
        .constructs()
        .inside(cx, region.directive)
        .iter()
        .filter(|d| {
            d.kind.is_parallel()
                || matches!(
                    d.kind,
                    DirectiveKind::Single
                        | DirectiveKind::Master
                        | DirectiveKind::Masked
                        | DirectiveKind::Critical
                        | DirectiveKind::Task
                        | DirectiveKind::Taskloop
                        | DirectiveKind::TaskloopSimd
                )
        })
        .filter_map(|d| cx.constructs().statement(cx, d).ok())
        .map(|s| span_of(s.span))
        .collect();
    // code between a lock's set and unset runs under a cross-rank lock, allocating from the
    // shared heap like a `critical` section (a pair split over helper functions is not seen)
    let lock_calls = |names: &[&str]| -> Vec<usize> {
        uses_in(cx, region.span)
            .iter()
            .filter(|u| u.binding == Binding::Other && names.contains(&u.name.as_str()))
            .map(|u| u.span.start)
            .collect()
    };
    let (sets, unsets) = (lock_calls(SETS), lock_calls(UNSETS));
    let locked =
        |at: Span| sets.iter().any(|&s| s < at.start) && unsets.iter().any(|&u| u > at.start);
    let counted = |at: Span| !skipped.iter().any(|s| contains(*s, at)) && !locked(at);
    let facts = Facts::new(cx, region);

    // private pointers that hold a block allocated here (`q = p` with `p` one of them too)
    let mut heap: HashSet<VarId> = HashSet::new();
    loop {
        let before = heap.len();
        for (v, at) in walk.allocated(&facts, &heap) {
            if counted(at) && facts.is_private(v) {
                heap.insert(v);
            }
        }
        if heap.len() == before {
            break;
        }
    }

    let mut errors = Vec::new();
    for &(lhs, rhs, at) in &walk.stores {
        if !counted(at) {
            continue;
        }
        if let (Some(block), Some(target)) = (facts.allocation(rhs, &heap), facts.target(lhs)) {
            errors.push(refusal(cx, region, at, span_of(lhs.span), block, target));
        }
    }
    for &(pointer, at) in &walk.memaligned {
        let lvalue = match &strip_casts(pointer).node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                &u.node.operand
            }
            _ => continue,
        };
        if let (true, Some(target)) = (counted(at), facts.target(lvalue)) {
            let block = Block::Call(at);
            errors.push(refusal(cx, region, at, span_of(lvalue.span), block, target));
        }
    }
    errors
}

/// Where the allocated block's address comes from.
#[derive(Clone, Copy)]
enum Block {
    /// the allocating call
    Call(Span),
    /// a private pointer assigned an allocation in the region
    Pointer(Span),
}

/// Why the stored-to lvalue is shared memory.
#[derive(Clone, Copy)]
enum Target {
    Shared,
    Lastprivate,
}

fn refusal(
    cx: &Context,
    region: &RegionView,
    at: Span,
    lvalue: Span,
    block: Block,
    target: Target,
) -> Diagnostic {
    let shown = cx.text(lvalue).trim_end();
    let label = match target {
        Target::Shared => format!("`{shown}` is shared memory: every rank may read it"),
        Target::Lastprivate => {
            format!("`{shown}` is lastprivate: its last value is copied to the shared original")
        }
    };
    let (block_at, block_label) = match block {
        Block::Call(span) => (
            span,
            "allocated from the C library heap of the rank that runs this",
        ),
        Block::Pointer(span) => (
            span,
            "points to a block allocated in the region, from the C library heap of one rank",
        ),
    };
    Diagnostic::error("a block allocated inside a parallel region is stored in shared memory")
        .with_primary(at, label)
        .with_secondary(block_at, block_label)
        .with_secondary(region.directive.name_span, "the parallel region")
        .with_note(
            "the ranks of a capecc program are separate processes: memory allocated inside a \
             parallel region is private to the rank that allocated it, and another rank \
             following this address after the region would crash; allocate the blocks before \
             the region, or in a `single` block inside it (both allocate from the shared heap), \
             then fill them in the loop",
        )
}

/// The assignments, declarations and `posix_memalign` calls of the region, in one walk.
#[derive(Default)]
struct Walk<'n> {
    /// `lhs = rhs`: (lhs, rhs, the whole expression)
    stores: Vec<(&'n Node<Expression>, &'n Node<Expression>, Span)>,
    /// initialised declarations: (declarator's identifier, value)
    declared: Vec<(&'n Node<Identifier>, &'n Node<Expression>)>,
    /// `posix_memalign(p, ...)`: (p, the call)
    memaligned: Vec<(&'n Node<Expression>, Span)>,
}

impl<'n> Walk<'n> {
    /// Every value assigned to a variable that is an allocation's (or a `heap` pointer's):
    /// (variable, where). Only those declarations are looked up (a lookup by name costs).
    fn allocated(&self, facts: &Facts, heap: &HashSet<VarId>) -> Vec<(VarId, Span)> {
        let stored = self
            .stores
            .iter()
            .filter_map(|&(lhs, rhs, at)| match &lhs.node {
                // an expression's span may end after trailing blanks: the identifier's does not
                Expression::Identifier(i) if facts.allocation(rhs, heap).is_some() => {
                    facts.var_at(span_of(i.span)).map(|v| (v, at))
                }
                _ => None,
            });
        let declared = self.declared.iter().filter_map(|&(name, value)| {
            facts.allocation(value, heap)?;
            facts.declared_at(name).map(|v| (v, span_of(name.span)))
        });
        stored.chain(declared).collect()
    }
}

impl<'n> Visit<'n> for Walk<'n> {
    fn visit_binary_operator_expression(
        &mut self,
        e: &'n BinaryOperatorExpression,
        span: &'n lang_c::span::Span,
    ) {
        if e.operator.node == BinaryOperator::Assign {
            self.stores.push((&e.lhs, &e.rhs, span_of(*span)));
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_call_expression(&mut self, e: &'n CallExpression, span: &'n lang_c::span::Span) {
        if let Expression::Identifier(name) = &e.callee.node {
            if name.node.name == "posix_memalign" {
                if let Some(p) = e.arguments.first() {
                    self.memaligned.push((p, span_of(*span)));
                }
            }
        }
        visit::visit_call_expression(self, e, span);
    }

    fn visit_init_declarator(&mut self, d: &'n InitDeclarator, span: &'n lang_c::span::Span) {
        if let (Some(name), Some(init)) = (identifier_of(&d.declarator.node), &d.initializer) {
            if let Initializer::Expression(value) = &init.node {
                self.declared.push((name, value));
            }
        }
        visit::visit_init_declarator(self, d, span);
    }
}

fn identifier_of(d: &lang_c::ast::Declarator) -> Option<&Node<Identifier>> {
    match &d.kind.node {
        lang_c::ast::DeclaratorKind::Identifier(i) => Some(i),
        lang_c::ast::DeclaratorKind::Declarator(inner) => identifier_of(&inner.node),
        lang_c::ast::DeclaratorKind::Abstract => None,
    }
}

fn strip_casts(e: &Node<Expression>) -> &Node<Expression> {
    match &e.node {
        Expression::Cast(c) => strip_casts(&c.node.expression),
        _ => e,
    }
}

/// What the region's clauses and declarations make of its variables.
struct Facts<'c, 'p, 'a> {
    cx: &'c Context<'p, 'a>,
    span: Span,
    /// variables a clause of the region or of a construct inside it names
    clauses: Vec<(VarId, Sharing)>,
    loop_var: Option<VarId>,
    function: usize,
}

impl<'c, 'p, 'a> Facts<'c, 'p, 'a> {
    fn new(cx: &'c Context<'p, 'a>, region: &RegionView) -> Self {
        let mut clauses: Vec<(VarId, Sharing)> =
            region.sharing.iter().map(|(&v, &(s, _))| (v, s)).collect();
        // a combined construct's worksharing clauses are in the region's map as shared
        let own = std::iter::once(region.directive);
        for dir in own.chain(cx.constructs().inside(cx, region.directive)) {
            for clause in &dir.clauses {
                let sharing = match clause.kind {
                    ClauseKind::Private => Sharing::Private,
                    ClauseKind::Firstprivate => Sharing::Firstprivate,
                    ClauseKind::Lastprivate => Sharing::Lastprivate,
                    // private copies, combined into the original by the runtime
                    ClauseKind::Reduction | ClauseKind::Linear => Sharing::Private,
                    _ => continue,
                };
                let items = match &clause.args {
                    ClauseArgs::List(items)
                    | ClauseArgs::Reduction { items, .. }
                    | ClauseArgs::ListWithExpr { items, .. } => items,
                    _ => continue,
                };
                for item in items {
                    for (_, v) in super::clause_vars(cx, dir, item.name_span) {
                        clauses.push((v, sharing));
                    }
                }
            }
        }
        Facts {
            cx,
            span: region.span,
            clauses,
            loop_var: region.loop_var,
            function: region.function,
        }
    }

    fn var_at(&self, at: Span) -> Option<VarId> {
        super::var_at(self.cx, at)
    }

    /// The variable a declarator inside the region declares.
    fn declared_at(&self, name: &Node<Identifier>) -> Option<VarId> {
        let v = self
            .cx
            .program
            .visible(&name.node.name, name.span.end, Some(self.function))?;
        (self.cx.program.vars[v].ident_span == span_of(name.span)).then_some(v)
    }

    fn sharing(&self, v: VarId) -> Option<Sharing> {
        let mut named = self
            .clauses
            .iter()
            .filter(|&&(c, _)| c == v)
            .map(|&(_, s)| s);
        let first = named.next()?;
        if first != Sharing::Shared {
            return Some(first);
        }
        Some(named.find(|&s| s != Sharing::Shared).unwrap_or(first))
    }

    /// Each thread's own: declared in the region as an automatic variable, made private by a
    /// clause (lastprivate's copy-out aside), threadprivate or thread-local.
    fn is_private(&self, v: VarId) -> bool {
        let var = &self.cx.program.vars[v];
        (contains(self.span, var.ident_span) && var.storage == Storage::Auto)
            || self.loop_var == Some(v)
            || var.thread_local
            || is_threadprivate(self.cx, v)
            || matches!(
                self.sharing(v),
                Some(Sharing::Private | Sharing::Firstprivate | Sharing::Reduction(_))
            )
    }

    /// The block whose address `value` is, when it is one allocated in the region.
    fn allocation(&self, value: &Node<Expression>, heap: &HashSet<VarId>) -> Option<Block> {
        let value = strip_casts(value);
        match &value.node {
            Expression::Call(call) => match &call.node.callee.node {
                Expression::Identifier(name)
                    if ALLOCATORS.contains(&name.node.name.as_str())
                        && !self.cx.user_functions().contains(name.node.name.as_str()) =>
                {
                    Some(Block::Call(span_of(value.span)))
                }
                _ => None,
            },
            Expression::Identifier(i) => self
                .var_at(span_of(i.span))
                .filter(|v| heap.contains(v))
                .map(|_| Block::Pointer(span_of(i.span))),
            Expression::Comma(list) => self.allocation(list.last()?, heap),
            _ => None,
        }
    }

    /// Whether a store to `lvalue` lands in shared memory (`None`: private, or not known).
    fn target(&self, lvalue: &Node<Expression>) -> Option<Target> {
        let (root, deref) = self.root(lvalue, false)?;
        let var = &self.cx.program.vars[root];
        let through_pointer = deref
            || matches!(var.shape.steps.first(), Some(Step::Pointer)) && !is_identifier(lvalue);
        match self.sharing(root) {
            // the private copy points where the original does
            Some(Sharing::Firstprivate | Sharing::FirstLastprivate) => {
                through_pointer.then_some(Target::Shared)
            }
            Some(Sharing::Lastprivate) if !through_pointer => Some(Target::Lastprivate),
            _ if !self.is_private(root) => Some(Target::Shared),
            _ => None,
        }
    }

    /// The variable an lvalue is reached from, and whether a pointer is followed on the way
    /// (`*p`, `p->f`; `p[i]` is found from `p`'s type by the caller).
    fn root(&self, e: &Node<Expression>, deref: bool) -> Option<(VarId, bool)> {
        match &e.node {
            Expression::Identifier(i) => self.var_at(span_of(i.span)).map(|v| (v, deref)),
            Expression::Member(m) => self.root(
                &m.node.expression,
                deref || m.node.operator.node == MemberOperator::Indirect,
            ),
            Expression::BinaryOperator(b) => match b.node.operator.node {
                BinaryOperator::Index => {
                    let inner = self.root(&b.node.lhs, deref)?;
                    // `a[i][j]` with `a` a pointer: the row is reached through it
                    Some((inner.0, inner.1 || !is_identifier(&b.node.lhs)))
                }
                BinaryOperator::Plus | BinaryOperator::Minus => self.root(&b.node.lhs, deref),
                _ => None,
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.root(&u.node.operand, true)
            }
            Expression::Cast(c) => self.root(&c.node.expression, deref),
            _ => None,
        }
    }
}

fn is_identifier(e: &Node<Expression>) -> bool {
    matches!(e.node, Expression::Identifier(_))
}
