//! OpenMP 5.x features that capecc recognises but does not implement: directives, clauses,
//! clause modifiers and clauses on directives that OpenMP 4.5 did not allow. They are valid
//! OpenMP, so each is refused as "not supported by capecc" with what to do instead, never as a
//! syntax error or a clause "not allowed".

use super::ast::{ClauseKind, DirectiveKind};
use crate::diag::{Diagnostic, Span};

/// A feature: how it is written, the OpenMP version that brought it, what to do instead.
pub struct Feature {
    pub written: &'static str,
    pub version: &'static str,
    pub help: &'static str,
}

const fn feature(written: &'static str, version: &'static str, help: &'static str) -> Feature {
    Feature {
        written,
        version,
        help,
    }
}

const REWRITE_4_5: &str = "help: express it with OpenMP 4.5 constructs";

/// Directive names (words as written after `#pragma omp`).
const DIRECTIVES: [Feature; 22] = [
    feature(
        "scan",
        "OpenMP 5.0",
        "help: compute the prefix sums in a sequential loop, or in two `parallel for` passes: \
         the sums of blocks of iterations, then each block's prefix from the earlier blocks' sums",
    ),
    feature(
        "parallel master taskloop",
        "OpenMP 5.0",
        "help: write `#pragma omp parallel master` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "parallel master taskloop simd",
        "OpenMP 5.0",
        "help: write `#pragma omp parallel master` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "master taskloop",
        "OpenMP 5.0",
        "help: write `#pragma omp master` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "master taskloop simd",
        "OpenMP 5.0",
        "help: write `#pragma omp master` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "masked taskloop",
        "OpenMP 5.1",
        "help: write `#pragma omp masked` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "masked taskloop simd",
        "OpenMP 5.1",
        "help: write `#pragma omp masked` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "parallel masked taskloop",
        "OpenMP 5.1",
        "help: write `#pragma omp parallel masked` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "parallel masked taskloop simd",
        "OpenMP 5.1",
        "help: write `#pragma omp parallel masked` with a `#pragma omp taskloop` inside",
    ),
    feature(
        "requires",
        "OpenMP 5.0",
        "help: remove the directive: the host is the only device",
    ),
    feature(
        "allocate",
        "OpenMP 5.0",
        "help: remove the directive: memory comes from the default allocator",
    ),
    feature(
        "declare variant",
        "OpenMP 5.0",
        "help: call the function variant directly",
    ),
    feature(
        "declare mapper",
        "OpenMP 5.0",
        "help: map the members in each `map` clause: the host is the only device",
    ),
    feature(
        "begin declare target",
        "OpenMP 5.1",
        "help: write `#pragma omp declare target` ... `#pragma omp end declare target`",
    ),
    feature(
        "begin declare variant",
        "OpenMP 5.1",
        "help: call the function variant directly",
    ),
    feature(
        "metadirective",
        "OpenMP 5.0",
        "help: write the directive that applies on the host",
    ),
    feature(
        "depobj",
        "OpenMP 5.0",
        "help: write the dependences in the `depend` clauses of the tasks",
    ),
    feature("scope", "OpenMP 5.1", REWRITE_4_5),
    feature(
        "error",
        "OpenMP 5.1",
        "help: use `#error` or `_Static_assert`",
    ),
    feature("nothing", "OpenMP 5.1", "help: remove the directive"),
    feature("tile", "OpenMP 5.1", "help: tile the loops by hand"),
    feature(
        "unroll",
        "OpenMP 5.1",
        "help: use `#pragma GCC unroll n`, or unroll the loop by hand",
    ),
];

/// Clause names.
const CLAUSES: [Feature; 12] = [
    feature(
        "in_reduction",
        "OpenMP 5.0",
        "help: update the variable with `#pragma omp atomic` in the task",
    ),
    feature(
        "task_reduction",
        "OpenMP 5.0",
        "help: update the variable with `#pragma omp atomic` in the tasks",
    ),
    feature(
        "allocate",
        "OpenMP 5.0",
        "help: remove the clause: private copies come from the default allocator",
    ),
    feature(
        "affinity",
        "OpenMP 5.0",
        "help: remove the clause: it is a hint only",
    ),
    feature("detach", "OpenMP 5.0", REWRITE_4_5),
    feature(
        "device_type",
        "OpenMP 5.0",
        "help: remove the clause: the host is the only device",
    ),
    feature(
        "use_device_addr",
        "OpenMP 5.0",
        "help: remove the clause: the host is the only device",
    ),
    feature("uses_allocators", "OpenMP 5.0", "help: remove the clause"),
    feature(
        "has_device_addr",
        "OpenMP 5.1",
        "help: remove the clause: the host is the only device",
    ),
    feature(
        "compare",
        "OpenMP 5.1",
        "help: write the conditional update in a `critical` section",
    ),
    feature(
        "fail",
        "OpenMP 5.1",
        "help: write the conditional update in a `critical` section",
    ),
    feature(
        "weak",
        "OpenMP 5.1",
        "help: write the conditional update in a `critical` section",
    ),
];

/// The longest unsupported directive name that `words` start with, and its length in words.
pub fn directive(words: &[&str]) -> Option<(usize, &'static Feature)> {
    DIRECTIVES
        .iter()
        .filter_map(|f| {
            let n = f.written.split(' ').count();
            let matches = words.len() >= n && f.written.split(' ').eq(words[..n].iter().copied());
            matches.then_some((n, f))
        })
        .max_by_key(|&(n, _)| n)
}

/// An unsupported clause name.
pub fn clause(name: &str) -> Option<&'static Feature> {
    CLAUSES.iter().find(|f| f.written == name)
}

/// A clause that a later OpenMP allows on a directive where OpenMP 4.5 did not.
pub fn clause_on(directive: DirectiveKind, clause: ClauseKind) -> Option<Feature> {
    use ClauseKind as C;
    use DirectiveKind as D;
    match (directive, clause) {
        (D::Taskloop | D::TaskloopSimd, C::Reduction) => Some(feature(
            "`reduction` on `taskloop`",
            "OpenMP 5.0",
            "help: update the variable with `#pragma omp atomic` in the loop body, or share the \
             loop among the threads with `#pragma omp for reduction(...)`",
        )),
        (D::Taskwait, C::Depend) => Some(feature(
            "`depend` on `taskwait`",
            "OpenMP 5.0",
            "help: write `#pragma omp taskwait` without `depend`: it waits for every task",
        )),
        (D::Atomic, C::Hint) => Some(feature(
            "`hint` on `atomic`",
            "OpenMP 5.0",
            "help: remove the clause: it is a hint only",
        )),
        _ => None,
    }
}

/// The refusal of `feature`, written at `span`.
pub fn refusal(what: &str, feature: &Feature, span: Span) -> Diagnostic {
    Diagnostic::error(format!("{what} is not supported by capecc"))
        .with_primary(span, format!("an {} feature", feature.version))
        .with_note(feature.help)
}

/// The clause modifiers (and `default` kinds) of later OpenMP versions, by clause:
/// `(clause, word, feature)`.
pub const MODIFIERS: [(&str, &str, Feature); 8] = [
    (
        "default",
        "firstprivate",
        feature(
            "`default(firstprivate)`",
            "OpenMP 5.1",
            "help: name the variables in a `firstprivate` clause",
        ),
    ),
    (
        "default",
        "private",
        feature(
            "`default(private)`",
            "OpenMP 5.1",
            "help: name the variables in a `private` clause",
        ),
    ),
    (
        "lastprivate",
        "conditional",
        feature(
            "`lastprivate(conditional: ...)`",
            "OpenMP 5.0",
            "help: record the last iteration that assigns the variable (a `reduction(max: ...)` \
             of its index) and assign the variable after the loop",
        ),
    ),
    (
        "reduction",
        "inscan",
        feature(
            "`reduction(inscan, ...)`",
            "OpenMP 5.0",
            "help: compute the prefix sums in a sequential loop, or in two `parallel for` passes",
        ),
    ),
    (
        "reduction",
        "task",
        feature(
            "`reduction(task, ...)`",
            "OpenMP 5.0",
            "help: update the variable with `#pragma omp atomic` in the tasks",
        ),
    ),
    (
        "depend",
        "depobj",
        feature(
            "`depend(depobj: ...)`",
            "OpenMP 5.0",
            "help: write the dependences in the `depend` clauses of the tasks",
        ),
    ),
    (
        "depend",
        "inoutset",
        feature(
            "`depend(inoutset: ...)`",
            "OpenMP 5.1",
            "help: use `depend(inout: ...)`, which orders the tasks more strictly",
        ),
    ),
    (
        "depend",
        "iterator",
        feature(
            "`depend(iterator(...) ...)`",
            "OpenMP 5.0",
            "help: list the dependences one by one",
        ),
    ),
];

/// The unsupported modifier `word` of `clause`, if it is one.
pub fn modifier(clause: &str, word: &str) -> Option<&'static Feature> {
    MODIFIERS
        .iter()
        .find(|(c, m, _)| *c == clause && *m == word)
        .map(|(_, _, f)| f)
}

#[cfg(test)]
mod tests {
    use super::super::parse_pragma;
    use crate::diag::Diagnostic;

    fn refused(line: &str) -> Diagnostic {
        match parse_pragma(line, 0) {
            Err(e) => e,
            Ok(d) => panic!("`{line}` parsed: {d:?}"),
        }
    }

    /// The text under the primary label.
    fn at<'l>(line: &'l str, e: &Diagnostic) -> &'l str {
        let (span, _) = e.primary.as_ref().expect("a primary label");
        &line[span.start..span.end]
    }

    #[test]
    fn later_openmp_is_not_supported_rather_than_invalid() {
        for (line, message, place) in [
            (
                "#pragma omp parallel for lastprivate(conditional: last)",
                "`lastprivate(conditional: ...)` is not supported by capecc",
                "conditional",
            ),
            (
                "#pragma omp parallel for reduction(inscan, +: s)",
                "`reduction(inscan, ...)` is not supported by capecc",
                "inscan",
            ),
            (
                "#pragma omp scan inclusive(s)",
                "`#pragma omp scan` is not supported by capecc",
                "scan",
            ),
            (
                "#pragma omp parallel master taskloop num_tasks(4)",
                "`#pragma omp parallel master taskloop` is not supported by capecc",
                "parallel master taskloop",
            ),
            (
                "#pragma omp parallel masked taskloop",
                "`#pragma omp parallel masked taskloop` is not supported by capecc",
                "parallel masked taskloop",
            ),
            (
                "#pragma omp declare variant(f) match(user={condition(1)})",
                "`#pragma omp declare variant` is not supported by capecc",
                "declare variant",
            ),
            (
                "#pragma omp taskloop reduction(+: s) num_tasks(7)",
                "`reduction` on `taskloop` is not supported by capecc",
                "reduction(+: s)",
            ),
            (
                "#pragma omp task in_reduction(+: s)",
                "clause `in_reduction` is not supported by capecc",
                "in_reduction",
            ),
            (
                "#pragma omp task depend(inoutset: a)",
                "`depend(inoutset: ...)` is not supported by capecc",
                "inoutset",
            ),
            (
                "#pragma omp parallel default(firstprivate)",
                "`default(firstprivate)` is not supported by capecc",
                "firstprivate",
            ),
        ] {
            let e = refused(line);
            assert_eq!(e.message, message, "{line}");
            assert_eq!(at(line, &e), place, "{line}");
            assert!(e.notes.iter().any(|n| n.starts_with("help: ")), "{line}");
        }
    }

    #[test]
    fn supported_forms_still_parse() {
        for line in [
            "#pragma omp parallel for reduction(default, +: s)",
            "#pragma omp parallel for lastprivate(x)",
            "#pragma omp parallel",
            "#pragma omp master",
            "#pragma omp parallel master num_threads(3) firstprivate(x)",
            "#pragma omp parallel masked filter(1) reduction(+: s)",
            "#pragma omp task depend(inout: a)",
        ] {
            assert!(matches!(parse_pragma(line, 0), Ok(Some(_))), "{line}");
        }
    }
}
