//! Lowering: one module per construct. Each turns a directive and its statement into replacement
//! text, filled in from the construct's template. Constructs nest: the text of a construct's
//! statement is produced by [`emit_span`], which lowers the directives inside it first and reads
//! variables through the enclosing outlined function's pointers ([`Env`]).

pub mod atomic;
pub mod block;
pub mod builtin_atomic;
pub mod clause_values;
pub mod common;
pub mod constructs;
pub mod cooperative;
pub mod critical;
pub mod critical_calls;
pub mod critical_library;
pub mod critical_spans;
pub mod data_sharing;
pub mod device;
pub mod invariant_loads;
pub mod library_state;
pub mod nesting;
pub mod objects;
pub mod ordered;
pub mod parallel;
pub mod placement;
pub mod private_address;
pub mod private_heap;
pub mod read_only;
pub mod reduction;
pub mod single;
pub mod task;
pub mod task_pointers;
pub mod task_recursion;
pub mod thread_local;
pub mod update_reads;
pub mod wait_loop;
pub mod worksharing;
pub mod write_scope;

use std::collections::HashMap;

use lang_c::ast::Statement;
use lang_c::span::Node;

use crate::diag::{Diagnostic, Span};
use crate::directive::{Clause, ClauseKind, Directive, DirectiveKind};
use crate::emit::{apply_in, Edit};
use crate::preprocess::LineMap;
use crate::resolve::{Binding, Program, Use, VarId};
use crate::template::{render, CONSTRUCTS};
use crate::work;

/// What every lowering needs to see.
pub struct Context<'p, 'a> {
    pub source: &'p str,
    pub lines: &'p LineMap,
    pub program: &'p Program<'a>,
    /// edits that apply inside copied user code too (renames, layout, ignored pragmas)
    pub base_edits: &'p [Edit],
    pub line_markers: bool,
    /// every `#pragma omp` of the file, in order
    pub directives: &'p [Directive],
    /// the construct tree of the file, built once (see [`Context::constructs`])
    pub constructs: std::cell::OnceCell<constructs::ConstructTree<'a>>,
    /// the `omp_set_lock` ... `omp_unset_lock` pairs of the file, built once
    pub lock_pairs: std::cell::OnceCell<Vec<atomic::LockPair<'a>>>,
    /// the statements between a lock's set and unset in one block (critical_spans.rs), built once
    pub lock_spans: std::cell::OnceCell<Vec<critical_spans::LockSpan<'a>>>,
    /// the atomic builtin calls and `_Atomic` updates of user functions, in order, built once
    pub atomic_statements: std::cell::OnceCell<Vec<builtin_atomic::AtomicStatement>>,
    /// functions declared or defined outside system headers, by name, built once
    pub user_functions: std::cell::OnceCell<std::collections::HashSet<String>>,
    /// the functions that contain a waiting loop or call one, built once (cooperative.rs)
    pub waiting_functions: std::cell::OnceCell<std::collections::HashSet<usize>>,
}

impl<'a> Context<'_, 'a> {
    /// The construct tree of the file: statements, enclosing constructs, directives inside.
    pub fn constructs(&self) -> &constructs::ConstructTree<'a> {
        self.constructs
            .get_or_init(|| constructs::ConstructTree::build(self))
    }

    /// The functions that contain a waiting loop or call one that does.
    pub fn waiting_functions(&self) -> &std::collections::HashSet<usize> {
        self.waiting_functions
            .get_or_init(|| cooperative::waiting_functions(self))
    }

    /// The names of the functions the program declares or defines itself (not in system headers).
    pub fn user_functions(&self) -> &std::collections::HashSet<String> {
        self.user_functions.get_or_init(|| {
            self.program
                .function_names
                .iter()
                .filter(|(_, at)| !self.lines.is_system(at.start))
                .map(|(name, _)| name.clone())
                .collect()
        })
    }

    /// `file:line` of an offset, for the comments in generated code.
    pub fn location(&self, offset: usize) -> String {
        match self.lines.locate(offset) {
            Some(loc) => format!("{}:{}", loc.file, loc.line),
            None => "<unknown>".to_string(),
        }
    }

    pub fn text(&self, span: Span) -> &str {
        self.source.get(span.start..span.end).unwrap_or("")
    }

    /// The directives whose pragma starts inside `span`, in file order.
    pub fn directives_in(&self, span: Span) -> &[Directive] {
        let lo = self
            .directives
            .partition_point(|d| d.span.start < span.start);
        let hi = self.directives.partition_point(|d| d.span.start < span.end);
        &self.directives[lo..hi.max(lo)]
    }

    /// The block items that start inside `span`, in file order.
    pub fn items_in(&self, span: Span) -> &[crate::resolve::Item<'a>] {
        let items = &self.program.items;
        let lo = items.partition_point(|i| i.span.start < span.start);
        let hi = items.partition_point(|i| i.span.start < span.end);
        &items[lo..hi.max(lo)]
    }

    /// After generated text that replaced user code ending at `offset`: a line marker (builds
    /// only) so that the following user code keeps its line numbers, and its column.
    pub fn resync(&self, offset: usize) -> String {
        if !self.line_markers {
            return String::new();
        }
        let mut out = String::from("\n");
        out.push_str(
            self.lines
                .marker_text_for(offset)
                .unwrap_or_default()
                .trim_end(),
        );
        out.push('\n');
        let column = self.lines.locate(offset).map_or(1, |l| l.column as usize);
        out.push_str(&" ".repeat(column.saturating_sub(1)));
        out
    }

    /// A line marker before copied user code starting at `offset` (builds only).
    pub fn marker_before(&self, offset: usize) -> String {
        if !self.line_markers {
            return String::new();
        }
        let mut out = self.lines.marker_text_for(offset).unwrap_or_default();
        let column = self.lines.locate(offset).map_or(1, |l| l.column as usize);
        out.push_str(&" ".repeat(column.saturating_sub(1)));
        out
    }
}

/// How identifiers are spelled in the code being generated: variable index -> replacement
/// (`(*__cape_shared_x)` inside an outlined function). Variables not listed keep their name.
pub type Env = HashMap<VarId, String>;

/// Code that goes outside the function being lowered, and the errors found.
#[derive(Default)]
pub struct Out {
    /// (function index, text) inserted before the user function
    pub before: Vec<(usize, String)>,
    /// (function index, text) inserted after the user function
    pub after: Vec<(usize, String)>,
    /// text appended at the end of the file (threadprivate constructors)
    pub file_end: Vec<String>,
    pub errors: Vec<Diagnostic>,
    /// the `_Generic` combiners of `atomic`/`critical` updates are needed
    pub needs_atomic_prelude: bool,
    /// general `critical` sections or lock pairs: their lock word and store reports
    pub needs_critical_prelude: bool,
    /// a `max`/`min` reduction needs the `__CAPE_LOWEST`/`__CAPE_HIGHEST` identities
    pub needs_minmax_identities: bool,
    /// the functions whose clone under a cross-rank lock is emitted (critical_calls.rs)
    pub critical_clones: std::collections::HashSet<usize>,
    /// (function body, instrumented text) of functions with `static` locals called under a
    /// cross-rank lock: they report their stores in place (critical_calls.rs)
    pub critical_in_place: Vec<(Span, String)>,
    next_id: usize,
}

impl Out {
    pub fn fresh_id(&mut self) -> usize {
        self.next_id += 1;
        self.next_id
    }
}

/// What `__func__` and its gcc spellings are rewritten to in user functions and outlined
/// regions (a `static const char[]` holding the user function's name).
pub const FUNCTION_NAME: &str = "__cape_func";

/// A use of `__func__`, `__FUNCTION__` or `__PRETTY_FUNCTION__` (predefined, not declared).
pub fn names_enclosing_function(u: &Use) -> bool {
    u.binding == Binding::Other
        && matches!(
            u.name.as_str(),
            "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__"
        )
}

/// The name of a clause as written (`schedule`, `num_threads`, ...).
pub fn clause_name<'s>(source: &'s str, clause: &Clause) -> &'s str {
    let text = source.get(clause.span.start..clause.span.end).unwrap_or("");
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    text.get(..end).unwrap_or(text)
}

pub fn span_of(s: lang_c::span::Span) -> Span {
    Span::new(s.start, s.end)
}

/// The span of a statement without what lang-c may take after it: an `if` without `else`
/// ends after the whitespace that follows it, and pragma lines are whitespace to the parser.
pub fn statement_span(cx: &Context, s: lang_c::span::Span) -> Span {
    let mut end = s.end;
    loop {
        let text = cx.source.get(s.start..end).unwrap_or("");
        let trimmed = text.trim_end();
        let line_start = trimmed.rfind('\n').map_or(0, |i| i + 1);
        let last_line = trimmed.get(line_start..).unwrap_or("").trim_start();
        if last_line.starts_with('#') && line_start > 0 {
            end = s.start + line_start;
        } else {
            end = s.start + trimmed.len();
            break;
        }
    }
    Span::new(s.start, end.max(s.start))
}

/// The code a block construct wraps: its statement, and any directives stacked between the
/// pragma and the statement (`#pragma omp parallel` then `#pragma omp for` then the loop).
pub fn body_span(cx: &Context, d: &Directive, stmt: &Node<Statement>) -> Span {
    let statement = statement_span(cx, stmt.span);
    let start = stacked(cx, d, stmt)
        .map(|o| o.span.start)
        .min()
        .unwrap_or(statement.start);
    Span::new(start.min(statement.start), statement.end)
}

/// The directives between `d` and its statement.
pub fn stacked<'c>(
    cx: &'c Context,
    d: &Directive,
    stmt: &Node<Statement>,
) -> impl Iterator<Item = &'c Directive> {
    let before = stmt.span.start;
    cx.constructs()
        .inside(cx, d)
        .iter()
        .take_while(move |o| o.span.end <= before)
}

pub fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

pub fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

pub fn uses_in<'p>(cx: &'p Context, span: Span) -> &'p [Use] {
    in_span(&cx.program.uses, span, |u| u.span.start)
}

/// The variable an identifier at exactly `at` names (none for functions, enumerators, types).
pub fn var_at(cx: &Context, at: Span) -> Option<VarId> {
    match uses_in(cx, at).iter().find(|u| u.span == at)?.binding {
        crate::resolve::Binding::Var(v) => Some(v),
        _ => None,
    }
}

/// The spelling of variable `v` under `env`.
pub fn spelled(cx: &Context, env: &Env, v: VarId) -> String {
    env.get(&v).cloned().unwrap_or_else(|| {
        cx.program
            .vars
            .get(v)
            .map(|var| var.name.clone())
            .unwrap_or_default()
    })
}

/// Variables named in a clause expression (pragma lines are not parsed as C, so their
/// identifiers are resolved here by name at the directive): (identifier span, variable).
pub fn clause_vars(cx: &Context, d: &Directive, span: Span) -> Vec<(Span, VarId)> {
    let text = cx.text(span);
    let bytes = text.as_bytes();
    let function = cx.program.function_at(d.span.start);
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_digit() {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_')
            {
                i += 1;
            }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let before = text.get(..start).unwrap_or("").trim_end();
            let member = before.ends_with('.') || before.ends_with("->");
            let name = text.get(start..i).unwrap_or("");
            if !member {
                if let Some(v) = cx.program.visible(name, d.span.start, function) {
                    found.push((Span::new(span.start + start, span.start + i), v));
                }
            }
        } else {
            i += 1;
        }
    }
    found
}

/// The text of a clause expression with its variables spelled by `env`.
pub fn clause_expr(cx: &Context, d: &Directive, span: Span, env: &Env) -> String {
    let edits: Vec<Edit> = clause_vars(cx, d, span)
        .into_iter()
        .filter_map(|(at, v)| env.get(&v).map(|t| Edit::replace(at, t.clone())))
        .collect();
    apply_in(cx.source, span, &edits).unwrap_or_else(|_| cx.text(span).to_string())
}

/// The edits that produce the output text of `span`: constructs inside it lowered, base edits,
/// and identifiers respelled by `env`.
pub fn emit_edits(cx: &Context, out: &mut Out, span: Span, env: &Env) -> Vec<Edit> {
    let mut edits = Vec::new();
    // disjoint, in file order
    let mut extents: Vec<Span> = Vec::new();
    for d in in_span(cx.directives, span, |d| d.span.start) {
        work::count(1);
        // constructs come in file order: only the last extent can hold this one
        if extents
            .last()
            .is_some_and(|e| e.start <= d.span.start && d.span.start < e.end)
        {
            continue;
        }
        if let Some((extent, text)) = lower_directive(cx, out, d, env) {
            if extent.end > span.end {
                out.errors.push(
                    Diagnostic::error("internal error: a construct crosses its enclosing block")
                        .with_primary(d.name_span, "this construct"),
                );
                continue;
            }
            extents.push(extent);
            edits.push(Edit::replace(extent, text));
        }
    }
    // statements replaced whole by mergeable updates
    let mut replaced = Vec::new();
    // before the lock pairs: a lock span may hold some
    let lock_spans = cx.lock_spans.get_or_init(|| critical_spans::lock_spans(cx));
    for ls in in_span(lock_spans, span, |l| l.span.start) {
        if ls.span == span {
            continue; // the span being lowered itself
        }
        replace_statement(
            cx,
            out,
            span,
            (&extents, &mut replaced),
            &mut edits,
            ls.span,
            |out| critical_spans::lower(cx, out, ls, env),
        );
    }
    let pairs = cx.lock_pairs.get_or_init(|| atomic::lock_pairs(cx));
    for pair in in_span(pairs, span, |p| p.span.start) {
        replace_statement(
            cx,
            out,
            span,
            (&extents, &mut replaced),
            &mut edits,
            pair.span,
            |out| {
                if pair.mergeable {
                    atomic::lower_lock_pair(cx, out, pair, env)
                } else {
                    critical::lower_lock_pair(cx, out, pair, env)
                }
            },
        );
    }
    for item in in_span(&cx.program.items, span, |i| i.span.start) {
        let Some(test) = item.statement.and_then(|s| critical::test_pair(cx, s)) else {
            continue;
        };
        replace_statement(
            cx,
            out,
            span,
            (&extents, &mut replaced),
            &mut edits,
            test.span,
            |out| critical::lower_test_pair(cx, out, &test, env),
        );
    }
    let updates = cx
        .atomic_statements
        .get_or_init(|| builtin_atomic::atomic_statements(cx));
    for a in in_span(updates, span, |a| a.span.start) {
        replace_statement(
            cx,
            out,
            span,
            (&extents, &mut replaced),
            &mut edits,
            a.span,
            |out| builtin_atomic::lower(cx, out, a, env).map_err(|e| vec![e]),
        );
    }
    if !replaced.is_empty() {
        extents.append(&mut replaced);
        extents.sort_by_key(|e| e.start);
    }
    // base edits are sorted by start; an insertion at `span.end` belongs to the span
    let from = cx.base_edits.partition_point(|e| e.span.start < span.start);
    let to = cx.base_edits.partition_point(|e| e.span.start <= span.end);
    for e in cx.base_edits.get(from..to).unwrap_or(&[]) {
        work::count(1);
        if contains(span, e.span) && !overlaps_any(&extents, e.span) {
            edits.push(e.clone());
        }
    }
    for u in uses_in(cx, span) {
        work::count(1);
        let Binding::Var(v) = u.binding else { continue };
        let Some(text) = env.get(&v) else { continue };
        if overlaps_any(&extents, u.span) {
            continue;
        }
        edits.retain(|e| !overlaps(e.span, u.span) || extents.contains(&e.span));
        edits.push(Edit::replace(u.span, text.clone()));
    }
    edits
}

/// Replaces the statement at `at` (inside `span`, outside the constructs already lowered and
/// the statements already replaced) with the text `lower` makes.
fn replace_statement(
    cx: &Context,
    out: &mut Out,
    span: Span,
    (extents, replaced): (&[Span], &mut Vec<Span>),
    edits: &mut Vec<Edit>,
    at: Span,
    lower: impl FnOnce(&mut Out) -> Result<String, Vec<Diagnostic>>,
) {
    work::count(1);
    if !contains(span, at) || overlaps_any(extents, at) || replaced.iter().any(|x| overlaps(*x, at))
    {
        return;
    }
    match lower(out) {
        Ok(text) => {
            replaced.push(at);
            let mut text = text.trim_end().to_string();
            text.push_str(&cx.resync(at.end));
            edits.push(Edit::replace(at, text));
        }
        Err(mut e) => out.errors.append(&mut e),
    }
}

/// The elements of `sorted` (by `start`) that start inside `span`.
fn in_span<T>(sorted: &[T], span: Span, start: impl Fn(&T) -> usize) -> &[T] {
    let from = sorted.partition_point(|x| start(x) < span.start);
    let to = sorted.partition_point(|x| start(x) < span.end);
    sorted.get(from..to.max(from)).unwrap_or(&[])
}

/// Whether `s` overlaps one of `extents` (disjoint, sorted by start).
fn overlaps_any(extents: &[Span], s: Span) -> bool {
    let after = extents.partition_point(|x| x.end <= s.start);
    extents.get(after).is_some_and(|x| overlaps(*x, s))
}

/// User code copied to a new place, `indent` columns in (`--emit-c` output only: builds keep
/// the user's columns for the backend's diagnostics): every line after the first keeps its
/// indentation relative to the line where the code started at `start`. A line continuing a
/// backslash-newline is left alone (it may be inside a string literal).
pub fn reindent(cx: &Context, text: &str, start: usize, indent: usize) -> String {
    if cx.line_markers {
        return text.to_string();
    }
    let before = cx.source.get(..start).unwrap_or("");
    let line = before
        .get(before.rfind('\n').map_or(0, |i| i + 1)..)
        .unwrap_or("");
    let from = line
        .get(..line.len() - line.trim_start_matches([' ', '\t']).len())
        .unwrap_or("");
    let to = " ".repeat(indent);
    let mut out = String::with_capacity(text.len());
    let mut continued = false;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        match line.strip_prefix(from) {
            Some(rest) if i > 0 && !continued && !rest.trim().is_empty() => {
                out.push_str(&to);
                out.push_str(rest);
            }
            _ => out.push_str(line),
        }
        continued = line.trim_end_matches(['\n', '\r']).ends_with('\\');
    }
    out
}

/// The indentation of the first line of code after the one `offset` is on (blank and
/// preprocessor lines skipped).
fn next_line_indent<'s>(cx: &Context<'s, '_>, offset: usize) -> &'s str {
    let rest = cx.source.get(offset..).unwrap_or("");
    let after = rest
        .get(rest.find('\n').map_or(rest.len(), |i| i + 1)..)
        .unwrap_or("");
    after
        .lines()
        .find(|line| {
            let code = line.trim_start();
            !code.is_empty() && !code.starts_with('#')
        })
        .map_or("", |line| {
            line.get(..line.len() - line.trim_start_matches([' ', '\t']).len())
                .unwrap_or("")
        })
}

/// `text` with `pad` put before every line after the first (blank lines and lines continuing
/// a backslash-newline aside).
pub fn indent_lines(text: &str, pad: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut continued = false;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i > 0 && !continued && !line.trim().is_empty() {
            out.push_str(pad);
        }
        out.push_str(line);
        continued = line.trim_end_matches(['\n', '\r']).ends_with('\\');
    }
    out
}

/// The output text of `span` (see [`emit_edits`]).
pub fn emit_span(cx: &Context, out: &mut Out, span: Span, env: &Env) -> String {
    let edits = emit_edits(cx, out, span, env);
    match apply_in(cx.source, span, &edits) {
        Ok(text) => text,
        Err(e) => {
            out.errors.push(e);
            String::new()
        }
    }
}

/// The statement a directive applies to, or an error.
pub fn statement_of<'a>(
    cx: &Context<'_, 'a>,
    d: &Directive,
) -> Result<&'a Node<Statement>, Diagnostic> {
    // the next statement must be in the directive's own block
    let attached = match crate::attach::attach(d.span, &cx.program.items) {
        Ok(item)
            if cx
                .text(Span::new(d.span.end, item.span.start))
                .contains('}') =>
        {
            Err(None)
        }
        other => other,
    };
    match attached {
        Ok(item) => item.statement.ok_or_else(|| {
            Diagnostic::error("internal error: statement without a node")
                .with_primary(d.name_span, "here")
        }),
        Err(next) => {
            let mut diag = Diagnostic::error(format!(
                "`#pragma omp {}` must be followed by a statement",
                d.kind.name()
            ))
            .with_primary(
                d.name_span,
                "no statement follows this directive in its block",
            );
            if let Some(next) = next {
                diag = diag.with_secondary(next.span, "a declaration is not a statement");
            }
            Err(diag)
        }
    }
}

/// One diagnostic as the lowerings' error list.
pub(crate) fn one<T>(r: Result<T, Diagnostic>) -> Result<T, Vec<Diagnostic>> {
    r.map_err(|d| vec![d])
}

fn unsupported(d: &Directive, why: &str) -> Diagnostic {
    Diagnostic::error(format!("`#pragma omp {}` is not supported", d.kind.name()))
        .with_primary(d.name_span, "not supported by capecc")
        .with_note(why.to_string())
}

/// Lowers one directive: the span it replaces (the pragma line, plus its statement for
/// constructs) and the text. `None` after an error (recorded in `out`).
fn lower_directive(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    env: &Env,
) -> Option<(Span, String)> {
    use DirectiveKind::*;
    // in emit-c output a stand-alone directive's code takes the indentation of the code after it
    let pad = if cx.line_markers {
        ""
    } else {
        next_line_indent(cx, d.span.end)
    };
    let standalone = |text: String| {
        let text = if text.is_empty() {
            text
        } else {
            format!("{pad}{text}")
        };
        Some((d.span, text))
    };
    let comment = |what: &str| {
        render(CONSTRUCTS, "comment", &[("what", what)])
            .map(|t| t.trim_end().to_string())
            .unwrap_or_default()
    };
    if let Err(e) = placement::check(cx, d) {
        out.errors.push(e);
        return None;
    }
    match d.kind {
        Simd => {
            if let Err(e) = block::check_simd(cx, d) {
                out.errors.push(e);
                return None;
            }
            return standalone(String::new());
        }
        DeclareSimd => return standalone(String::new()),
        Barrier => {
            if let Err(e) = nesting::check_closely_nested(cx, d) {
                out.errors.push(e);
                return None;
            }
            return standalone(
                render(CONSTRUCTS, "barrier", &[])
                    .map(|t| t.trim_end().to_string())
                    .unwrap_or_default(),
            );
        }
        Flush => {
            return standalone(
                wait_loop::wait_check(cx, d, env)
                    .unwrap_or_else(|| comment("flush: merges happen at barriers")),
            )
        }
        TargetUpdate | TargetEnterData | TargetExitData => {
            return standalone(comment(&format!(
                "{}: the host is the only device",
                d.kind.name()
            )))
        }
        DeclareTarget | EndDeclareTarget => return standalone(String::new()),
        Taskyield => return standalone(comment("taskyield: tasks run when created")),
        Taskwait => {
            return standalone(
                render(CONSTRUCTS, "taskwait", &[])
                    .map(|t| t.trim_end().to_string())
                    .unwrap_or_default(),
            )
        }
        Threadprivate => {
            let text = single::threadprivate(cx, out, d);
            return standalone(text);
        }
        Ordered => {
            if let Err(e) = ordered::check_nesting(cx, d) {
                out.errors.push(e);
                return None;
            }
            if d.clauses.iter().any(|c| c.kind == ClauseKind::Depend) {
                // doacross: the loop already runs in sequential order, every dependence holds
                return standalone(comment("ordered depend: the loop runs in sequential order"));
            }
        }
        Section => {
            out.errors.push(
                Diagnostic::error("`#pragma omp section` outside `#pragma omp sections`")
                    .with_primary(d.name_span, "not directly inside a `sections` block"),
            );
            return None;
        }
        Parallel | ParallelFor | ParallelForSimd | ParallelSections | For | ForSimd | Loop
        | Sections | Single | Master | Masked | Critical | Atomic => {}
        kind if kind.is_parallel() || kind.is_host_block() => {}
        Task | Taskloop | TaskloopSimd | Taskgroup => {}
        Cancel | CancellationPoint => {
            out.errors.push(unsupported(
                d,
                "cancellation is not supported: every rank must reach the end of the region",
            ));
            return None;
        }
        DeclareReduction => {
            if let Err(e) = reduction::check_declaration(cx, d) {
                out.errors.push(e);
                return None;
            }
            return standalone(comment(
                "declare reduction: combined where a reduction clause names it",
            ));
        }
        _ => {
            out.errors
                .push(unsupported(d, "this construct is not supported"));
            return None;
        }
    }
    let stmt = match cx.constructs().statement(cx, d) {
        Ok(s) => s,
        Err(e) => {
            out.errors.push(e);
            return None;
        }
    };
    let extent = Span::new(d.span.start, statement_span(cx, stmt.span).end);
    let mut structure = nesting::check_branches(d, stmt);
    structure.extend(nesting::check_entries(cx, d, stmt));
    structure.extend(nesting::check_reduction_sharing(cx, d));
    if let Err(e) = nesting::check_closely_nested(cx, d) {
        structure.push(e);
    }
    if let Err(e) = nesting::check_critical_in_same_name(cx, d) {
        structure.push(e);
    }
    if !structure.is_empty() {
        out.errors.append(&mut structure);
        return None;
    }
    let needs_statement = d.kind.takes_statement_directly();
    if let Some(o) = stacked(cx, d, stmt).find(|o| needs_statement && o.kind != Simd) {
        out.errors.push(
            Diagnostic::error(format!(
                "`#pragma omp {}` must be followed by its statement, not by another directive",
                d.kind.name()
            ))
            .with_primary(o.name_span, "this directive comes in between")
            .with_secondary(d.name_span, "the construct"),
        );
        return None;
    }
    let result = match d.kind {
        kind if kind.is_parallel() => parallel::lower(cx, out, d, stmt, env),
        kind if kind.is_host_block() => device::lower_block(cx, out, d, stmt, env),
        Task | Taskloop | TaskloopSimd => task::lower(cx, out, d, stmt, env),
        Taskgroup => block::inline_block(cx, out, d, stmt, env, &[], "a group of tasks")
            .map(|b| format!("{}\n__cape_taskwait();", b.trim_end())),
        Loop => match device::loop_binds_to_thread(cx, d) {
            Ok(true) => device::lower_block(cx, out, d, stmt, env),
            Ok(false) => worksharing::lower_for(cx, out, d, stmt, env, &|_| true),
            Err(e) => Err(vec![e]),
        },
        For | ForSimd => worksharing::lower_for(cx, out, d, stmt, env, &|_| true),
        Sections => worksharing::lower_sections(cx, out, d, stmt, env, &|_| true),
        Single => single::lower_single(cx, out, d, stmt, env),
        Master | Masked => single::lower_master(cx, out, d, stmt, env),
        Ordered => ordered::lower(cx, out, d, stmt, env),
        Atomic if d.clauses.iter().any(|c| c.kind == ClauseKind::Read) => {
            // an atomic read in a loop may be a wait for another thread, like a flush
            atomic::lower(cx, out, d, stmt, env).map(|text| {
                match wait_loop::wait_check(cx, d, env) {
                    Some(check) => format!("{{ {} {check} }}", text.trim_end()),
                    None => text,
                }
            })
        }
        Critical => critical::lower(cx, out, d, stmt, env),
        _ => atomic::lower(cx, out, d, stmt, env),
    };
    match result {
        Ok(body) => {
            let column = cx
                .lines
                .locate(stmt.span.start)
                .map_or(1, |l| l.column as usize);
            let mut text = " ".repeat(column.saturating_sub(1));
            // generated lines follow the construct's own column (emit-c only)
            let body = if cx.line_markers {
                body
            } else {
                indent_lines(&body, &text)
            };
            text.push_str(body.trim_end());
            text.push_str(&cx.resync(extent.end));
            Some((extent, text))
        }
        Err(mut e) => {
            out.errors.append(&mut e);
            None
        }
    }
}

/// Generated C with line marker `marker` before each of its lines but those starting with
/// `keep` (a placeholder for copied user code), those inside a comment begun on an earlier
/// line and those a backslash continues: the backend's warnings about generated code name the marker's line.
pub fn pin_lines(text: &str, marker: &str, keep: char) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut in_comment = false;
    // the line continues the one before (a backslash at its end)
    let mut continued = false;
    for line in text.split_inclusive('\n') {
        if !in_comment && !continued && !line.trim().is_empty() && !line.starts_with(keep) {
            out.push_str(marker);
        }
        out.push_str(line);
        continued = line.trim_end_matches(['\n', '\r']).ends_with('\\');
        let mut rest = line;
        loop {
            let delimiter = if in_comment { "*/" } else { "/*" };
            match rest.find(delimiter) {
                Some(at) => {
                    in_comment = !in_comment;
                    rest = &rest[at + 2..];
                }
                None => break,
            }
        }
    }
    out
}
