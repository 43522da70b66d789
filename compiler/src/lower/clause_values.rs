//! Clause arguments gcc checks. `num_threads` and the chunk size of `schedule` given as a
//! constant of 0 or less: gcc warns ("value must be positive") and uses 1; so does capecc, at
//! the clause. An integer clause whose argument is a variable of another type (a `double`, a
//! pointer): gcc refuses it ("expected integer expression"); so does capecc.

use super::Context;
use crate::diag::{Diagnostic, Span};
use crate::directive::{constant_value, ClauseArgs, ClauseKind};
use crate::resolve::TypeClass;

/// Whether a clause argument's text is a constant of 0 or less (then the clause means 1).
pub fn non_positive(text: &str) -> bool {
    constant_value(text).is_some_and(|v| v <= 0)
}

/// The warnings of every `num_threads(c)` and `schedule(kind, c)` of the file with a constant
/// c of 0 or less.
pub fn non_positive_warnings(cx: &Context) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for d in cx.directives {
        for clause in &d.clauses {
            let (what, expr): (&str, Span) = match (&clause.kind, &clause.args) {
                (ClauseKind::NumThreads, ClauseArgs::Expr { expr, .. }) => ("`num_threads`", *expr),
                (
                    ClauseKind::Schedule,
                    ClauseArgs::Schedule {
                        chunk: Some(chunk), ..
                    },
                ) => ("chunk size", *chunk),
                _ => continue,
            };
            let Some(value) = constant_value(cx.text(expr)).filter(|v| *v <= 0) else {
                continue;
            };
            warnings.push(
                Diagnostic::warning(format!("{what} value must be positive"))
                    .with_primary(expr, format!("this is {value}"))
                    .with_note("1 is used instead, as gcc does"),
            );
        }
    }
    warnings
}

/// Errors for integer clauses (`num_threads`, a chunk size, `collapse`, `grainsize`, ...)
/// whose whole argument is one variable declared with a type that is not an integer. Other
/// expressions are left to the backend (capecc has no type checker).
pub fn non_integer_variables(cx: &Context) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for d in cx.directives {
        for clause in &d.clauses {
            let expr = match (&clause.kind, &clause.args) {
                (ClauseKind::Schedule, ClauseArgs::Schedule { chunk: Some(c), .. }) => *c,
                (
                    ClauseKind::NumThreads
                    | ClauseKind::Collapse
                    | ClauseKind::Ordered
                    | ClauseKind::Grainsize
                    | ClauseKind::NumTasks
                    | ClauseKind::Priority
                    | ClauseKind::Device
                    | ClauseKind::Safelen
                    | ClauseKind::Simdlen
                    | ClauseKind::NumTeams
                    | ClauseKind::ThreadLimit
                    | ClauseKind::Filter,
                    ClauseArgs::Expr { expr, .. },
                ) => *expr,
                _ => continue,
            };
            let text = cx.text(expr).trim();
            let vars = super::clause_vars(cx, d, expr);
            let [(at, v)] = vars.as_slice() else { continue };
            let var = &cx.program.vars[*v];
            if cx.text(*at) != text {
                continue;
            }
            let what = match var.class {
                TypeClass::Floating => "a floating-point variable",
                TypeClass::Pointer => "a pointer",
                TypeClass::Array => "an array",
                TypeClass::Record => "a struct or union",
                TypeClass::OtherArithmetic => "not an integer variable",
                _ => continue,
            };
            errors.push(
                Diagnostic::error(format!(
                    "the argument of `{}` must be an integer expression",
                    clause.kind.name()
                ))
                .with_primary(*at, format!("`{}` is {what}", var.name))
                .with_secondary(var.ident_span, "declared here")
                .with_note("gcc refuses it too: `expected integer expression`"),
            );
        }
    }
    errors
}
