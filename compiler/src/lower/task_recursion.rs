//! Recursive divide and conquer with tasks (`fib`, sorts, tree walks): a `single` whose code
//! calls a function that creates tasks and waits for them. Such a `single` may still spread
//! its tasks over the team (task.rs, `spreads_tasks`) when every function its code calls
//! outside its tasks is *generating code*: a function of this file whose code outside its
//! own tasks calls only generating functions (itself included) and functions that write
//! nothing, and contains no construct but tasks, `taskwait`, `taskgroup`, `taskyield`
//! (`atomic`/`critical` inside its tasks), allocates nothing, and whose tasks write no local
//! but scalars. Every rank then runs that code alike; the tasks it creates while no task runs
//! (the top level of the tree) are numbered identically everywhere and spread, deeper ones
//! run inline on the rank that owns the subtree, and each top-level `taskwait` is a merge
//! point. A task's results in locals of the generating function (`shared(x)`: stack memory
//! below the region, which merges do not carry) travel as records of that merge point
//! (`__cape_task_result`); a local a task updates with `atomic` or inside a `critical`
//! section (`c += x` of a tree count) is registered at the task's start
//! (`__cape_task_updates`), and its updates merge like those of shared memory, combined with
//! the other tasks' ones rather than one task's value copied.

use std::collections::HashMap;

use lang_c::ast::{BinaryOperator, BlockItem, Expression, Statement};
use lang_c::span::Node;

use super::atomic::update_of_expression;
use super::common::{modification_of, modifications_of};
use super::{clause_vars, contains, span_of, spelled, Context, Env};
use crate::diag::Span;
use crate::directive::{ClauseKind, Directive, DirectiveKind};
use crate::resolve::{Storage, TypeClass, VarId};
use crate::template::{render, CONSTRUCTS};

/// Whether every call of `calls` (callee name, or None through a pointer) is to a generating
/// function or one that writes nothing.
pub fn generating_calls(cx: &Context, calls: &[(Option<String>, Span)]) -> bool {
    let by_name: HashMap<&str, usize> = cx
        .program
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    let mut visiting = Vec::new();
    calls
        .iter()
        .all(|(name, _)| generating_callee(cx, &by_name, name.as_deref(), &mut visiting))
}

fn generating_callee(
    cx: &Context,
    by_name: &HashMap<&str, usize>,
    name: Option<&str>,
    visiting: &mut Vec<usize>,
) -> bool {
    let Some(name) = name else { return false };
    if super::write_scope::writes_nothing(name) && !super::write_scope::prints(name) {
        return true;
    }
    match by_name.get(name) {
        Some(&f) => visiting.contains(&f) || generating_function(cx, by_name, f, visiting),
        None => false,
    }
}

fn generating_function(
    cx: &Context,
    by_name: &HashMap<&str, usize>,
    f: usize,
    visiting: &mut Vec<usize>,
) -> bool {
    let function = &cx.program.functions[f];
    if function.is_system {
        return false;
    }
    let body = function.body;
    // the body's block items (the body itself is no item): statements, and the calls in
    // declarations' initializers by name
    let items = cx.items_in(body);
    let top: Vec<_> = items.iter().filter(|i| i.parent == body).collect();
    let calls_in_body = |skip: &[Span]| -> Vec<(Option<String>, Span)> {
        let mut calls = Vec::new();
        for item in &top {
            match item.statement {
                Some(stmt) => calls.extend(super::task::calls_outside(stmt, skip)),
                None => calls.extend(
                    super::uses_in(cx, item.span)
                        .iter()
                        .filter(|u| matches!(u.binding, crate::resolve::Binding::Other))
                        .filter(|u| !skip.iter().any(|s| contains(*s, u.span)))
                        .map(|u| (Some(u.name.clone()), u.span)),
                ),
            }
        }
        calls
    };
    let directives = cx.directives_in(body);
    let is_task = |k: DirectiveKind| {
        matches!(
            k,
            DirectiveKind::Task | DirectiveKind::Taskloop | DirectiveKind::TaskloopSimd
        )
    };
    let mut tasks: Vec<(&Directive, &Node<Statement>, Span)> = Vec::new();
    for d in directives.iter().filter(|d| is_task(d.kind)) {
        let Ok(s) = cx.constructs().statement(cx, d) else {
            return false;
        };
        tasks.push((d, s, Span::new(d.span.start, span_of(s.span).end)));
    }
    let in_a_task = |at: Span| tasks.iter().any(|(_, _, s)| contains(*s, at));
    let constructs_fine = directives.iter().all(|d| {
        is_task(d.kind)
            || matches!(
                d.kind,
                DirectiveKind::Taskwait | DirectiveKind::Taskgroup | DirectiveKind::Taskyield
            )
            || (matches!(d.kind, DirectiveKind::Atomic | DirectiveKind::Critical)
                && in_a_task(d.span))
    });
    if !constructs_fine {
        return false;
    }
    let all_calls = calls_in_body(&[]);
    if all_calls
        .iter()
        .any(|(name, _)| name.as_deref().is_some_and(super::task::allocates))
    {
        return false;
    }
    // the tasks' results in locals of this function: scalars only (a whole array travels
    // from each rank that wrote a part of it)
    let scalar_results = tasks.iter().all(|&(d, s, span)| {
        let _ = span;
        task_locals(cx, d, s).all().all(|v| {
            matches!(
                cx.program.vars[v].class,
                TypeClass::Integer | TypeClass::Floating | TypeClass::Pointer
            )
        })
    });
    if !scalar_results {
        return false;
    }
    // what the tasks write through pointers (parameters, locals) must be merged memory
    let origins = super::task_pointers::Origins::new(cx);
    let pointers_merged = tasks
        .iter()
        .all(|&(d, _, span)| origins.span_merged(span, &|v| super::task::shared_in_task(cx, d, v)));
    if !pointers_merged {
        return false;
    }
    let spans: Vec<Span> = tasks.iter().map(|(_, _, s)| *s).collect();
    visiting.push(f);
    let fine = calls_in_body(&spans)
        .iter()
        .all(|(name, _)| generating_callee(cx, by_name, name.as_deref(), visiting));
    visiting.pop();
    fine
}

/// The locals of the enclosing function that task `d` (statement `stmt`) writes as shared
/// variables (named in its `shared` clause, or shared in the enclosing context: task.rs's
/// rules), by how they are written.
pub(super) struct TaskLocals {
    /// assigned plainly (or their address taken): the task's value is the result, copied
    copied: Vec<VarId>,
    /// updated with `atomic` or inside a `critical` section: the updates of every task are
    /// combined (a variable both assigned and updated is in both lists: the rank's updates,
    /// then its final value, in its program order)
    updated: Vec<VarId>,
}

impl TaskLocals {
    fn all(&self) -> impl Iterator<Item = VarId> + '_ {
        self.copied
            .iter()
            .chain(self.updated.iter().filter(|v| !self.copied.contains(v)))
            .copied()
    }
}

pub(super) fn task_locals(cx: &Context, d: &Directive, stmt: &Node<Statement>) -> TaskLocals {
    let mut found: Vec<VarId> = d
        .clauses
        .iter()
        .filter(|c| c.kind == ClauseKind::Shared)
        .flat_map(|c| clause_vars(cx, d, c.span))
        .map(|(_, v)| v)
        .filter(|&v| {
            matches!(cx.program.vars[v].storage, Storage::Auto | Storage::Param)
                && modification_of(cx, stmt, v).is_some()
        })
        .collect();
    let body = super::body_span(cx, d, stmt);
    for v in super::block::written_outer_variables(cx, d, stmt, body, &|v| {
        matches!(cx.program.vars[v].storage, Storage::Auto | Storage::Param)
            && super::task::shared_in_context(cx, d, v)
    }) {
        if !found.contains(&v) {
            found.push(v);
        }
    }
    // the statements of the `atomic` and `critical` constructs inside the task, and the
    // lvalues the atomic ones update
    let mut critical: Vec<Span> = Vec::new();
    let mut atomic_updates: Vec<Span> = Vec::new();
    for inner in cx.directives_in(body) {
        let Ok(s) = cx.constructs().statement(cx, inner) else {
            continue;
        };
        match inner.kind {
            DirectiveKind::Critical => critical.push(span_of(s.span)),
            DirectiveKind::Atomic => atomic_updates.extend(atomic_lvalues(cx, inner, s)),
            _ => {}
        }
    }
    let mut locals = TaskLocals {
        copied: Vec::new(),
        updated: Vec::new(),
    };
    for v in found {
        let mut plain = super::read_only::address_taken_in(cx, v, body);
        let mut updated = false;
        for at in modifications_of(cx, stmt, v) {
            if atomic_updates.contains(&at) || critical.iter().any(|&c| contains(c, at)) {
                updated = true;
            } else {
                plain = true;
            }
        }
        if plain {
            locals.copied.push(v);
        }
        if updated {
            locals.updated.push(v);
        }
    }
    locals
}

/// The lvalues that `atomic` construct `d` (statement `s`) updates: `x` of `x op= e`,
/// `x++`, `x = x op e` and of the capture forms (`v = x++`, `{v = x; x += e;}`); none for
/// `read` and `write`, whose stores are plain.
fn atomic_lvalues(cx: &Context, d: &Directive, s: &Node<Statement>) -> Vec<Span> {
    if d.clauses
        .iter()
        .any(|c| matches!(c.kind, ClauseKind::Read | ClauseKind::Write))
    {
        return Vec::new();
    }
    let expressions: Vec<&Node<Expression>> = match &s.node {
        Statement::Expression(Some(e)) => vec![e],
        Statement::Compound(items) => items
            .iter()
            .filter_map(|i| match &i.node {
                BlockItem::Statement(Node {
                    node: Statement::Expression(Some(e)),
                    ..
                }) => Some(&**e),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut lvalues = Vec::new();
    for e in expressions {
        if let Some(u) = update_of_expression(cx, e) {
            lvalues.push(u.lvalue);
        } else if let Expression::BinaryOperator(b) = &e.node {
            // `v = x++`, `v = x op= e`: the update is the right operand
            if b.node.operator.node == BinaryOperator::Assign {
                if let Some(u) = update_of_expression(cx, &b.node.rhs) {
                    lvalues.push(u.lvalue);
                }
            }
        }
    }
    lvalues
}

/// The calls that hand task `d`'s results in locals to the other ranks when it was spread
/// (nothing otherwise; the runtime decides).
pub fn result_calls(cx: &Context, d: &Directive, stmt: &Node<Statement>, env: &Env) -> String {
    task_locals(cx, d, stmt)
        .copied
        .into_iter()
        .filter_map(|v| render(CONSTRUCTS, "task_result", &[("var", &spelled(cx, env, v))]).ok())
        .collect()
}

/// The calls at the start of task `d` that make its updates of locals merge as updates,
/// combined with the other tasks' ones, when it was spread (nothing otherwise).
pub fn update_calls(cx: &Context, d: &Directive, stmt: &Node<Statement>, env: &Env) -> String {
    task_locals(cx, d, stmt)
        .updated
        .into_iter()
        .filter_map(|v| render(CONSTRUCTS, "task_updates", &[("var", &spelled(cx, env, v))]).ok())
        .collect()
}
