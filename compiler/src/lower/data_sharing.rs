//! Data sharing: what the clauses of a directive make of each variable (shared, private,
//! firstprivate, lastprivate, reduction, linear, copyin), with their checks, and the pieces
//! every lowering generates from them (reduction identities and combine functions). The
//! parallel lowering and the worksharing lowerings (`for`, `sections`, `single`) read clauses
//! only through this module.

use std::collections::HashMap;

pub(crate) use super::common::reduction_identity;
use super::common::{combine_expression, resolve_item, typed_pointer};
use super::{clause_name, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{
    Clause, ClauseArgs, ClauseKind, DefaultKind, Directive, ListItem, ReductionOp,
};
use crate::resolve::{Storage, TypeClass, VarId};
use crate::template::{render, WORKSHARING};

/// The data-sharing attribute of a variable in a construct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharing {
    Shared,
    Private,
    Firstprivate,
    Lastprivate,
    FirstLastprivate,
    Reduction(ReductionOp),
}

/// Clauses the parallel part of a combined construct acts on; the rest go to the worksharing
/// part (whose variables the region shares).
pub fn parallel_part(kind: ClauseKind) -> bool {
    matches!(
        kind,
        ClauseKind::If
            | ClauseKind::NumThreads
            | ClauseKind::Default
            | ClauseKind::Shared
            | ClauseKind::Copyin
            | ClauseKind::ProcBind
            | ClauseKind::Private
    )
}

/// The variable a clause item names, resolved where directive `d` stands (an unknown name
/// is reported).
fn item_var(
    cx: &Context,
    d: &Directive,
    function: usize,
    item: &ListItem,
    errors: &mut Vec<Diagnostic>,
) -> Option<VarId> {
    resolve_item(cx, &item.name, item.name_span, d.span, function, errors)
}

/// A const variable in a clause that makes an uninitialised or written-back copy.
fn const_copy(cx: &Context, clause: &Clause, v: VarId, at: Span) -> Diagnostic {
    let var = &cx.program.vars[v];
    let name = clause_name(cx.source, clause);
    Diagnostic::error(format!(
        "const-qualified variable `{}` cannot be `{name}`",
        var.name
    ))
    .with_primary(at, "declared `const`")
    .with_secondary(var.ident_span, "declared here")
}

/// The clauses of a parallel region (the parallel part of a combined construct), resolved.
pub struct RegionClauses {
    /// data-sharing attributes listed on the directive; the worksharing part's variables are
    /// shared by the region
    pub sharing: HashMap<VarId, (Sharing, Span)>,
    pub default_none: Option<Span>,
    /// the `num_threads` expression, `0` when absent
    pub num_threads: String,
    /// the `if` condition, `1` when absent
    pub if_clause: String,
    pub copyin: Vec<VarId>,
    /// variables the region captures because a clause needs their address
    pub wanted_by_clause: Vec<VarId>,
}

/// Reads the clauses of a `parallel` (or combined) directive.
pub fn region_clauses(
    cx: &Context,
    d: &Directive,
    function: usize,
    env: &Env,
    errors: &mut Vec<Diagnostic>,
) -> RegionClauses {
    let combined = d.kind.is_combined_parallel();
    let mut sharing: HashMap<VarId, (Sharing, Span)> = HashMap::new();
    let mut default_none: Option<Span> = None;
    let mut num_threads = "0".to_string();
    let mut if_clause = "1".to_string();
    let mut copyin: Vec<VarId> = Vec::new();
    let mut wanted_by_clause: Vec<VarId> = Vec::new();
    for clause in &d.clauses {
        let acts = !combined || parallel_part(clause.kind);
        match (&clause.kind, &clause.args) {
            (ClauseKind::Default, ClauseArgs::Default(DefaultKind::None)) => {
                default_none = Some(clause.span);
            }
            (ClauseKind::If, ClauseArgs::Expr { expr, modifier })
                if modifier.as_deref().is_none_or(|m| m == "parallel") =>
            {
                if_clause = format!("!!({})", super::clause_expr(cx, d, *expr, env))
            }
            (ClauseKind::NumThreads, ClauseArgs::Expr { expr, .. }) => {
                num_threads = if super::clause_values::non_positive(cx.text(*expr)) {
                    "1".to_string()
                } else {
                    format!("(int)({})", super::clause_expr(cx, d, *expr, env))
                }
            }
            (ClauseKind::Copyin, ClauseArgs::List(items)) => {
                for item in items {
                    if let Some(v) = item_var(cx, d, function, item, errors) {
                        if !is_threadprivate(cx, v) {
                            errors.push(
                                Diagnostic::error(format!(
                                    "`copyin` variable `{}` must be `threadprivate`",
                                    item.name
                                ))
                                .with_primary(item.name_span, "not in a `threadprivate` directive"),
                            );
                        }
                        copyin.push(v);
                        // a threadprivate static local is reached through its address
                        if cx.program.vars[v].storage != Storage::Global
                            && !wanted_by_clause.contains(&v)
                        {
                            wanted_by_clause.push(v);
                        }
                    }
                }
            }
            (
                ClauseKind::Private
                | ClauseKind::Firstprivate
                | ClauseKind::Lastprivate
                | ClauseKind::Shared,
                ClauseArgs::List(items),
            ) => {
                for item in items {
                    let Some(v) = item_var(cx, d, function, item, errors) else {
                        continue;
                    };
                    let new = match clause.kind {
                        _ if !acts => Sharing::Shared,
                        ClauseKind::Private => Sharing::Private,
                        ClauseKind::Firstprivate => Sharing::Firstprivate,
                        _ => Sharing::Shared,
                    };
                    let var = &cx.program.vars[v];
                    if acts && var.is_const && new == Sharing::Private {
                        errors.push(const_copy(cx, clause, v, item.name_span));
                    }
                    sharing.insert(v, (new, item.name_span));
                }
            }
            (ClauseKind::Reduction, ClauseArgs::Reduction { op, op_span, items }) => {
                for item in items {
                    let Some(v) = item_var(cx, d, function, item, errors) else {
                        continue;
                    };
                    if !acts {
                        sharing.insert(v, (Sharing::Shared, item.name_span));
                    } else if admits(cx, d, *op, *op_span, item, v, errors) {
                        sharing.insert(v, (Sharing::Reduction(*op), item.name_span));
                    }
                }
            }
            _ => {}
        }
    }
    RegionClauses {
        sharing,
        default_none,
        num_threads,
        if_clause,
        copyin,
        wanted_by_clause,
    }
}

pub type ClauseFilter<'f> = dyn Fn(ClauseKind) -> bool + 'f;

/// The data-sharing clauses of a worksharing construct, resolved.
pub struct DataClauses {
    pub items: Vec<(VarId, Sharing, Span)>,
}

/// Reads private/firstprivate/lastprivate/reduction clauses (those `filter` accepts).
pub fn data_clauses(
    cx: &Context,
    d: &Directive,
    filter: &ClauseFilter,
    errors: &mut Vec<Diagnostic>,
) -> DataClauses {
    let mut items: Vec<(VarId, Sharing, Span)> = Vec::new();
    let Some(function) = cx.program.function_at(d.span.start) else {
        return DataClauses { items };
    };
    for clause in &d.clauses {
        if !filter(clause.kind) {
            continue;
        }
        match (&clause.kind, &clause.args) {
            (
                ClauseKind::Private | ClauseKind::Firstprivate | ClauseKind::Lastprivate,
                ClauseArgs::List(list),
            ) => {
                for item in list {
                    let Some(v) = item_var(cx, d, function, item, errors) else {
                        continue;
                    };
                    let var = &cx.program.vars[v];
                    let new = match clause.kind {
                        ClauseKind::Private => Sharing::Private,
                        ClauseKind::Firstprivate => Sharing::Firstprivate,
                        _ => Sharing::Lastprivate,
                    };
                    if var.is_const && matches!(new, Sharing::Private | Sharing::Lastprivate) {
                        errors.push(const_copy(cx, clause, v, item.name_span));
                    }
                    let previous = items.iter().position(|(o, _, _)| *o == v);
                    let merged = match (previous.map(|p| items[p].1), new) {
                        (Some(Sharing::Firstprivate), Sharing::Lastprivate)
                        | (Some(Sharing::Lastprivate), Sharing::Firstprivate) => {
                            Sharing::FirstLastprivate
                        }
                        _ => new,
                    };
                    if let Some(p) = previous {
                        items.remove(p);
                    }
                    items.push((v, merged, item.name_span));
                }
            }
            (
                ClauseKind::Reduction,
                ClauseArgs::Reduction {
                    op,
                    op_span,
                    items: list,
                },
            ) => {
                for item in list {
                    let Some(v) = item_var(cx, d, function, item, errors) else {
                        continue;
                    };
                    if admits(cx, d, *op, *op_span, item, v, errors) {
                        items.retain(|(o, _, _)| *o != v);
                        items.push((v, Sharing::Reduction(*op), item.name_span));
                    }
                }
            }
            _ => {}
        }
    }
    DataClauses { items }
}

/// The checks of a reduction item: sections and user-defined reductions in `reduction.rs`,
/// scalars with a built-in operator here.
fn admits(
    cx: &Context,
    d: &Directive,
    op: ReductionOp,
    op_span: Span,
    item: &ListItem,
    v: VarId,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    super::reduction::admits(cx, d, op, op_span, item, v, errors)
        .unwrap_or_else(|| check_reduction_var(cx, v, op, item.span, item.name_span, errors))
}

/// The type checks of a reduction variable; false when it cannot be reduced.
pub fn check_reduction_var(
    cx: &Context,
    v: VarId,
    op: ReductionOp,
    item_span: Span,
    name_span: Span,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    let var = &cx.program.vars[v];
    let what = match var.class {
        TypeClass::Pointer => Some("a pointer"),
        TypeClass::Array => Some("an array"),
        TypeClass::Record => Some("a struct or union"),
        TypeClass::Function => Some("a function"),
        _ => None,
    };
    if let Some(what) = what {
        errors.push(
            Diagnostic::error(format!(
                "reduction variable `{}` must have an arithmetic type",
                var.name
            ))
            .with_primary(item_span, format!("`{}` is {what}", var.name))
            .with_secondary(var.ident_span, "declared here"),
        );
        return false;
    }
    let bitwise = matches!(
        op,
        ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor
    );
    if bitwise && matches!(var.class, TypeClass::Floating | TypeClass::OtherArithmetic) {
        errors.push(
            Diagnostic::error(format!(
                "bitwise reduction on `{}` needs an integer type",
                var.name
            ))
            .with_primary(item_span, "floating-point variable"),
        );
    }
    if matches!(op, ReductionOp::Max | ReductionOp::Min) && var.class == TypeClass::OtherArithmetic
    {
        errors.push(
            Diagnostic::error(format!(
                "`max`/`min` reduction on `{}` needs a real type",
                var.name
            ))
            .with_primary(item_span, "complex variable"),
        );
    }
    if var.is_const {
        errors.push(
            Diagnostic::error(format!(
                "const-qualified variable `{}` cannot be a reduction variable",
                var.name
            ))
            .with_primary(name_span, "declared `const`"),
        );
    }
    true
}

/// Generates a reduction's combine function (declared before, defined after the user function)
/// and returns its name.
pub fn combine_function(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    v: VarId,
    op: ReductionOp,
) -> Result<String, Diagnostic> {
    let id = out.fresh_id();
    let var = &cx.program.vars[v];
    let combine = format!("__cape_combine_{id}_{}", var.name);
    let (op_text, combined) = combine_expression(op);
    let function = cx
        .program
        .function_at(d.span.start)
        .ok_or_else(|| Diagnostic::error("internal error: construct outside a function"))?;
    let decl = render(WORKSHARING, "combine_decl", &[("combine", &combine)])?;
    let inout = typed_pointer(cx, v, "__cape_a")?;
    let input = typed_pointer(cx, v, "__cape_b")?;
    let location = cx.location(d.span.start);
    let def = render(
        WORKSHARING,
        "combine_fn",
        &[
            ("op", op_text),
            ("var", &var.name),
            ("construct", d.kind.name()),
            ("location", &location),
            ("combine", &combine),
            ("inout_pointer", &inout),
            ("in_pointer", &input),
            ("combined", combined),
        ],
    )?;
    out.before.push((function, decl));
    out.after.push((function, def));
    Ok(combine)
}

/// A `linear(x[: step])` item other than the loop variable: (variable, step text).
pub struct Linear {
    pub var: VarId,
    pub step: String,
}

/// The `linear` clauses of a loop. The loop variable (linear by definition) is skipped; any
/// other integer or pointer variable gets a private copy set to `x0 + k * step` at the start
/// of logical iteration k, and the original takes the copy's value after the last iteration.
pub fn linear_items(
    cx: &Context,
    d: &Directive,
    filter: &ClauseFilter,
    loop_vars: &[VarId],
    env: &Env,
    data: &DataClauses,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Linear> {
    let mut found: Vec<Linear> = Vec::new();
    let Some(function) = cx.program.function_at(d.span.start) else {
        return found;
    };
    for clause in &d.clauses {
        if !filter(clause.kind) {
            continue;
        }
        let (ClauseKind::Linear, ClauseArgs::ListWithExpr { items, expr }) =
            (&clause.kind, &clause.args)
        else {
            continue;
        };
        let step = match expr {
            Some(e) => super::clause_expr(cx, d, *e, env),
            None => "1".to_string(),
        };
        for item in items {
            let Some(v) = item_var(cx, d, function, item, errors) else {
                continue;
            };
            if loop_vars.contains(&v) {
                continue;
            }
            let var = &cx.program.vars[v];
            if !matches!(
                var.class,
                TypeClass::Integer | TypeClass::Pointer | TypeClass::Unknown
            ) {
                errors.push(
                    Diagnostic::error(format!(
                        "`linear` variable `{}` must have an integer or pointer type",
                        var.name
                    ))
                    .with_primary(item.name_span, "in this `linear` clause")
                    .with_secondary(var.ident_span, "declared here"),
                );
                continue;
            }
            if var.is_const {
                errors.push(
                    Diagnostic::error(format!(
                        "const-qualified variable `{}` cannot be `linear`",
                        var.name
                    ))
                    .with_primary(item.name_span, "declared `const`"),
                );
                continue;
            }
            if data.items.iter().any(|(o, _, _)| *o == v) || found.iter().any(|l| l.var == v) {
                errors.push(
                    Diagnostic::error(format!(
                        "`{}` appears in more than one data-sharing clause",
                        var.name
                    ))
                    .with_primary(item.name_span, "also listed elsewhere on this directive"),
                );
                continue;
            }
            found.push(Linear {
                var: v,
                step: step.clone(),
            });
        }
    }
    found
}

pub fn is_threadprivate(cx: &Context, v: VarId) -> bool {
    cx.constructs().is_threadprivate(v)
}
