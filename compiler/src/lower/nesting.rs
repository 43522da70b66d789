//! OpenMP's structure rules, checked before lowering: a construct's block is entered at its
//! start and left at its end (no `return`, no `goto` or `break` out of it), and worksharing
//! constructs, barriers and `master` are not closely nested where OpenMP forbids it. gcc rejects
//! these programs too; on CAPE they would deadlock (a barrier only some ranks reach) or run a
//! different program (a `return` out of an outlined region), so they are compile-time errors.

use std::collections::HashSet;

use lang_c::ast::{Label, Statement};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::{span_of, Context};
use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind};

/// Closely nested regions OpenMP forbids (OpenMP 4.5, 2.17): a worksharing construct or a
/// barrier inside a worksharing, `master`, `critical`, `ordered` or `atomic` region (or a
/// `simd` loop; the block of `parallel master` is a `master` region); `master` inside a
/// worksharing or `atomic` region.
pub fn check_closely_nested(cx: &Context, d: &Directive) -> Result<(), Diagnostic> {
    use DirectiveKind::*;
    let what = match d.kind {
        For | ForSimd | Sections | Single => "a worksharing region",
        Barrier => "a barrier",
        Master | Masked => "a `master` region",
        _ => return Ok(()),
    };
    let Some(e) = cx.constructs().enclosing(cx, d) else {
        return Ok(());
    };
    let forbidden = match d.kind {
        Master | Masked => e.kind.is_worksharing() || e.kind == Atomic,
        _ => {
            e.kind.is_worksharing()
                || e.kind.is_master_block()
                || matches!(e.kind, Critical | Ordered | Atomic | Simd)
        }
    };
    if !forbidden {
        return Ok(());
    }
    let inner = if e.kind == Section {
        "section".to_string()
    } else {
        e.kind.name().to_string()
    };
    Err(Diagnostic::error(format!(
        "{what} may not be closely nested inside a `{inner}` region"
    ))
    .with_primary(d.name_span, format!("this `#pragma omp {}`", d.kind.name()))
    .with_secondary(e.name_span, format!("inside this `#pragma omp {inner}`"))
    .with_note(
        "not every thread of the team reaches it, so the team would wait forever; \
         put it outside the enclosing construct",
    ))
}

/// A `critical` inside a `critical` of the same name in the same function (at any depth):
/// the thread would wait for the lock it holds. gcc refuses it.
pub fn check_critical_in_same_name(cx: &Context, d: &Directive) -> Result<(), Diagnostic> {
    if d.kind != DirectiveKind::Critical {
        return Ok(());
    }
    let tree = cx.constructs();
    let mut outer = tree.enclosing(cx, d);
    while let Some(e) = outer {
        if e.kind == DirectiveKind::Critical && e.name_arg == d.name_arg {
            let name = match &d.name_arg {
                Some(n) => format!("a `critical({n})`"),
                None => "an unnamed `critical`".to_string(),
            };
            return Err(Diagnostic::error(format!(
                "{name} region may not be nested inside a `critical` region with the same name"
            ))
            .with_primary(d.name_span, "this `#pragma omp critical`")
            .with_secondary(e.name_span, "inside this one, which holds the same lock")
            .with_note("the thread would wait forever for the lock it holds; give one of them another name"));
        }
        outer = tree.enclosing(cx, e);
    }
    Ok(())
}

/// A jump out of `d`'s structured block `stmt`: `return`, a `goto` to a label outside it,
/// and `break` (also `continue`, except in a loop construct's own body) that leaves it.
pub fn check_branches(d: &Directive, stmt: &Node<Statement>) -> Vec<Diagnostic> {
    let is_loop = d.kind.is_loop();
    let block = match (&stmt.node, is_loop) {
        (Statement::For(f), true) => &*f.node.statement,
        (_, true) => return Vec::new(), // not a loop: reported by the loop lowering
        _ => stmt,
    };
    let mut finder = Jumps {
        loops: 0,
        switches: 0,
        labels: HashSet::new(),
        jumps: Vec::new(),
    };
    finder.visit_statement(&block.node, &block.span);
    let construct = format!("#pragma omp {}", d.kind.name());
    let mut errors = Vec::new();
    for jump in &finder.jumps {
        let (message, note) = match jump {
            Jump::Return(_) => (
                format!("`return` out of the structured block of `{construct}`"),
                "an OpenMP region must be left through its end; keep a result in a variable \
                 and return after the construct",
            ),
            Jump::Goto(_, label) if finder.labels.contains(label) => continue,
            Jump::Goto(..) => (
                format!("`goto` out of the structured block of `{construct}`"),
                "an OpenMP region must be left through its end; jump to a label inside it",
            ),
            Jump::Break(_) if is_loop => (
                format!("`break` out of the loop of `{construct}`"),
                "the iterations are divided among the threads before the loop runs, so it \
                 cannot stop early; use a flag that the remaining iterations test",
            ),
            Jump::Continue(_) if is_loop => continue,
            Jump::Break(_) | Jump::Continue(_) => (
                format!("jump out of the structured block of `{construct}`"),
                "an OpenMP region must be left through its end",
            ),
        };
        let at = match jump {
            Jump::Return(s) | Jump::Goto(s, _) | Jump::Break(s) | Jump::Continue(s) => *s,
        };
        errors.push(
            Diagnostic::error(message)
                .with_primary(at, "leaves the construct here")
                .with_secondary(d.name_span, "the construct")
                .with_note(note.to_string()),
        );
    }
    errors
}

/// A `goto` from outside `d`'s structured block `stmt` to a label inside it (gcc: "invalid
/// entry to OpenMP structured block"): a region is entered at its start only.
pub fn check_entries(cx: &Context, d: &Directive, stmt: &Node<Statement>) -> Vec<Diagnostic> {
    let mut inside = Jumps {
        loops: 0,
        switches: 0,
        labels: HashSet::new(),
        jumps: Vec::new(),
    };
    inside.visit_statement(&stmt.node, &stmt.span);
    let Some(function) = cx.program.function_at(d.span.start) else {
        return Vec::new();
    };
    if inside.labels.is_empty() {
        return Vec::new();
    }
    let body = cx.program.function_bodies[function];
    let mut all = Jumps {
        loops: 0,
        switches: 0,
        labels: HashSet::new(),
        jumps: Vec::new(),
    };
    all.visit_statement(&body.node, &body.span);
    let block = span_of(stmt.span);
    let construct = format!("#pragma omp {}", d.kind.name());
    all.jumps
        .iter()
        .filter_map(|jump| match jump {
            Jump::Goto(at, label)
                if inside.labels.contains(label)
                    && !(block.start <= at.start && at.end <= block.end) =>
            {
                Some(
                    Diagnostic::error(format!(
                        "invalid entry to the structured block of `{construct}`"
                    ))
                    .with_primary(*at, format!("jumps to `{label}` inside the construct"))
                    .with_secondary(d.name_span, "the construct")
                    .with_note(
                        "an OpenMP region must be entered through its start; move the label \
                         out of the construct",
                    ),
                )
            }
            _ => None,
        })
        .collect()
}

/// A `reduction` of a worksharing construct on a variable the enclosing `parallel` makes
/// private (`private`, `firstprivate`, `lastprivate`): gcc refuses it ("reduction variable is
/// private in outer context"); each thread's private copy has nothing to combine into.
pub fn check_reduction_sharing(cx: &Context, d: &Directive) -> Vec<Diagnostic> {
    if d.kind.is_parallel() || !(d.kind.is_worksharing() || d.kind.is_loop()) {
        return Vec::new();
    }
    let Some(e) = cx.constructs().enclosing(cx, d) else {
        return Vec::new();
    };
    if !e.kind.is_parallel() {
        return Vec::new();
    }
    let mut errors = Vec::new();
    for clause in d.clauses.iter().filter(|c| c.kind == ClauseKind::Reduction) {
        let ClauseArgs::Reduction { items, .. } = &clause.args else {
            continue;
        };
        for item in items {
            let private = e
                .clauses
                .iter()
                .filter(|c| {
                    matches!(
                        c.kind,
                        ClauseKind::Private | ClauseKind::Firstprivate | ClauseKind::Lastprivate
                    )
                })
                .find_map(|c| match &c.args {
                    ClauseArgs::List(list) => list.iter().find(|i| i.name == item.name),
                    _ => None,
                });
            if let Some(private) = private {
                errors.push(
                    Diagnostic::error(format!(
                        "reduction variable `{}` is private in outer context",
                        item.name
                    ))
                    .with_primary(item.name_span, "reduced here")
                    .with_secondary(
                        private.name_span,
                        format!("private in this `#pragma omp {}`", e.kind.name()),
                    )
                    .with_note(
                        "a worksharing reduction combines into a variable shared by the team; \
                         make it shared in the enclosing region",
                    ),
                );
            }
        }
    }
    errors
}

enum Jump {
    Return(Span),
    Goto(Span, String),
    Break(Span),
    Continue(Span),
}

struct Jumps {
    loops: usize,
    switches: usize,
    labels: HashSet<String>,
    jumps: Vec<Jump>,
}

impl<'ast> Visit<'ast> for Jumps {
    fn visit_statement(&mut self, statement: &'ast Statement, span: &'ast lang_c::span::Span) {
        let at = span_of(*span);
        match statement {
            Statement::Return(_) => self.jumps.push(Jump::Return(at)),
            Statement::Goto(label) => self.jumps.push(Jump::Goto(at, label.node.name.clone())),
            Statement::Break if self.loops == 0 && self.switches == 0 => {
                self.jumps.push(Jump::Break(at))
            }
            Statement::Continue if self.loops == 0 => self.jumps.push(Jump::Continue(at)),
            Statement::For(_) | Statement::While(_) | Statement::DoWhile(_) => {
                self.loops += 1;
                visit::visit_statement(self, statement, span);
                self.loops -= 1;
                return;
            }
            Statement::Switch(_) => {
                self.switches += 1;
                visit::visit_statement(self, statement, span);
                self.switches -= 1;
                return;
            }
            _ => {}
        }
        visit::visit_statement(self, statement, span);
    }

    fn visit_label(&mut self, label: &'ast Label, span: &'ast lang_c::span::Span) {
        if let Label::Identifier(name) = label {
            self.labels.insert(name.node.name.clone());
        }
        visit::visit_label(self, label, span);
    }
}
