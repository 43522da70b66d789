//! The names of shared objects for the runtime's reports (races, divergence): a table of the
//! file's objects registered by a constructor, and before each region a table of the shared
//! locals it uses (`__cape_region_objects`), with their declarations and `file:line`.

use super::{spelled, uses_in, Context, Env};
use crate::diag::{Diagnostic, Span};
use crate::directive::Directive;
use crate::resolve::{Binding, Step, Storage, VarId};
use crate::template::{render, OBJECTS};

/// The words of arithmetic type specifiers (and qualifiers), whose size C always knows.
const ARITHMETIC_WORDS: &[&str] = &[
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "_Complex",
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "size_t",
    "ptrdiff_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
];

/// A C string literal's content for `text` (one line, quotes and backslashes escaped).
fn literal(text: &str) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_ascii_graphic() => out.push(c),
                _ => out.push('?'),
            }
        }
    }
    out
}

/// The declaration of `v` as written (`int a[100]`), without storage class or initializer.
fn declaration(cx: &Context, v: VarId) -> String {
    let var = &cx.program.vars[v];
    let mut text: Vec<&str> = var.type_specifiers.iter().map(|s| cx.text(*s)).collect();
    text.push(cx.text(var.declarator));
    literal(&text.join(" "))
}

/// Whether the table can name `v`: an object whose address and size C gives at this point.
fn nameable(cx: &Context, v: VarId) -> bool {
    let var = &cx.program.vars[v];
    !var.thread_local
        && !cx.lines.is_system(var.ident_span.start)
        && !matches!(
            var.shape.steps.first(),
            Some(Step::Array { sized: false }) | Some(Step::Function)
        )
        && !super::data_sharing::is_threadprivate(cx, v)
}

/// One table entry for `v`, spelled `spelling` where the table is built.
fn entry(cx: &Context, v: VarId, spelling: &str) -> Result<String, Diagnostic> {
    let var = &cx.program.vars[v];
    let steps = &var.shape.steps;
    let arrays = steps
        .iter()
        .take_while(|s| matches!(s, Step::Array { .. }))
        .count()
        .min(3);
    let strides: Vec<String> = (0..3)
        .map(|i| {
            if i < arrays {
                format!("sizeof ({spelling}){}", "[0]".repeat(i + 1))
            } else {
                "0".to_string()
            }
        })
        .collect();
    // heap blocks are named through pointers: the size of what they point to, when C surely
    // can take it (arithmetic types: a struct or a typedef may be incomplete, `void` has none)
    let arithmetic = var.type_specifiers.iter().all(|s| {
        cx.text(*s)
            .split_whitespace()
            .all(|word| ARITHMETIC_WORDS.contains(&word))
    });
    let pointee = match steps.as_slice() {
        [Step::Pointer] if arithmetic && !var.shape.opaque_base => {
            format!("sizeof *({spelling})")
        }
        [Step::Pointer, Step::Pointer, ..] => format!("sizeof *({spelling})"),
        _ => "0".to_string(),
    };
    // a parameter declared as an array is a pointer, whose `sizeof` gcc warns about as such
    let size =
        if var.storage == crate::resolve::Storage::Param && cx.text(var.declarator).contains('[') {
            format!("({spelling} + 0)")
        } else {
            spelling.to_string()
        };
    render(
        OBJECTS,
        "entry",
        &[
            ("var", spelling),
            ("size", &size),
            ("strides", &strides.join(", ")),
            ("pointee", &pointee),
            ("name", &literal(&var.name)),
            ("decl", &declaration(cx, v)),
            ("at", &literal(&cx.location(var.ident_span.start))),
        ],
    )
}

/// The region's table: the locals of the enclosing function it uses (through `env`, as the
/// encountering code spells them), the other locals visible there that pointers can reach
/// (arrays, locals whose address is taken) and the static locals it names; `what` is
/// `parallel for at prog.c:20`.
pub fn region_table(
    cx: &Context,
    d: &Directive,
    id: &str,
    env: &Env,
    region: Span,
    wanted: &[VarId],
    what: &str,
) -> Result<String, Diagnostic> {
    let mut vars: Vec<VarId> = wanted.to_vec();
    let function = cx.program.function_at(region.start);
    let mut nested = false;
    let mut outer = cx.constructs().enclosing(cx, d);
    while let Some(o) = outer {
        nested |= o.kind.is_parallel();
        outer = cx.constructs().enclosing(cx, o);
    }
    for (v, var) in cx.program.vars.iter().enumerate() {
        // only what lives in memory anyway (arrays, variables whose address is taken), and
        // only where the user's names are valid (not inside another outlined region)
        let in_memory =
            var.address_taken || matches!(var.shape.steps.first(), Some(Step::Array { .. }));
        let visible = function.is_some()
            && !nested
            && in_memory
            && var.function == function
            && matches!(var.storage, Storage::Auto | Storage::Param)
            && var.scope.start <= region.start
            && region.end <= var.scope.end
            && !super::contains(region, var.ident_span);
        if visible && !vars.contains(&v) {
            vars.push(v);
        }
    }
    for u in uses_in(cx, region) {
        if let Binding::Var(v) = u.binding {
            let var = &cx.program.vars[v];
            let static_local = var.storage == Storage::Static && var.function.is_some();
            if static_local && !super::contains(region, var.ident_span) && !vars.contains(&v) {
                vars.push(v);
            }
        }
    }
    let mut entries = String::new();
    let mut count = 0;
    for v in vars.into_iter().filter(|&v| nameable(cx, v)) {
        entries.push_str(&entry(cx, v, &spelled(cx, env, v))?);
        count += 1;
    }
    let what = literal(what);
    if count == 0 {
        return render(OBJECTS, "region_empty", &[("what", &what)]);
    }
    render(
        OBJECTS,
        "region",
        &[
            ("id", id),
            ("entries", &entries),
            ("what", &what),
            ("count", &count.to_string()),
        ],
    )
}

/// Whether a file-scope declaration says `extern` (it may have no definition anywhere: taking
/// its address would not link).
fn says_extern(cx: &Context, v: VarId) -> bool {
    let var = &cx.program.vars[v];
    let first = var
        .type_specifiers
        .first()
        .map_or(var.declarator.start, |s| s.start);
    let before = cx.source.get(..first).unwrap_or("");
    let start = before.rfind([';', '}', '{', '\n']).map_or(0, |i| i + 1);
    before[start..]
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| word == "extern")
}

/// The constructor that registers the file's objects (file-scope and static variables it
/// defines); empty when there are none.
pub fn file_table(cx: &Context) -> Result<String, Diagnostic> {
    let mut entries = String::new();
    let mut count = 0;
    for (v, var) in cx.program.vars.iter().enumerate() {
        let file_scope =
            matches!(var.storage, Storage::Global | Storage::Static) && var.function.is_none();
        if !file_scope || var.is_const || !nameable(cx, v) || says_extern(cx, v) {
            continue;
        }
        entries.push_str(&entry(cx, v, &var.name)?);
        count += 1;
    }
    if count == 0 {
        return Ok(String::new());
    }
    render(
        OBJECTS,
        "file",
        &[("entries", &entries), ("count", &count.to_string())],
    )
}
