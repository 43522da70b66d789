//! A `flush` (or an `atomic read`) inside a loop: the loop may be waiting for another thread to change a shared
//! variable (`while (flag[k - 1] == 0) { #pragma omp flush(flag) }`, the NAS LU pipeline).
//! Under CAPE the threads are processes that see each other's writes at merge points only, so
//! such a loop would wait forever. The flush becomes a call that reports what the loop waits
//! on (the variables of its condition and of the flush list) to the runtime, which stops the
//! job with an error naming the loop once it spins on unchanged values (capert's
//! wait_watch.rs). Outside a team of two or more the call does nothing.

use lang_c::ast::Statement;

use super::common::modification_of;
use super::{contains, in_span, span_of, spelled, uses_in, Context, Env};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseKind, Directive, DirectiveKind};
use crate::resolve::{Binding, TypeClass, VarId};

/// The call that a `flush` inside a loop becomes (an `atomic read` gets it too), or `None`
/// when no loop encloses it.
pub fn wait_check(cx: &Context, d: &Directive, env: &Env) -> Option<String> {
    let function = cx.program.function_at(d.span.start)?;
    let body = cx.program.functions[function].body;
    let (loop_span, condition) = innermost_loop(cx, d.span.start, body)?;
    let mut watched: Vec<VarId> = Vec::new();
    let watch = |v: VarId, watched: &mut Vec<VarId>| {
        let var = &cx.program.vars[v];
        if !watched.contains(&v)
            && var.class != TypeClass::Function
            && !contains(loop_span, var.ident_span)
        {
            watched.push(v);
        }
    };
    if let Some(condition) = condition {
        for u in uses_in(cx, condition) {
            if let Binding::Var(v) = u.binding {
                watch(v, &mut watched);
            }
        }
    }
    for item in &d.list_arg {
        if let Some(v) = cx.program.visible(&item.name, d.span.start, Some(function)) {
            watch(v, &mut watched);
        }
    }
    if watched.is_empty() {
        // `for (;;) { ...; flush; if (done) break; }`: whatever the loop reads
        for u in uses_in(cx, loop_span) {
            if let Binding::Var(v) = u.binding {
                watch(v, &mut watched);
            }
        }
    }
    let addresses: Vec<String> = watched
        .iter()
        .map(|&v| format!("(const void *)&{}", spelled(cx, env, v)))
        .collect();
    let sizes: Vec<String> = watched
        .iter()
        .map(|&v| format!("sizeof {}", spelled(cx, env, v)))
        .collect();
    let text = condition.map_or_else(String::new, |c| cx.text(c).to_string());
    let (addresses, sizes) = if watched.is_empty() {
        ("0".to_string(), "0".to_string())
    } else {
        (
            format!("(const void *const[]){{{}}}", addresses.join(", ")),
            format!("(const __SIZE_TYPE__[]){{{}}}", sizes.join(", ")),
        )
    };
    Some(format!(
        "__cape_wait_check(\"{}\", \"{}\", {}, {addresses}, {sizes}); /* capecc: a wait? */",
        c_string(&cx.location(loop_span.start)),
        c_string(&text),
        watched.len(),
    ))
}

/// Whether a loop of its function encloses `d`.
pub fn in_a_loop(cx: &Context, d: &Directive) -> bool {
    cx.program
        .function_at(d.span.start)
        .is_some_and(|f| innermost_loop(cx, d.span.start, cx.program.functions[f].body).is_some())
}

/// The innermost `while`, `do` or `for` statement of the function body `body` that contains
/// `offset`, and its condition.
fn innermost_loop(cx: &Context, offset: usize, body: Span) -> Option<(Span, Option<Span>)> {
    cx.program
        .items
        .iter()
        .filter(|item| {
            contains(body, item.span) && item.span.start < offset && offset < item.span.end
        })
        .filter_map(|item| {
            let statement = item.statement?;
            let condition = match &statement.node {
                Statement::While(w) => Some(span_of(w.node.expression.span)),
                Statement::DoWhile(w) => Some(span_of(w.node.expression.span)),
                Statement::For(f) => f.node.condition.as_ref().map(|c| span_of(c.span)),
                _ => return None,
            };
            Some((span_of(statement.span), condition))
        })
        .min_by_key(|(span, _)| span.end - span.start)
}

/// `text` as the inside of a C string literal, on one line.
fn c_string(text: &str) -> String {
    let mut out = String::new();
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// The loops of the region at `region` that wait on a `volatile` shared variable with neither a
/// `flush` nor an `atomic read` in them (`while (!flag) ;`): the thread that sets the flag is
/// another process here, whose store reaches this one only at a merge point, and no call in
/// the loop lets capecc see the wait (as the flush's `__cape_wait_check` does), so the loop
/// would spin forever. Each is an error that names the flush which makes it a wait capecc runs.
pub fn volatile_spins(cx: &Context, region: Span) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for item in in_span(&cx.program.items, region, |i| i.span.start) {
        let Some(statement) = item.statement else {
            continue;
        };
        let condition = match &statement.node {
            Statement::While(w) => span_of(w.node.expression.span),
            Statement::DoWhile(w) => span_of(w.node.expression.span),
            Statement::For(f) => match &f.node.condition {
                Some(c) => span_of(c.span),
                None => continue,
            },
            _ => continue,
        };
        let loop_span = span_of(statement.span);
        if !contains(region, loop_span) {
            continue;
        }
        let read = uses_in(cx, condition);
        let volatile = read.iter().find_map(|u| match u.binding {
            Binding::Var(v) if is_volatile_shared(cx, v, region) => Some((u, v)),
            _ => None,
        });
        let Some((waited, v)) = volatile else {
            continue;
        };
        // the loop changes what it tests (a counter): not a wait
        let changes = read.iter().any(
            |u| matches!(u.binding, Binding::Var(w) if modification_of(cx, statement, w).is_some()),
        );
        let spins = cx.directives.iter().any(|d| {
            contains(loop_span, d.span)
                && (d.kind == DirectiveKind::Flush
                    || (d.kind == DirectiveKind::Atomic
                        && d.clauses.iter().any(|c| c.kind == ClauseKind::Read)))
        });
        if changes || spins {
            continue;
        }
        let name = &cx.program.vars[v].name;
        errors.push(
            Diagnostic::error(format!(
                "this loop waits on the `volatile` variable `{name}` without a `flush`"
            ))
            .with_primary(
                waited.span,
                format!("the loop waits for another thread to change `{name}`"),
            )
            .with_secondary(loop_span, "this loop would never end under capecc")
            .with_note(
                "capecc runs the threads of a region as processes: another thread's store to \
                 a shared variable reaches this one only at a barrier, even when it is `volatile`",
            )
            .with_note(format!(
                "help: put `#pragma omp flush({name})` in the loop (or read `{name}` with \
                 `#pragma omp atomic read`): capecc then runs the region's threads in turns, \
                 and the wait ends"
            )),
        );
    }
    errors
}

/// A `volatile` variable declared outside the region (shared with its threads).
fn is_volatile_shared(cx: &Context, v: VarId, region: Span) -> bool {
    let var = &cx.program.vars[v];
    var.class != TypeClass::Function
        && !var.thread_local
        && !contains(region, var.ident_span)
        && var
            .type_specifiers
            .iter()
            .chain([&var.declarator])
            .any(|s| cx.text(*s).contains("volatile"))
}
