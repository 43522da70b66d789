//! Directive parser tests. Pragmas are parsed at a non-zero offset so that every span checked
//! here also proves spans are absolute.

use super::*;
use crate::diag::Span;

const OFFSET: usize = 1000;

fn ok(line: &str) -> Directive {
    match parse_pragma(line, OFFSET) {
        Ok(Some(d)) => d,
        Ok(None) => panic!("`{line}` was not recognised as an OpenMP pragma"),
        Err(e) => panic!("`{line}` failed: {e:?}"),
    }
}

fn err(line: &str) -> Diagnostic {
    match parse_pragma(line, OFFSET) {
        Err(e) => e,
        Ok(d) => panic!("`{line}` parsed but should fail: {d:?}"),
    }
}

/// The text a span covers in `line`.
fn at(line: &str, span: Span) -> &str {
    &line[span.start - OFFSET..span.end - OFFSET]
}

fn primary<'a>(line: &'a str, e: &Diagnostic) -> &'a str {
    at(line, e.primary.as_ref().expect("a primary label").0)
}

fn secondary<'a>(line: &'a str, e: &Diagnostic) -> &'a str {
    at(line, e.secondary.first().expect("a secondary label").0)
}

fn items(args: &ClauseArgs) -> Vec<&str> {
    match args {
        ClauseArgs::List(items)
        | ClauseArgs::Reduction { items, .. }
        | ClauseArgs::ListWithExpr { items, .. } => items.iter().map(|i| i.name.as_str()).collect(),
        _ => Vec::new(),
    }
}

/// The extra text some directives need to be complete.
fn required_argument(kind: DirectiveKind) -> &'static str {
    match kind {
        DirectiveKind::Threadprivate => "(x)",
        DirectiveKind::Cancel | DirectiveKind::CancellationPoint => "for",
        DirectiveKind::DeclareReduction => "(merge : int, long : omp_out += omp_in)",
        _ => "",
    }
}

// ---- directive forms ------------------------------------------------------------------------

#[test]
fn every_directive_name_parses_to_its_kind() {
    for kind in DirectiveKind::ALL {
        let line = format!("#pragma omp {} {}", kind.name(), required_argument(kind));
        let d = ok(&line);
        assert_eq!(d.kind, kind, "{line}");
        assert_eq!(at(&line, d.name_span), kind.name());
        assert_eq!(at(&line, d.span), line.trim_end());
    }
}

#[test]
fn all_tables_are_complete_and_consistent() {
    for (i, a) in DirectiveKind::ALL.iter().enumerate() {
        assert!(
            DirectiveKind::ALL[..i].iter().all(|b| b != a),
            "{a:?} listed twice"
        );
    }
    for (i, a) in ClauseKind::ALL.iter().enumerate() {
        assert!(
            ClauseKind::ALL[..i].iter().all(|b| b != a),
            "{a:?} listed twice"
        );
        assert_eq!(ClauseKind::from_name(a.name()), Some(*a));
    }
}

#[test]
fn parallel_for_with_clauses() {
    let line = "#pragma omp parallel for private(i, j) firstprivate(k) lastprivate(l) shared(a) \
                reduction(+:s) schedule(static, 4) if(n > 100) num_threads(nt * 2) default(none)";
    let d = ok(line);
    assert_eq!(d.kind, DirectiveKind::ParallelFor);
    let kinds: Vec<ClauseKind> = d.clauses.iter().map(|c| c.kind).collect();
    use ClauseKind::*;
    assert_eq!(
        kinds,
        [
            Private,
            Firstprivate,
            Lastprivate,
            Shared,
            Reduction,
            Schedule,
            If,
            NumThreads,
            Default
        ]
    );
    assert_eq!(items(&d.clauses[0].args), ["i", "j"]);
    assert_eq!(at(line, d.clauses[0].span), "private(i, j)");
    match &d.clauses[0].args {
        ClauseArgs::List(list) => {
            assert_eq!(at(line, list[1].name_span), "j");
            assert_eq!(at(line, list[1].span), "j");
        }
        other => panic!("{other:?}"),
    }
    match &d.clauses[4].args {
        ClauseArgs::Reduction { op, op_span, items } => {
            assert_eq!(*op, ReductionOp::Add);
            assert_eq!(at(line, *op_span), "+");
            assert_eq!(items[0].name, "s");
        }
        other => panic!("{other:?}"),
    }
    match &d.clauses[5].args {
        ClauseArgs::Schedule {
            kind,
            modifiers,
            chunk,
        } => {
            assert_eq!(*kind, ScheduleKind::Static);
            assert!(modifiers.is_empty());
            assert_eq!(at(line, chunk.expect("a chunk")), "4");
        }
        other => panic!("{other:?}"),
    }
    match &d.clauses[6].args {
        ClauseArgs::Expr {
            expr,
            modifier: None,
        } => assert_eq!(at(line, *expr), "n > 100"),
        other => panic!("{other:?}"),
    }
    match &d.clauses[7].args {
        ClauseArgs::Expr { expr, .. } => assert_eq!(at(line, *expr), "nt * 2"),
        other => panic!("{other:?}"),
    }
    assert_eq!(d.clauses[8].args, ClauseArgs::Default(DefaultKind::None));
}

#[test]
fn clauses_may_be_separated_by_commas_and_pragma_may_have_spaces() {
    let d = ok("#  pragma   omp\tparallel private(a),shared(b) , num_threads(4)");
    assert_eq!(d.kind, DirectiveKind::Parallel);
    assert_eq!(d.clauses.len(), 3);
    // as in gcc, a comma only goes between clauses
    assert_eq!(
        err("#pragma omp parallel, private(a)").message,
        "expected a clause name, found `,`"
    );
}

#[test]
fn expressions_keep_balanced_delimiters_and_literals() {
    let line = r#"#pragma omp parallel num_threads( f(a, (b)) + x[g(1)] + (int)')' + sizeof("(") ) if (c)"#;
    let d = ok(line);
    match &d.clauses[0].args {
        ClauseArgs::Expr { expr, .. } => {
            assert_eq!(
                at(line, *expr),
                r#"f(a, (b)) + x[g(1)] + (int)')' + sizeof("(")"#
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(at(line, d.clauses[1].span), "if (c)");
}

#[test]
fn non_openmp_pragmas_pass_through() {
    for line in [
        "#pragma once",
        "#pragma GCC ivdep",
        "#pragma GCC diagnostic push",
        "#pragma STDC FP_CONTRACT ON",
        "#pragma ompx whatever",
        "#pragma",
        "#define omp 1",
        "",
        "int x;",
    ] {
        assert_eq!(parse_pragma(line, 0), Ok(None), "{line}");
    }
}

#[test]
fn schedule_forms() {
    let cases: [(&str, ScheduleKind, &[&str], Option<&str>); 7] = [
        ("schedule(static)", ScheduleKind::Static, &[], None),
        (
            "schedule(dynamic, n/4)",
            ScheduleKind::Dynamic,
            &[],
            Some("n/4"),
        ),
        ("schedule(guided,2)", ScheduleKind::Guided, &[], Some("2")),
        ("schedule(runtime)", ScheduleKind::Runtime, &[], None),
        ("schedule(auto)", ScheduleKind::Auto, &[], None),
        (
            "schedule(monotonic: static, c ? 1 : 2)",
            ScheduleKind::Static,
            &["monotonic"],
            Some("c ? 1 : 2"),
        ),
        (
            "schedule(nonmonotonic, simd : dynamic)",
            ScheduleKind::Dynamic,
            &["nonmonotonic", "simd"],
            None,
        ),
    ];
    for (clause, want_kind, want_modifiers, want_chunk) in cases {
        let line = format!("#pragma omp for {clause}");
        let d = ok(&line);
        match &d.clauses[0].args {
            ClauseArgs::Schedule {
                kind,
                modifiers,
                chunk,
            } => {
                assert_eq!(*kind, want_kind, "{clause}");
                assert_eq!(modifiers, want_modifiers, "{clause}");
                assert_eq!(chunk.map(|c| at(&line, c)), want_chunk, "{clause}");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn reduction_operators() {
    use ReductionOp::*;
    for (text, want) in [
        ("+", Add),
        ("*", Mul),
        ("-", Sub),
        ("&", BitAnd),
        ("|", BitOr),
        ("^", BitXor),
        ("&&", LogAnd),
        ("||", LogOr),
        ("max", Max),
        ("min", Min),
        ("merge", Custom),
    ] {
        let line = format!("#pragma omp parallel for reduction({text} : a, b[0:n])");
        let d = ok(&line);
        match &d.clauses[0].args {
            ClauseArgs::Reduction { op, op_span, items } => {
                assert_eq!(*op, want);
                assert_eq!(at(&line, *op_span), text);
                assert_eq!(items.len(), 2);
                assert_eq!(items[1].name, "b");
                assert_eq!(at(&line, items[1].span), "b[0:n]");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn if_with_directive_name_modifier() {
    let line = "#pragma omp target parallel for if(target: a > 1) if(parallel : b)";
    let d = ok(line);
    let mods: Vec<Option<&str>> = d
        .clauses
        .iter()
        .map(|c| match &c.args {
            ClauseArgs::Expr { modifier, .. } => modifier.as_deref(),
            _ => None,
        })
        .collect();
    assert_eq!(mods, [Some("target"), Some("parallel")]);
    let d = ok("#pragma omp target data map(a) if(target data: n)");
    assert!(
        matches!(&d.clauses[1].args, ClauseArgs::Expr { modifier: Some(m), .. } if m == "target data")
    );
    // a ternary is an expression, not a modifier
    let line = "#pragma omp parallel if(a ? b : c)";
    match &ok(line).clauses[0].args {
        ClauseArgs::Expr {
            expr,
            modifier: None,
        } => assert_eq!(at(line, *expr), "a ? b : c"),
        other => panic!("{other:?}"),
    }
    let d = ok("#pragma omp cancel for if(cancel: done)");
    assert_eq!(d.name_arg.as_deref(), Some("for"));
}

#[test]
fn list_items_with_sections_and_members() {
    let line =
        "#pragma omp target map(tofrom: a[0:n], s.f, p->g[i][1:2]) map(always, to: b) map(c)";
    let d = ok(line);
    assert_eq!(
        d.clauses[0].args,
        ClauseArgs::Raw {
            text: "tofrom: a[0:n], s.f, p->g[i][1:2]".into()
        }
    );
    assert_eq!(
        d.clauses[1].args,
        ClauseArgs::Raw {
            text: "always, to: b".into()
        }
    );
    let line = "#pragma omp target update to(a[lo:len]) from(s.x)";
    let d = ok(line);
    match &d.clauses[0].args {
        ClauseArgs::List(items) => {
            assert_eq!(items[0].name, "a");
            assert_eq!(at(line, items[0].name_span), "a");
            assert_eq!(at(line, items[0].span), "a[lo:len]");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn simd_and_declare_simd_clauses() {
    let line =
        "#pragma omp simd linear(i, j : 2) aligned(p : 32) safelen(8) simdlen(4) collapse(2)";
    let d = ok(line);
    match &d.clauses[0].args {
        ClauseArgs::ListWithExpr { items, expr } => {
            assert_eq!(items.len(), 2);
            assert_eq!(at(line, expr.expect("a step")), "2");
        }
        other => panic!("{other:?}"),
    }
    let d = ok("#pragma omp declare simd uniform(n) linear(val(k): 1) notinbranch simdlen(8)");
    assert_eq!(d.kind, DirectiveKind::DeclareSimd);
    assert_eq!(items(&d.clauses[1].args), ["k"]);
}

#[test]
fn atomic_forms() {
    for (line, want) in [
        ("#pragma omp atomic", vec![]),
        ("#pragma omp atomic read", vec![ClauseKind::Read]),
        (
            "#pragma omp atomic write seq_cst",
            vec![ClauseKind::Write, ClauseKind::SeqCst],
        ),
        (
            "#pragma omp atomic seq_cst update",
            vec![ClauseKind::SeqCst, ClauseKind::Update],
        ),
        (
            "#pragma omp atomic capture, seq_cst",
            vec![ClauseKind::Capture, ClauseKind::SeqCst],
        ),
    ] {
        let d = ok(line);
        assert_eq!(d.kind, DirectiveKind::Atomic);
        assert_eq!(
            d.clauses.iter().map(|c| c.kind).collect::<Vec<_>>(),
            want,
            "{line}"
        );
    }
}

#[test]
fn standalone_and_named_directives() {
    let d = ok("#pragma omp critical (update_lock) hint(0)");
    assert_eq!(d.name_arg.as_deref(), Some("update_lock"));
    assert_eq!(d.clauses[0].kind, ClauseKind::Hint);
    assert_eq!(ok("#pragma omp critical").name_arg, None);
    let d = ok("#pragma omp flush(a, b)");
    assert_eq!(
        d.list_arg
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert!(ok("#pragma omp flush").list_arg.is_empty());
    let d = ok("#pragma omp threadprivate(counter, seed)");
    assert_eq!(d.list_arg.len(), 2);
    let d = ok("#pragma omp cancellation point taskgroup");
    assert_eq!(d.name_arg.as_deref(), Some("taskgroup"));
    for line in [
        "#pragma omp barrier",
        "#pragma omp taskwait",
        "#pragma omp taskyield",
        "#pragma omp section",
    ] {
        assert!(ok(line).clauses.is_empty());
    }
    let d = ok("#pragma omp masked filter(omp_get_num_threads() - 1)");
    assert_eq!(d.kind, DirectiveKind::Masked);
    assert_eq!(d.clauses[0].kind, ClauseKind::Filter);
    assert_eq!(ok("#pragma omp master").kind, DirectiveKind::Master);
}

#[test]
fn ordered_forms() {
    let d = ok("#pragma omp ordered depend(sink: i - 1, j + 1) depend(sink: i, j - 1)");
    assert_eq!(
        d.clauses[0].args,
        ClauseArgs::Raw {
            text: "sink: i - 1, j + 1".into()
        }
    );
    let d = ok("#pragma omp ordered depend(source)");
    assert_eq!(
        d.clauses[0].args,
        ClauseArgs::Raw {
            text: "source".into()
        }
    );
    assert_eq!(
        ok("#pragma omp ordered threads").clauses[0].kind,
        ClauseKind::Threads
    );
    assert_eq!(
        ok("#pragma omp ordered simd").clauses[0].kind,
        ClauseKind::Simd
    );
    let d = ok("#pragma omp for ordered(2) collapse(2)");
    assert!(matches!(d.clauses[0].args, ClauseArgs::Expr { .. }));
    assert_eq!(
        ok("#pragma omp for ordered").clauses[0].args,
        ClauseArgs::None
    );
}

#[test]
fn tasks_and_declarations() {
    let d = ok(
        "#pragma omp task depend(in: a[0:n], b) depend(inout: c) untied final(d > 3) priority(1)",
    );
    assert_eq!(d.clauses.len(), 5);
    let d = ok("#pragma omp taskloop grainsize(64) nogroup");
    assert_eq!(d.kind, DirectiveKind::Taskloop);
    let line = "#pragma omp declare reduction(merge : struct list, long : omp_out = cat(omp_out, omp_in)) initializer(omp_priv = empty())";
    let d = ok(line);
    assert_eq!(d.name_arg.as_deref(), Some("merge"));
    assert_eq!(
        d.list_arg
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>(),
        ["struct list", "long"]
    );
    assert_eq!(
        d.clauses[0].args,
        ClauseArgs::Raw {
            text: "omp_priv = empty()".into()
        }
    );
    let d = ok("#pragma omp declare reduction(+ : cplx : omp_out = add(omp_out, omp_in))");
    assert_eq!(d.name_arg.as_deref(), Some("+"));
    let d = ok("#pragma omp declare target");
    assert_eq!(d.kind, DirectiveKind::DeclareTarget);
    assert_eq!(ok("#pragma omp declare target (f, g)").list_arg.len(), 2);
    assert_eq!(
        ok("#pragma omp declare target to(f) link(tbl)")
            .clauses
            .len(),
        2
    );
    assert_eq!(
        ok("#pragma omp end declare target").kind,
        DirectiveKind::EndDeclareTarget
    );
    let d = ok("#pragma omp target teams distribute parallel for simd map(to: x) num_teams(4) thread_limit(64) dist_schedule(static, 8) defaultmap(tofrom: scalar) proc_bind(spread)");
    assert_eq!(d.kind, DirectiveKind::TargetTeamsDistributeParallelForSimd);
    assert_eq!(
        d.clauses[5].args,
        ClauseArgs::Raw {
            text: "spread".into()
        }
    );
}

#[test]
fn data_sharing_combinations_that_are_allowed() {
    ok("#pragma omp parallel for firstprivate(x) lastprivate(x)");
    ok("#pragma omp simd linear(x) lastprivate(x)");
    ok("#pragma omp parallel private(a) shared(b) reduction(+: c) copyin(a)");
    ok("#pragma omp single copyprivate(x) private(x)");
}

// ---- clause rules ---------------------------------------------------------------------------

#[test]
fn clause_allowed_follows_openmp_4_5() {
    use ClauseKind as C;
    use DirectiveKind as D;
    assert!(clause_allowed(D::Parallel, C::NumThreads));
    assert!(!clause_allowed(D::Parallel, C::Schedule));
    assert!(clause_allowed(D::For, C::Nowait));
    assert!(!clause_allowed(D::ParallelFor, C::Nowait));
    assert!(!clause_allowed(D::ParallelSections, C::Nowait));
    assert!(clause_allowed(D::ParallelFor, C::Schedule));
    assert!(clause_allowed(D::ParallelFor, C::Copyin));
    assert!(clause_allowed(D::ParallelForSimd, C::Aligned));
    assert!(clause_allowed(D::TargetParallelFor, C::Nowait));
    assert!(!clause_allowed(D::TargetParallel, C::Copyin));
    assert!(!clause_allowed(D::DistributeParallelFor, C::Ordered));
    assert!(!clause_allowed(D::DistributeParallelFor, C::Linear));
    assert!(clause_allowed(
        D::TargetTeamsDistributeParallelForSimd,
        C::DistSchedule
    ));
    assert!(clause_allowed(D::Ordered, C::Depend));
    assert!(!clause_allowed(D::Barrier, C::Nowait));
    assert!(clause_allowed(D::Masked, C::Filter));
    assert!(!clause_allowed(D::Master, C::Filter));
    assert!(!clause_allowed(D::Taskloop, C::Reduction));
    assert!(!clause_allowed(D::Simd, C::If));
    for c in ClauseKind::ALL {
        assert!(!clause_allowed(D::Section, c));
        assert!(!clause_allowed(D::Threadprivate, c));
    }
}

// ---- errors ---------------------------------------------------------------------------------

#[test]
fn unknown_directive_with_suggestion() {
    let line = "#pragma omp parallell for";
    let e = err(line);
    assert_eq!(e.message, "unknown OpenMP directive `parallell`");
    assert_eq!(primary(line, &e), "parallell");
    assert_eq!(e.notes, ["help: did you mean `parallel`?"]);
    let line = "#pragma omp target enter dat map(to: a)";
    let e = err(line);
    assert_eq!(e.message, "unknown OpenMP directive `target enter dat`");
    assert_eq!(primary(line, &e), "target enter dat");
    assert_eq!(e.notes, ["help: did you mean `target enter data`?"]);
    let e = err("#pragma omp frobnicate");
    assert!(e.notes.is_empty());
    let e = err("#pragma omp declare");
    assert_eq!(e.message, "unknown OpenMP directive `declare`");
    assert!(e.notes[0].contains("`declare simd`"));
    let line = "#pragma omp (x)";
    let e = err(line);
    assert_eq!(
        e.message,
        "expected an OpenMP directive name after `#pragma omp`, found `(`"
    );
    assert_eq!(primary(line, &e), "(");
    // a bare `#pragma omp` is ignored, as gcc ignores it (with a warning: `bare_pragmas`)
    assert_eq!(parse_pragma("#pragma omp", 0), Ok(None));
    assert_eq!(parse_pragma("#  pragma   omp  // nothing", 0), Ok(None));
    let text = "int x;\n#pragma omp\n#pragma omp barrier\n";
    let warnings = bare_pragmas(text);
    assert_eq!(warnings.len(), 1);
    let span = warnings[0].primary.as_ref().unwrap().0;
    assert_eq!(&text[span.start..span.end], "#pragma omp");
}

#[test]
fn unknown_clause_with_suggestion() {
    let line = "#pragma omp parallel for privte(i)";
    let e = err(line);
    assert_eq!(e.message, "unknown OpenMP clause `privte`");
    assert_eq!(primary(line, &e), "privte");
    assert_eq!(e.notes, ["help: did you mean `private`?"]);
}

#[test]
fn clause_not_allowed_lists_allowed_clauses() {
    let line = "#pragma omp parallel private(a) schedule(static)";
    let e = err(line);
    assert_eq!(
        e.message,
        "clause `schedule` is not allowed on `#pragma omp parallel`"
    );
    assert_eq!(primary(line, &e), "schedule(static)");
    assert_eq!(
        e.notes,
        ["`#pragma omp parallel` allows `if`, `num_threads`, `default`, `private`, `firstprivate`, \
          `shared`, `copyin`, `reduction`, `proc_bind`"]
    );
    let line = "#pragma omp parallel for nowait";
    assert_eq!(
        err(line).message,
        "clause `nowait` is not allowed on `#pragma omp parallel for`"
    );
    let e = err("#pragma omp barrier nowait");
    assert_eq!(e.notes, ["`#pragma omp barrier` takes no clauses"]);
}

#[test]
fn missing_and_unbalanced_parentheses() {
    let line = "#pragma omp parallel private a";
    let e = err(line);
    assert_eq!(e.message, "expected `(` after `private`, found `a`");
    assert_eq!(primary(line, &e), "a");
    let line = "#pragma omp parallel num_threads";
    let e = err(line);
    assert_eq!(
        e.message,
        "expected `(` after `num_threads`, found end of line"
    );
    assert_eq!(
        e.primary.as_ref().map(|p| p.0),
        Some(Span::new(OFFSET + line.len(), OFFSET + line.len()))
    );
    let line = "#pragma omp parallel private(a, b";
    let e = err(line);
    assert_eq!(e.message, "expected `)`, found end of line");
    assert_eq!(secondary(line, &e), "(");
    let line = "#pragma omp parallel num_threads(f(x)";
    let e = err(line);
    assert_eq!(e.message, "expected `)`, found end of line");
    assert_eq!(e.secondary[0].0.start, OFFSET + 32);
    let line = "#pragma omp parallel num_threads(f(x";
    let e = err(line);
    assert_eq!(e.message, "unclosed delimiter `(`");
    assert_eq!(e.primary.as_ref().map(|p| p.0.start), Some(OFFSET + 34));
    let line = "#pragma omp parallel num_threads(f[x)])";
    let e = err(line);
    assert_eq!(e.message, "mismatched closing delimiter `)`");
    assert_eq!(secondary(line, &e), "[");
    let line = "#pragma omp parallel num_threads(a, b)";
    let e = err(line);
    assert_eq!(e.message, "expected `)`, found `,`");
    assert_eq!(primary(line, &e), ",");
}

#[test]
fn empty_lists_and_expressions() {
    let line = "#pragma omp parallel private()";
    let e = err(line);
    assert_eq!(e.message, "empty list in `private`");
    assert_eq!(primary(line, &e), ")");
    let line = "#pragma omp parallel num_threads( )";
    let e = err(line);
    assert_eq!(e.message, "expected expression, found `)`");
    let e = err("#pragma omp threadprivate");
    assert_eq!(
        e.message,
        "expected `(` after `threadprivate`, found end of line"
    );
    let line = "#pragma omp parallel shared(a,)";
    assert_eq!(err(line).message, "expected a variable name, found `)`");
    let line = "#pragma omp parallel private(a[0:2])";
    let e = err(line);
    assert_eq!(
        e.message,
        "only variable names are allowed in a `private` clause"
    );
    assert_eq!(primary(line, &e), "a[0:2]");
}

#[test]
fn bad_reduction_operator() {
    let line = "#pragma omp parallel for reduction(/: x)";
    let e = err(line);
    assert_eq!(e.message, "invalid reduction operator `/`");
    assert_eq!(primary(line, &e), "/");
    let line = "#pragma omp parallel for reduction(x)";
    let e = err(line);
    assert_eq!(
        e.message,
        "expected `:` after the reduction operator, found `)`"
    );
    let line = "#pragma omp parallel for reduction(+: )";
    assert_eq!(err(line).message, "empty list in `reduction`");
}

#[test]
fn bad_schedules() {
    let line = "#pragma omp for schedule(fast)";
    let e = err(line);
    assert_eq!(e.message, "unknown schedule kind `fast`");
    assert_eq!(primary(line, &e), "fast");
    let line = "#pragma omp for schedule(runtime, 4)";
    let e = err(line);
    assert_eq!(e.message, "`runtime` schedule does not take a chunk size");
    assert_eq!(primary(line, &e), "4");
    let line = "#pragma omp for schedule(auto, n + 1)";
    assert_eq!(primary(line, &err(line)), "n + 1");
    let line = "#pragma omp for schedule(mono: static)";
    assert_eq!(err(line).message, "unknown schedule modifier `mono`");
    let line = "#pragma omp for schedule(monotonic, nonmonotonic: dynamic)";
    let e = err(line);
    assert_eq!(
        e.message,
        "schedule modifiers `monotonic` and `nonmonotonic` are mutually exclusive"
    );
    assert_eq!(primary(line, &e), "nonmonotonic");
    // OpenMP 5.0 allows `nonmonotonic` with every kind, as gcc does
    let line = "#pragma omp for schedule(nonmonotonic: static)";
    assert!(parse_pragma(line, 0).is_ok_and(|d| d.is_some()));
    let line = "#pragma omp for schedule(nonmonotonic: static, 4)";
    assert!(parse_pragma(line, 0).is_ok_and(|d| d.is_some()));
    let line = "#pragma omp for schedule(static,)";
    assert_eq!(err(line).message, "expected expression, found `)`");
}

#[test]
fn bad_keywords() {
    let line = "#pragma omp parallel default(all)";
    let e = err(line);
    assert_eq!(e.message, "expected `shared` or `none`, found `all`");
    assert_eq!(primary(line, &e), "all");
    // valid OpenMP 5.1: not supported rather than invalid
    let line = "#pragma omp parallel default(firstprivate)";
    let e = err(line);
    assert_eq!(
        e.message,
        "`default(firstprivate)` is not supported by capecc"
    );
    assert_eq!(primary(line, &e), "firstprivate");
    let line = "#pragma omp parallel proc_bind(near)";
    assert_eq!(
        err(line).message,
        "expected one of `master`, `close`, `spread`, found `near`"
    );
    let line = "#pragma omp parallel if(task: c)";
    let e = err(line);
    assert_eq!(
        e.message,
        "directive-name modifier `task` does not apply to `#pragma omp parallel`"
    );
    assert_eq!(primary(line, &e), "task");
    let line = "#pragma omp parallel if(paralel: c)";
    assert_eq!(
        err(line).message,
        "unknown directive-name modifier `paralel`"
    );
    let line = "#pragma omp cancel loop";
    let e = err(line);
    assert_eq!(
        e.message,
        "expected `parallel`, `sections`, `for` or `taskgroup`, found `loop`"
    );
    assert_eq!(primary(line, &e), "loop");
    let line = "#pragma omp task depend(sink: i)";
    assert_eq!(
        err(line).message,
        "`depend(sink)` is only allowed on `#pragma omp ordered`"
    );
    let line = "#pragma omp ordered depend(in: a)";
    assert_eq!(
        err(line).message,
        "`depend(in)` is not allowed on `#pragma omp ordered`"
    );
    let line = "#pragma omp task depend(read: a)";
    assert_eq!(err(line).message, "unknown dependence type `read`");
    let line = "#pragma omp target map(readonly: a)";
    assert_eq!(err(line).message, "unknown map type `readonly`");
    let line = "#pragma omp parallel for nowait(1)";
    let e = err(line);
    assert_eq!(e.message, "clause `nowait` takes no arguments");
}

#[test]
fn duplicate_and_exclusive_clauses() {
    let line = "#pragma omp parallel num_threads(2) private(a) num_threads(4)";
    let e = err(line);
    assert_eq!(e.message, "clause `num_threads` specified more than once");
    assert_eq!(primary(line, &e), "num_threads(4)");
    assert_eq!(secondary(line, &e), "num_threads(2)");
    for line in [
        "#pragma omp parallel if(a) if(b)",
        "#pragma omp for schedule(static) schedule(dynamic)",
        "#pragma omp for nowait nowait",
        "#pragma omp parallel default(shared) default(none)",
        "#pragma omp for collapse(2) collapse(2)",
        "#pragma omp target parallel if(target: a) if(target: b)",
    ] {
        assert!(
            err(line).message.ends_with("specified more than once"),
            "{line}"
        );
    }
    ok("#pragma omp target parallel if(target: a) if(parallel: b)");
    let line = "#pragma omp atomic read write";
    let e = err(line);
    assert_eq!(
        e.message,
        "clauses `read` and `write` are mutually exclusive"
    );
    assert_eq!(primary(line, &e), "write");
    assert_eq!(secondary(line, &e), "read");
    assert!(err("#pragma omp taskloop grainsize(4) num_tasks(2)")
        .message
        .contains("mutually exclusive"));
}

#[test]
fn conflicting_data_sharing_clauses() {
    let line = "#pragma omp parallel private(x, y) shared(z, x)";
    let e = err(line);
    assert_eq!(e.message, "`x` cannot be both `private` and `shared`");
    assert_eq!(
        e.primary.as_ref().map(|p| p.0),
        Some(Span::new(OFFSET + 45, OFFSET + 46))
    );
    assert_eq!(e.secondary[0].0, Span::new(OFFSET + 29, OFFSET + 30));
    let line = "#pragma omp parallel for private(s) firstprivate(s)";
    assert_eq!(
        err(line).message,
        "`s` cannot be both `private` and `firstprivate`"
    );
    let line = "#pragma omp parallel for reduction(+: s) private(s)";
    assert_eq!(
        err(line).message,
        "`s` cannot be both `reduction` and `private`"
    );
    let line = "#pragma omp parallel for private(i, i)";
    let e = err(line);
    assert_eq!(e.message, "`i` is listed more than once as `private`");
    assert_eq!(e.primary.as_ref().map(|p| p.0.start), Some(OFFSET + 36));
    let line = "#pragma omp parallel for reduction(+: s) reduction(*: s)";
    assert_eq!(
        err(line).message,
        "`s` is listed more than once as `reduction`"
    );
}

#[test]
fn trailing_garbage() {
    let line = "#pragma omp parallel for private(i) )";
    let e = err(line);
    assert_eq!(e.message, "expected a clause name, found `)`");
    assert_eq!(primary(line, &e), ")");
    let line = "#pragma omp barrier 42";
    assert_eq!(err(line).message, "expected a clause name, found `42`");
    let line = "#pragma omp parallel private(a),";
    assert_eq!(
        err(line).message,
        "expected a clause name, found end of line"
    );
    let line = "#pragma omp critical(a b)";
    assert_eq!(err(line).message, "expected `)`, found `b`");
}

// ---- scan -----------------------------------------------------------------------------------

#[test]
fn scan_finds_every_omp_pragma_with_absolute_spans() {
    let text = "# 1 \"a.c\"\nint a;\n#pragma once\n#pragma omp parallel for private(i)\n\
                for (;;) ;\n  #pragma omp barrier\n# pragma omp barrier\n#pragma omp bogus\n\
                #pragma omp parallel \\\n  num_threads(2)\n#pragma omp flush";
    let (directives, errors) = scan(text);
    let kinds: Vec<DirectiveKind> = directives.iter().map(|d| d.kind).collect();
    use DirectiveKind::*;
    assert_eq!(kinds, [ParallelFor, Barrier, Parallel, Flush]);
    let first = &directives[0];
    assert_eq!(
        &text[first.span.start..first.span.end],
        "#pragma omp parallel for private(i)"
    );
    assert_eq!(
        &text[first.clauses[0].span.start..first.clauses[0].span.end],
        "private(i)"
    );
    let continued = &directives[2];
    assert_eq!(
        &text[continued.clauses[0].span.start..continued.clauses[0].span.end],
        "num_threads(2)"
    );
    assert_eq!(errors.len(), 1);
    let bad = errors[0].primary.as_ref().expect("a label").0;
    assert_eq!(&text[bad.start..bad.end], "bogus");
    // CRLF line ends
    let (directives, errors) = scan("#pragma omp barrier\r\n#pragma omp taskwait\r\n");
    assert_eq!((directives.len(), errors.len()), (2, 0));
}

// ---- real-world corpus, round trip ------------------------------------------------------------

/// Pragmas as they appear in PolyBench, NPB, Rodinia and OpenMP example codes.
const CORPUS: &[&str] = &[
    "#pragma omp parallel for private(j)",
    "#pragma omp parallel for private (i, j, k) schedule(static)",
    "#pragma omp parallel for reduction(+:sum) private(x)",
    "#pragma omp parallel default(shared) private(i,j,k,m,iglob,jglob,xi,eta,zeta,pxi,peta,pzeta) shared(nx,ny,nz)",
    "#pragma omp for nowait",
    "#pragma omp for schedule(static) nowait",
    "#pragma omp for reduction(+: rms_local[:5]) nowait",
    "#pragma omp parallel for default(shared) private(i,j,k,r1,r2,r3,r4) reduction(max:maxerr) schedule(dynamic, 16)",
    "#pragma omp parallel for collapse(2) schedule(guided)",
    "#pragma omp parallel for simd reduction(+:s) aligned(a, b : 64)",
    "#pragma omp simd reduction(min:best) safelen(16)",
    "#pragma omp master",
    "#pragma omp single",
    "#pragma omp single nowait",
    "#pragma omp critical",
    "#pragma omp critical (norm_lock)",
    "#pragma omp barrier",
    "#pragma omp atomic",
    "#pragma omp atomic update",
    "#pragma omp atomic capture",
    "#pragma omp flush(flag)",
    "#pragma omp threadprivate(x_rand, y_rand)",
    "#pragma omp sections private(tmp) lastprivate(last)",
    "#pragma omp section",
    "#pragma omp parallel sections num_threads(2)",
    "#pragma omp task firstprivate(n) shared(x) depend(out: x)",
    "#pragma omp taskwait",
    "#pragma omp taskgroup",
    "#pragma omp taskloop simd grainsize(100) lastprivate(k)",
    "#pragma omp ordered",
    "#pragma omp for ordered schedule(dynamic)",
    "#pragma omp parallel if(n > 1000) num_threads(omp_get_num_procs())",
    "#pragma omp parallel proc_bind(close) copyin(seed)",
    "#pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(from: c[0:n])",
    "#pragma omp target data map(tofrom: x[0:N]) device(0)",
    "#pragma omp target enter data map(alloc: buf[0:len])",
    "#pragma omp target exit data map(delete: buf[0:len])",
    "#pragma omp teams num_teams(8) thread_limit(128)",
    "#pragma omp distribute dist_schedule(static)",
    "#pragma omp declare simd uniform(a) linear(i:1) inbranch",
    "#pragma omp cancel parallel if(err != 0)",
    "#pragma omp cancellation point for",
    "#pragma omp for linear(j : 2) firstprivate(f) lastprivate(f)",
    "#pragma omp parallel for lastprivate(i) firstprivate(i) schedule(static, CHUNK)",
];

/// A structural description with every span replaced by the text it covers, so two parses of
/// differently laid out text compare equal when they mean the same.
fn describe(line: &str, d: &Directive) -> String {
    let text = |s: Span| {
        line.get(s.start - OFFSET..s.end - OFFSET)
            .unwrap_or("<bad span>")
            .to_string()
    };
    let item = |i: &ListItem| format!("{}={}", i.name, text(i.span));
    let list = |items: &[ListItem]| items.iter().map(item).collect::<Vec<_>>().join(",");
    let mut out = format!("{:?} {:?} [{}]", d.kind, d.name_arg, list(&d.list_arg));
    for c in &d.clauses {
        let args = match &c.args {
            ClauseArgs::None => String::new(),
            ClauseArgs::Expr { expr, modifier } => format!("{modifier:?} {}", text(*expr)),
            ClauseArgs::List(items) => list(items),
            ClauseArgs::Default(k) => format!("{k:?}"),
            ClauseArgs::Reduction { op, op_span, items } => {
                format!("{op:?} {} {}", text(*op_span), list(items))
            }
            ClauseArgs::Schedule {
                kind,
                modifiers,
                chunk,
            } => {
                format!("{kind:?} {modifiers:?} {:?}", chunk.map(text))
            }
            ClauseArgs::ListWithExpr { items, expr } => {
                format!("{} {:?}", list(items), expr.map(text))
            }
            ClauseArgs::Raw { text } => text.replace(' ', ""),
        };
        out += &format!(" {:?}({args})", c.kind);
    }
    out
}

/// Rebuild a pragma from the parsed directive: name and argument text, then each clause's text
/// cut out by its span, comma separated. Parsing it again must give the same structure.
fn rebuild(line: &str, d: &Directive) -> String {
    let start = d.name_span.start - OFFSET;
    let first_clause = d
        .clauses
        .first()
        .map_or(line.trim_end().len(), |c| c.span.start - OFFSET);
    let mut out = format!("#pragma omp {}", line[start..first_clause].trim());
    for (i, c) in d.clauses.iter().enumerate() {
        out += if i == 0 { " " } else { ", " };
        out += &line[c.span.start - OFFSET..c.span.end - OFFSET];
    }
    out
}

#[test]
fn corpus_parses_and_round_trips() {
    for line in CORPUS {
        let d = ok(line);
        let again = rebuild(line, &d);
        let d2 = ok(&again);
        assert_eq!(describe(line, &d), describe(&again, &d2), "{line}\n{again}");
        // the clauses cover the pragma: nothing but separators between them
        for pair in d.clauses.windows(2) {
            let gap = &line[pair[0].span.end - OFFSET..pair[1].span.start - OFFSET];
            assert!(
                gap.trim().is_empty() || gap.trim() == ",",
                "{line}: gap `{gap}`"
            );
        }
    }
}

#[test]
#[ignore]
fn dump_clause_table() {
    for d in DirectiveKind::ALL {
        for c in ClauseKind::ALL {
            println!("TABLE {}|{}|{}", d.name(), c.name(), clause_allowed(d, c));
        }
    }
}

// ---- deterministic mutation fuzzing (stable Rust; `compiler/fuzz` has the libFuzzer targets) --

/// xorshift64*: a small seeded generator, so every run tries the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SPLICE_TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "'",
    "\\",
    "/*",
    "->",
    ".",
    "&&",
    "||",
    "+",
    " ",
    "\n",
    "é",
    "\u{0}",
    "if",
    "parallel",
    "for",
    "simd",
    "target",
    "data",
    "private",
    "reduction",
    "schedule",
    "static",
    "runtime",
    "default",
    "none",
    "map",
    "always",
    "to",
    "depend",
    "sink",
    "source",
    "in",
    "linear",
    "val",
    "declare",
    "omp",
    "#pragma",
    "nowait",
    "x",
    "0",
    "max",
];

fn mutate(rng: &mut Rng, input: &str) -> String {
    let mut bytes = input.as_bytes().to_vec();
    for _ in 0..1 + rng.below(2) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => bytes.insert(at, rng.below(256) as u8),
            2 => bytes.truncate(at),
            3 if at < bytes.len() => {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                bytes.drain(at..end);
            }
            4 => {
                let tok = SPLICE_TOKENS[rng.below(SPLICE_TOKENS.len())];
                bytes.splice(at..at, tok.bytes());
            }
            _ => {
                // splice a slice of another corpus pragma
                let other = CORPUS[rng.below(CORPUS.len())].as_bytes();
                let from = rng.below(other.len());
                let to = (from + rng.below(24)).min(other.len());
                bytes.splice(at..at, other[from..to].iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn check_span(line: &str, span: Span) {
    assert!(
        span.start >= OFFSET && span.start <= span.end,
        "{line:?} {span:?}"
    );
    let (start, end) = (span.start - OFFSET, span.end - OFFSET);
    assert!(end <= line.len(), "{line:?} {span:?}");
    assert!(
        line.is_char_boundary(start) && line.is_char_boundary(end),
        "{line:?} {span:?}"
    );
}

/// Parses `count` mutated pragmas; any panic fails the test (with the input in the message
/// of the failed assertion or the panic location). Returns how many parsed successfully.
fn fuzz_directives(seed: u64, count: usize) -> usize {
    let mut rng = Rng(seed);
    let mut parsed = 0;
    for _ in 0..count {
        let base = CORPUS[rng.below(CORPUS.len())];
        let line = mutate(&mut rng, base);
        match parse_pragma(&line, OFFSET) {
            Ok(Some(d)) => {
                parsed += 1;
                check_span(&line, d.span);
                check_span(&line, d.name_span);
                d.clauses.iter().for_each(|c| check_span(&line, c.span));
            }
            Ok(None) => {}
            Err(e) => {
                e.primary
                    .iter()
                    .chain(&e.secondary)
                    .for_each(|(s, _)| check_span(&line, *s));
            }
        }
    }
    parsed
}

#[test]
fn mutation_fuzz_quick() {
    let parsed = fuzz_directives(0x5eed_cafe, 20_000);
    println!("{parsed} of 20000 mutated pragmas parsed");
    // the mutations must leave a fair share valid, or the fuzzer only tests the error paths
    assert!(
        parsed > 500,
        "only {parsed} of 20000 mutated pragmas parsed"
    );
}

/// `cargo test -p capecc --release -- --ignored mutation_fuzz_long --nocapture`
#[test]
#[ignore]
fn mutation_fuzz_long() {
    let start = std::time::Instant::now();
    let count = 2_000_000;
    let parsed = fuzz_directives(0x0dd_ba11, count);
    println!("{count} inputs, {parsed} parsed, {:?}", start.elapsed());
}

#[test]
fn openmp5_memory_orders_order_and_nontemporal() {
    for (line, want) in [
        ("#pragma omp atomic relaxed", vec![ClauseKind::Relaxed]),
        (
            "#pragma omp atomic update acq_rel",
            vec![ClauseKind::Update, ClauseKind::AcqRel],
        ),
        (
            "#pragma omp atomic read acquire",
            vec![ClauseKind::Read, ClauseKind::Acquire],
        ),
        ("#pragma omp flush release", vec![ClauseKind::Release]),
        ("#pragma omp flush acq_rel", vec![ClauseKind::AcqRel]),
        (
            "#pragma omp parallel for order(concurrent)",
            vec![ClauseKind::Order],
        ),
        (
            "#pragma omp simd nontemporal(a, b)",
            vec![ClauseKind::Nontemporal],
        ),
    ] {
        let d = ok(line);
        assert_eq!(
            d.clauses.iter().map(|c| c.kind).collect::<Vec<_>>(),
            want,
            "{line}"
        );
    }
    let d = ok("#pragma omp simd nontemporal(a, b)");
    assert_eq!(items(&d.clauses[0].args), ["a", "b"]);
    // `relaxed` is no memory order of a flush, and `order` takes `concurrent` only
    err("#pragma omp flush relaxed");
    err("#pragma omp for order(serial)");
}

#[test]
fn loop_construct_and_its_combined_forms() {
    for (line, kind) in [
        ("#pragma omp loop bind(thread)", DirectiveKind::Loop),
        (
            "#pragma omp parallel loop reduction(+:s) collapse(2)",
            DirectiveKind::ParallelLoop,
        ),
        ("#pragma omp teams loop", DirectiveKind::TeamsLoop),
        (
            "#pragma omp target teams loop map(tofrom: a)",
            DirectiveKind::TargetTeamsLoop,
        ),
        (
            "#pragma omp target parallel loop",
            DirectiveKind::TargetParallelLoop,
        ),
    ] {
        assert_eq!(ok(line).kind, kind, "{line}");
    }
    let d = ok("#pragma omp loop bind(parallel) order(concurrent)");
    assert_eq!(d.clauses[0].kind, ClauseKind::Bind);
    err("#pragma omp loop bind(league)");
    err("#pragma omp loop schedule(static)");
}

#[test]
fn copyprivate_and_nowait_exclude_each_other() {
    let line = "#pragma omp single copyprivate(v) nowait";
    let e = err(line);
    assert_eq!(
        e.message,
        "clauses `copyprivate` and `nowait` are mutually exclusive"
    );
    assert_eq!(primary(line, &e), "nowait");
    assert!(e
        .notes
        .iter()
        .any(|n| n.starts_with("help: remove `nowait`")));
    ok("#pragma omp single copyprivate(a) copyprivate(b)");
}

#[test]
fn clauses_that_take_a_positive_constant() {
    for (line, value) in [
        ("#pragma omp simd safelen(0)", "0"),
        ("#pragma omp simd simdlen(-1)", "-1"),
        ("#pragma omp for collapse(1 - 1)", "1 - 1"),
        ("#pragma omp for ordered(0x0)", "0x0"),
    ] {
        let e = err(line);
        assert!(
            e.message.ends_with("must be a positive constant"),
            "{line}: {}",
            e.message
        );
        assert_eq!(primary(line, &e), value);
    }
    for line in [
        "#pragma omp simd safelen(8) simdlen((1 + 1) * 2)",
        "#pragma omp simd safelen(N)",
        "#pragma omp for collapse(2u) ordered(2)",
        "#pragma omp simd simdlen(sizeof(int))",
    ] {
        ok(line);
    }
}

#[test]
fn integer_clauses_refuse_string_and_floating_constants() {
    for line in [
        "#pragma omp parallel num_threads(\"x\")",
        "#pragma omp parallel num_threads(2.5)",
        "#pragma omp parallel for num_threads(-2.5)",
        "#pragma omp for schedule(static, 2.5)",
        "#pragma omp for schedule(dynamic, 1e2)",
        "#pragma omp for collapse(2.0)",
        "#pragma omp for ordered(1.)",
        "#pragma omp taskloop grainsize(0x1p2)",
        "#pragma omp taskloop num_tasks(\"4\")",
        "#pragma omp task priority(.5)",
        "#pragma omp target device(1.5)",
        "#pragma omp distribute dist_schedule(static, 2.5)",
    ] {
        let e = err(line);
        assert!(
            e.message.ends_with("must be an integer expression"),
            "{line}: {}",
            e.message
        );
    }
    let line = "#pragma omp for schedule(static, 2.5)";
    assert_eq!(primary(line, &err(line)), "2.5");
    // integers, casts and names are the compiler's to check
    for line in [
        "#pragma omp parallel num_threads(0x1e)",
        "#pragma omp parallel num_threads((int)2.5)",
        "#pragma omp parallel num_threads(n * 2)",
        "#pragma omp for schedule(static, 4u)",
        "#pragma omp task final(0.5)",
        "#pragma omp parallel if(2.5)",
    ] {
        assert!(parse_pragma(line, 0).is_ok_and(|d| d.is_some()), "{line}");
    }
}

#[test]
fn constant_values_of_clause_arguments() {
    assert_eq!(crate::directive::constant_value("0"), Some(0));
    assert_eq!(crate::directive::constant_value(" -3 "), Some(-3));
    assert_eq!(crate::directive::constant_value("2*3-7"), Some(-1));
    assert_eq!(crate::directive::constant_value("n - 1"), None);
    assert_eq!(crate::directive::constant_value("(int)2.5"), None);
}
