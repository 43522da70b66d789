//! Device constructs on the host, as `gcc -fopenmp` runs them without offloading: the host is
//! the only device. `target` (and `target data`) runs its block on the encountering thread,
//! with its own copies of the scalars it writes that no `map` names (OpenMP makes them
//! firstprivate, so the originals keep their values); `teams` makes a league of one team,
//! whose `distribute` loop runs all its iterations; `target enter/exit data`, `target update`
//! and `declare target` change nothing (lower/mod.rs). The parallel part of a combined
//! construct (`target parallel for`, `target teams distribute parallel for`, ...) is lowered
//! by parallel.rs like `parallel` / `parallel for`, with the target's copies as firstprivate.

use lang_c::ast::Statement;
use lang_c::span::Node;

use super::common::{canonical_form, modification_of};
use super::data_sharing::{data_clauses, is_threadprivate, Sharing};
use super::read_only::address_taken_in;
use super::{clause_vars, contains, emit_span, spelled, uses_in, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind};
use crate::resolve::{Binding, Storage, TypeClass, VarId};
use crate::template::{render, CONSTRUCTS};

fn one<T>(r: Result<T, Diagnostic>) -> Result<T, Vec<Diagnostic>> {
    r.map_err(|d| vec![d])
}

/// A host block: `{ copies; body }`, run by whoever reaches it.
pub fn lower_block(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let span = super::body_span(cx, d, stmt);
    let data = data_clauses(
        cx,
        d,
        &|k| matches!(k, ClauseKind::Private | ClauseKind::Firstprivate),
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut copies: Vec<(VarId, Sharing)> = data.items.iter().map(|&(v, s, _)| (v, s)).collect();
    if d.kind.is_target() {
        for v in implicit_firstprivates(cx, d, stmt, span) {
            if !copies.iter().any(|&(o, _)| o == v) {
                copies.push((v, Sharing::Firstprivate));
            }
        }
    }
    for v in distributed_loop_variables(cx, d, stmt) {
        if !copies.iter().any(|&(o, _)| o == v) {
            copies.push((v, Sharing::Private));
        }
    }
    let mut originals = String::new();
    let mut privates = String::new();
    let mut body_env = env.clone();
    for &(v, sharing) in &copies {
        let name = cx.program.vars[v].name.clone();
        let of = spelled(cx, env, v);
        body_env.remove(&v);
        if sharing == Sharing::Firstprivate {
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
        } else {
            privates.push_str(&one(render(
                CONSTRUCTS,
                "private",
                &[("of", &of), ("var", &name)],
            ))?);
        }
    }
    let mut body = cx.marker_before(span.start);
    if !cx.line_markers {
        body.push_str("        ");
    }
    let text = emit_span(cx, out, span, &body_env);
    body.push_str(&super::reindent(cx, &text, stmt.span.start, 8));
    let block = one(render(
        CONSTRUCTS,
        "host_block",
        &[
            ("construct", d.kind.name()),
            ("location", &cx.location(d.span.start)),
            ("privates", &privates),
            ("body", &body),
        ],
    ))?;
    if originals.is_empty() {
        Ok(block)
    } else {
        Ok(format!("{{\n{originals}{block}}}"))
    }
}

/// Whether a `loop` runs all its iterations on the thread that reaches it: `bind(thread)`,
/// `bind(teams)` (a league of one team), or no `bind` in a construct other than `parallel`;
/// otherwise (`bind(parallel)`, or closely nested in `parallel`) it shares its iterations
/// like `for`. Without `bind` and outside every construct its binding is undefined: an
/// error, as gcc says.
pub fn loop_binds_to_thread(cx: &Context, d: &Directive) -> Result<bool, Diagnostic> {
    let bound = d.clauses.iter().find_map(|c| match (&c.kind, &c.args) {
        (ClauseKind::Bind, ClauseArgs::Raw { text }) => Some(text.trim().to_string()),
        _ => None,
    });
    match (bound.as_deref(), cx.constructs().enclosing(cx, d)) {
        (Some("parallel"), _) => Ok(false),
        (Some(_), _) => Ok(true),
        (None, Some(e)) => Ok(!e.kind.is_parallel()),
        (None, None) => Err(Diagnostic::error(
            "a `loop` outside every OpenMP construct needs a `bind` clause",
        )
        .with_primary(d.name_span, "no enclosing construct gives this loop its binding")
        .with_note("help: add `bind(thread)` (each thread runs every iteration) or `bind(parallel)` (the team shares them)")),
    }
}

/// The scalars a `target` construct writes that no clause names: OpenMP makes them
/// firstprivate (unless `defaultmap(tofrom: scalar)`), so writes inside do not reach the
/// originals. Variables of `declare target` stay the device's (here: the host's) own.
pub fn implicit_firstprivates(
    cx: &Context,
    d: &Directive,
    stmt: &Node<Statement>,
    body: Span,
) -> Vec<VarId> {
    if d.clauses.iter().any(|c| c.kind == ClauseKind::Defaultmap) {
        return Vec::new();
    }
    let named: Vec<VarId> = d
        .clauses
        .iter()
        .flat_map(|c| clause_vars(cx, d, c.span))
        .map(|(_, v)| v)
        .collect();
    let mut found: Vec<VarId> = Vec::new();
    for u in uses_in(cx, body) {
        let Binding::Var(v) = u.binding else {
            continue;
        };
        let var = &cx.program.vars[v];
        let scalar = matches!(
            var.class,
            TypeClass::Integer | TypeClass::Floating | TypeClass::Pointer
        );
        if found.contains(&v)
            || !scalar
            || var.is_const
            || var.param_array_dim.is_some()
            || contains(body, var.ident_span)
            || named.contains(&v)
            || is_threadprivate(cx, v)
            || (var.storage == Storage::Global && declared_for_the_device(cx, v))
        {
            continue;
        }
        if modification_of(cx, stmt, v).is_some() || address_taken_in(cx, v, body) {
            found.push(v);
        }
    }
    found
}

/// The loop variables of a `distribute` loop (and of the loops `collapse` adds) declared
/// outside it: predetermined private, so the originals keep their values.
fn distributed_loop_variables(cx: &Context, d: &Directive, stmt: &Node<Statement>) -> Vec<VarId> {
    if !d.kind.is_host_sequential_loop() {
        return Vec::new();
    }
    let depth = d
        .clauses
        .iter()
        .find_map(|c| match (&c.kind, &c.args) {
            (ClauseKind::Collapse, ClauseArgs::Expr { expr, .. }) => {
                cx.text(*expr).trim().parse::<usize>().ok()
            }
            _ => None,
        })
        .unwrap_or(1);
    let mut vars = Vec::new();
    let mut current = stmt;
    for _ in 0..depth {
        let Statement::For(f) = &current.node else {
            break;
        };
        if let Ok(c) = canonical_form(cx, f, d.span, d.kind.name()) {
            let var = &cx.program.vars[c.var];
            if !contains(super::span_of(stmt.span), var.ident_span) {
                vars.push(c.var);
            }
        }
        current = super::worksharing::perfectly_nested(&f.node.statement);
    }
    vars
}

/// Whether a global is named by a `declare target` directive or declared between
/// `declare target` and `end declare target`.
fn declared_for_the_device(cx: &Context, v: VarId) -> bool {
    let var = &cx.program.vars[v];
    let mut open: Option<usize> = None;
    for d in cx.directives {
        match d.kind {
            DirectiveKind::DeclareTarget => {
                let listed = d.list_arg.iter().any(|i| i.name == var.name)
                    || d.clauses.iter().any(|c| {
                        matches!(&c.args, ClauseArgs::List(items) if items.iter().any(|i| i.name == var.name))
                    });
                if listed {
                    return true;
                }
                if d.list_arg.is_empty() && d.clauses.is_empty() {
                    open = Some(d.span.end);
                }
            }
            DirectiveKind::EndDeclareTarget => {
                if let Some(start) = open.take() {
                    if (start..d.span.start).contains(&var.ident_span.start) {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    false
}
