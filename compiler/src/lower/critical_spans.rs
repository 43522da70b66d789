//! A lock set in one statement and unset in a later statement of the same block, when the two
//! calls are not a pair of statements in one block (`critical.rs` lowers those): the set is in
//! an `if` branch and the unset after it, or the set and unset are in helper functions
//! (`acquire(&l); ...; release(&l);`). Whether the lock is held is known only at run time, so
//! the statements from the one that may set to the one that may unset are instrumented like a
//! section (`critical_calls.rs`): their stores report (the runtime keeps them only while this
//! thread holds a cross-rank lock), the functions they call run as clones, whose lock calls
//! are the runtime's cross-rank ones. A lock routine reached from code not instrumented so
//! stays a clear runtime error.

use std::collections::{HashMap, HashSet};

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::critical_calls::{instrumented, Site};
use super::{contains, overlaps, uses_in, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::resolve::Binding;

pub(super) const SETS: &[&str] = &[
    "omp_set_lock",
    "omp_set_nest_lock",
    "omp_test_lock",
    "omp_test_nest_lock",
];
pub(super) const UNSETS: &[&str] = &["omp_unset_lock", "omp_unset_nest_lock"];

/// Statements of one block from one that may set a lock to one that may unset it.
pub struct LockSpan<'a> {
    pub span: Span,
    stmts: Vec<&'a Node<Statement>>,
    decls: Vec<Span>,
    /// the first call that may set the lock
    set: Span,
}

/// The functions defined in this file that may set (`.0`) or unset (`.1`) a lock, directly
/// or through the functions they call.
fn lock_functions(
    cx: &Context,
    defined: &HashMap<&str, usize>,
) -> (HashSet<usize>, HashSet<usize>) {
    let functions = &cx.program.functions;
    let mut sets = HashSet::new();
    let mut unsets = HashSet::new();
    let mut calls: Vec<Vec<usize>> = vec![Vec::new(); functions.len()];
    for (i, f) in functions.iter().enumerate() {
        if f.is_system {
            continue;
        }
        for u in uses_in(cx, f.body) {
            if u.binding != Binding::Other {
                continue;
            }
            if SETS.contains(&u.name.as_str()) {
                sets.insert(i);
            } else if UNSETS.contains(&u.name.as_str()) {
                unsets.insert(i);
            } else if let Some(&g) = defined.get(u.name.as_str()) {
                if let Some(c) = calls.get_mut(i) {
                    c.push(g);
                }
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for (i, callees) in calls.iter().enumerate() {
            crate::work::count(callees.len());
            for g in callees {
                if sets.contains(g) && sets.insert(i) {
                    changed = true;
                }
                if unsets.contains(g) && unsets.insert(i) {
                    changed = true;
                }
            }
        }
    }
    (sets, unsets)
}

pub fn lock_spans<'a>(cx: &Context<'_, 'a>) -> Vec<LockSpan<'a>> {
    let is_lock_routine = |name: &str| SETS.contains(&name) || UNSETS.contains(&name);
    // most files use no lock routine: nothing to look for
    if !cx
        .program
        .uses
        .iter()
        .any(|u| u.binding == Binding::Other && is_lock_routine(&u.name))
    {
        return Vec::new();
    }
    let defined: HashMap<&str, usize> = cx
        .program
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.is_system)
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    let uses: Vec<(&crate::resolve::Use, Option<usize>)> = cx
        .program
        .uses
        .iter()
        .filter(|u| u.binding == Binding::Other)
        .map(|u| (u, defined.get(u.name.as_str()).copied()))
        .filter(|(u, f)| f.is_some() || is_lock_routine(&u.name))
        .collect();
    let (set_functions, unset_functions) = lock_functions(cx, &defined);
    // calls that a lock pair or a lock test lowers already
    let mut paired: Vec<Span> = cx
        .lock_pairs
        .get_or_init(|| super::atomic::lock_pairs(cx))
        .iter()
        .map(|p| p.span)
        .collect();
    paired.extend(
        cx.program
            .items
            .iter()
            .filter_map(|i| i.statement.and_then(|s| super::critical::test_pair(cx, s)))
            .map(|t| t.span),
    );
    let (mut sets, mut unsets) = (Vec::new(), Vec::new());
    for (u, f) in uses {
        if paired.iter().any(|&p| contains(p, u.span)) {
            continue;
        }
        if SETS.contains(&u.name.as_str()) || f.is_some_and(|f| set_functions.contains(&f)) {
            sets.push(u.span);
        }
        if UNSETS.contains(&u.name.as_str()) || f.is_some_and(|f| unset_functions.contains(&f)) {
            unsets.push(u.span);
        }
    }
    if sets.is_empty() || unsets.is_empty() {
        return Vec::new();
    }
    // the children of each block, in order
    let mut blocks: std::collections::BTreeMap<(usize, usize), Vec<usize>> = Default::default();
    for (i, item) in cx.program.items.iter().enumerate() {
        if cx.text(item.parent).starts_with('{') {
            blocks
                .entry((item.parent.start, item.parent.end))
                .or_default()
                .push(i);
        }
    }
    let mut spans = Vec::new();
    for children in blocks.values() {
        let extent = |i: usize| -> Span {
            let item = &cx.program.items[i];
            match item.statement {
                Some(s) => super::statement_span(cx, s.span),
                None => item.span,
            }
        };
        let mut k = 0;
        while k < children.len() {
            let first = extent(children[k]);
            let Some(set) = sets.iter().find(|&&s| contains(first, s)) else {
                k += 1;
                continue;
            };
            let last = (k + 1..children.len())
                .rev()
                .find(|&j| unsets.iter().any(|&u| contains(extent(children[j]), u)));
            let Some(last) = last else { break };
            let span = Span::new(first.start, extent(children[last]).end);
            let crosses_pair = paired
                .iter()
                .any(|&p| overlaps(p, span) && !contains(span, p));
            let has_directive = cx.directives.iter().any(|d| overlaps(span, d.span));
            if !crosses_pair && !has_directive {
                let mut stmts = Vec::new();
                let mut decls = Vec::new();
                for &c in &children[k..=last] {
                    let item = &cx.program.items[c];
                    match item.statement {
                        Some(s) => stmts.push(s),
                        None => decls.push(item.span),
                    }
                }
                spans.push(LockSpan {
                    span,
                    stmts,
                    decls,
                    set: *set,
                });
            }
            k = last + 1;
        }
    }
    spans.sort_by_key(|s| s.span.start);
    spans
}

/// The statements of a lock span, instrumented.
pub fn lower(
    cx: &Context,
    out: &mut Out,
    ls: &LockSpan,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for &decl in &ls.decls {
        super::critical_calls::declaration_effects(cx, decl, ls.set, &mut errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let site = Site {
        construct: ls.set,
        what: "stretch of code between a lock's set and unset",
    };
    let body = instrumented(cx, out, ls.span, &ls.stmts, &site, env)?;
    super::critical::note_used(out)?;
    Ok(format!(
        "/* capecc: a lock set and unset in different statements at {}: stores reported */\n{body}",
        cx.location(ls.span.start)
    ))
}
