//! `single`, `master`/`masked` and `threadprivate`.

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::common::resolve_item;
use super::data_sharing::{data_clauses, Sharing};
use super::one;
use super::{emit_span, spelled, Context, Env, Out};
use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, Directive};
use crate::resolve::Storage;
use crate::template::{render, CONSTRUCTS};

/// `if (__cape_single_begin()) { ... } __cape_copyprivate(...); __cape_single_end(nowait);`
pub fn lower_single(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let data = data_clauses(cx, d, &|k| k != ClauseKind::Lastprivate, &mut errors);
    let nowait = d.clauses.iter().any(|c| c.kind == ClauseKind::Nowait);
    let mut copyprivates = String::new();
    let function = cx.program.function_at(d.span.start);
    for clause in &d.clauses {
        if let (ClauseKind::Copyprivate, ClauseArgs::List(items), Some(f)) =
            (clause.kind, &clause.args, function)
        {
            for item in items {
                if let Some(v) =
                    resolve_item(cx, &item.name, item.name_span, d.span, f, &mut errors)
                {
                    copyprivates.push_str(&one(render(
                        CONSTRUCTS,
                        "copyprivate",
                        &[("var", &spelled(cx, env, v))],
                    ))?);
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut originals = String::new();
    let mut privates = String::new();
    let mut body_env = env.clone();
    for &(v, s, _) in &data.items {
        let name = cx.program.vars[v].name.clone();
        let of = spelled(cx, env, v);
        body_env.remove(&v);
        match s {
            Sharing::Firstprivate | Sharing::FirstLastprivate => {
                originals.push_str(&one(render(
                    CONSTRUCTS,
                    "original",
                    &[("of", &of), ("var", &name)],
                ))?);
                privates.push_str(&one(render(
                    CONSTRUCTS,
                    "firstprivate",
                    &[("of", &format!("*__cape_orig_{name}")), ("var", &name)],
                ))?);
            }
            _ => privates.push_str(&one(render(
                CONSTRUCTS,
                "private",
                &[("of", &of), ("var", &name)],
            ))?),
        }
    }
    let span = super::body_span(cx, d, stmt);
    let mut body = cx.marker_before(span.start);
    if !cx.line_markers {
        body.push_str("        ");
    }
    let text = emit_span(cx, out, span, &body_env);
    body.push_str(&super::reindent(cx, &text, stmt.span.start, 8));
    let single = one(render(
        CONSTRUCTS,
        "single",
        &[
            ("location", &cx.location(d.span.start)),
            (
                "begin",
                if copyprivates.is_empty() && super::task::spreads_tasks(cx, d, stmt) {
                    "__cape_task_single_begin"
                } else {
                    "__cape_single_begin"
                },
            ),
            ("privates", &privates),
            ("body", &body),
            ("copyprivates", &copyprivates),
            ("nowait", if nowait { "1" } else { "0" }),
        ],
    ))?;
    if originals.is_empty() {
        Ok(single)
    } else {
        Ok(format!("{{\n{originals}{single}}}"))
    }
}

/// `master` and `masked [filter(e)]`: `if (__cape_master_begin(e)) { ... __cape_master_end(); }`.
pub fn lower_master(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut filter = "0".to_string();
    for clause in &d.clauses {
        if let (ClauseKind::Filter, ClauseArgs::Expr { expr, .. }) = (clause.kind, &clause.args) {
            filter = super::clause_expr(cx, d, *expr, env);
        }
    }
    let span = super::body_span(cx, d, stmt);
    let mut body = cx.marker_before(span.start);
    if !cx.line_markers {
        body.push_str("    ");
    }
    let text = emit_span(cx, out, span, env);
    body.push_str(&super::reindent(cx, &text, stmt.span.start, 4));
    one(render(
        CONSTRUCTS,
        "master",
        &[
            ("filter", &filter),
            ("construct", d.kind.name()),
            ("location", &cx.location(d.span.start)),
            ("body", &body),
        ],
    ))
}

/// `threadprivate(list)`: a constructor registers each variable with the runtime. A `static`
/// local cannot be named at file scope: its function records its address and size in a constant
/// with an assembler name, which the constructor reads (so every rank registers it at start-up,
/// whether or not it ever calls the function). Returns the text that replaces the pragma.
pub fn threadprivate(cx: &Context, out: &mut Out, d: &Directive) -> String {
    let function = cx.program.function_at(d.span.start);
    let location = cx.location(d.span.start);
    let mut in_place = String::new();
    for item in &d.list_arg {
        let Some(v) = cx.program.visible(&item.name, d.span.start, function) else {
            out.errors.push(
                Diagnostic::error(format!(
                    "cannot find variable `{}` in this scope",
                    item.name
                ))
                .with_primary(item.name_span, "not declared at this point"),
            );
            continue;
        };
        let storage = cx.program.vars[v].storage;
        if !matches!(storage, Storage::Global | Storage::Static) {
            out.errors.push(
                Diagnostic::error(format!(
                    "`threadprivate` variable `{}` must have static storage duration",
                    item.name
                ))
                .with_primary(item.name_span, "a local variable without `static`")
                .with_secondary(cx.program.vars[v].ident_span, "declared here")
                .with_note("declare it `static` or at file scope"),
            );
            continue;
        }
        if let Err(e) = super::placement::check_threadprivate_use(cx, d, v, item.name_span) {
            out.errors.push(e);
            continue;
        }
        let id = out.fresh_id().to_string();
        let symbol = super::thread_local::local_symbol(v);
        let args = [
            ("var", item.name.as_str()),
            ("location", location.as_str()),
            ("id", id.as_str()),
        ];
        let section = if storage == Storage::Static {
            match render(CONSTRUCTS, "threadprivate_local_ref", &args) {
                Ok(text) => in_place.push_str(text.trim_end()),
                Err(e) => out.errors.push(e),
            }
            "threadprivate_local"
        } else {
            "threadprivate"
        };
        let with_symbol = [args[0], args[1], args[2], ("symbol", symbol.as_str())];
        let args: &[(&str, &str)] = if storage == Storage::Static {
            &with_symbol
        } else {
            &args
        };
        match render(CONSTRUCTS, section, args) {
            Ok(text) => out.file_end.push(text),
            Err(e) => out.errors.push(e),
        }
    }
    in_place
}
