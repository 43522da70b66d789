//! `critical` sections that are not one mergeable update, and OpenMP lock pairs around any
//! code. Two lowerings:
//!
//! - a body made only of mergeable updates, also inside `for` loops (the NAS EP benchmark's
//!   `critical { for (i...) q[i] += qq[i]; sx += sxx; }`), is a reduction: each update becomes
//!   `__cape_atomic_update`, the loops stay;
//! - any other body runs under a cross-rank lock (`__cape_critical_begin/end`, or
//!   `__cape_lock_set/unset` for a lock pair): every store of the section reports its address
//!   first (`__cape_critical_store`), so that the runtime carries the written bytes to the next
//!   holder and orders them by the lock at the join (capert's `region/lock.rs`). A call to a
//!   function whose stores the compiler cannot see is refused at the call.

use lang_c::ast::{BlockItem, Expression, Statement};
use lang_c::span::Node;

use super::atomic::{render_update, updates_of, LockPair, Update};
use super::critical_calls::{self, instrumented, Site};
use super::{emit_edits, span_of, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::Directive;
use crate::emit::{apply_in, Edit};
use crate::template::{render, CRITICAL};

/// The mergeable updates of a body that may hold `for` loops of them: (statement, update).
fn loop_updates(
    cx: &Context,
    s: &Node<Statement>,
    found: &mut Vec<(Span, Update)>,
) -> Result<(), Span> {
    match &s.node {
        Statement::Compound(items) => {
            for item in items {
                match &item.node {
                    BlockItem::Statement(inner) => loop_updates(cx, inner, found)?,
                    _ => return Err(span_of(item.span)),
                }
            }
            Ok(())
        }
        Statement::For(f) => loop_updates(cx, &f.node.statement, found),
        _ => {
            let mut one = Vec::new();
            updates_of(cx, s, true, &mut one)?;
            let at = super::statement_span(cx, s.span);
            for u in one {
                found.push((at, u));
            }
            Ok(())
        }
    }
}

/// A `critical` body that is a set of mergeable updates with `for` loops: the loops' text with
/// each update replaced (None when the body is not of that form).
pub fn lower_update_loops(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Option<Result<String, Vec<Diagnostic>>> {
    let mut found = Vec::new();
    if loop_updates(cx, stmt, &mut found).is_err() || found.is_empty() {
        return None;
    }
    let span = span_of(stmt.span);
    let mut edits = emit_edits(cx, out, span, env);
    for (at, u) in &found {
        let text = match render_update(cx, out, u, env) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        edits.retain(|e| !(at.start <= e.span.start && e.span.end <= at.end));
        edits.push(Edit::replace(*at, format!("{{ {} }}", text.trim())));
    }
    out.needs_atomic_prelude = true;
    let body = match apply_in(cx.source, span, &edits) {
        Ok(t) => t,
        Err(e) => return Some(Err(vec![e])),
    };
    Some(
        render(
            CRITICAL,
            "update_loops",
            &[("location", &cx.location(d.span.start)), ("body", &body)],
        )
        .map_err(|e| vec![e]),
    )
}

/// The file-end constructor that opens the runtime's lock window (once per file).
pub(super) fn note_used(out: &mut Out) -> Result<(), Vec<Diagnostic>> {
    out.needs_critical_prelude = true;
    let text = render(CRITICAL, "used", &[]).map_err(|e| vec![e])?;
    if !out.file_end.contains(&text) {
        out.file_end.push(text);
    }
    Ok(())
}

/// A `critical` section whose body is any code.
pub fn lower_general(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let section = section_text(cx, out, d, stmt, env)?;
    note_used(out)?;
    let name = d.name_arg.clone().unwrap_or_default();
    let lock_word = render(CRITICAL, "section_lock", &[("name", &name)]).map_err(|e| vec![e])?;
    if !out.file_end.contains(&lock_word) {
        out.file_end.push(lock_word);
    }
    Ok(section)
}

/// The body under the name's lock (cross-rank, or the lock word in a team of one rank).
fn section_text(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    // an `if` without `else` may take the lines after it, a directive among them
    let span = super::statement_span(cx, stmt.span);
    let site = Site {
        construct: d.name_span,
        what: "critical section",
    };
    let body = instrumented(cx, out, span, &[stmt], &site, env)?;
    out.needs_critical_prelude = true;
    let name = d.name_arg.clone().unwrap_or_default();
    render(
        CRITICAL,
        "section",
        &[
            ("construct", d.kind.name()),
            ("location", &cx.location(d.span.start)),
            ("name", &name),
            ("body", &body),
        ],
    )
    .map_err(|e| vec![e])
}

/// A `critical` made of updates, which merge as updates (in any order) unless the program
/// also has a general section of the same name: OpenMP makes all sections of one name
/// exclude each other, so a general section must see every update made before it. Which case
/// holds is known at link time: every file with a general section defines the name's lock
/// word (weak), so the updates test its address and run under the lock when it exists.
fn updates_beside_sections(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
    updates: &str,
) -> Result<String, Vec<Diagnostic>> {
    let name = d.name_arg.clone().unwrap_or_default();
    let location = cx.location(d.span.start);
    let section = match section_text(cx, out, d, stmt, env) {
        Ok(text) => text,
        // a body a general section cannot hold (a call the compiler cannot follow): a clear
        // error if the program does mix the two
        Err(_) => render(
            CRITICAL,
            "mixed_refused",
            &[("location", &location), ("name", &name)],
        )
        .map_err(|e| vec![e])?,
    };
    render(
        CRITICAL,
        "updates_or_section",
        &[
            ("location", &location),
            ("name", &name),
            ("section", &section),
            ("updates", updates),
        ],
    )
    .map_err(|e| vec![e])
}

/// A lock pair around any code: the set and unset calls become the cross-rank lock's.
pub fn lower_lock_pair(
    cx: &Context,
    out: &mut Out,
    pair: &LockPair,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for &decl in &pair.decls {
        critical_calls::declaration_effects(cx, decl, pair.set, &mut errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // from after the set call's statement to the unset call's statement
    let starts = pair.body.iter().map(|s| span_of(s.span).start);
    let ends = pair
        .body
        .iter()
        .map(|s| super::statement_span(cx, s.span).end);
    let start = starts.chain(pair.decls.iter().map(|d| d.start)).min();
    let end = ends.chain(pair.decls.iter().map(|d| d.end)).max();
    let body = match (start, end) {
        (Some(start), Some(end)) => {
            let site = Site {
                construct: pair.set,
                what: "lock pair",
            };
            instrumented(cx, out, Span::new(start, end), &pair.body, &site, env)?
        }
        _ => String::new(),
    };
    note_used(out)?;
    let lock = super::emit_span(cx, out, pair.arg, env);
    render(
        CRITICAL,
        "lock_pair",
        &[
            ("location", &cx.location(pair.span.start)),
            ("lock", lock.trim()),
            ("nest", if pair.nest { "1" } else { "0" }),
            ("body", &body),
        ],
    )
    .map_err(|e| vec![e])
}

/// `critical`: mergeable updates (also in loops) merge as updates unless general sections of
/// the same name exist or the updates depend on each other; any other body runs under a
/// cross-rank lock.
pub fn lower(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    // updates that read what the section (or another section of the name) writes, or whose
    // operands have effects, are not independent updates (`update_reads.rs`): they run under
    // the lock
    let same_name: Vec<&Node<Statement>> = cx
        .directives
        .iter()
        .filter(|o| o.kind == d.kind && o.name_arg == d.name_arg && o.span != d.span)
        .filter_map(|o| cx.constructs().statement(cx, o).ok())
        .collect();
    let updates = if !super::update_reads::independent_beside(cx, &[stmt], &same_name) {
        None
    } else if updates_of(cx, stmt, true, &mut Vec::new()).is_ok() {
        Some(super::atomic::lower(cx, out, d, stmt, env))
    } else {
        lower_update_loops(cx, out, d, stmt, env)
    };
    match updates {
        None => lower_general(cx, out, d, stmt, env),
        Some(Err(e)) => Err(e),
        Some(Ok(updates)) => updates_beside_sections(cx, out, d, stmt, env, &updates),
    }
}

/// `if (omp_test_lock(l)) { ...; omp_unset_lock(l); ... } [else ...]` (or the nest-lock test):
/// the block runs under the cross-rank lock (inside a region the test waits for the lock and
/// succeeds, which is what a test made when the lock is free would do).
pub struct TestPair<'a> {
    /// the `if` statement
    pub span: Span,
    test: Span,
    arg: Span,
    nest: bool,
    then: &'a Node<Statement>,
    otherwise: Option<&'a Node<Statement>>,
}

/// `name(arg)` as (name, argument).
fn call_of(e: &Node<Expression>) -> Option<(&str, &Node<Expression>)> {
    let Expression::Call(call) = &e.node else {
        return None;
    };
    let Expression::Identifier(id) = &call.node.callee.node else {
        return None;
    };
    match call.node.arguments.as_slice() {
        [arg] => Some((id.node.name.as_str(), arg)),
        _ => None,
    }
}

/// The lock test that statement `s` is, if it is one.
pub fn test_pair<'a>(cx: &Context, s: &'a Node<Statement>) -> Option<TestPair<'a>> {
    let Statement::If(i) = &s.node else {
        return None;
    };
    let (name, arg) = call_of(&i.node.condition)?;
    let (nest, unset) = match name {
        "omp_test_lock" => (false, "omp_unset_lock"),
        "omp_test_nest_lock" => (true, "omp_unset_nest_lock"),
        _ => return None,
    };
    let Statement::Compound(items) = &i.node.then_statement.node else {
        return None;
    };
    let text =
        |x: &Node<Expression>| -> String { cx.text(span_of(x.span)).split_whitespace().collect() };
    // the unset is a statement of the block (what follows it runs without the lock)
    let unsets = items.iter().any(|b| match &b.node {
        BlockItem::Statement(Node {
            node: Statement::Expression(Some(e)),
            ..
        }) => call_of(e).is_some_and(|(n, a)| n == unset && text(a) == text(arg)),
        _ => false,
    });
    if !unsets {
        return None;
    }
    Some(TestPair {
        span: super::statement_span(cx, s.span),
        test: span_of(i.node.condition.span),
        arg: span_of(arg.span),
        nest,
        then: &i.node.then_statement,
        otherwise: i.node.else_statement.as_deref(),
    })
}

/// The text that replaces a lock test.
pub fn lower_test_pair(
    cx: &Context,
    out: &mut Out,
    t: &TestPair,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let then = span_of(t.then.span);
    let site = Site {
        construct: t.test,
        what: "lock test",
    };
    let body = instrumented(cx, out, then, &[t.then], &site, env)?;
    note_used(out)?;
    let lock = super::emit_span(cx, out, t.arg, env);
    let otherwise = match t.otherwise {
        Some(e) => {
            let text = super::emit_span(cx, out, super::statement_span(cx, e.span), env);
            format!("\nelse\n{text}")
        }
        None => String::new(),
    };
    render(
        CRITICAL,
        "lock_test",
        &[
            ("location", &cx.location(t.span.start)),
            ("lock", lock.trim()),
            ("nest", if t.nest { "1" } else { "0" }),
            ("body", &body),
            ("else", &otherwise),
        ],
    )
    .map_err(|e| vec![e])
}
