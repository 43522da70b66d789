//! `single`, `master`/`masked` and `threadprivate`.

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::common::{resolve_item, Sharing};
use super::worksharing::data_clauses;
use super::{emit_span, spelled, Context, Env, Out};
use crate::diag::Diagnostic;
use crate::directive::{ClauseArgs, ClauseKind, Directive};
use crate::sharing::Storage;
use crate::template::{render, CONSTRUCTS};

fn one<T>(r: Result<T, crate::diag::Diagnostic>) -> Result<T, Vec<Diagnostic>> {
    r.map_err(|d| vec![d])
}

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
    body.push_str(&emit_span(cx, out, span, &body_env));
    let single = one(render(
        CONSTRUCTS,
        "single",
        &[
            ("location", &cx.location(d.span.start)),
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

/// `master` and `masked [filter(e)]`: `if (omp_get_thread_num() == e) ...`.
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
    body.push_str(&emit_span(cx, out, span, env));
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

/// `threadprivate(list)` of file-scope variables: a constructor registers each with the runtime.
pub fn threadprivate(cx: &Context, out: &mut Out, d: &Directive) {
    let function = cx.program.function_at(d.span.start);
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
        if cx.program.vars[v].storage != Storage::Global {
            out.errors.push(
                Diagnostic::error(format!(
                    "`threadprivate` of the local variable `{}` is not supported",
                    item.name
                ))
                .with_primary(item.name_span, "a `static` local")
                .with_note("declare the variable at file scope"),
            );
            continue;
        }
        let id = out.fresh_id().to_string();
        match render(
            CONSTRUCTS,
            "threadprivate",
            &[
                ("var", &item.name),
                ("location", &cx.location(d.span.start)),
                ("id", &id),
            ],
        ) {
            Ok(text) => out.file_end.push(text),
            Err(e) => out.errors.push(e),
        }
    }
}
