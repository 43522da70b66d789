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

use super::data_sharing::{data_clauses, Sharing};
use super::{Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind};
use crate::resolve::{Storage, TypeClass, VarId};

/// A host block: `{ copies; body }`, run by whoever reaches it.
pub fn lower_block(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    stmt: &Node<Statement>,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    if d.kind.is_host_sequential_loop() || d.kind == DirectiveKind::Loop {
        super::block::check_loops(cx, d, stmt).map_err(|e| vec![e])?;
    }
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
    let loops = if d.kind.is_host_sequential_loop() {
        super::block::loop_variables(cx, d, stmt)
    } else {
        Vec::new()
    };
    for v in loops {
        if !copies.iter().any(|&(o, _)| o == v) {
            copies.push((v, Sharing::Private));
        }
    }
    super::block::inline_block(cx, out, d, stmt, env, &copies, "on the host")
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
    super::block::written_outer_variables(cx, d, stmt, body, &|v| {
        let var = &cx.program.vars[v];
        matches!(
            var.class,
            TypeClass::Integer | TypeClass::Floating | TypeClass::Pointer
        ) && var.param_array_dim.is_none()
            && !(var.storage == Storage::Global && declared_for_the_device(cx, v))
    })
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
