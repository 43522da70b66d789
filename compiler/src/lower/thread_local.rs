//! `threadprivate` variables become C thread-local objects (`_Thread_local`), as gcc makes
//! them: every OpenMP thread of a rank (hybrid execution) then has its own copy at its own
//! address, which its pool thread keeps from one region to the next. A thread-local address is
//! not a constant, so a static local also gets an assembler name through which the start-up
//! constructor names it (`__cape_tp_var_<id>`, see the `threadprivate_local` template).

use crate::diag::{Diagnostic, Span};
use crate::directive::{Directive, DirectiveKind};
use crate::emit::Edit;
use crate::resolve::{Program, Storage, VarId};

/// The variables `threadprivate` directives name (resolved where each directive stands), sorted.
/// A file-scope variable counts with every declaration of it (`extern int tp;` in a header,
/// the directive, then `int tp = 1;`): like gcc, all of them declare the one thread-local object.
pub fn threadprivate_vars(program: &Program, directives: &[Directive]) -> Vec<VarId> {
    let named: Vec<VarId> = directives
        .iter()
        .filter(|d| d.kind == DirectiveKind::Threadprivate)
        .flat_map(|d| {
            let function = program.function_at(d.span.start);
            d.list_arg
                .iter()
                .filter_map(move |item| program.visible(&item.name, d.span.start, function))
        })
        .filter(|&v| {
            program
                .vars
                .get(v)
                .is_some_and(|var| matches!(var.storage, Storage::Global | Storage::Static))
        })
        .collect();
    let mut found: Vec<VarId> =
        named
            .iter()
            .flat_map(|&v| {
                let var = &program.vars[v];
                let redeclarations: &[VarId] = if var.storage == Storage::Global {
                    program.named(&var.name)
                } else {
                    &[]
                };
                std::iter::once(v).chain(redeclarations.iter().copied().filter(|&o| {
                    matches!(program.vars[o].storage, Storage::Global | Storage::Extern)
                }))
            })
            .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// The assembler name of threadprivate static local `v`.
pub fn local_symbol(v: VarId) -> String {
    format!("__cape_tp_var_{v}")
}

/// `_Thread_local` on the declaration of every threadprivate variable (and an assembler name on
/// a static local). A declaration that also declares a variable that is not threadprivate
/// cannot become thread-local alone: an error at that variable.
pub fn edits(program: &Program, directives: &[Directive]) -> Result<Vec<Edit>, Vec<Diagnostic>> {
    let vars = threadprivate_vars(program, directives);
    let mut edits = Vec::new();
    let mut errors = Vec::new();
    for &v in &vars {
        let var = &program.vars[v];
        if var.thread_local {
            continue;
        }
        let first = var.type_specifiers.first().copied();
        let shared_with = program.vars.iter().enumerate().find(|(other, o)| {
            *other != v
                && first.is_some()
                && o.type_specifiers.first().copied() == first
                && vars.binary_search(other).is_err()
        });
        if let Some((_, other)) = shared_with {
            errors.push(
                Diagnostic::error(format!(
                    "`{}` is `threadprivate` but `{}`, declared with it, is not",
                    var.name, other.name
                ))
                .with_primary(other.ident_span, "declared in the same declaration")
                .with_secondary(var.ident_span, "`threadprivate`")
                .with_note("declare the threadprivate variable in a declaration of its own"),
            );
            continue;
        }
        let at = first.map_or(var.declarator.start, |s: Span| s.start);
        edits.push(Edit::insert(at, "_Thread_local ".to_string()));
        if var.storage == Storage::Static {
            edits.push(Edit::insert(
                var.declarator.end,
                format!(" __asm__(\"{}\")", local_symbol(v)),
            ));
        }
    }
    if errors.is_empty() {
        Ok(edits)
    } else {
        Err(errors)
    }
}
