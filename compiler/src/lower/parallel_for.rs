//! `#pragma omp parallel for`: the loop becomes an outlined function over the normalised
//! iteration space [0, n); shared locals travel by pointer in a data struct (DESIGN.md 2).

use std::collections::HashMap;

use lang_c::ast::*;
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::{clause_name, Context};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, DefaultKind, Directive, ReductionOp, ScheduleKind};
use crate::emit::{apply_in, Edit};
use crate::sharing::{Binding, Storage, TypeClass, Use, Var};
use crate::template::{render, PARALLEL_FOR};

/// The edits that replace one region, and the code that goes around its function.
pub struct Lowered {
    pub edits: Vec<Edit>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sharing {
    Shared,
    Private,
    Firstprivate,
    Lastprivate,
    FirstLastprivate,
    Reduction(ReductionOp),
}

struct Captured {
    var: usize,
    field: String,
    /// the typed pointer to the original, `__cape_shared_<field>`
    pointer: String,
}

fn span_of(s: lang_c::span::Span) -> Span {
    Span::new(s.start, s.end)
}

fn non_canonical(at: Span, label: &str, pragma: Span) -> Diagnostic {
    Diagnostic::error("loop is not in OpenMP canonical form")
        .with_primary(at, label)
        .with_secondary(pragma, "the loop of this `#pragma omp parallel for`")
        .with_note(
            "canonical loops look like `for (i = lb; i < ub; i += step)` (OpenMP 4.5 section 2.6)",
        )
}

/// The loop variable and the pieces of the loop header.
struct Canonical {
    var: usize,
    /// the variable is declared in the `for` header
    declared_in_header: bool,
    lb: Span,
    ub: Span,
    test: BinaryOperator,
    /// (text span, negate): the step is `span` or `-(span)`; None means the constant 1 or -1
    step: StepForm,
}

enum StepForm {
    One,
    MinusOne,
    Plus(Span),
    Minus(Span),
}

pub fn lower(
    cx: &Context,
    directive: &Directive,
    stmt: &Node<Statement>,
    id: usize,
) -> Result<Lowered, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let pragma = directive.span;
    let Statement::For(for_stmt) = &stmt.node else {
        return Err(vec![Diagnostic::error(format!(
            "`#pragma omp {}` must be followed by a `for` loop",
            directive.kind.name()
        ))
        .with_primary(span_of(stmt.span), "expected a `for` loop here")
        .with_secondary(pragma, "this directive needs a loop")]);
    };
    let function = cx.program.function_at(pragma.start);
    let Some(function) = function else {
        return Err(vec![Diagnostic::error(
            "`#pragma omp parallel for` outside a function",
        )
        .with_primary(directive.name_span, "not inside a function body")]);
    };
    let func = cx.program.functions.get(function).ok_or_else(Vec::new)?;
    let stmt_span = span_of(stmt.span);

    // Clauses.
    let mut sharing: HashMap<usize, (Sharing, Span)> = HashMap::new();
    let mut default_none: Option<Span> = None;
    let mut chunk = "0".to_string();
    let mut num_threads = "0".to_string();
    let mut if_clause = "1".to_string();
    for clause in &directive.clauses {
        let name = clause_name(cx.source, clause);
        match (&clause.kind, &clause.args) {
            (ClauseKind::Default, ClauseArgs::Default(kind)) => {
                if *kind == DefaultKind::None {
                    default_none = Some(clause.span);
                }
            }
            (ClauseKind::If, ClauseArgs::Expr { expr, .. }) => if_clause = format!("!!({})", cx.text(*expr)),
            (ClauseKind::NumThreads, ClauseArgs::Expr { expr, .. }) => {
                num_threads = format!("(int)({})", cx.text(*expr))
            }
            (ClauseKind::Schedule, ClauseArgs::Schedule { kind, chunk: c, .. }) => {
                if *kind != ScheduleKind::Static {
                    let kind_name = match kind {
                        ScheduleKind::Dynamic => "dynamic",
                        ScheduleKind::Guided => "guided",
                        ScheduleKind::Runtime => "runtime",
                        ScheduleKind::Auto => "auto",
                        ScheduleKind::Static => "static",
                    };
                    errors.push(
                        Diagnostic::error(format!("`schedule({kind_name})` is not supported yet"))
                            .with_primary(clause.span, "unsupported schedule")
                            .with_note("capecc supports `schedule(static)` and `schedule(static, chunk)`"),
                    );
                }
                if let Some(c) = c {
                    chunk = format!("(long long)({})", cx.text(*c));
                }
            }
            (
                ClauseKind::Private | ClauseKind::Firstprivate | ClauseKind::Lastprivate | ClauseKind::Shared,
                ClauseArgs::List(items),
            ) => {
                for item in items {
                    let Some(v) = resolve_item(cx, &item.name, item.name_span, pragma, function, &mut errors) else {
                        continue;
                    };
                    let new = match clause.kind {
                        ClauseKind::Private => Sharing::Private,
                        ClauseKind::Firstprivate => Sharing::Firstprivate,
                        ClauseKind::Lastprivate => Sharing::Lastprivate,
                        _ => Sharing::Shared,
                    };
                    let var = &cx.program.vars[v];
                    if var.is_const && matches!(new, Sharing::Private | Sharing::Lastprivate) {
                        errors.push(
                            Diagnostic::error(format!("const-qualified variable `{}` cannot be `{name}`", var.name))
                                .with_primary(item.name_span, "declared `const`")
                                .with_secondary(var.ident_span, "declared here"),
                        );
                    }
                    let merged = match (sharing.get(&v).map(|s| s.0), new) {
                        (Some(Sharing::Firstprivate), Sharing::Lastprivate)
                        | (Some(Sharing::Lastprivate), Sharing::Firstprivate) => Sharing::FirstLastprivate,
                        _ => new,
                    };
                    sharing.insert(v, (merged, item.name_span));
                }
            }
            (ClauseKind::Reduction, ClauseArgs::Reduction { op, op_span, items }) => {
                if *op == ReductionOp::Custom {
                    errors.push(
                        Diagnostic::error("user-defined reductions are not supported yet")
                            .with_primary(*op_span, "not a built-in reduction operator"),
                    );
                    continue;
                }
                for item in items {
                    let Some(v) = resolve_item(cx, &item.name, item.name_span, pragma, function, &mut errors) else {
                        continue;
                    };
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
                            Diagnostic::error(format!("reduction variable `{}` must have an arithmetic type", var.name))
                                .with_primary(item.span, format!("`{}` is {what}", var.name))
                                .with_secondary(var.ident_span, "declared here"),
                        );
                        continue;
                    }
                    let bitwise = matches!(op, ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor);
                    if bitwise && matches!(var.class, TypeClass::Floating | TypeClass::OtherArithmetic) {
                        errors.push(
                            Diagnostic::error(format!("bitwise reduction on `{}` needs an integer type", var.name))
                                .with_primary(item.span, "floating-point variable"),
                        );
                    }
                    if matches!(op, ReductionOp::Max | ReductionOp::Min) && var.class == TypeClass::OtherArithmetic {
                        errors.push(
                            Diagnostic::error(format!("`max`/`min` reduction on `{}` needs a real type", var.name))
                                .with_primary(item.span, "complex variable"),
                        );
                    }
                    if var.is_const {
                        errors.push(
                            Diagnostic::error(format!("const-qualified variable `{}` cannot be a reduction variable", var.name))
                                .with_primary(item.name_span, "declared `const`"),
                        );
                    }
                    sharing.insert(v, (Sharing::Reduction(*op), item.name_span));
                }
            }
            _ => errors.push(
                Diagnostic::error(format!("clause `{name}` is not supported yet"))
                    .with_primary(clause.span, "not supported by capecc yet")
                    .with_note(
                        "`#pragma omp parallel for` supports private, firstprivate, lastprivate, shared, default, \
                         reduction, schedule(static), if and num_threads",
                    ),
            ),
        }
    }

    // The loop header.
    let canonical = match canonical_form(cx, for_stmt, pragma) {
        Ok(c) => c,
        Err(e) => {
            errors.push(e);
            return Err(errors);
        }
    };
    let loop_var = &cx.program.vars[canonical.var];
    if !matches!(loop_var.class, TypeClass::Integer | TypeClass::Unknown) {
        errors.push(
            non_canonical(
                loop_var.ident_span,
                "the loop variable must have an integer type",
                pragma,
            )
            .with_secondary(
                span_of(for_stmt.node.initializer.span),
                "loop variable set here",
            ),
        );
    }
    if let Some(m) = modification_of(cx, &for_stmt.node.statement, canonical.var) {
        errors.push(
            Diagnostic::error(format!("the loop variable `{}` is modified in the loop body", loop_var.name))
                .with_primary(m, "modified here")
                .with_secondary(pragma, "the loop of this `#pragma omp parallel for`")
                .with_note("OpenMP computes the iterations in advance: the body must not change the loop variable"),
        );
    }
    match sharing.get(&canonical.var).map(|s| s.0) {
        Some(Sharing::Shared) | Some(Sharing::Reduction(_)) => {
            if let Some((_, at)) = sharing.get(&canonical.var) {
                errors.push(
                    Diagnostic::error(format!(
                        "the loop variable `{}` cannot be shared or a reduction variable",
                        loop_var.name
                    ))
                    .with_primary(*at, "the loop variable is private"),
                );
            }
        }
        Some(_) => {}
        None => {
            sharing.insert(canonical.var, (Sharing::Private, loop_var.ident_span));
        }
    }

    // Which variables the region uses, and how.
    let uses = uses_in(cx, stmt_span);
    let is_outer_local = |v: usize| {
        let var = &cx.program.vars[v];
        var.storage != Storage::Global && !contains(stmt_span, var.ident_span)
    };
    let mut wanted: Vec<usize> = Vec::new();
    for u in uses {
        if let Binding::Var(v) = u.binding {
            if is_outer_local(v) && !wanted.contains(&v) {
                wanted.push(v);
            }
            if let Some(span) = default_none {
                let var = &cx.program.vars[v];
                let listed = sharing.contains_key(&v);
                let exempt = v == canonical.var
                    || contains(stmt_span, var.ident_span)
                    || cx.lines.is_system(var.ident_span.start)
                    || var.is_const;
                if !listed
                    && !exempt
                    && !errors
                        .iter()
                        .any(|e: &Diagnostic| e.primary.as_ref().is_some_and(|p| p.0 == u.span))
                {
                    let first_use = !uses_in(cx, stmt_span)
                        .iter()
                        .any(|o| o.binding == u.binding && o.span.start < u.span.start);
                    if first_use {
                        errors.push(
                            Diagnostic::error(format!(
                                "`{}` is not listed in a data-sharing clause",
                                var.name
                            ))
                            .with_primary(u.span, "used here")
                            .with_secondary(
                                span,
                                "`default(none)` requires every variable to be listed",
                            ),
                        );
                    }
                }
            }
        }
    }
    for (&v, (s, _)) in &sharing {
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
    if !errors.is_empty() {
        return Err(errors);
    }
    let pointer_of: HashMap<usize, &Captured> = captured.iter().map(|c| (c.var, c)).collect();

    // Expression text with every outer local read through its shared pointer.
    let shared_text = |span: Span| -> Result<String, Diagnostic> {
        let mut edits: Vec<Edit> = cx
            .base_edits
            .iter()
            .filter(|e| contains(span, e.span))
            .cloned()
            .collect();
        for u in uses_in(cx, span) {
            if let Binding::Var(v) = u.binding {
                if let Some(c) = pointer_of.get(&v) {
                    edits.retain(|e| !overlaps(e.span, u.span));
                    edits.push(Edit::replace(u.span, format!("(*{})", c.pointer)));
                }
            }
        }
        apply_in(cx.source, span, &edits)
    };
    let one = |e: Result<String, Diagnostic>| e.map_err(|d| vec![d]);

    let location = cx.location(pragma.start);
    let id_text = id.to_string();
    let var_name = loop_var.name.clone();

    // Shared pointers and struct fields.
    let mut fields = String::new();
    let mut field_inits = String::new();
    let mut shared_pointers = String::new();
    for c in &captured {
        let var = &cx.program.vars[c.var];
        fields.push_str(&one(render(PARALLEL_FOR, "field", &[("field", &c.field)]))?);
        field_inits.push_str(&one(render(
            PARALLEL_FOR,
            "field_init",
            &[("field", &c.field), ("expr", &var.name)],
        ))?);
        let pointer = one(pointer_declaration(cx, var, &c.pointer, &pointer_of))?;
        shared_pointers.push_str(&one(render(
            PARALLEL_FOR,
            "shared_pointer",
            &[("pointer", &pointer), ("field", &c.field)],
        ))?);
    }

    // The loop variable's declaration in the outlined function.
    let loop_var_decl = if canonical.declared_in_header {
        let mut text = String::new();
        for s in &loop_var.type_specifiers {
            text.push_str(cx.text(*s));
            text.push(' ');
        }
        text.push_str(cx.text(loop_var.declarator).trim_end());
        one(render(
            PARALLEL_FOR,
            "loop_var_declared",
            &[("type", &text)],
        ))?
        .trim_end()
        .to_string()
    } else {
        let of = typeof_operand(cx, canonical.var, &pointer_of);
        one(render(
            PARALLEL_FOR,
            "loop_var_typeof",
            &[("of", &of), ("var", &var_name)],
        ))?
        .trim_end()
        .to_string()
    };

    let lb = format!("({})", one(shared_text(canonical.lb))?);
    let ub = format!("({})", one(shared_text(canonical.ub))?);
    let step = match &canonical.step {
        StepForm::One => "1".to_string(),
        StepForm::MinusOne => "-1".to_string(),
        StepForm::Plus(s) => format!("(long long)({})", one(shared_text(*s))?),
        StepForm::Minus(s) => format!("-(long long)({})", one(shared_text(*s))?),
    };
    let trip_section = match canonical.test {
        BinaryOperator::Less => "trip_lt",
        BinaryOperator::LessOrEqual => "trip_le",
        BinaryOperator::Greater => "trip_gt",
        BinaryOperator::GreaterOrEqual => "trip_ge",
        _ => "trip_ne",
    };
    let trip_count = one(render(PARALLEL_FOR, trip_section, &[]))?
        .trim_end()
        .to_string();

    // Private copies, copy-outs and reductions.
    let mut privates = String::new();
    let mut lastprivate_out = String::new();
    let mut last_var = String::new();
    let mut reductions = String::new();
    let mut combine_decls = String::new();
    let mut combine_fns = String::new();
    let mut ordered: Vec<(&usize, &(Sharing, Span))> = sharing.iter().collect();
    ordered.sort_by_key(|(v, _)| cx.program.vars[**v].ident_span.start);
    for (&v, (s, _)) in ordered {
        let var = &cx.program.vars[v];
        if contains(stmt_span, var.ident_span) {
            continue;
        }
        let of = typeof_operand(cx, v, &pointer_of);
        let field = pointer_of
            .get(&v)
            .map(|c| c.field.clone())
            .unwrap_or_default();
        let name = var.name.as_str();
        let is_loop_var = v == canonical.var;
        match s {
            Sharing::Shared => {}
            Sharing::Private | Sharing::Lastprivate if is_loop_var => {}
            Sharing::Private | Sharing::Lastprivate => privates.push_str(&one(render(
                PARALLEL_FOR,
                "private",
                &[("of", &of), ("var", name)],
            ))?),
            Sharing::Firstprivate | Sharing::FirstLastprivate => privates.push_str(&one(render(
                PARALLEL_FOR,
                "firstprivate",
                &[("of", &of), ("var", name), ("field", &field)],
            ))?),
            Sharing::Reduction(op) => {
                let identity = match op {
                    ReductionOp::Mul | ReductionOp::LogAnd => "1".to_string(),
                    ReductionOp::BitAnd => format!("~(__typeof__({name}))0"),
                    ReductionOp::Max => format!("__CAPE_LOWEST({name})"),
                    ReductionOp::Min => format!("__CAPE_HIGHEST({name})"),
                    _ => "0".to_string(),
                };
                privates.push_str(&one(render(
                    PARALLEL_FOR,
                    "reduction_init",
                    &[("of", &of), ("var", name), ("identity", &identity)],
                ))?);
                reductions.push_str(&one(render(
                    PARALLEL_FOR,
                    "reduction_out",
                    &[("var", name), ("field", &field), ("id", &id_text)],
                ))?);
                combine_decls.push_str(&one(render(
                    PARALLEL_FOR,
                    "combine_decl",
                    &[("id", &id_text), ("field", &field)],
                ))?);
                let (op_text, combined) = combine_expression(*op);
                let inout = one(typed_pointer(cx, v, "__cape_a"))?;
                let input = one(typed_pointer(cx, v, "__cape_b"))?;
                combine_fns.push_str(&one(render(
                    PARALLEL_FOR,
                    "combine_fn",
                    &[
                        ("op", op_text),
                        ("var", name),
                        ("location", &location),
                        ("id", &id_text),
                        ("field", &field),
                        ("inout_pointer", &inout),
                        ("in_pointer", &input),
                        ("combined", combined),
                    ],
                ))?);
            }
        }
        if matches!(s, Sharing::Lastprivate | Sharing::FirstLastprivate) {
            if is_loop_var {
                last_var = one(render(
                    PARALLEL_FOR,
                    "last_var",
                    &[("var", name), ("field", &field)],
                ))?;
            } else {
                lastprivate_out.push_str(&one(render(
                    PARALLEL_FOR,
                    "lastprivate_out",
                    &[("var", name), ("field", &field)],
                ))?);
            }
        }
    }

    // The body: shared locals through their pointers, everything else as written.
    let body_node = &for_stmt.node.statement;
    let body_span = span_of(body_node.span);
    let mut body_edits: Vec<Edit> = cx
        .base_edits
        .iter()
        .filter(|e| contains(body_span, e.span))
        .cloned()
        .collect();
    for u in uses_in(cx, body_span) {
        if let Binding::Var(v) = u.binding {
            let shared = matches!(sharing.get(&v).map(|s| s.0), None | Some(Sharing::Shared));
            if let (true, Some(c)) = (shared, pointer_of.get(&v)) {
                body_edits.retain(|e| !overlaps(e.span, u.span));
                body_edits.push(Edit::replace(u.span, format!("(*{})", c.pointer)));
            }
        }
    }
    let body_text = one(apply_in(cx.source, body_span, &body_edits))?;
    let column = cx
        .lines
        .locate(body_span.start)
        .map_or(1, |l| l.column as usize);
    let mut body = String::new();
    if cx.line_markers {
        body.push_str(
            &cx.lines
                .marker_text_for(body_span.start)
                .unwrap_or_default(),
        );
    }
    body.push_str(&" ".repeat(column.saturating_sub(1).max(12)));
    body.push_str(&body_text);

    let last = if last_var.is_empty() && lastprivate_out.is_empty() {
        String::new()
    } else {
        one(render(
            PARALLEL_FOR,
            "last_block",
            &[
                ("last_var", last_var.trim_end()),
                ("lastprivate_out", &lastprivate_out),
            ],
        ))?
    };
    let decls = one(render(
        PARALLEL_FOR,
        "decls",
        &[
            ("location", &location),
            ("id", &id_text),
            ("fields", &fields),
            ("combine_decls", &combine_decls),
        ],
    ))?;
    let outlined = one(render(
        PARALLEL_FOR,
        "function",
        &[
            ("location", &location),
            ("id", &id_text),
            ("shared_pointers", &shared_pointers),
            ("loop_var_decl", &loop_var_decl),
            ("var", &var_name),
            ("lb", &lb),
            ("ub", &ub),
            ("step", &step),
            ("trip_count", &trip_count),
            ("privates", &privates),
            ("body", &body),
            ("last", &last),
            ("reductions", &reductions),
            ("combine_fns", &combine_fns),
        ],
    ))?;
    let call = one(render(
        PARALLEL_FOR,
        "call",
        &[
            ("location", &location),
            ("id", &id_text),
            ("chunk", &chunk),
            ("field_inits", &field_inits),
            ("num_threads", &num_threads),
            ("if_clause", &if_clause),
        ],
    ))?;

    let mut edits = Vec::new();
    let mut before = decls;
    if cx.line_markers {
        before.push_str(
            &cx.lines
                .marker_text_for(func.span.start)
                .unwrap_or_default(),
        );
    }
    edits.push(Edit::insert(func.span.start, before));
    let statement_column = cx.lines.locate(pragma.end).map_or(1, |_| {
        cx.lines
            .locate(stmt_span.start)
            .map_or(1, |l| l.column as usize)
    });
    let mut call_text = " ".repeat(statement_column.saturating_sub(1));
    call_text.push_str(call.trim_end());
    if cx.line_markers {
        call_text.push('\n');
        call_text.push_str(
            cx.lines
                .marker_text_for(stmt_span.end)
                .unwrap_or_default()
                .trim_end(),
        );
        call_text.push('\n');
        let column = cx
            .lines
            .locate(stmt_span.end)
            .map_or(1, |l| l.column as usize);
        call_text.push_str(&" ".repeat(column.saturating_sub(1)));
    }
    edits.push(Edit::replace(
        Span::new(pragma.start, stmt_span.end),
        call_text,
    ));
    let mut after = String::from("\n");
    after.push_str(&outlined);
    if cx.line_markers {
        after.push_str(&cx.lines.marker_text_for(func.span.end).unwrap_or_default());
        let column = cx
            .lines
            .locate(func.span.end)
            .map_or(1, |l| l.column as usize);
        after.push_str(&" ".repeat(column.saturating_sub(1)));
    }
    edits.push(Edit::insert(func.span.end, after));
    Ok(Lowered { edits })
}

fn combine_expression(op: ReductionOp) -> (&'static str, &'static str) {
    match op {
        ReductionOp::Add => ("+", "*__cape_a + *__cape_b"),
        ReductionOp::Sub => ("-", "*__cape_a + *__cape_b"),
        ReductionOp::Mul => ("*", "*__cape_a * *__cape_b"),
        ReductionOp::BitAnd => ("&", "*__cape_a & *__cape_b"),
        ReductionOp::BitOr => ("|", "*__cape_a | *__cape_b"),
        ReductionOp::BitXor => ("^", "*__cape_a ^ *__cape_b"),
        ReductionOp::LogAnd => ("&&", "*__cape_a && *__cape_b"),
        ReductionOp::LogOr => ("||", "*__cape_a || *__cape_b"),
        ReductionOp::Max => ("max", "*__cape_a > *__cape_b ? *__cape_a : *__cape_b"),
        ReductionOp::Min | ReductionOp::Custom => {
            ("min", "*__cape_a < *__cape_b ? *__cape_a : *__cape_b")
        }
    }
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

fn uses_in<'p>(cx: &'p Context, span: Span) -> &'p [Use] {
    let uses = &cx.program.uses;
    let from = uses.partition_point(|u| u.span.start < span.start);
    let to = uses.partition_point(|u| u.span.start < span.end);
    uses.get(from..to).unwrap_or(&[])
}

fn resolve_item(
    cx: &Context,
    name: &str,
    at: Span,
    pragma: Span,
    function: usize,
    errors: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let found = cx.program.visible(name, pragma.start, Some(function));
    if found.is_none() {
        errors.push(
            Diagnostic::error(format!("cannot find variable `{name}` in this scope"))
                .with_primary(at, "not declared at this point"),
        );
    }
    found
}

/// What `__typeof__` of the original variable is spelled as inside the outlined function.
fn typeof_operand(cx: &Context, v: usize, pointers: &HashMap<usize, &Captured>) -> String {
    match pointers.get(&v) {
        Some(c) => format!("*{}", c.pointer),
        None => cx
            .program
            .vars
            .get(v)
            .map(|var| var.name.clone())
            .unwrap_or_default(),
    }
}

/// `T (*NAME)` for a variable: its declaration with the name replaced, VLA sizes read through
/// the shared pointers; `__typeof__(g) *NAME` for a file-scope variable.
fn pointer_declaration(
    cx: &Context,
    var: &Var,
    name: &str,
    pointers: &HashMap<usize, &Captured>,
) -> Result<String, Diagnostic> {
    if var.storage == Storage::Global {
        return Ok(format!("__typeof__({}) *{name}", var.name));
    }
    let mut edits: Vec<Edit> = Vec::new();
    let replacement = if var.param_array_dim.is_some() {
        format!("(*(*{name}))")
    } else {
        format!("(*{name})")
    };
    edits.push(Edit::replace(var.ident_span, replacement));
    if let Some(dim) = var.param_array_dim {
        edits.push(Edit::replace(dim, String::new()));
    }
    for u in &var.type_uses {
        // the outermost size of an array parameter is dropped with its brackets
        if var.param_array_dim.is_some_and(|d| contains(d, u.span)) {
            continue;
        }
        if let Binding::Var(dep) = u.binding {
            if let Some(c) = pointers.get(&dep) {
                edits.push(Edit::replace(u.span, format!("(*{})", c.pointer)));
            }
        }
    }
    let mut text = String::new();
    for s in &var.type_specifiers {
        text.push_str(&apply_in(cx.source, *s, &edits)?);
        text.push(' ');
    }
    text.push_str(apply_in(cx.source, var.declarator, &edits)?.trim_end());
    Ok(text)
}

/// A pointer to the variable's type usable at file scope (combine functions).
fn typed_pointer(cx: &Context, v: usize, name: &str) -> Result<String, Diagnostic> {
    let var = cx
        .program
        .vars
        .get(v)
        .ok_or_else(|| Diagnostic::error("internal error: unknown variable"))?;
    pointer_declaration(cx, var, name, &HashMap::new())
}

fn identifier_of(cx: &Context, e: &Node<Expression>) -> Option<usize> {
    let Expression::Identifier(i) = &e.node else {
        return None;
    };
    let uses = &cx.program.uses;
    let at = uses.partition_point(|u| u.span.start < i.span.start);
    match uses.get(at) {
        Some(u) if u.span.start == i.span.start => match u.binding {
            Binding::Var(v) => Some(v),
            Binding::Other => None,
        },
        _ => None,
    }
}

fn canonical_form(
    cx: &Context,
    f: &Node<ForStatement>,
    pragma: Span,
) -> Result<Canonical, Diagnostic> {
    let init_span = span_of(f.node.initializer.span);
    let init_label = "expected `var = lb` or `type var = lb`";
    let (var, declared_in_header, lb) = match &f.node.initializer.node {
        ForInitializer::Declaration(d) => {
            let [one] = d.node.declarators.as_slice() else {
                return Err(non_canonical(
                    init_span,
                    "declare exactly one loop variable",
                    pragma,
                ));
            };
            let Some(Initializer::Expression(e)) = one.node.initializer.as_ref().map(|i| &i.node)
            else {
                return Err(non_canonical(init_span, init_label, pragma));
            };
            let ident = crate::sharing::declarator_name(&one.node.declarator.node)
                .ok_or_else(|| non_canonical(init_span, init_label, pragma))?;
            let v = cx
                .program
                .vars
                .iter()
                .position(|v| v.ident_span == ident.1)
                .ok_or_else(|| non_canonical(init_span, init_label, pragma))?;
            (v, true, span_of(e.span))
        }
        ForInitializer::Expression(e) => match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                let v = identifier_of(cx, &b.node.lhs)
                    .ok_or_else(|| non_canonical(init_span, init_label, pragma))?;
                (v, false, span_of(b.node.rhs.span))
            }
            _ => return Err(non_canonical(init_span, init_label, pragma)),
        },
        _ => return Err(non_canonical(init_span, init_label, pragma)),
    };
    let test_label = "expected `var < ub`, `var <= ub`, `var > ub`, `var >= ub` or `var != ub`";
    let cond = f
        .node
        .condition
        .as_ref()
        .ok_or_else(|| non_canonical(init_span, "the loop has no test", pragma))?;
    let cond_span = span_of(cond.span);
    let Expression::BinaryOperator(b) = &cond.node else {
        return Err(non_canonical(cond_span, test_label, pragma));
    };
    let op = b.node.operator.node.clone();
    let (test, ub) = if identifier_of(cx, &b.node.lhs) == Some(var) {
        (op, span_of(b.node.rhs.span))
    } else if identifier_of(cx, &b.node.rhs) == Some(var) {
        let mirrored = match op {
            BinaryOperator::Less => BinaryOperator::Greater,
            BinaryOperator::Greater => BinaryOperator::Less,
            BinaryOperator::LessOrEqual => BinaryOperator::GreaterOrEqual,
            BinaryOperator::GreaterOrEqual => BinaryOperator::LessOrEqual,
            other => other,
        };
        (mirrored, span_of(b.node.lhs.span))
    } else {
        return Err(non_canonical(cond_span, test_label, pragma));
    };
    if !matches!(
        test,
        BinaryOperator::Less
            | BinaryOperator::LessOrEqual
            | BinaryOperator::Greater
            | BinaryOperator::GreaterOrEqual
            | BinaryOperator::NotEquals
    ) {
        return Err(non_canonical(cond_span, test_label, pragma));
    }
    let step_label =
        "expected `var++`, `var--`, `var += c`, `var -= c`, `var = var + c` or `var = var - c`";
    let step_expr = f
        .node
        .step
        .as_ref()
        .ok_or_else(|| non_canonical(init_span, "the loop has no increment", pragma))?;
    let step_span = span_of(step_expr.span);
    let bad_step = || non_canonical(step_span, step_label, pragma);
    let step = match &step_expr.node {
        Expression::UnaryOperator(u) if identifier_of(cx, &u.node.operand) == Some(var) => {
            match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => StepForm::One,
                UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => StepForm::MinusOne,
                _ => return Err(bad_step()),
            }
        }
        Expression::BinaryOperator(b) if identifier_of(cx, &b.node.lhs) == Some(var) => {
            match b.node.operator.node {
                BinaryOperator::AssignPlus => StepForm::Plus(span_of(b.node.rhs.span)),
                BinaryOperator::AssignMinus => StepForm::Minus(span_of(b.node.rhs.span)),
                BinaryOperator::Assign => match &b.node.rhs.node {
                    Expression::BinaryOperator(r) => {
                        let lhs_is_var = identifier_of(cx, &r.node.lhs) == Some(var);
                        let rhs_is_var = identifier_of(cx, &r.node.rhs) == Some(var);
                        match r.node.operator.node {
                            BinaryOperator::Plus if lhs_is_var => {
                                StepForm::Plus(span_of(r.node.rhs.span))
                            }
                            BinaryOperator::Plus if rhs_is_var => {
                                StepForm::Plus(span_of(r.node.lhs.span))
                            }
                            BinaryOperator::Minus if lhs_is_var => {
                                StepForm::Minus(span_of(r.node.rhs.span))
                            }
                            _ => return Err(bad_step()),
                        }
                    }
                    _ => return Err(bad_step()),
                },
                _ => return Err(bad_step()),
            }
        }
        _ => return Err(bad_step()),
    };
    Ok(Canonical {
        var,
        declared_in_header,
        lb,
        ub,
        test,
        step,
    })
}

/// The first place in `body` that assigns, increments or decrements variable `var`.
fn modification_of(cx: &Context, body: &Node<Statement>, var: usize) -> Option<Span> {
    struct Finder<'c, 'p, 'a> {
        cx: &'c Context<'p, 'a>,
        var: usize,
        found: Option<Span>,
    }
    impl<'ast> Visit<'ast> for Finder<'_, '_, '_> {
        fn visit_binary_operator_expression(
            &mut self,
            e: &'ast BinaryOperatorExpression,
            span: &'ast lang_c::span::Span,
        ) {
            use BinaryOperator::*;
            let assigns = matches!(
                e.operator.node,
                Assign
                    | AssignMultiply
                    | AssignDivide
                    | AssignModulo
                    | AssignPlus
                    | AssignMinus
                    | AssignShiftLeft
                    | AssignShiftRight
                    | AssignBitwiseAnd
                    | AssignBitwiseXor
                    | AssignBitwiseOr
            );
            if assigns && self.found.is_none() && identifier_of(self.cx, &e.lhs) == Some(self.var) {
                self.found = Some(span_of(*span));
            }
            visit::visit_binary_operator_expression(self, e, span);
        }

        fn visit_unary_operator_expression(
            &mut self,
            e: &'ast UnaryOperatorExpression,
            span: &'ast lang_c::span::Span,
        ) {
            use UnaryOperator::*;
            let changes = matches!(
                e.operator.node,
                PostIncrement | PostDecrement | PreIncrement | PreDecrement
            );
            if changes
                && self.found.is_none()
                && identifier_of(self.cx, &e.operand) == Some(self.var)
            {
                self.found = Some(span_of(*span));
            }
            visit::visit_unary_operator_expression(self, e, span);
        }
    }
    let mut finder = Finder {
        cx,
        var,
        found: None,
    };
    finder.visit_statement(&body.node, &body.span);
    finder.found
}
