//! The code that runs under a cross-rank lock (a general `critical` body, a lock pair's or a
//! lock test's block, the statements between a lock's set and unset in one block) with every
//! store it makes reported to the runtime (`__cape_critical_store`):
//!
//! - its own stores (`x = e`, `x op= e`, `x++`) report their lvalue;
//! - a call to a function defined in this file calls an instrumented clone of it
//!   (`__cape_crit_clone_<name>`, whose stores report and whose calls go to clones too; a
//!   function named as a value, e.g. a `qsort` comparator, is the clone as well);
//! - a C library call that writes through its arguments (`memcpy`, `strcpy`, `sprintf`,
//!   `qsort`, `fgets`, `sscanf`, ...) reports the destination range it wrote
//!   (`critical_library.rs`);
//! - the lock routines become the runtime's cross-rank lock calls;
//! - anything else (a function only declared here, a call through a pointer) is refused at
//!   the call: its stores could not be followed.

use lang_c::ast::{
    BinaryOperatorExpression, CallExpression, Expression, Statement, UnaryOperator,
    UnaryOperatorExpression,
};
use lang_c::span::Node;
use lang_c::visit::{self, Visit};

use super::common::is_assignment;
use super::critical_library::{self, Library};
use super::write_scope::writes_nothing;
use super::{contains, emit_edits, span_of, uses_in, Context, Env, Out};
use crate::diag::{Diagnostic, Span};
use crate::emit::{apply_in, Edit};
use crate::resolve::Binding;
use crate::template::{render, CRITICAL};

/// Functions a section may call although they write memory: the allocator (blocks a section
/// allocates come from a heap every rank shares while it holds the lock).
const ALLOCATORS: &[&str] = &["malloc", "calloc", "free"];

/// C library functions that only read the memory they are given (beyond those of
/// `write_scope.rs`'s list): fine under a lock.
const READS_ONLY: &[&str] = &[
    "strlen",
    "strnlen",
    "strcmp",
    "strncmp",
    "strchr",
    "strrchr",
    "strstr",
    "strspn",
    "strcspn",
    "strpbrk",
    "memcmp",
    "memchr",
    "atoi",
    "atol",
    "atoll",
    "atof",
    "strtol",
    "strtoul",
    "strtoll",
    "strtoull",
    "strtod",
    "strtof",
    "isalpha",
    "isdigit",
    "isalnum",
    "isspace",
    "isupper",
    "islower",
    "isxdigit",
    "ispunct",
    "toupper",
    "tolower",
    "fputs",
    "fwrite",
    "__builtin_strlen",
    "__builtin_memcmp",
    "exp2",
    "log2",
    "cbrt",
    "exit",
    "abort",
];

/// The lock routines, as the runtime's cross-rank lock calls: (name, runtime call, nest).
const LOCK_CALLS: &[(&str, &str, &str)] = &[
    ("omp_set_lock", "__cape_lock_set", "0"),
    ("omp_unset_lock", "__cape_lock_unset", "0"),
    ("omp_test_lock", "__cape_lock_test", "0"),
    ("omp_set_nest_lock", "__cape_lock_set", "1"),
    ("omp_unset_nest_lock", "__cape_lock_unset", "1"),
    ("omp_test_nest_lock", "__cape_lock_test", "1"),
];

/// Whether a call to `name` under a lock needs nothing: it writes no memory the program sees,
/// or it allocates from the sections' heap.
pub fn harmless(name: &str) -> bool {
    ALLOCATORS.contains(&name) || writes_nothing(name) || READS_ONLY.contains(&name)
}

/// Whether `name` is one of the lock routines.
pub fn is_lock_call(name: &str) -> bool {
    LOCK_CALLS.iter().any(|(n, _, _)| *n == name)
}

/// The name of the instrumented clone of function `name`.
pub fn clone_name(name: &str) -> String {
    format!("__cape_crit_clone_{name}")
}

/// The function defined in this file (outside system headers) named `name`.
pub fn defined_function(cx: &Context, name: &str) -> Option<usize> {
    cx.program
        .functions
        .iter()
        .position(|f| f.name == name && !f.is_system)
}

/// The function whose definition contains `offset`.
fn enclosing_function(cx: &Context, offset: usize) -> Option<usize> {
    cx.program
        .functions
        .iter()
        .position(|f| f.span.start <= offset && offset < f.span.end)
}

/// A call made by name: (call, name, arguments).
struct Call {
    span: Span,
    callee: Span,
    name: String,
    args: Vec<Span>,
}

/// The lvalues `statements` store to (assignments, increments, decrements).
pub(super) fn stores_in(statements: &[&Node<Statement>]) -> Vec<Span> {
    let mut effects = Effects::default();
    for s in statements {
        effects.visit_statement(&s.node, &s.span);
    }
    effects.stores
}

/// The stores and calls of some code.
#[derive(Default)]
struct Effects {
    /// lvalues stored to
    stores: Vec<Span>,
    calls: Vec<Call>,
    /// calls through a pointer
    indirect: Vec<Span>,
}

impl<'ast> Visit<'ast> for Effects {
    fn visit_binary_operator_expression(
        &mut self,
        e: &'ast BinaryOperatorExpression,
        span: &'ast lang_c::span::Span,
    ) {
        if is_assignment(&e.operator.node) {
            self.stores.push(span_of(e.lhs.span));
        }
        visit::visit_binary_operator_expression(self, e, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        e: &'ast UnaryOperatorExpression,
        span: &'ast lang_c::span::Span,
    ) {
        use UnaryOperator::*;
        if matches!(
            e.operator.node,
            PreIncrement | PreDecrement | PostIncrement | PostDecrement
        ) {
            self.stores.push(span_of(e.operand.span));
        }
        visit::visit_unary_operator_expression(self, e, span);
    }

    fn visit_call_expression(&mut self, e: &'ast CallExpression, span: &'ast lang_c::span::Span) {
        match &e.callee.node {
            Expression::Identifier(id) => self.calls.push(Call {
                span: span_of(*span),
                callee: span_of(e.callee.span),
                name: id.node.name.clone(),
                args: e.arguments.iter().map(|a| span_of(a.span)).collect(),
            }),
            _ => self.indirect.push(span_of(*span)),
        }
        visit::visit_call_expression(self, e, span);
    }
}

/// Where the instrumented code is and what it is, for the diagnostics.
pub struct Site<'s> {
    /// the construct (or the lock's set call) the code belongs to
    pub construct: Span,
    /// "critical section", "lock pair", ...
    pub what: &'s str,
}

/// A rewrite of the code under the lock, made innermost first so that an outer one contains
/// the inner ones' text.
enum Rewrite<'c> {
    Store(Span),
    Lock(&'c Call, &'static str, &'static str),
    Library(&'c Call, Library),
}

impl Rewrite<'_> {
    fn span(&self) -> Span {
        match self {
            Rewrite::Store(s) => *s,
            Rewrite::Lock(c, ..) | Rewrite::Library(c, _) => c.span,
        }
    }
}

/// The text of `span` with the edits inside it, which it consumes.
fn take_inner(cx: &Context, edits: &mut Vec<Edit>, span: Span) -> Result<String, Vec<Diagnostic>> {
    let text = apply_in(cx.source, span, edits).map_err(|e| vec![e])?;
    edits.retain(|e| !contains(span, e.span));
    Ok(text)
}

/// The text of `span` (statements `stmts`) with every store reporting its address, calls to
/// this file's functions going to their clones, library writes reported; the calls that
/// cannot be followed are errors at the call.
pub fn instrumented(
    cx: &Context,
    out: &mut Out,
    span: Span,
    stmts: &[&Node<Statement>],
    site: &Site,
    env: &Env,
) -> Result<String, Vec<Diagnostic>> {
    let mut effects = Effects::default();
    for s in stmts {
        effects.visit_statement(&s.node, &s.span);
    }
    let caller = enclosing_function(cx, span.start);
    let mut errors: Vec<Diagnostic> = effects
        .indirect
        .iter()
        .map(|&call| refused(call, "this call through a function pointer", site, INDIRECT))
        .collect();
    let mut rewrites: Vec<Rewrite> = effects.stores.iter().map(|&s| Rewrite::Store(s)).collect();
    for call in &effects.calls {
        let name = call.name.as_str();
        let variable = uses_in(cx, call.callee)
            .iter()
            .any(|u| u.span == call.callee && u.binding != Binding::Other);
        if variable {
            let shown = format!("`{name}`, a function pointer,");
            errors.push(refused(call.span, &shown, site, INDIRECT));
        } else if let Some((_, runtime, nest)) = LOCK_CALLS.iter().find(|(n, _, _)| *n == name) {
            rewrites.push(Rewrite::Lock(call, runtime, nest));
        } else if harmless(name) {
            // writes nothing the program sees, or allocates from the sections' heap
        } else if let Some(f) = defined_function(cx, name) {
            if let Err(mut e) = ensure_clone(cx, out, f, caller, site, call.span) {
                errors.append(&mut e);
            }
        } else if let Some(lib) = critical_library::library(cx, name, &call.args) {
            match lib {
                Ok(lib) => rewrites.push(Rewrite::Library(call, lib)),
                Err(why) => errors.push(refused(call.span, &format!("`{name}`"), site, &why)),
            }
        } else {
            let why = if cx.user_functions().contains(name) {
                NOT_DEFINED
            } else if super::library_state::draws_random(name) {
                RANDOM
            } else {
                UNKNOWN_LIBRARY
            };
            errors.push(refused(call.span, &format!("`{name}`"), site, why));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut edits = emit_edits(cx, out, span, env);
    // a store or call inside a construct lowered on its own keeps that construct's lowering
    let constructs: Vec<Span> = edits.iter().map(|e| e.span).collect();
    let inside_construct = |s: Span| {
        constructs
            .iter()
            .any(|&c| contains(c, s) && c != s && c != span)
    };
    // this file's functions, called or named as values, are their clones
    for u in uses_in(cx, span) {
        if u.binding != Binding::Other || inside_construct(u.span) {
            continue;
        }
        let Some(f) = defined_function(cx, &u.name) else {
            continue;
        };
        if edits.iter().any(|e| super::overlaps(e.span, u.span)) {
            continue;
        }
        ensure_clone(cx, out, f, caller, site, u.span)?;
        if has_static_locals(cx, f) {
            continue; // instrumented in place: called by its own name
        }
        edits.push(Edit::replace(u.span, clone_name(&u.name)));
    }
    rewrites.sort_by_key(|r| {
        let s = r.span();
        (s.end - s.start, s.start)
    });
    for r in rewrites {
        let at = r.span();
        if inside_construct(at) {
            continue;
        }
        let text = match &r {
            Rewrite::Store(lvalue) => {
                let lvalue = take_inner(cx, &mut edits, *lvalue)?;
                out.needs_critical_prelude = true;
                render(CRITICAL, "store", &[("lvalue", lvalue.trim())]).map_err(|e| vec![e])?
            }
            Rewrite::Lock(call, runtime, nest) => {
                let mut args = Vec::new();
                for &a in &call.args {
                    args.push(take_inner(cx, &mut edits, a)?);
                }
                edits.retain(|e| !contains(at, e.span));
                let lock = args.first().map_or("0", |a| a.trim());
                format!("{runtime}((void *)({lock}), {nest})")
            }
            Rewrite::Library(call, lib) => {
                let mut args = Vec::new();
                for &a in &call.args {
                    args.push(take_inner(cx, &mut edits, a)?);
                }
                edits.retain(|e| !contains(at, e.span));
                let id = out.fresh_id();
                critical_library::render_call(&call.name, lib, &args, id)?
            }
        };
        edits.push(Edit::replace(at, text.trim_end().to_string()));
    }
    apply_in(cx.source, span, &edits).map_err(|e| vec![e])
}

/// The calls and stores of a declaration between a lock pair's calls (its AST is not at hand:
/// the resolver's uses name the calls; an update inside an initializer is refused).
pub fn declaration_effects(cx: &Context, decl: Span, set: Span, errors: &mut Vec<Diagnostic>) {
    for u in uses_in(cx, decl) {
        if u.binding != crate::resolve::Binding::Other {
            continue;
        }
        let after = cx.source.get(u.span.end..decl.end).unwrap_or("");
        // this file's functions become their clones (critical_calls.rs)
        let allowed = harmless(&u.name) || defined_function(cx, &u.name).is_some();
        if after.trim_start().starts_with('(') && !allowed {
            errors.push(
                Diagnostic::error(format!(
                    "`{}` is called in a declaration between the calls of a lock pair",
                    u.name
                ))
                .with_primary(u.span, "capecc cannot follow what this call stores here")
                .with_secondary(set, "the lock pair")
                .with_note("call it in a statement of its own: `p = f(...);`"),
            );
        }
    }
    let text = cx.text(decl);
    let updates = [
        "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
    ];
    if updates.iter().any(|op| text.contains(op)) {
        errors.push(
            Diagnostic::error("an update inside a declaration between the calls of a lock pair")
                .with_primary(
                    decl,
                    "capecc does not follow stores made in initializers here",
                )
                .with_secondary(set, "the lock pair")
                .with_note("write the update as a statement of its own"),
        );
    }
}

/// Emits the clone of function `f` (once) and declares it before `caller`.
fn ensure_clone(
    cx: &Context,
    out: &mut Out,
    f: usize,
    caller: Option<usize>,
    site: &Site,
    at: Span,
) -> Result<(), Vec<Diagnostic>> {
    let Some(func) = cx.program.functions.get(f) else {
        return Ok(());
    };
    let name = clone_name(&func.name);
    let header_span = Span::new(func.span.start, func.body.start);
    let header = apply_in(
        cx.source,
        header_span,
        &[Edit::replace(func.name_span, name.clone())],
    )
    .map_err(|e| vec![e])?;
    let in_place = has_static_locals(cx, f);
    if !in_place {
        let prototype = format!("{};\n", header.trim_end());
        for at in [caller, Some(f)].into_iter().flatten() {
            if !out.before.iter().any(|(i, t)| *i == at && *t == prototype) {
                out.before.push((at, prototype.clone()));
            }
        }
    }
    if !out.critical_clones.insert(f) {
        return Ok(());
    }
    if let Some(why) = not_clonable(cx, f, &header, in_place) {
        return Err(vec![Diagnostic::error(format!(
            "`{}` is called under a cross-rank lock but capecc cannot follow its stores",
            func.name
        ))
        .with_primary(at, "called here")
        .with_secondary(func.name_span, why)
        .with_secondary(site.construct, format!("the {}", site.what))
        .with_note(
            "capecc runs a copy of every function called under a cross-rank lock that reports \
             its stores; move the code of this function into the section, or call it outside",
        )]);
    }
    // the body's statements and declarations (the body is not an item of its own)
    let mut stmts = Vec::new();
    let mut errors = Vec::new();
    for item in cx.program.items.iter().filter(|i| i.parent == func.body) {
        match item.statement {
            Some(s) => stmts.push(s),
            None => declaration_effects(cx, item.span, site.construct, &mut errors),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let text = instrumented(cx, out, func.body, &stmts, site, &Env::new())?;
    if in_place {
        out.critical_in_place.push((func.body, text));
        return Ok(());
    }
    out.after.push((
        f,
        format!(
            "/* capecc: `{}` as called under a cross-rank lock: its stores are reported */\n{}\n{}\n",
            func.name,
            header.trim_end(),
            text
        ),
    ));
    Ok(())
}

/// Whether function `f` has `static` locals: a clone would have its own copies of them, so
/// the function itself reports its stores (its body is replaced in place; a store reported
/// while no cross-rank lock is held costs a call and is dropped).
pub fn has_static_locals(cx: &Context, f: usize) -> bool {
    cx.program.functions.get(f).is_some_and(|func| {
        cx.text(func.body)
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == "static")
    })
}

/// Why function `f` cannot be cloned (or instrumented in place), if it cannot.
fn not_clonable(cx: &Context, f: usize, header: &str, in_place: bool) -> Option<&'static str> {
    let func = cx.program.functions.get(f)?;
    if cx.directives.iter().any(|d| contains(func.span, d.span)) {
        return Some("this function holds OpenMP directives");
    }
    if !header.trim_end().ends_with(')') {
        return Some("this is a K&R definition (write its parameters as a prototype)");
    }
    // in place, its lock calls would become cross-rank ones for every caller, also callers
    // whose following stores are not reported
    if in_place && uses_in(cx, func.body).iter().any(|u| is_lock_call(&u.name)) {
        return Some(
            "this function has `static` locals and calls lock routines (its stores are \
             reported in place, so it cannot also take cross-rank locks)",
        );
    }
    None
}

const INDIRECT: &str = "capecc cannot see which function this pointer calls, so cannot follow \
                        its stores; call the function by name (functions defined in this file \
                        are followed)";
const NOT_DEFINED: &str = "this function is not defined in this file, so capecc cannot follow \
                           its stores; define it in the same file as the section (functions \
                           defined in the file are followed), or call it outside the section";
// calling it outside the section instead would draw the same values on every rank
const RANDOM: &str = "the C library's random sequence is each rank's own, and what a call under \
                      the lock draws is not carried to the other ranks; use `rand_r` with a \
                      seed of each iteration's own (`unsigned seed = base + i;`), which needs \
                      no critical section";
const UNKNOWN_LIBRARY: &str = "capecc does not know what this library function writes; call it \
                               outside the section and copy its result in with assignments";

fn refused(call: Span, shown: &str, site: &Site, why: &str) -> Diagnostic {
    Diagnostic::error(format!(
        "{shown} is called inside a {} that runs under a cross-rank lock",
        site.what
    ))
    .with_primary(call, "capecc cannot follow what this call stores")
    .with_secondary(site.construct, format!("the {}", site.what))
    .with_note(format!(
        "CAPE threads are processes: the bytes written under the lock are carried to its next \
         holder, so every store made under it must be seen; {why}"
    ))
}
