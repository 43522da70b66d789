//! `single`, `master`/`masked` (also the block of `parallel master`/`parallel masked`) and
//! `threadprivate`.

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
/// Also the body of the outlined function of `parallel master`/`parallel masked` (whose
/// `filter` this reads; the other clauses are the region's).
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

/// C library functions whose state lives in each process and that a `single`, `master` or
/// `masked` block (run by one rank) would change on that rank only: the random sequence,
/// `strtok`'s position, the position of a `FILE` (standard input excepted: the runtime gives
/// every rank the same), a stream opened there (its `FILE *` is that rank's).
const ONE_RANK_STATE: &[(&str, &str)] = &[
    ("rand", "the C library's random sequence"),
    ("srand", "the C library's random sequence"),
    ("random", "the C library's random sequence"),
    ("srandom", "the C library's random sequence"),
    ("drand48", "the C library's random sequence"),
    ("lrand48", "the C library's random sequence"),
    ("mrand48", "the C library's random sequence"),
    ("srand48", "the C library's random sequence"),
    ("seed48", "the C library's random sequence"),
    ("lcong48", "the C library's random sequence"),
    ("strtok", "`strtok`'s position"),
    ("fopen", "the stream it opens"),
    ("fdopen", "the stream it opens"),
    ("freopen", "the stream it opens"),
    ("fscanf", "the stream's position"),
    ("fgets", "the stream's position"),
    ("fgetc", "the stream's position"),
    ("getc", "the stream's position"),
    ("fread", "the stream's position"),
    ("getline", "the stream's position"),
    ("getdelim", "the stream's position"),
    ("fseek", "the stream's position"),
    ("rewind", "the stream's position"),
    ("fclose", "the stream"),
];

/// Warnings for calls in `single`/`master`/`masked` blocks that change C library state on the
/// one rank that runs the block (`ONE_RANK_STATE`): later calls outside the block then see a
/// different state on different ranks, which gcc's threads, sharing one process, do not.
pub fn one_rank_state_warnings(cx: &Context) -> Vec<Diagnostic> {
    use crate::directive::DirectiveKind;
    let mut warnings = Vec::new();
    for d in cx
        .directives
        .iter()
        .filter(|d| d.kind == DirectiveKind::Single || d.kind.is_master_block())
    {
        let Ok(stmt) = cx.constructs().statement(cx, d) else {
            continue;
        };
        for (name, at) in super::task::calls_outside(stmt, &[]) {
            let Some(name) = name else { continue };
            let Some(&(_, state)) = ONE_RANK_STATE.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            if cx
                .program
                .functions
                .iter()
                .any(|f| f.name == name && !f.is_system)
                || cx.text(at).contains("stdin")
            {
                continue;
            }
            let construct = cx.text(d.name_span);
            warnings.push(
                Diagnostic::warning(format!(
                    "`{name}` in a `{construct}` block changes {state} on one rank only"
                ))
                .with_primary(at, "runs on the rank that runs the block")
                .with_secondary(d.name_span, format!("the `{construct}` block"))
                .with_note(
                    "the ranks of a capecc program are separate processes: a later call outside \
                     the block would see another state on the other ranks than gcc's threads \
                     would; call it outside the block (every rank then does), use a variant with \
                     explicit state (`rand_r`, `strtok_r`), or read the file before the region",
                ),
            );
        }
    }
    warnings
}
