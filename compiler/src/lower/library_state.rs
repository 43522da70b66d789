//! C library calls in a parallel region whose hidden state each rank keeps for itself: gcc's
//! threads share one random sequence, one `strtok` position, one position of each stream, so
//! every call draws the next value; the ranks of a capecc program are separate processes, each
//! with its own copy, so they draw the same values and the state after the region differs from
//! gcc's. A warning at each such call (those in `single`/`master`/`masked` blocks have their
//! own, `lower/single.rs`).

use std::collections::HashSet;

use super::{span_of, Context};
use crate::diag::{Diagnostic, Span};
use crate::directive::DirectiveKind;

/// What a call's hidden state is, and how to do without it.
struct State {
    what: &'static str,
    advice: &'static str,
}

const RANDOM: State = State {
    what: "the C library's random sequence",
    advice: "use `rand_r` with a seed of each iteration's own (`unsigned seed = base + i;`), or \
             draw the values before the region",
};

const TOKENS: State = State {
    what: "`strtok`'s position",
    advice: "use `strtok_r` with a position variable declared in the region",
};

const STREAM: State = State {
    what: "the stream's position",
    advice: "read the input before the region (into an array), then use the array in the region",
};

/// Calls whose every use consumes hidden per-process state.
const PER_RANK_STATE: &[(&str, &State)] = &[
    ("rand", &RANDOM),
    ("random", &RANDOM),
    ("drand48", &RANDOM),
    ("lrand48", &RANDOM),
    ("mrand48", &RANDOM),
    ("strtok", &TOKENS),
    ("fscanf", &STREAM),
    ("scanf", &STREAM),
    ("fgets", &STREAM),
    ("fgetc", &STREAM),
    ("getc", &STREAM),
    ("getchar", &STREAM),
    ("fread", &STREAM),
    ("getline", &STREAM),
    ("getdelim", &STREAM),
];

/// Whether `name` draws from the C library's hidden random sequence.
pub fn draws_random(name: &str) -> bool {
    PER_RANK_STATE
        .iter()
        .any(|&(n, state)| n == name && std::ptr::eq(state, &RANDOM))
}

/// Warnings for calls of [`PER_RANK_STATE`] in parallel regions and worksharing constructs
/// (orphaned ones run in a region too), outside `single`/`master`/`masked` blocks.
pub fn per_rank_state_warnings(cx: &Context) -> Vec<Diagnostic> {
    // a call inside nested constructs is warned once
    let mut warned: HashSet<usize> = HashSet::new();
    let mut warnings = Vec::new();
    let is_region =
        |k: DirectiveKind| k.is_parallel() || k.is_loop() || matches!(k, DirectiveKind::Sections);
    for d in cx.directives.iter().filter(|d| is_region(d.kind)) {
        let Ok(stmt) = cx.constructs().statement(cx, d) else {
            continue;
        };
        let one_rank: Vec<Span> = cx
            .constructs()
            .inside(cx, d)
            .iter()
            .filter(|d| {
                matches!(
                    d.kind,
                    DirectiveKind::Single | DirectiveKind::Master | DirectiveKind::Masked
                )
            })
            .filter_map(|d| cx.constructs().statement(cx, d).ok())
            .map(|s| span_of(s.span))
            .collect();
        for (name, at) in super::task::calls_outside(stmt, &one_rank) {
            let Some(name) = name else { continue };
            let Some(&(_, state)) = PER_RANK_STATE.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            if !warned.insert(at.start)
                || cx
                    .program
                    .functions
                    .iter()
                    .any(|f| f.name == name && !f.is_system)
            {
                continue;
            }
            let construct = cx.text(d.name_span);
            warnings.push(
                Diagnostic::warning(format!(
                    "`{name}` in a parallel region uses each rank's own copy of {}",
                    state.what
                ))
                .with_primary(at, "every rank starts from the same state here")
                .with_secondary(d.name_span, format!("the `{construct}` construct"))
                .with_note(format!(
                    "the ranks of a capecc program are separate processes: gcc's threads share \
                     {} and each call takes the next value, but here every rank takes the same \
                     values from its own copy, and the state after the region differs from \
                     gcc's; {}",
                    state.what, state.advice
                )),
            );
        }
    }
    warnings
}
