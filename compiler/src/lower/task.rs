//! Tasks run at once by the thread that creates them: an undeferred task, which OpenMP allows
//! for every task (as `if(0)` asks). `task` and `taskloop` become blocks with the task's data
//! environment; `taskwait` and `taskyield` change nothing (every child has finished), and a
//! `taskgroup` is its block. Every dependence (`depend`) holds, since tasks run in the order
//! they are created.
//!
//! The data environment follows OpenMP's rules for variables a task writes without a clause:
//! shared if they are shared in the enclosing context (globals, and locals declared outside
//! the enclosing `parallel` construct that no construct in between privatises), firstprivate
//! otherwise (locals of the region, of a function called in it, of sequential code), so a
//! write to such a copy does not reach the original, as with gcc.

use lang_c::ast::{AsmStatement, CallExpression, Expression, Statement};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::common::{canonical_form, modification_of};
use super::data_sharing::{data_clauses, Sharing};
use super::one;
use super::read_only::address_taken_in;
use super::{clause_vars, contains, span_of, uses_in, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, DefaultKind, Directive, DirectiveKind};
use crate::resolve::{Binding, Storage, TypeClass, VarId};
use crate::template::{render, CONSTRUCTS};

/// `task`, `taskloop`: the block, run now.
pub fn lower(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    if d.kind != DirectiveKind::Task {
        super::block::check_loops(cx, d, stmt).map_err(|e| vec![e])?;
    }
    let data = data_clauses(
        cx,
        d,
        &|k| {
            matches!(k, ClauseKind::Private | ClauseKind::Firstprivate)
                || (k == ClauseKind::Lastprivate && d.kind != DirectiveKind::Task)
        },
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut copies: Vec<(VarId, Sharing)> = data.items.iter().map(|&(v, s, _)| (v, s)).collect();
    if d.kind != DirectiveKind::Task {
        for v in super::block::loop_variables(cx, d, stmt) {
            if !copies.iter().any(|&(o, _)| o == v) {
                copies.push((v, Sharing::Private));
            }
        }
    }
    let body = super::body_span(cx, d, stmt);
    for v in implicit_firstprivates(cx, d, stmt, body) {
        if !copies.iter().any(|&(o, _)| o == v) {
            copies.push((v, Sharing::Firstprivate));
        }
    }
    let has_depend = d.clauses.iter().any(|c| c.kind == ClauseKind::Depend);
    // a task of a function may be created by the generating code of a spreading `single`
    // (task_recursion.rs), which every rank runs alike: what it wrote before the task must be
    // merged before one rank's task changes it further
    let spawn_point = if needs_spawn_point(cx, d) {
        render(CONSTRUCTS, "task_spawn_point", &[]).map_err(|e| vec![e])?
    } else {
        String::new()
    };
    if d.kind == DirectiveKind::Task {
        let block = super::block::inline_block(cx, out, d, stmt, env, &copies, "a task")?;
        let results = super::task_recursion::result_calls(cx, d, stmt, env);
        let updates = super::task_recursion::update_calls(cx, d, stmt, env);
        return one(render(
            CONSTRUCTS,
            "task",
            &[
                ("spawn_point", &spawn_point),
                ("depend", if has_depend { "1" } else { "0" }),
                ("block", &super::indent_lines(&block, "    ")),
                ("results", &results),
                ("updates", &updates),
            ],
        ));
    }
    // taskloop: the iterations of the loops it associates (`collapse`), counted first, are
    // split into tasks of consecutive iterations; the headers of those loops, without the
    // braces between them, run the innermost body
    let Statement::For(f) = &stmt.node else {
        return Err(vec![Diagnostic::error(
            "`#pragma omp taskloop` must be followed by a `for` loop",
        )
        .with_primary(d.name_span, "no loop follows")]);
    };
    let mut headers = vec![Span::new(
        span_of(stmt.span).start,
        span_of(f.node.statement.span).start,
    )];
    let mut innermost = &f.node.statement;
    for _ in 1..super::block::collapse_depth(cx, d) {
        let next = super::worksharing::perfectly_nested(innermost);
        let Statement::For(g) = &next.node else { break };
        headers.push(Span::new(
            span_of(next.span).start,
            span_of(g.node.statement.span).start,
        ));
        innermost = &g.node.statement;
    }
    let loop_body = span_of(innermost.span);
    let clause_value = |kind: ClauseKind| {
        d.clauses.iter().find_map(|c| match (&c.kind, &c.args) {
            (k, ClauseArgs::Expr { expr, .. }) if *k == kind => Some(*expr),
            _ => None,
        })
    };
    let grainsize = clause_value(ClauseKind::Grainsize);
    let num_tasks = clause_value(ClauseKind::NumTasks);
    let nogroup = d.clauses.iter().any(|c| c.kind == ClauseKind::Nogroup);
    // every task starts from the originals' values; the task of the last iteration copies its
    // lastprivate values back (a copy per task, not one the rank's tasks share)
    let name = |v: VarId| cx.program.vars[v].name.clone();
    let mut task_copies = String::new();
    let mut lastprivates = String::new();
    for &(v, sharing) in &copies {
        if matches!(sharing, Sharing::Firstprivate | Sharing::FirstLastprivate) {
            task_copies.push_str(&one(render(
                CONSTRUCTS,
                "taskloop_firstprivate",
                &[("var", &name(v))],
            ))?);
        }
        if matches!(sharing, Sharing::Lastprivate | Sharing::FirstLastprivate) {
            lastprivates.push_str(&one(render(
                CONSTRUCTS,
                "taskloop_lastprivate",
                &[("var", &name(v))],
            ))?);
        }
    }
    let block = super::block::inline_block_with(
        cx,
        out,
        d,
        stmt,
        env,
        &copies,
        "every chunk of iterations a task",
        &|out, env| {
            let header = headers
                .iter()
                .map(|&h| super::emit_span(cx, out, h, env).trim().to_string())
                .collect::<Vec<_>>()
                .join(" ");
            let body = super::emit_span(cx, out, loop_body, env);
            let value =
                |e: Option<Span>| e.map_or("0".to_string(), |e| super::clause_expr(cx, d, e, env));
            // each task's updates of the generating code's locals merge as updates
            let task_copies =
                task_copies.clone() + &super::task_recursion::update_calls(cx, d, stmt, env);
            render(
                CONSTRUCTS,
                "taskloop",
                &[
                    ("header", header.trim()),
                    ("body", &body),
                    ("grainsize", &value(grainsize)),
                    ("num_tasks", &value(num_tasks)),
                    ("task_copies", &task_copies),
                    ("lastprivates", &lastprivates),
                ],
            )
            .unwrap_or_default()
        },
    )?;
    let block = format!("{spawn_point}{block}");
    if nogroup {
        Ok(block)
    } else {
        Ok(format!(
            "{}
__cape_taskwait();",
            block.trim_end()
        ))
    }
}

/// The variables the task writes, names in no clause, and that are not shared in the
/// enclosing context: they are the task's own copies.
fn implicit_firstprivates(
    cx: &Context,
    d: &Directive,
    stmt: &Node<Statement>,
    body: Span,
) -> Vec<VarId> {
    let default_shared = d.clauses.iter().any(|c| {
        c.kind == ClauseKind::Default && matches!(c.args, ClauseArgs::Default(DefaultKind::Shared))
    });
    if default_shared {
        return Vec::new();
    }
    super::block::written_outer_variables(cx, d, stmt, body, &|v| {
        matches!(cx.program.vars[v].storage, Storage::Auto | Storage::Param)
            && !shared_in_context(cx, d, v)
    })
}

/// Whether a data-sharing clause of `e` gives `v` a private copy in the construct.
pub(super) fn privatises(cx: &Context, e: &Directive, v: VarId) -> bool {
    e.clauses.iter().any(|c| {
        c.kind.gives_private_copy() && clause_vars(cx, e, c.span).iter().any(|&(_, o)| o == v)
    })
}

/// Whether local `v` is shared in the context enclosing the task generated by `d`.
pub(super) fn shared_in_context(cx: &Context, d: &Directive, v: VarId) -> bool {
    let var = &cx.program.vars[v];
    let mut current = d;
    while let Some(e) = cx.constructs().enclosing(cx, current) {
        if privatises(cx, e, v) || is_loop_variable(cx, e, v) {
            return false;
        }
        let Ok(statement) = cx.constructs().statement(cx, e) else {
            return false;
        };
        if contains(span_of(statement.span), var.ident_span) {
            // declared inside the construct: inside the region, private to its threads
            return false;
        }
        if matches!(
            e.kind,
            DirectiveKind::Task | DirectiveKind::Taskloop | DirectiveKind::TaskloopSimd
        ) {
            // an enclosing task: shared there if named shared, or by the same rules
            let named_shared = e.clauses.iter().any(|c| {
                c.kind == ClauseKind::Shared
                    && clause_vars(cx, e, c.span).iter().any(|&(_, o)| o == v)
            });
            return named_shared || shared_in_context(cx, e, v);
        }
        if e.kind.is_parallel() {
            return true;
        }
        current = e;
    }
    // sequential code, or a function called from a region: its locals are private
    false
}

/// Whether task `d` uses local `v` as the original: named `shared`, or shared by default.
pub(super) fn shared_in_task(cx: &Context, d: &Directive, v: VarId) -> bool {
    let named = |kind: ClauseKind| {
        d.clauses
            .iter()
            .any(|c| c.kind == kind && clause_vars(cx, d, c.span).iter().any(|&(_, o)| o == v))
    };
    if named(ClauseKind::Shared) {
        return true;
    }
    let privatised = d
        .clauses
        .iter()
        .filter(|c| c.kind != ClauseKind::Shared)
        .any(|c| clause_vars(cx, d, c.span).iter().any(|&(_, o)| o == v));
    let default_shared = d.clauses.iter().any(|c| {
        c.kind == ClauseKind::Default && matches!(c.args, ClauseArgs::Default(DefaultKind::Shared))
    });
    !privatised && (default_shared || shared_in_context(cx, d, v))
}

/// Whether `v` is the loop variable of loop construct `e`.
pub(super) fn is_loop_variable(cx: &Context, e: &Directive, v: VarId) -> bool {
    if !e.kind.is_loop()
        && !matches!(
            e.kind,
            DirectiveKind::Taskloop | DirectiveKind::TaskloopSimd
        )
    {
        return false;
    }
    let Ok(statement) = cx.constructs().statement(cx, e) else {
        return false;
    };
    match &statement.node {
        Statement::For(f) => canonical_form(cx, f, e.span, e.kind.name()).is_ok_and(|c| c.var == v),
        _ => false,
    }
}

/// Calls in `stmt`, by callee name (`None` for a call through a pointer), outside `skip`.
/// Whether task `d` needs a merge point before it when the generating code of a spreading
/// `single` creates it (every rank runs that code alike, the task runs on one): in a function
/// (task_recursion.rs: its code may have written what the task changes further), or in a
/// `single` whose block writes memory outside its tasks.
fn needs_spawn_point(cx: &Context, d: &Directive) -> bool {
    let task_spans = |within: Span| -> Vec<Span> {
        cx.directives_in(within)
            .iter()
            .filter(|i| {
                matches!(
                    i.kind,
                    DirectiveKind::Task | DirectiveKind::Taskloop | DirectiveKind::TaskloopSimd
                )
            })
            .filter_map(|i| {
                let s = cx.constructs().statement(cx, i).ok()?;
                Some(Span::new(i.span.start, span_of(s.span).end))
            })
            .collect()
    };
    let mut enclosing = cx.constructs().enclosing(cx, d);
    while let Some(e) = enclosing {
        match e.kind {
            DirectiveKind::Taskgroup => enclosing = cx.constructs().enclosing(cx, e),
            DirectiveKind::Single => {
                let Ok(block) = cx.constructs().statement(cx, e) else {
                    return true;
                };
                let block_span = span_of(block.span);
                return writes_outside(cx, &[block], block_span, &task_spans(block_span));
            }
            _ => return false,
        }
    }
    // a task of a function: its body's statements
    let Some(f) = cx.program.function_at(d.span.start) else {
        return true;
    };
    let body = cx.program.functions[f].body;
    let statements: Vec<&Node<Statement>> = cx
        .items_in(body)
        .iter()
        .filter(|i| i.parent == body)
        .filter_map(|i| i.statement)
        .collect();
    // parameters are the invocation's own too
    let function = cx.program.functions[f].span;
    writes_outside(cx, &statements, function, &task_spans(body))
}

/// Whether `statements` assign, increment or decrement anything outside the spans `skip` but a
/// variable declared inside `block` (each rank's own).
fn writes_outside(
    cx: &Context,
    statements: &[&Node<Statement>],
    block: Span,
    skip: &[Span],
) -> bool {
    let own = |lvalue: Span| {
        let uses = &cx.program.uses;
        let at = uses.partition_point(|u| u.span.start < lvalue.start);
        uses.get(at).is_some_and(|u| {
            u.span == lvalue
                && matches!(u.binding, Binding::Var(v) if contains(block, cx.program.vars[v].ident_span))
        })
    };
    super::critical_calls::stores_in(statements)
        .into_iter()
        .any(|at| !skip.iter().any(|s| contains(*s, at)) && !own(at))
}

pub(super) fn calls_outside(stmt: &Node<Statement>, skip: &[Span]) -> Vec<(Option<String>, Span)> {
    struct Calls<'s> {
        skip: &'s [Span],
        found: Vec<(Option<String>, Span)>,
    }
    impl<'ast> Visit<'ast> for Calls<'_> {
        fn visit_call_expression(
            &mut self,
            e: &'ast CallExpression,
            span: &'ast lang_c::span::Span,
        ) {
            let at = span_of(*span);
            if !self.skip.iter().any(|s| contains(*s, at)) {
                let name = match &e.callee.node {
                    Expression::Identifier(id) => Some(id.node.name.clone()),
                    _ => None,
                };
                self.found.push((name, at));
            }
            visit::visit_call_expression(self, e, span);
        }
        fn visit_asm_statement(&mut self, a: &'ast AsmStatement, span: &'ast lang_c::span::Span) {
            self.found.push((Some("asm".to_string()), span_of(*span)));
            visit::visit_asm_statement(self, a, span);
        }
    }
    let mut calls = Calls {
        skip,
        found: Vec::new(),
    };
    calls.visit_statement(&stmt.node, &stmt.span);
    calls.found
}

/// Functions whose calls inside a task would make it allocate from a per-rank heap.
const HEAP_FUNCTIONS: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "free",
    "strdup",
    "strndup",
    "posix_memalign",
    "aligned_alloc",
];

/// Whether a call of `name` allocates from the heap (in a task: from a per-rank heap).
pub(super) fn allocates(name: &str) -> bool {
    HEAP_FUNCTIONS.contains(&name)
}

/// Whether the `single` `d` (statement `stmt`) can spread its tasks over the team: it creates
/// tasks, and the code around them (which every thread then runs) has no effect but values
/// every thread computes alike: no calls, no other construct; the tasks allocate nothing and
/// write no local of the region (a thread's own stack, which merges do not carry).
pub fn spreads_tasks(cx: &Context, d: &Directive, stmt: &Node<Statement>) -> bool {
    let inside = cx.constructs().inside(cx, d);
    let is_task = |k: DirectiveKind| {
        matches!(
            k,
            DirectiveKind::Task | DirectiveKind::Taskloop | DirectiveKind::TaskloopSimd
        )
    };
    let mut tasks: Vec<(&Directive, Span)> = Vec::new();
    for inner in inside.iter().filter(|i| is_task(i.kind)) {
        match cx.constructs().statement(cx, inner) {
            Ok(s) => tasks.push((inner, Span::new(inner.span.start, span_of(s.span).end))),
            Err(_) => return false,
        }
    }
    let in_a_task = |at: Span| tasks.iter().any(|(_, s)| contains(*s, at));
    let others_fine = inside.iter().all(|i| {
        is_task(i.kind)
            || matches!(
                i.kind,
                DirectiveKind::Taskwait | DirectiveKind::Taskgroup | DirectiveKind::Taskyield
            )
            || (matches!(i.kind, DirectiveKind::Atomic | DirectiveKind::Critical)
                && in_a_task(i.span))
    });
    if !others_fine {
        return false;
    }
    let task_spans: Vec<Span> = tasks.iter().map(|(_, s)| *s).collect();
    // calls are fine when they are generating code themselves (task_recursion.rs)
    let calls = calls_outside(stmt, &task_spans);
    // without a task construct, only a call of the program's own can create tasks
    let calls_own = calls.iter().any(|(name, _)| {
        name.as_deref()
            .is_some_and(|n| cx.program.functions.iter().any(|f| f.name == n))
    });
    if (tasks.is_empty() && !calls_own) || !super::task_recursion::generating_calls(cx, &calls) {
        return false;
    }
    let allocates = calls_outside(stmt, &[])
        .iter()
        .any(|(name, _)| name.as_deref().is_some_and(|n| HEAP_FUNCTIONS.contains(&n)));
    if allocates {
        return false;
    }
    // the locals of the region: declared inside the enclosing parallel construct
    let mut region = None;
    let mut current = d;
    while let Some(e) = cx.constructs().enclosing(cx, current) {
        if e.kind.is_parallel() {
            region = cx
                .constructs()
                .statement(cx, e)
                .ok()
                .map(|s| span_of(s.span));
            break;
        }
        current = e;
    }
    let function_body = cx
        .program
        .function_at(d.span.start)
        .map(|f| cx.program.functions[f].body);
    let Some(region) = region.or(function_body) else {
        return false;
    };
    // pointers the tasks write through must point into merged memory (task_pointers.rs)
    let origins = super::task_pointers::Origins::new(cx);
    let pointers_merged = tasks
        .iter()
        .all(|&(task, span)| origins.span_merged(span, &|v| shared_in_task(cx, task, v)));
    pointers_merged
        && tasks.iter().all(|&(task, span)| {
            let named_shared: Vec<VarId> = task
                .clauses
                .iter()
                .filter(|c| c.kind == ClauseKind::Shared)
                .flat_map(|c| clause_vars(cx, task, c.span))
                .map(|(_, v)| v)
                .collect();
            uses_in(cx, span).iter().all(|u| {
                let Binding::Var(v) = u.binding else {
                    return true;
                };
                let var = &cx.program.vars[v];
                let region_local = matches!(var.storage, Storage::Auto | Storage::Param)
                    && contains(region, var.ident_span)
                    && !contains(span, var.ident_span);
                if !region_local {
                    return true;
                }
                let scalar = matches!(
                    var.class,
                    TypeClass::Integer | TypeClass::Floating | TypeClass::Pointer
                );
                let Ok(task_stmt) = cx.constructs().statement(cx, task) else {
                    return false;
                };
                scalar
                    && !named_shared.contains(&v)
                    && modification_of(cx, task_stmt, v).is_none()
                    && !address_taken_in(cx, v, span)
            })
        })
}
