//! Shared scalars a parallel region only reads: the outlined function copies them into locals
//! once, so that the backend sees loop bounds and coefficients as values instead of loads
//! through pointers that the region's stores may alias (each such load would be repeated at
//! every iteration, and blocks vectorisation).
//!
//! A copy is exact when nothing can change the variable while the region runs: it is an
//! automatic local or parameter of the enclosing function (a `static` one could be written by
//! a recursive call), of arithmetic or pointer type, neither `volatile` nor `_Atomic`, the
//! region never assigns, increments or decrements it, no clause but `shared` names it (a
//! reduction or lastprivate writes it), and the function never takes its address (through which code the
//! region calls could write it).

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::common::modification_of;
use super::parallel::mentions;
use super::{uses_in, Context};
use crate::diag::Span;
use crate::resolve::{Binding, Storage, TypeClass, VarId};

/// Whether the region `stmt` (the code at `region`, inside function number `function`) only
/// reads shared variable `v`, and `v` is a scalar whose value can be copied at its start.
/// `in_clauses`: the variables named in the clauses of the region's directives.
pub fn is_read_only_scalar(
    cx: &Context,
    v: VarId,
    function: usize,
    stmt: &Node<Statement>,
    region: Span,
    in_clauses: &[VarId],
) -> bool {
    let var = &cx.program.vars[v];
    let scalar = matches!(
        var.class,
        TypeClass::Integer | TypeClass::Floating | TypeClass::Pointer
    );
    let declared = var
        .type_specifiers
        .iter()
        .chain([&var.declarator])
        .map(|s| cx.text(*s))
        .any(|t| t.contains("volatile"));
    if !scalar
        || declared
        || var.is_atomic
        || var.param_array_dim.is_some()
        || !matches!(var.storage, Storage::Auto | Storage::Param)
        || var.function != Some(function)
        || in_clauses.contains(&v)
    {
        return false;
    }
    let used_in_region = uses_in(cx, region)
        .iter()
        .any(|u| u.binding == Binding::Var(v));
    used_in_region
        && modification_of(cx, stmt, v).is_none()
        && !address_taken(cx, v, cx.program.functions[function].body)
}

/// Whether some use of `v` in `body` may take its address: `&` before it, parentheses
/// allowed (`&(v)`); an `asm` statement anywhere in the body counts as taking every address.
fn address_taken(cx: &Context, v: VarId, body: Span) -> bool {
    let text = cx.text(body);
    if ["asm", "__asm", "__asm__"]
        .iter()
        .any(|w| mentions(text, w) > 0)
    {
        return true;
    }
    address_taken_in(cx, v, body)
}

/// Whether the code at `body` takes the address of `v` (`&v`, `&(v)`).
pub(super) fn address_taken_in(cx: &Context, v: VarId, body: Span) -> bool {
    uses_in(cx, body)
        .iter()
        .filter(|u| u.binding == Binding::Var(v))
        .any(|u| {
            let before = cx.source.get(..u.span.start).unwrap_or("");
            before
                .trim_end_matches(|c: char| c.is_ascii_whitespace() || c == '(')
                .ends_with('&')
        })
}
