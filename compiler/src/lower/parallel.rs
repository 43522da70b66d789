//! `parallel`, `parallel for`, `parallel sections`, `parallel master`, `parallel masked`: the
//! statement becomes an outlined function that every thread of the team runs; shared locals
//! travel by pointer in a data struct (DESIGN.md 2). The worksharing part of a combined
//! construct, or its `master`/`masked` block, is lowered in place inside it.

use std::collections::HashMap;

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::common::{canonical_form, pointer_declaration, Captured};
use super::data_sharing::{
    combine_function, is_threadprivate, parallel_part, reduction_identity, region_clauses,
    RegionClauses, Sharing,
};
use super::one;
use super::read_only::is_read_only_scalar;
use super::write_scope::{write_scope, Object, RegionView, Scope};
use super::{contains, emit_span, span_of, spelled, uses_in, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind};
use crate::resolve::{Binding, Step, Storage, VarId};
use crate::template::{render, CONSTRUCTS, PARALLEL};

/// `parallel` and the combined constructs: clause collection, capture set, rendering.
pub fn lower(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let pragma = d.span;
    let Some(function) = cx.program.function_at(pragma.start) else {
        return Err(vec![Diagnostic::error(format!(
            "`#pragma omp {}` outside a function",
            d.kind.name()
        ))
        .with_primary(d.name_span, "not inside a function body")]);
    };
    let stmt_span = super::body_span(cx, d, stmt);

    errors.extend(super::wait_loop::volatile_spins(cx, stmt_span));
    let mut clauses = region_clauses(cx, d, function, env, &mut errors);
    if d.kind.is_target() {
        // a target region's own copies of the scalars it writes: one per thread here
        for v in super::device::implicit_firstprivates(cx, d, stmt, stmt_span) {
            clauses
                .sharing
                .entry(v)
                .or_insert((Sharing::Firstprivate, d.name_span));
        }
    }
    let (predetermined, loop_var) =
        predetermined_private(cx, d, stmt, &clauses.sharing, &mut errors);
    let (wanted, captured) = capture_set(cx, d, stmt_span, &clauses, &predetermined, &mut errors);
    errors.extend(super::private_address::check(cx, d, stmt));
    if !errors.is_empty() {
        return Err(errors);
    }
    let view = RegionView {
        directive: d,
        stmt,
        span: stmt_span,
        function,
        sharing: &clauses.sharing,
        loop_var,
        has_copyin: !clauses.copyin.is_empty(),
    };
    let refused = super::private_heap::check(cx, &view);
    if !refused.is_empty() {
        return Err(refused);
    }
    let scope = write_scope(cx, &view);
    let region = Region {
        d,
        stmt,
        function,
        span: stmt_span,
        clauses,
        wanted,
        captured,
        scope,
    };
    render_region(cx, out, &region, env)
}

/// The variables the region makes private without a clause: the loop variable of a combined
/// `parallel for` and those of the worksharing loops inside (collapsed ones included); and
/// the first one alone (private in the whole region).
fn predetermined_private(
    cx: &Context,
    d: &Directive,
    stmt: &Node<Statement>,
    sharing: &HashMap<VarId, (Sharing, Span)>,
    errors: &mut Vec<Diagnostic>,
) -> (Vec<VarId>, Option<VarId>) {
    let pragma = d.span;
    // the loop variable of a combined `parallel for` is predetermined private
    let mut loop_var = None;
    if d.kind.is_loop() {
        if let Statement::For(f) = &stmt.node {
            if let Ok(c) = canonical_form(cx, f, pragma, d.kind.name()) {
                loop_var = Some(c.var);
                if let Some((Sharing::Shared, at)) = sharing.get(&c.var) {
                    let listed_shared = d.clauses.iter().any(|cl| {
                        cl.kind == ClauseKind::Shared
                            && matches!(&cl.args, ClauseArgs::List(l) if l.iter().any(|i| i.name_span == *at))
                    }) || d.clauses.iter().any(|cl| cl.kind == ClauseKind::Reduction
                        && matches!(&cl.args, ClauseArgs::Reduction { items, .. } if items.iter().any(|i| i.name_span == *at)));
                    if listed_shared {
                        errors.push(
                            Diagnostic::error(format!(
                                "the loop variable `{}` cannot be shared or a reduction variable",
                                cx.program.vars[c.var].name
                            ))
                            .with_primary(*at, "the loop variable is private"),
                        );
                    }
                }
            }
        }
    }

    // the loop variables of the worksharing loops inside
    let mut predetermined: Vec<VarId> = loop_var.into_iter().collect();
    let inside = cx.constructs().inside(cx, d);
    for inner in inside.iter().filter(|i| {
        matches!(
            i.kind,
            DirectiveKind::For | DirectiveKind::ForSimd | DirectiveKind::Loop
        )
    }) {
        let depth = inner
            .clauses
            .iter()
            .find_map(|c| match (&c.kind, &c.args) {
                (ClauseKind::Collapse, ClauseArgs::Expr { expr, .. }) => {
                    cx.text(*expr).trim().parse::<usize>().ok()
                }
                _ => None,
            })
            .unwrap_or(1);
        let mut current = cx.constructs().statement(cx, inner).ok();
        for _ in 0..depth {
            let Some(Statement::For(f)) = current.map(|s| &s.node) else {
                break;
            };
            if let Ok(c) = canonical_form(cx, f, inner.span, inner.kind.name()) {
                predetermined.push(c.var);
            }
            current = Some(super::worksharing::perfectly_nested(&f.node.statement));
        }
    }

    (predetermined, loop_var)
}

/// The variables the outlined function reaches through pointers (locals of the enclosing
/// function it uses, variables whose clause needs an address, VLA sizes of their types), in
/// declaration order, with their field names; `default(none)` is checked on the way.
fn capture_set(
    cx: &Context,
    d: &Directive,
    stmt_span: Span,
    clauses: &RegionClauses,
    predetermined: &[VarId],
    errors: &mut Vec<Diagnostic>,
) -> (Vec<VarId>, Vec<Captured>) {
    let pragma = d.span;
    let combined = d.kind.is_combined_parallel();
    let inside = cx.constructs().inside(cx, d);
    let RegionClauses {
        sharing,
        default_none,
        wanted_by_clause,
        ..
    } = clauses;
    // Which variables the region uses.
    let is_outer_local = |v: VarId| {
        let var = &cx.program.vars[v];
        var.storage != Storage::Global && !contains(stmt_span, var.ident_span)
    };
    let mut wanted: Vec<VarId> = Vec::new();
    let mut reported: Vec<VarId> = Vec::new();
    // the worksharing part's clause expressions (a schedule's chunk, a `masked` filter) are
    // evaluated inside,
    let clause_uses = d
        .clauses
        .iter()
        .filter(|c| (combined && !parallel_part(c.kind)) || c.kind == ClauseKind::Filter)
        .flat_map(|c| super::clause_vars(cx, d, c.span))
        .chain(
            // and so are the clauses of the directives inside the region
            inside.iter().flat_map(|inner| {
                inner
                    .clauses
                    .iter()
                    .flat_map(move |c| super::clause_vars(cx, inner, c.span))
            }),
        )
        .filter(|(_, v)| is_outer_local(*v))
        .collect::<Vec<_>>();
    for &v in wanted_by_clause {
        if !wanted.contains(&v) {
            wanted.push(v);
        }
    }
    for &(_, v) in &clause_uses {
        if !wanted.contains(&v) {
            wanted.push(v);
        }
    }
    // `default(none)` as gcc applies it: every variable the region refers to must be listed
    // (`const` ones too), also where only a clause refers to it: the worksharing part's of a
    // combined construct, a `filter`, and the clauses of the constructs inside (not the
    // expressions the `parallel` itself evaluates before the region, `num_threads` and `if`).
    // A use inside an inner construct that lists the variable `private` is of that copy.
    let privatized: Vec<(Span, VarId)> = if default_none.is_some() {
        inside
            .iter()
            .flat_map(|inner| {
                let at = cx
                    .constructs()
                    .statement(cx, inner)
                    .ok()
                    .map(|s| span_of(s.span));
                inner
                    .clauses
                    .iter()
                    .filter(|c| c.kind == ClauseKind::Private)
                    .flat_map(move |c| super::clause_vars(cx, inner, c.span))
                    .filter_map(move |(_, v)| at.map(|at| (at, v)))
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut check_listed = |v: VarId, used: Span, errors: &mut Vec<Diagnostic>| {
        let Some(span) = *default_none else { return };
        let var = &cx.program.vars[v];
        let exempt = predetermined.contains(&v)
            || is_threadprivate(cx, v)
            || contains(stmt_span, var.ident_span)
            || cx.lines.is_system(var.ident_span.start)
            || sharing.contains_key(&v)
            || privatized
                .iter()
                .any(|&(at, p)| p == v && contains(at, used));
        if !exempt && !reported.contains(&v) {
            reported.push(v);
            errors.push(
                Diagnostic::error(format!(
                    "`{}` is not listed in a data-sharing clause",
                    var.name
                ))
                .with_primary(used, "used here")
                .with_secondary(span, "`default(none)` requires every variable to be listed"),
            );
        }
    };
    for u in uses_in(cx, stmt_span) {
        let Binding::Var(v) = u.binding else { continue };
        if is_outer_local(v) && !wanted.contains(&v) {
            wanted.push(v);
        }
        check_listed(v, u.span, errors);
    }
    if default_none.is_some() {
        // (gcc takes an array section's bounds in the reduction of a combined construct as
        // the parallel's own)
        let own = d
            .clauses
            .iter()
            .filter(|c| {
                (combined && !parallel_part(c.kind) && c.kind != ClauseKind::Reduction)
                    || c.kind == ClauseKind::Filter
            })
            .flat_map(|c| super::clause_vars(cx, d, c.span));
        let of_inner = inside.iter().flat_map(|inner| {
            inner
                .clauses
                .iter()
                .filter(|c| c.kind != ClauseKind::Private)
                .flat_map(move |c| super::clause_vars(cx, inner, c.span))
        });
        for (used, v) in own.chain(of_inner) {
            check_listed(v, used, errors);
        }
    }
    for (&v, (s, _)) in sharing {
        let var = &cx.program.vars[v];
        let needs_address = !matches!(s, Sharing::Private | Sharing::Shared);
        if (var.storage != Storage::Global || needs_address)
            && !wanted.contains(&v)
            && !contains(stmt_span, var.ident_span)
        {
            wanted.push(v);
        }
    }
    // VLA sizes of captured types need their variables too.
    let mut i = 0;
    while let Some(&v) = wanted.get(i) {
        for u in &cx.program.vars[v].type_uses {
            if let Binding::Var(dep) = u.binding {
                if is_outer_local(dep) && !wanted.contains(&dep) {
                    wanted.push(dep);
                }
            }
        }
        i += 1;
    }
    wanted.sort_by_key(|&v| cx.program.vars[v].ident_span.start);

    let mut captured: Vec<Captured> = Vec::new();
    let mut used_fields: HashMap<String, usize> = HashMap::new();
    for &v in &wanted {
        let var = &cx.program.vars[v];
        if let Some(at) = var.local_type {
            if var.storage != Storage::Global {
                errors.push(
                    Diagnostic::error(format!(
                        "the type of `{}` cannot be named outside its function",
                        var.name
                    ))
                    .with_primary(at, "this type is declared inside the function")
                    .with_secondary(pragma, "the outlined region needs the type here")
                    .with_note("move the type's declaration to file scope"),
                );
            }
        }
        let count = used_fields.entry(var.name.clone()).or_insert(0);
        *count += 1;
        let field = if *count == 1 {
            var.name.clone()
        } else {
            format!("{}_{}", var.name, count)
        };
        captured.push(Captured {
            var: v,
            pointer: format!("__cape_shared_{field}"),
            field,
        });
    }
    (wanted, captured)
}

/// A parallel region after its analysis: what [`render_region`] turns into C.
struct Region<'r> {
    d: &'r Directive,
    stmt: &'r Node<Statement>,
    function: usize,
    /// the region's code (stacked directives included)
    span: Span,
    clauses: RegionClauses,
    wanted: Vec<VarId>,
    captured: Vec<Captured>,
    scope: Scope,
}

/// The data struct, the outlined function (before/after the user function) and the call.
fn render_region(
    cx: &Context,
    out: &mut Out,
    region: &Region,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let Region {
        d,
        stmt,
        function,
        span: stmt_span,
        clauses,
        wanted,
        captured,
        scope,
    } = region;
    let (d, stmt, function, stmt_span) = (*d, *stmt, *function, *stmt_span);
    let RegionClauses {
        sharing,
        num_threads,
        if_clause,
        copyin,
        ..
    } = clauses;
    let pragma = d.span;
    let pointer_of: HashMap<VarId, &Captured> = captured.iter().map(|c| (c.var, c)).collect();

    // The environment inside the outlined function: shared variables through their pointers,
    // except the scalars the region only reads, copied into locals once.
    let in_clauses: Vec<VarId> = std::iter::once(d)
        .chain(cx.constructs().inside(cx, d))
        .flat_map(|dir| dir.clauses.iter().map(move |c| (dir, c)))
        .filter(|(_, c)| c.kind != ClauseKind::Shared)
        .flat_map(|(dir, c)| super::clause_vars(cx, dir, c.span))
        .map(|(_, v)| v)
        .collect();
    let mut inner_env: Env = Env::new();
    let mut read_only_values: HashMap<VarId, String> = HashMap::new();
    for c in captured {
        let shared = matches!(
            sharing.get(&c.var).map(|s| s.0),
            None | Some(Sharing::Shared)
        );
        if !shared {
            continue;
        }
        if is_read_only_scalar(cx, c.var, function, stmt, stmt_span, &in_clauses) {
            let value = format!("__cape_value_{}", c.field);
            inner_env.insert(c.var, value.clone());
            read_only_values.insert(c.var, value);
        } else {
            inner_env.insert(c.var, format!("(*{})", c.pointer));
        }
    }

    let location = cx.location(pragma.start);
    let id_text = out.fresh_id().to_string();
    let construct = d.kind.name();

    let mut fields = String::new();
    let mut field_inits = String::new();
    let mut pointer_decls: Vec<String> = Vec::new();
    for c in captured {
        let var = &cx.program.vars[c.var];
        fields.push_str(&one(render(PARALLEL, "field", &[("field", &c.field)]))?);
        let expr = spelled(cx, env, c.var);
        field_inits.push_str(&one(render(
            PARALLEL,
            "field_init",
            &[("field", &c.field), ("expr", &expr)],
        ))?);
        let pointer = one(pointer_declaration(cx, var, &c.pointer, &pointer_of))?;
        // a threadprivate static local: this thread's copy, named by its assembler name
        let tls_local = var.storage == crate::resolve::Storage::Static
            && super::data_sharing::is_threadprivate(cx, c.var);
        let mut decl = if tls_local {
            let symbol = super::thread_local::local_symbol(c.var);
            one(render(
                PARALLEL,
                "threadprivate_pointer",
                &[
                    ("pointer", &pointer),
                    ("field", &c.field),
                    ("symbol", &symbol),
                ],
            ))?
        } else {
            one(render(
                PARALLEL,
                "shared_pointer",
                &[("pointer", &pointer), ("field", &c.field)],
            ))?
        };
        if let Some(value) = read_only_values.get(&c.var) {
            decl.push_str(&one(render(
                PARALLEL,
                "read_only_value",
                &[("pointer", &c.pointer), ("value", value)],
            ))?);
        }
        pointer_decls.push(decl);
    }
    if captured.is_empty() {
        fields = one(render(PARALLEL, "no_fields", &[]))?;
        field_inits = one(render(PARALLEL, "no_field_init", &[]))?;
    }

    let mut copyins = String::new();
    for &v in copyin {
        copyins.push_str(&one(render(
            PARALLEL,
            "copyin",
            &[("var", &spelled(cx, &inner_env, v))],
        ))?);
    }

    let mut privates = String::new();
    let mut reductions = String::new();
    let mut ordered: Vec<(&VarId, &(Sharing, Span))> = sharing.iter().collect();
    ordered.sort_by_key(|(v, _)| cx.program.vars[**v].ident_span.start);
    for (&v, (s, _)) in ordered {
        let var = &cx.program.vars[v];
        if contains(stmt_span, var.ident_span) {
            continue;
        }
        let of = match pointer_of.get(&v) {
            Some(c) => format!("*{}", c.pointer),
            None => var.name.clone(),
        };
        let field = pointer_of
            .get(&v)
            .map(|c| c.field.clone())
            .unwrap_or_default();
        let name = var.name.as_str();
        match s {
            Sharing::Shared | Sharing::Lastprivate | Sharing::FirstLastprivate => {}
            Sharing::Private => privates.push_str(&one(render(
                PARALLEL,
                "private",
                &[("of", &of), ("var", name)],
            ))?),
            Sharing::Firstprivate => privates.push_str(&one(render(
                PARALLEL,
                "firstprivate",
                &[("of", &of), ("var", name), ("field", &field)],
            ))?),
            Sharing::Reduction(op) => {
                // sections and user-defined reductions
                if let Some(copies) = super::reduction::copies(cx, out, d, v, &of, &inner_env) {
                    let (init, combine) = copies?;
                    privates.push_str(&init);
                    reductions.push_str(&combine);
                    continue;
                }
                privates.push_str(&one(render(
                    PARALLEL,
                    "reduction_init",
                    &[
                        ("of", &of),
                        ("var", name),
                        ("identity", &reduction_identity(out, *op, name)),
                    ],
                ))?);
                let combine = one(combine_function(cx, out, d, v, *op))?;
                reductions.push_str(&one(render(
                    PARALLEL,
                    "reduction_out",
                    &[("var", name), ("field", &field), ("combine", &combine)],
                ))?);
            }
        }
    }

    // The body: the statement (or the worksharing part) in the outlined function's terms.
    let emit_c_pad = if cx.line_markers { "" } else { "    " };
    let mut body = String::new();
    match d.kind {
        kind if kind.is_loop() => {
            body.push_str("    ");
            let part = super::worksharing::lower_for(cx, out, d, stmt, &inner_env, &|k| {
                !parallel_part(k)
            })?;
            body.push_str(&super::indent_lines(&part, emit_c_pad));
        }
        DirectiveKind::ParallelSections => {
            body.push_str("    ");
            let part = super::worksharing::lower_sections(cx, out, d, stmt, &inner_env, &|k| {
                !parallel_part(k)
            })?;
            body.push_str(&super::indent_lines(&part, emit_c_pad));
        }
        DirectiveKind::ParallelMaster | DirectiveKind::ParallelMasked => {
            // exactly `parallel` with the statement as a `master`/`masked` block inside
            body.push_str("    ");
            let part = super::single::lower_master(cx, out, d, stmt, &inner_env)?;
            body.push_str(&super::indent_lines(&part, emit_c_pad));
        }
        _ => {
            body.push_str(&cx.marker_before(stmt_span.start));
            if !cx.line_markers {
                body.push_str("    ");
            }
            let text = emit_span(cx, out, stmt_span, &inner_env);
            body.push_str(&super::reindent(cx, &text, stmt.span.start, 4));
        }
    }

    // `(void)` lines only for what nothing uses, so that -Wunused stays quiet
    let generated = [
        function_name(cx, function, stmt_span)?,
        local_enums(cx, stmt_span, wanted) + &local_functions(cx, stmt_span),
        pointer_decls.concat(),
        copyins,
        privates,
        body,
        reductions,
    ];
    let mut shared_pointers = String::new();
    for (c, decl) in captured.iter().zip(&pointer_decls) {
        shared_pointers.push_str(decl);
        if generated
            .iter()
            .map(|t| mentions(t, &c.pointer))
            .sum::<usize>()
            < 2
        {
            shared_pointers.push_str(&one(render(
                PARALLEL,
                "unused_pointer",
                &[("name", &c.pointer)],
            ))?);
        }
    }
    let unused_data = if generated.iter().any(|t| mentions(t, "__cape_d") > 0) {
        String::new()
    } else {
        one(render(PARALLEL, "unused_data", &[]))?
    };
    let [function_name, local_enums, _, copyins, privates, body, reductions] = generated;
    let decls = one(render(
        PARALLEL,
        "decls",
        &[
            ("construct", construct),
            ("location", &location),
            ("id", &id_text),
            ("fields", &fields),
        ],
    ))?;
    const BODY: &str = "\u{1}body\u{1}";
    let outlined = one(render(
        PARALLEL,
        "function",
        &[
            ("construct", construct),
            ("location", &location),
            ("id", &id_text),
            ("unused_data", &unused_data),
            ("function_name", &function_name),
            ("local_enums", &local_enums),
            ("shared_pointers", &shared_pointers),
            ("copyins", &copyins),
            ("privates", &privates),
            ("body", BODY),
            ("reductions", &reductions),
        ],
    ))?;
    let outlined = pin_lines(cx, &outlined, d.span.start).replace(BODY, &body);
    let what = format!("{construct} at {location}");
    let objects = one(super::objects::region_table(
        cx, d, &id_text, env, stmt_span, wanted, &what,
    ))?;
    let mut values = vec![
        ("construct", construct),
        ("objects", objects.as_str()),
        ("location", location.as_str()),
        ("id", id_text.as_str()),
        ("field_inits", field_inits.as_str()),
        ("num_threads", num_threads.as_str()),
        ("if_clause", if_clause.as_str()),
    ];
    let (spans, count) = match scope {
        Scope::Known(objects) => (scope_spans(cx, env, objects)?, objects.len().to_string()),
        Scope::Unknown => (String::new(), String::new()),
    };
    let waits = super::cooperative::region_waits(cx, d, stmt_span, cx.waiting_functions());
    let section = match scope {
        _ if waits => "call_cooperative",
        Scope::Unknown => "call",
        Scope::Known(objects) if objects.is_empty() => "call_private_only",
        Scope::Known(_) => {
            values.extend([("spans", spans.as_str()), ("count", count.as_str())]);
            "call_scoped"
        }
    };
    let call = one(render(PARALLEL, section, &values))?;
    out.before.push((function, decls));
    out.after.push((function, outlined));
    Ok(call)
}

/// The entries of a region's write scope, evaluated in the encountering function.
fn scope_spans(cx: &Context, env: &Env, objects: &[Object]) -> Result<String, Vec<Diagnostic>> {
    let mut spans = String::new();
    for object in objects {
        spans.push_str(&one(match *object {
            Object::Variable(v) => {
                let var = spelled(cx, env, v);
                let incomplete = matches!(
                    cx.program.vars[v].shape.steps.first(),
                    Some(Step::Array { sized: false })
                );
                if incomplete {
                    // `extern int a[];`: no size; the runtime takes all globals
                    render(PARALLEL, "span_block", &[("pointer", &format!("&{var}"))])
                } else {
                    render(PARALLEL, "span_variable", &[("var", &var)])
                }
            }
            Object::BlockOf(p) => {
                render(PARALLEL, "span_block", &[("pointer", &spelled(cx, env, p))])
            }
        })?);
    }
    Ok(spans)
}

/// How many times `ident` occurs in `text` as a whole identifier.
pub(super) fn mentions(text: &str, ident: &str) -> usize {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(ident)
        .filter(|&(at, _)| {
            let before = text.get(..at).and_then(|t| t.chars().next_back());
            let after = text.get(at + ident.len()..).and_then(|t| t.chars().next());
            !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
        })
        .count()
}

/// The declaration of `__cape_func` (the user function's name) when the region uses `__func__`.
fn function_name(cx: &Context, function: usize, region: Span) -> Result<String, Vec<Diagnostic>> {
    if !uses_in(cx, region)
        .iter()
        .any(super::names_enclosing_function)
    {
        return Ok(String::new());
    }
    let name = cx
        .program
        .functions
        .get(function)
        .map_or("", |f| f.name.as_str());
    one(render(CONSTRUCTS, "function_name", &[("name", name)]))
}

/// The `enum` declarations of the enclosing function whose constants the region (or the type of
/// a captured variable: `int a[N]`) uses, repeated
/// at the top of the outlined function (it is at file scope, where they are not visible; an
/// enumeration constant is a plain integer constant, so a second declaration is equivalent).
fn local_enums(cx: &Context, region: Span, captured: &[VarId]) -> String {
    let mut specs: Vec<Span> = Vec::new();
    let in_types = captured
        .iter()
        .flat_map(|&v| cx.program.vars[v].type_uses.iter());
    for u in super::uses_in(cx, region).iter().chain(in_types) {
        if let Binding::LocalConstant(at) = u.binding {
            if !contains(region, at) && !specs.contains(&at) {
                specs.push(at);
            }
        }
    }
    specs.sort_by_key(|s| s.start);
    let mut text = String::new();
    for at in specs {
        text.push_str("    ");
        text.push_str(cx.text(at));
        text.push_str(";\n");
    }
    text
}

/// The block-scope function declarations (`int twice(double);` inside `main`) visible at the
/// region that its code calls or names, repeated at the top of the outlined function: at file
/// scope the function would have no declaration (an implicit `int f()`, or undeclared).
fn local_functions(cx: &Context, region: Span) -> String {
    let mut text = String::new();
    let mut seen: Vec<usize> = Vec::new();
    for u in super::uses_in(cx, region) {
        if !matches!(u.binding, Binding::Other) {
            continue;
        }
        // the innermost declaration of that name in scope at the use
        let declared = cx
            .program
            .local_functions
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.name == u.name && contains(f.scope, u.span) && !contains(region, f.declarator)
            })
            .max_by_key(|(_, f)| f.scope.start);
        let Some((index, f)) = declared else {
            continue;
        };
        if seen.contains(&index) {
            continue;
        }
        seen.push(index);
        text.push_str("    ");
        text.push_str(cx.text(f.specifiers));
        text.push(' ');
        text.push_str(cx.text(f.declarator));
        text.push_str(";\n");
    }
    text
}

/// The generated lines of an outlined function (all but its copied body, which has line
/// markers of its own) each under a line marker of the pragma at `pragma` (builds only): a
/// warning about them points at the region, not at lines past the user's file.
fn pin_lines(cx: &Context, text: &str, pragma: usize) -> String {
    match cx
        .line_markers
        .then(|| cx.lines.marker_text_for(pragma))
        .flatten()
    {
        Some(marker) => super::pin_lines(text, &marker, '\u{1}'),
        None => text.to_string(),
    }
}
