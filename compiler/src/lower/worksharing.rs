//! `for` and `sections`, lowered in place (inside an outlined function or an orphan function,
//! locals are already the thread's own): the normalised iteration space [0, n) is handed out by
//! `__cape_loop_*`; private copies shadow the originals, which are reached through
//! `__cape_orig_<name>` pointers taken before the copies are declared.

use lang_c::ast::{BinaryOperator, BlockItem, Statement};
use lang_c::span::Node;

use super::common::{canonical_form, modification_of, Canonical, StepForm};
use super::data_sharing::{
    combine_function, data_clauses, linear_items, reduction_identity, ClauseFilter, DataClauses,
    Sharing,
};
use super::one;
use super::{emit_span, span_of, spelled, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind, ScheduleKind};
use crate::resolve::{TypeClass, VarId};
use crate::template::{render, WORKSHARING};

/// Private copies in place: (originals, privates, lastprivate copy-outs, reductions), and the
/// environment of the construct's body (privatised variables keep their own names).
struct Privatised {
    originals: String,
    privates: String,
    lastprivate_out: String,
    reductions: String,
    env: Env,
}

fn privatise(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    data: &DataClauses,
    env: &Env,
    skip_private: &[VarId],
) -> Result<Privatised, Vec<Diagnostic>> {
    let mut p = Privatised {
        originals: String::new(),
        privates: String::new(),
        lastprivate_out: String::new(),
        reductions: String::new(),
        env: env.clone(),
    };
    for &(v, s, _) in &data.items {
        let var = &cx.program.vars[v];
        let name = var.name.as_str();
        let of = spelled(cx, env, v);
        p.env.remove(&v);
        if !matches!(s, Sharing::Private | Sharing::Shared) {
            p.originals.push_str(&one(render(
                WORKSHARING,
                "original",
                &[("of", &of), ("var", name)],
            ))?);
        }
        let of_copy = if matches!(s, Sharing::Private | Sharing::Shared) {
            of.clone()
        } else {
            format!("*__cape_orig_{name}")
        };
        if skip_private.contains(&v) {
            // the loop variable: declared with the loop
        } else {
            match s {
                Sharing::Shared => {}
                Sharing::Private | Sharing::Lastprivate => p.privates.push_str(&one(render(
                    WORKSHARING,
                    "private",
                    &[("of", &of_copy), ("var", name)],
                ))?),
                Sharing::Firstprivate => p.privates.push_str(&one(render(
                    WORKSHARING,
                    "firstprivate",
                    &[("of", &of_copy), ("var", name)],
                ))?),
                // threads of one rank share the original: copy-ins wait for each other
                Sharing::FirstLastprivate => p.privates.push_str(&one(render(
                    WORKSHARING,
                    "firstlastprivate",
                    &[("of", &of_copy), ("var", name)],
                ))?),
                Sharing::Reduction(op) => {
                    // sections and user-defined reductions
                    if let Some(copies) = super::reduction::copies(cx, out, d, v, &of_copy, env) {
                        let (init, combine) = copies?;
                        p.privates.push_str(&init);
                        p.reductions.push_str(&combine);
                        continue;
                    }
                    p.privates.push_str(&one(render(
                        WORKSHARING,
                        "reduction_init",
                        &[
                            ("of", &of_copy),
                            ("var", name),
                            ("identity", &reduction_identity(out, op, name)),
                        ],
                    ))?);
                    let combine = one(combine_function(cx, out, d, v, op))?;
                    p.reductions.push_str(&one(render(
                        WORKSHARING,
                        "reduction_out",
                        &[("var", name), ("combine", &combine)],
                    ))?);
                }
            }
        }
        if matches!(s, Sharing::Lastprivate | Sharing::FirstLastprivate) {
            p.lastprivate_out.push_str(&one(render(
                WORKSHARING,
                "lastprivate_out",
                &[("var", name)],
            ))?);
        }
    }
    Ok(p)
}

/// `schedule(...)`, `nowait`, `collapse(n)` and the refused clauses of a worksharing construct.
struct LoopClauses {
    schedule: &'static str,
    chunk: Option<Span>,
    nowait: bool,
    /// `ordered`: thread 0 runs the whole loop in sequential order (`__cape_loop_init_ordered`)
    ordered: bool,
    collapse: usize,
}

fn loop_clauses(
    cx: &Context,
    d: &Directive,
    filter: &ClauseFilter,
    errors: &mut Vec<Diagnostic>,
) -> LoopClauses {
    let mut c = LoopClauses {
        schedule: "CAPE_SCHED_STATIC",
        chunk: None,
        nowait: false,
        ordered: false,
        collapse: 1,
    };
    for clause in &d.clauses {
        if !filter(clause.kind) {
            continue;
        }
        match (&clause.kind, &clause.args) {
            (ClauseKind::Schedule, ClauseArgs::Schedule { kind, chunk, .. }) => {
                c.schedule = match kind {
                    ScheduleKind::Static => "CAPE_SCHED_STATIC",
                    ScheduleKind::Dynamic => "CAPE_SCHED_DYNAMIC",
                    ScheduleKind::Guided => "CAPE_SCHED_GUIDED",
                    ScheduleKind::Runtime => "CAPE_SCHED_RUNTIME",
                    ScheduleKind::Auto => "CAPE_SCHED_AUTO",
                };
                c.chunk = *chunk;
            }
            (ClauseKind::Nowait, _) => c.nowait = true,
            (ClauseKind::Collapse, ClauseArgs::Expr { expr, .. }) => {
                match cx.text(*expr).trim().parse::<usize>() {
                    Ok(n) if (1..=16).contains(&n) => c.collapse = n,
                    _ => errors.push(
                        Diagnostic::error("`collapse` needs a constant between 1 and 16")
                            .with_primary(*expr, "not a small integer literal"),
                    ),
                }
            }
            (ClauseKind::Ordered, _) => c.ordered = true,
            _ => {}
        }
    }
    // In a combined construct the region's end is the barrier: a second merge right before
    // it would only cost time.
    if d.kind.is_combined_parallel() {
        c.nowait = true;
    }
    c
}

/// `#pragma omp for` (and the loop of `parallel for`): lowered in place.
pub fn lower_for(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
    filter: &ClauseFilter,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let construct = d.kind.name();
    // the loop nest: collapse(n) takes n perfectly nested canonical loops
    let mut loops: Vec<(Canonical, &Node<lang_c::ast::ForStatement>)> = Vec::new();
    let mut current = stmt;
    let first_pass = loop_clauses(cx, d, filter, &mut Vec::new());
    let depth = first_pass.collapse;
    for level in 0..depth {
        let Statement::For(f) = &current.node else {
            let what = if level == 0 {
                format!("`#pragma omp {construct}` must be followed by a `for` loop")
            } else {
                format!("`collapse({depth})` needs {depth} perfectly nested loops")
            };
            errors.push(
                Diagnostic::error(what)
                    .with_primary(span_of(current.span), "expected a `for` loop here")
                    .with_secondary(d.span, "this directive needs a loop"),
            );
            return Err(errors);
        };
        match canonical_form(cx, f, d.span, construct) {
            Ok(c) => loops.push((c, f)),
            Err(e) => {
                errors.push(e);
                return Err(errors);
            }
        }
        if level + 1 < depth {
            current = perfectly_nested(&f.node.statement);
        }
    }
    let loop_vars: Vec<VarId> = loops.iter().map(|(c, _)| c.var).collect();
    let clauses = loop_clauses(cx, d, filter, &mut errors);
    let data = data_clauses(cx, d, filter, &mut errors);
    let Some((_, innermost)) = loops.last() else {
        return Err(errors);
    };
    let body_node = &innermost.node.statement;
    for (c, _) in &loops {
        let var = &cx.program.vars[c.var];
        if var.class == TypeClass::Pointer {
            errors.push(
                Diagnostic::error("a loop over a pointer variable is not supported by capecc")
                    .with_primary(var.ident_span, "the loop variable is a pointer")
                    .with_secondary(
                        d.span,
                        format!("the loop of this `#pragma omp {construct}`"),
                    )
                    .with_note(format!(
                    "help: loop over an integer index `k` and compute the pointer from it in the \
                     body (`{0} = start + k`)",
                    var.name
                )),
            );
        } else if !matches!(var.class, TypeClass::Integer | TypeClass::Unknown) {
            errors.push(
                Diagnostic::error("loop is not in OpenMP canonical form")
                    .with_primary(
                        var.ident_span,
                        "the loop variable must have an integer type",
                    )
                    .with_secondary(
                        d.span,
                        format!("the loop of this `#pragma omp {construct}`"),
                    ),
            );
        }
        if let Some(m) = modification_of(cx, body_node, c.var) {
            errors.push(
                Diagnostic::error(format!(
                    "the loop variable `{}` is modified in the loop body",
                    var.name
                ))
                .with_primary(m, "modified here")
                .with_secondary(d.span, format!("the loop of this `#pragma omp {construct}`"))
                .with_note(
                    "OpenMP computes the iterations in advance: the body must not change the loop variable",
                ),
            );
        }
        if let Some((_, s, at)) = data.items.iter().find(|(v, _, _)| *v == c.var) {
            if matches!(s, Sharing::Reduction(_)) {
                errors.push(
                    Diagnostic::error(format!(
                        "the loop variable `{}` cannot be shared or a reduction variable",
                        var.name
                    ))
                    .with_primary(*at, "the loop variable is private"),
                );
            }
        }
        // bounds of an inner collapsed loop must not use an outer loop's variable
        for (outer, _) in &loops {
            if outer.var == c.var {
                break;
            }
            let spans = [Some(c.lb), Some(c.ub), step_span(&c.step)];
            for s in spans.into_iter().flatten() {
                if let Some(u) = super::uses_in(cx, s)
                    .iter()
                    .find(|u| u.binding == crate::resolve::Binding::Var(outer.var))
                {
                    errors.push(
                        Diagnostic::error("collapsed loops must be rectangular")
                            .with_primary(
                                u.span,
                                "an inner loop's bounds use an outer loop variable",
                            )
                            .with_secondary(
                                d.span,
                                format!("the loops of this `#pragma omp {construct}`"),
                            ),
                    );
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    let linears = linear_items(cx, d, filter, &loop_vars, env, &data, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut privatised = privatise(cx, out, d, &data, env, &loop_vars)?;
    let mut linear_iteration = String::new();
    for l in &linears {
        let name = cx.program.vars[l.var].name.as_str();
        let of = spelled(cx, env, l.var);
        privatised.originals.push_str(&one(render(
            WORKSHARING,
            "linear_init",
            &[("of", &of), ("var", name), ("step", &l.step)],
        ))?);
        linear_iteration.push_str(&one(render(
            WORKSHARING,
            "linear_iteration",
            &[("var", name)],
        ))?);
        privatised.lastprivate_out.push_str(&one(render(
            WORKSHARING,
            "lastprivate_out",
            &[("var", name)],
        ))?);
        privatised.env.remove(&l.var);
    }
    let location = cx.location(d.span.start);
    let mut loop_var_decls = String::new();
    let mut levels = String::new();
    let mut indices = String::new();
    let mut last_vars = String::new();
    let mut product = Vec::new();
    let mut collapsed_starts = String::new();
    let mut collapsed_next = String::new();
    for (j, (c, _)) in loops.iter().enumerate() {
        let var = &cx.program.vars[c.var];
        let name = var.name.as_str();
        let j_text = j.to_string();
        if c.declared_in_header {
            let mut decl = String::new();
            for s in &var.type_specifiers {
                decl.push_str(cx.text(*s));
                decl.push(' ');
            }
            decl.push_str(&emit_span(cx, out, var.declarator, env));
            loop_var_decls.push_str(&one(render(
                WORKSHARING,
                "loop_var_declared",
                &[("decl", decl.trim_end())],
            ))?);
        } else {
            let of = if data.items.iter().any(|(v, s, _)| {
                *v == c.var
                    && matches!(
                        s,
                        Sharing::Lastprivate | Sharing::FirstLastprivate | Sharing::Firstprivate
                    )
            }) {
                format!("*__cape_orig_{name}")
            } else {
                spelled(cx, env, c.var)
            };
            loop_var_decls.push_str(&one(render(
                WORKSHARING,
                "loop_var_private",
                &[("of", &of), ("var", name)],
            ))?);
        }
        privatised.env.remove(&c.var);
        let lb = format!("({})", emit_span(cx, out, c.lb, env));
        let ub = format!("({})", emit_span(cx, out, c.ub, env));
        let step = match &c.step {
            StepForm::One => "1".to_string(),
            StepForm::MinusOne => "-1".to_string(),
            StepForm::Plus(s) => format!("(long long)({})", emit_span(cx, out, *s, env)),
            StepForm::Minus(s) => format!("-(long long)({})", emit_span(cx, out, *s, env)),
        };
        let trip_section = match c.test {
            BinaryOperator::Less => "trip_lt",
            BinaryOperator::LessOrEqual => "trip_le",
            BinaryOperator::Greater => "trip_gt",
            BinaryOperator::GreaterOrEqual => "trip_ge",
            _ => "trip_ne",
        };
        let trip = one(render(WORKSHARING, trip_section, &[("j", &j_text)]))?;
        levels.push_str(&one(render(
            WORKSHARING,
            "level",
            &[
                ("var", name),
                ("j", &j_text),
                ("lb", &lb),
                ("ub", &ub),
                ("step", &step),
                ("trip_count", trip.trim_end()),
            ],
        ))?);
        product.push(format!("__cape_n{j}"));
        if loops.len() > 1 {
            // index j at the chunk's start: (lo / (n_{j+1} * ... * n_last)) % n_j; then each
            // iteration steps the innermost index and carries into the next one out
            let mut rest = "__cape_lo".to_string();
            for inner in j + 1..loops.len() {
                rest = format!("{rest} / __cape_n{inner}");
            }
            if j + 1 < loops.len() {
                rest = format!("({rest})");
            }
            let (start, next) = if j == 0 {
                ("collapsed_start_outer", "collapsed_next_outer")
            } else {
                levels.push_str(&one(render(
                    WORKSHARING,
                    "collapsed_digit",
                    &[("j", &j_text)],
                ))?);
                ("collapsed_start_inner", "collapsed_next_inner")
            };
            collapsed_starts.push_str(
                one(render(
                    WORKSHARING,
                    start,
                    &[("var", name), ("j", &j_text), ("rest", &rest)],
                ))?
                .trim_end(),
            );
            let mut values = vec![("var", name), ("j", j_text.as_str())];
            if j > 0 {
                values.push(("outer", collapsed_next.as_str()));
            }
            collapsed_next = one(render(WORKSHARING, next, &values))?
                .trim_end()
                .to_string();
        }
        if data.items.iter().any(|(v, s, _)| {
            *v == c.var && matches!(s, Sharing::Lastprivate | Sharing::FirstLastprivate)
        }) {
            last_vars.push_str(&one(render(
                WORKSHARING,
                "last_var",
                &[("var", name), ("j", &j_text)],
            ))?);
        }
    }
    indices.push_str(&linear_iteration);
    let body_span = super::statement_span(cx, body_node.span);
    let mut body = cx.marker_before(body_span.start);
    if !cx.line_markers {
        body.push_str("            ");
    }
    let text = super::invariant_loads::emit_body(cx, out, body_node, body_span, &privatised.env);
    body.push_str(&super::reindent(cx, &text, body_span.start, 12));
    let last = last_block(&last_vars, &privatised.lastprivate_out)?;
    let chunk = match clauses.chunk {
        Some(c) if super::clause_values::non_positive(cx.text(c)) => "1".to_string(),
        Some(c) => format!("(long long)({})", super::clause_expr(cx, d, c, env)),
        None => "0".to_string(),
    };
    // One loop: the user's variable steps in its own type beside the counter that ends the
    // chunk, so the backend sees the same induction variable as in the sequential loop
    // (recomputed from the 64-bit counter, an `int` is a truncation the vectoriser and the
    // address analysis cannot follow). The counter, not the user's test, ends the chunk: the
    // user's variable may wrap (a small unsigned type) where the trip count does not.
    // Collapsed loops: the user's variables are computed from the chunk's first iteration
    // once, then stepped like an odometer (the innermost by its step; at the end of its range
    // it restarts and the next one out steps), as gcc does, instead of a division and a
    // remainder per variable at every iteration (real `div` instructions when the bounds are
    // known at run time only). A chunk is never empty, so no trip count is 0 there.
    let chunk_loop = match loops.as_slice() {
        [(c, _)] => one(render(
            WORKSHARING,
            "chunk_user_variable",
            &[("var", cx.program.vars[c.var].name.as_str())],
        ))?,
        _ => one(render(
            WORKSHARING,
            "chunk_collapsed",
            &[("starts", &collapsed_starts), ("next", &collapsed_next)],
        ))?,
    };
    // `schedule(static)` without a chunk size gives each thread at most one block: the
    // backend then sees straight-line code around one loop (an `ordered` loop is run by one
    // thread, block after block).
    let one_block =
        clauses.schedule == "CAPE_SCHED_STATIC" && clauses.chunk.is_none() && !clauses.ordered;
    one(render(
        WORKSHARING,
        "for",
        &[
            ("construct", construct),
            ("location", &location),
            ("originals", &privatised.originals),
            ("loop_vars", &loop_var_decls),
            ("levels", &levels),
            ("product", &product.join(" * ")),
            ("privates", &privatised.privates),
            (
                "init",
                if clauses.ordered {
                    "__cape_loop_init_ordered"
                } else {
                    "__cape_loop_init"
                },
            ),
            ("schedule", clauses.schedule),
            ("chunk", &chunk),
            ("chunks", if one_block { "if" } else { "while" }),
            ("chunk_loop", &chunk_loop),
            ("indices", &indices),
            ("body", &body),
            ("last", &last),
            ("reductions", &privatised.reductions),
            ("nowait", if clauses.nowait { "1" } else { "0" }),
        ],
    ))
}

fn step_span(s: &StepForm) -> Option<Span> {
    match s {
        StepForm::Plus(s) | StepForm::Minus(s) => Some(*s),
        _ => None,
    }
}

/// The loop directly inside `s` (`for (...) for (...)` or `for (...) { for (...) }`).
pub fn perfectly_nested(s: &Node<Statement>) -> &Node<Statement> {
    if let Statement::Compound(items) = &s.node {
        if let [one] = items.as_slice() {
            if let BlockItem::Statement(inner) = &one.node {
                return perfectly_nested(inner);
            }
        }
    }
    s
}

fn last_block(last_vars: &str, lastprivate_out: &str) -> Result<String, Vec<Diagnostic>> {
    if last_vars.is_empty() && lastprivate_out.is_empty() {
        return Ok(String::new());
    }
    one(render(
        WORKSHARING,
        "last_block",
        &[
            ("last_vars", last_vars),
            ("lastprivate_out", lastprivate_out),
        ],
    ))
}

/// `#pragma omp sections`: section i is iteration i of a static loop with chunk 1.
pub fn lower_sections(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
    filter: &ClauseFilter,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let Statement::Compound(items) = &stmt.node else {
        return Err(vec![Diagnostic::error(format!(
            "`#pragma omp {}` must be followed by a block",
            d.kind.name()
        ))
        .with_primary(
            super::statement_span(cx, stmt.span),
            "expected `{ ... }` here",
        )]);
    };
    if items.is_empty() {
        return Err(vec![Diagnostic::error(format!(
            "`#pragma omp {}` must contain at least one section",
            d.kind.name()
        ))
        .with_primary(super::statement_span(cx, stmt.span), "empty block")
        .with_secondary(d.name_span, "this construct")
        .with_note(
            "help: put the statements of the first section in the block, the others after \
             `#pragma omp section`, or remove the directive",
        )]);
    }
    let clauses = loop_clauses(cx, d, filter, &mut errors);
    let data = data_clauses(cx, d, filter, &mut errors);
    // each section: the statements after a `#pragma omp section` (or the block's start)
    let block = super::statement_span(cx, stmt.span);
    let section_pragmas: Vec<&Directive> = cx
        .directives
        .iter()
        .filter(|s| s.kind == DirectiveKind::Section && super::contains(block, s.span))
        .collect();
    // gcc: a `section` directive is followed by the statement of its section
    if let Some(p) = section_pragmas.iter().find(|p| {
        !items
            .iter()
            .any(|item| super::statement_span(cx, item.span).start >= p.span.end)
    }) {
        errors.push(
            Diagnostic::error("`#pragma omp section` must be followed by a statement")
                .with_primary(p.name_span, "nothing follows before the end of the block")
                .with_note("help: remove it, or put the statements of the section after it"),
        );
    }
    let mut bodies: Vec<Span> = Vec::new();
    let mut previous_end = block.start;
    for item in items {
        let mut span = super::statement_span(cx, item.span);
        let starts_section = section_pragmas
            .iter()
            .any(|p| previous_end <= p.span.start && p.span.end <= span.start);
        // a directive on the statement (`ordered`, `barrier`, ...) belongs to the section: it
        // is lowered (or refused) with it, never dropped
        if let Some(stacked) = cx
            .directives
            .iter()
            .filter(|o| o.kind != DirectiveKind::Section)
            .find(|o| previous_end < o.span.start && o.span.end <= span.start)
        {
            span.start = stacked.span.start;
        }
        match bodies.last_mut() {
            Some(last) if !starts_section => last.end = span.end,
            _ => bodies.push(span),
        }
        previous_end = span.end;
    }
    if let Some(first) = items.first() {
        if section_pragmas.is_empty() && matches!(first.node, BlockItem::Declaration(_)) {
            errors.push(
                Diagnostic::error("a `sections` block holds statements, not declarations")
                    .with_primary(span_of(first.span), "declaration here"),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let privatised = privatise(cx, out, d, &data, env, &[])?;
    let mut cases = String::new();
    for (i, span) in bodies.iter().enumerate() {
        let mut body = cx.marker_before(span.start);
        if !cx.line_markers {
            body.push_str("                ");
        }
        body.push('{');
        let text = emit_span(cx, out, *span, &privatised.env);
        body.push_str(&super::reindent(cx, &text, span.start, 16));
        body.push('}');
        cases.push_str(&one(render(
            WORKSHARING,
            "section_case",
            &[("index", &i.to_string()), ("body", &body)],
        ))?);
    }
    let last = last_block("", &privatised.lastprivate_out)?;
    one(render(
        WORKSHARING,
        "sections",
        &[
            ("construct", d.kind.name()),
            ("location", &cx.location(d.span.start)),
            ("originals", &privatised.originals),
            ("privates", &privatised.privates),
            ("count", &format!("{}ULL", bodies.len())),
            ("cases", &cases),
            ("last", &last),
            ("reductions", &privatised.reductions),
            ("nowait", if clauses.nowait { "1" } else { "0" }),
        ],
    ))
}
