//! Regions whose threads wait for each other through shared flags: a `flush` (or an `atomic
//! read`) inside a loop, in the region or in a function of this file it calls, directly or
//! not. Such a region calls `__cape_parallel_cooperative`: capert runs it on every rank as a
//! team of user-level threads that take turns at each spin and barrier (capert's
//! region/cooperative.rs), so the waits end and the answer is gcc's. A waiting loop in a
//! function of another file is still caught at run time (wait_loop.rs).

use std::collections::{HashMap, HashSet};

use super::{contains, uses_in, wait_loop, Context};
use crate::diag::Span;
use crate::directive::{ClauseKind, Directive, DirectiveKind};
use crate::resolve::Binding;

/// Whether `d` may be the spin of a waiting loop: a flush or an atomic read inside a loop.
fn is_spin(cx: &Context, d: &Directive) -> bool {
    let spins = d.kind == DirectiveKind::Flush
        || (d.kind == DirectiveKind::Atomic
            && d.clauses.iter().any(|c| c.kind == ClauseKind::Read));
    spins && wait_loop::in_a_loop(cx, d)
}

/// The functions of the file that contain a waiting loop or call one that does.
pub fn waiting_functions(cx: &Context) -> HashSet<usize> {
    let mut waiting: HashSet<usize> = cx
        .directives
        .iter()
        .filter(|d| is_spin(cx, d))
        .filter_map(|d| cx.program.function_at(d.span.start))
        .collect();
    // callers by callee name, then a walk up from the waiting functions
    let mut callers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (f, function) in cx.program.functions.iter().enumerate() {
        for u in uses_in(cx, function.body) {
            if matches!(u.binding, Binding::Other) {
                callers.entry(u.name.as_str()).or_default().push(f);
            }
        }
    }
    let mut work: Vec<usize> = waiting.iter().copied().collect();
    while let Some(f) = work.pop() {
        let name = cx.program.functions[f].name.as_str();
        for &caller in callers.get(name).map_or(&[][..], Vec::as_slice) {
            if waiting.insert(caller) {
                work.push(caller);
            }
        }
    }
    waiting
}

/// Whether the region of `d` over `span` contains a waiting loop or calls a function that
/// does (`waiting`: [`waiting_functions`]).
pub fn region_waits(cx: &Context, d: &Directive, span: Span, waiting: &HashSet<usize>) -> bool {
    let inside = cx.constructs().inside(cx, d);
    if inside
        .iter()
        .any(|i| contains(span, i.span) && is_spin(cx, i))
    {
        return true;
    }
    let names: HashSet<&str> = waiting
        .iter()
        .map(|&f| cx.program.functions[f].name.as_str())
        .collect();
    uses_in(cx, span)
        .iter()
        .any(|u| matches!(u.binding, Binding::Other) && names.contains(u.name.as_str()))
}
