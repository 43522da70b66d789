//! `num_threads` and the chunk size of `schedule` given as a constant of 0 or less: gcc warns
//! ("value must be positive") and uses 1; so does capecc, at the clause.

use super::Context;
use crate::diag::{Diagnostic, Span};
use crate::directive::{constant_value, ClauseArgs, ClauseKind};

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
