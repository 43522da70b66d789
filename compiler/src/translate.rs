//! The translator's entry point: preprocessed OpenMP C in, C calling capert out.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Span};
use crate::directive;
use crate::emit::{self, Edit};
use crate::lower::{self, Context, Env, Out};
use crate::preprocess::LineMap;
use crate::reserved;
use crate::resolve::{self, Binding, Storage};
use crate::template::{render, CONSTRUCTS, MAIN, PRELUDE};

pub struct TranslateOptions {
    /// keep `# N "file"` line markers (builds: yes, so cc errors point at the user's file; --emit-c: no)
    pub line_markers: bool,
    /// collapse system-header content back into `#include <...>` lines. Both settings produce C
    /// that compiles; builds may use either (collapsing makes the backend re-read the headers).
    pub collapse_system_headers: bool,
}

pub struct Translated {
    pub c: String,
    pub warnings: Vec<Diagnostic>,
}

/// Allocation functions served by the capert arena (same addresses on every rank).
const ARENA_FUNCTIONS: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "free",
    "posix_memalign",
    "aligned_alloc",
    "memalign",
    "valloc",
    "strdup",
    "strndup",
    "reallocarray",
    "pvalloc",
    "asprintf",
    "vasprintf",
    "getline",
    "getdelim",
];

/// Library functions whose calls go through the runtime, which records what sequential code read
/// (a restart from a checkpoint log refuses another environment).
const INPUT_FUNCTIONS: &[&str] = &["getenv"];

/// Library functions that hand a program buffer to the kernel: the runtime's versions make the
/// buffer's pages valid first (an invalid page of the demand-driven merge faults in user code,
/// not in the kernel). `read` is also a stdin name.
const KERNEL_BUFFER_FUNCTIONS: &[&str] = &[
    "fwrite", "fread", "write", "pwrite", "pread", "read", "writev", "readv", "pwritev", "preadv",
    "send", "recv", "sendto", "recvfrom", "sendmsg", "recvmsg",
];

/// Library functions of files that sequential code writes: the runtime makes such a file rank
/// 0's alone (the other ranks' writes inside regions are handed to it, as printed output is);
/// and those that change the file system by name, which sequential code makes once, on rank 0,
/// after every rank reached the call.
const FILE_FUNCTIONS: &[&str] = &[
    "fopen", "fclose", "remove", "unlink", "rename", "truncate", "mkdir", "rmdir",
];

/// Names whose use must first make stdin identical on every rank.
const STDIN_NAMES: &[&str] = &["stdin", "scanf", "vscanf", "getchar", "gets", "read"];

/// `preprocessed`: output of `cc -E -dD` (line markers included) of the user's file, with our
/// omp.h dir first on the include path and -D_OPENMP=201511. `read_source`: returns the text of
/// an original file by the name used in line markers (used to copy `#include` lines back).
pub fn translate(
    preprocessed: &str,
    opts: &TranslateOptions,
    read_source: &dyn Fn(&str) -> Option<String>,
) -> Result<Translated, Vec<Diagnostic>> {
    // digraphs and `__thread` in the spellings lang-c takes
    let respelled = crate::respell::respell(preprocessed);
    match translate_respelled(&respelled.text, opts, read_source) {
        Ok(mut translated) => {
            translated.warnings = std::mem::take(&mut translated.warnings)
                .into_iter()
                .map(|d| respelled.original_diagnostic(d))
                .collect();
            Ok(translated)
        }
        Err(errors) => Err(errors
            .into_iter()
            .map(|d| respelled.original_diagnostic(d))
            .collect()),
    }
}

fn translate_respelled(
    preprocessed: &str,
    opts: &TranslateOptions,
    read_source: &dyn Fn(&str) -> Option<String>,
) -> Result<Translated, Vec<Diagnostic>> {
    let errors = match translate_text(preprocessed, opts, read_source) {
        Ok(translated) => return Ok(translated),
        Err(errors) => errors,
    };
    // C89 declarations without a type specifier stop lang-c: retried with their `int`
    let Some(completed) = crate::implicit_int::complete(preprocessed) else {
        return Err(errors);
    };
    match translate_text(&completed.text, opts, read_source) {
        Ok(mut translated) => {
            let mut warnings = completed.warnings();
            warnings.extend(
                translated
                    .warnings
                    .into_iter()
                    .map(|d| completed.original_diagnostic(d)),
            );
            translated.warnings = warnings;
            Ok(translated)
        }
        Err(errors) => Err(errors
            .into_iter()
            .map(|d| completed.original_diagnostic(d))
            .collect()),
    }
}

fn translate_text(
    preprocessed: &str,
    opts: &TranslateOptions,
    read_source: &dyn Fn(&str) -> Option<String>,
) -> Result<Translated, Vec<Diagnostic>> {
    let lines = LineMap::new(preprocessed);
    // user identifiers spelled like generated ones are renamed first (same offsets)
    let (renamed, renaming) = reserved::rename_user_identifiers(preprocessed, &lines);
    translate_renamed(&renamed, &lines, opts, read_source).map_err(|errors| match renaming {
        Some(r) => errors.into_iter().map(|d| restore_names(&r, d)).collect(),
        None => errors,
    })
}

/// A diagnostic with the user's spelling of renamed identifiers.
fn restore_names(r: &reserved::Renaming, mut d: Diagnostic) -> Diagnostic {
    d.message = r.restore(&d.message);
    if let Some((_, label)) = d.primary.as_mut() {
        *label = r.restore(label);
    }
    for (_, label) in d.secondary.iter_mut() {
        *label = r.restore(label);
    }
    for note in d.notes.iter_mut() {
        *note = r.restore(note);
    }
    d
}

fn translate_renamed(
    preprocessed: &str,
    lines: &LineMap,
    opts: &TranslateOptions,
    read_source: &dyn Fn(&str) -> Option<String>,
) -> Result<Translated, Vec<Diagnostic>> {
    let (directives, mut errors) = directive::scan(preprocessed);
    let view = crate::parse_view::parse_view(preprocessed, lines);
    let unit = match crate::parse::parse(&view) {
        Ok(unit) => unit,
        Err(e) => {
            // a stand-alone directive as the body of a statement leaves C that may not parse
            // (`if (x) }`): the directive is the error
            let misplaced: Vec<Diagnostic> = directives
                .iter()
                .filter_map(|d| lower::placement::misplaced_stand_alone(preprocessed, d))
                .collect();
            if misplaced.is_empty() {
                errors.push(e);
            }
            errors.extend(misplaced);
            return Err(errors);
        }
    };
    let is_system = |offset: usize| lines.is_system(offset);
    let program = resolve::analyse(&unit, &is_system);

    // Edits that also apply inside copied region bodies.
    let mut base_edits = lines.layout_edits(
        preprocessed,
        opts.line_markers,
        opts.collapse_system_headers,
        read_source,
    );
    let renames = rename_edits(&program, lines, preprocessed);
    let reads_stdin = renames.reads_stdin;
    if let Some((name, span)) = renames.mpi_call {
        return Err(vec![user_mpi_error(&name, span)]);
    }
    base_edits.extend(renames.edits);
    base_edits.extend(function_name_edits(&program).map_err(|d| vec![d])?);
    base_edits.extend(lower::thread_local::edits(&program, &directives)?);
    // each construct looks up the edits inside it by binary search; stable: the order of
    // insertions at one offset is kept
    base_edits.sort_by_key(|e| e.span.start);

    let cx = Context {
        source: preprocessed,
        lines,
        program: &program,
        base_edits: &base_edits,
        line_markers: opts.line_markers,
        directives: &directives,
        constructs: Default::default(),
        lock_pairs: Default::default(),
        lock_spans: Default::default(),
        atomic_statements: Default::default(),
        user_functions: Default::default(),
        waiting_functions: Default::default(),
    };
    let mut out = Out::default();
    let mut edits = lower::emit_edits(&cx, &mut out, Span::new(0, preprocessed.len()), &Env::new());
    // function bodies instrumented in place (they hold no construct: only base edits inside)
    for (body, text) in out.critical_in_place.drain(..) {
        edits.retain(|e| !(body.start <= e.span.start && e.span.end <= body.end));
        edits.push(Edit::replace(body, text));
    }
    errors.append(&mut out.errors);
    errors.extend(lower::builtin_atomic::check_regions(&cx));
    errors.extend(lower::clause_values::non_integer_variables(&cx));
    if !errors.is_empty() {
        return Err(errors);
    }
    // Code generated outside the user's functions: declarations before, outlined and combine
    // functions after each function that holds constructs.
    let mut before_of: HashMap<usize, String> = HashMap::new();
    for (f, text) in &out.before {
        before_of.entry(*f).or_default().push_str(text);
    }
    let mut after_of: HashMap<usize, String> = HashMap::new();
    for (f, text) in &out.after {
        after_of.entry(*f).or_default().push_str(text);
    }
    let with_constructs: std::collections::HashSet<usize> = directives
        .iter()
        .filter_map(|d| {
            program
                .functions
                .iter()
                .position(|f| f.span.start <= d.span.start && d.span.start < f.span.end)
        })
        .collect();
    for (index, function) in program.functions.iter().enumerate() {
        let mut before = before_of.remove(&index).unwrap_or_default();
        let mut after = after_of.remove(&index).unwrap_or_default();
        if !after.is_empty() {
            // the outlined regions: a reduction's private copy has the name of the variable it
            // stands for (-Wshadow), and the chunk arithmetic converts to the loop variable's
            // type; warnings the program built by gcc does not have
            after = format!("{OUTLINED_PUSH}{after}#pragma GCC diagnostic pop\n");
        }
        if function.name == "main" && !function.is_system {
            // `__cape_user_main` is the user's `main`, which needs no prototype
            before.insert_str(0, MAIN_PUSH);
            after.insert_str(0, "#pragma GCC diagnostic pop\n");
        }
        if !before.is_empty() || !after.is_empty() || with_constructs.contains(&index) {
            // the code generated inside the function and after it is kept out of the
            // warnings of -Werror builds gcc -fopenmp passes (GENERATED_IGNORED)
            before.insert_str(0, &generated_push());
            after.push_str("#pragma GCC diagnostic pop\n");
        }
        if !before.is_empty() {
            let mut text = before;
            if opts.line_markers {
                text.push_str(
                    &lines
                        .marker_text_for(function.span.start)
                        .unwrap_or_default(),
                );
            }
            edits.push(Edit::insert(function.span.start, text));
        }
        if !after.is_empty() {
            let mut text = String::from("\n");
            text.push_str(&after);
            if opts.line_markers {
                text.push_str(&lines.marker_text_for(function.span.end).unwrap_or_default());
                let column = lines
                    .locate(function.span.end)
                    .map_or(1, |l| l.column as usize);
                text.push_str(&" ".repeat(column.saturating_sub(1)));
            }
            edits.push(Edit::insert(function.span.end, text));
        }
    }
    out.file_end
        .push(lower::objects::file_table(&cx).map_err(|d| vec![d])?);
    if reads_stdin {
        out.file_end
            .push(render(MAIN, "stdin_reader", &[]).map_err(|d| vec![d])?);
    }

    edits.push(Edit::insert(preprocessed.len(), generated_push()));
    // code generated at the file's end: warnings about it name the file's last line
    let end_marker = opts
        .line_markers
        .then(|| lines.marker_text_for(preprocessed.len().saturating_sub(1)))
        .flatten();
    let at_end = |text: String| match &end_marker {
        Some(marker) => lower::pin_lines(&text, marker, '\u{1}'),
        None => text,
    };
    for text in &out.file_end {
        edits.push(Edit::insert(preprocessed.len(), at_end(text.clone())));
    }
    let mut prelude = render(PRELUDE, "prelude", &[]).map_err(|d| vec![d])?;
    if out.needs_minmax_identities {
        prelude.push_str(&render(PRELUDE, "minmax_identities", &[]).map_err(|d| vec![d])?);
    }
    if out.needs_atomic_prelude || out.needs_critical_prelude {
        prelude.push_str(&render(PRELUDE, "team_direct", &[]).map_err(|d| vec![d])?);
    }
    if out.needs_atomic_prelude {
        prelude.push_str(&render(CONSTRUCTS, "combiners", &[]).map_err(|d| vec![d])?);
    }
    // capert.h includes libc headers, which read the feature-test macros once: the user's
    // `#define _GNU_SOURCE` (or `_POSIX_C_SOURCE`, ...) must come before it, as it came before
    // the user's first system header
    // (after the prelude's first line, the comment that marks a translated file)
    let after_marker = prelude.find('\n').map_or(0, |i| i + 1);
    prelude.insert_str(after_marker, &feature_test_macros(preprocessed, lines));
    prelude.insert_str(after_marker, &define_generated_push());
    prelude.push_str("#pragma GCC diagnostic pop\n");
    edits.push(Edit::insert(0, prelude));
    if let Some(main) = program
        .functions
        .iter()
        .find(|f| f.name == "main" && !f.is_system)
    {
        edits.push(Edit::insert(
            preprocessed.len(),
            at_end(main_adapter(main).map_err(|d| vec![d])?),
        ));
    }
    edits.push(Edit::insert(
        preprocessed.len(),
        "#pragma GCC diagnostic pop\n".to_string(),
    ));
    let c = emit::apply(preprocessed, &edits).map_err(|d| vec![d])?;
    Ok(Translated {
        c,
        warnings: {
            let mut warnings = lower::single::one_rank_state_warnings(&cx);
            warnings.extend(lower::library_state::per_rank_state_warnings(&cx));
            warnings.extend(lower::clause_values::non_positive_warnings(&cx));
            warnings.extend(directive::bare_pragmas(preprocessed));
            warnings
        },
    })
}

/// The `#define` lines of feature-test macros (`_GNU_SOURCE`, `_POSIX_C_SOURCE`,
/// `_FILE_OFFSET_BITS`, `__STDC_WANT_LIB_EXT1__`, ...) that come before the text of the first
/// system header the program includes in `preprocessed` (`-dD` keeps them), as they are
/// spelled there: defined again identically later, which C allows.
fn feature_test_macros(preprocessed: &str, lines: &LineMap) -> String {
    let is_feature_macro = |name: &str| {
        (name.starts_with('_') && name.ends_with("_SOURCE"))
            || name.starts_with("__STDC_WANT_")
            || matches!(
                name,
                "_FILE_OFFSET_BITS"
                    | "_TIME_BITS"
                    | "_REENTRANT"
                    | "_THREAD_SAFE"
                    | "_XOPEN_SOURCE_EXTENDED"
            )
    };
    let mut found = String::new();
    let mut offset = 0;
    for line in preprocessed.split_inclusive('\n') {
        // gcc's implicit `stdc-predef.h` comes first and reads no feature-test macro
        if lines
            .system_file(offset)
            .is_some_and(|file| !file.ends_with("/stdc-predef.h"))
        {
            break;
        }
        if let Some(rest) = line.trim_start().strip_prefix("#define ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if is_feature_macro(&name) {
                found.push_str(line.trim_end_matches(['\r', '\n']));
                found.push('\n');
            }
        }
        offset += line.len();
    }
    found
}

/// Before the user's `main` (renamed `__cape_user_main`): gcc asks no prototype of `main`.
const MAIN_PUSH: &str = "\n#pragma GCC diagnostic push\n\
    #pragma GCC diagnostic ignored \"-Wmissing-prototypes\"\n";

/// Warnings of generated code that gcc -fopenmp's build of the same program does not have
/// (casts of the combiners' `const` arguments, declarations after statements and block-scope
/// `extern`s in place of a construct, `switch`es of sections without `default`, float
/// combiners' promotions, prelude macros a file does not use): ignored for the generated code,
/// so that `-Werror` with these flags builds what gcc builds. `-Wpragmas` first: a backend
/// that does not know one of them says nothing.
const GENERATED_IGNORED: [&str; 10] = [
    "-Wpragmas",
    "-Wcast-qual",
    "-Wmissing-declarations",
    "-Wdeclaration-after-statement",
    "-Wcast-align",
    "-Wswitch-default",
    "-Wdouble-promotion",
    "-Wunused-macros",
    "-Wredundant-decls",
    "-Wnested-externs",
];

/// The prelude's definition of the macro that pushes the [`GENERATED_IGNORED`] warnings
/// (every site of generated code uses it: [`generated_push`]), and its first use.
fn define_generated_push() -> String {
    let mut pragmas = String::from("_Pragma(\"GCC diagnostic push\")");
    for warning in GENERATED_IGNORED {
        pragmas.push_str(&format!(
            " \\\n    _Pragma(\"GCC diagnostic ignored \\\"{warning}\\\"\")"
        ));
    }
    format!("\n#define {GENERATED_BEGIN} {pragmas}{}", generated_push())
}

/// The macro the prelude defines for the push of [`GENERATED_IGNORED`].
const GENERATED_BEGIN: &str = "__CAPE_GENERATED_BEGIN";

/// The push of [`GENERATED_IGNORED`] after the prelude (its macro, on a line of its own).
fn generated_push() -> String {
    format!("\n{GENERATED_BEGIN}\n")
}

/// Before the outlined functions of a user function's regions.
const OUTLINED_PUSH: &str = "#pragma GCC diagnostic push\n\
    #pragma GCC diagnostic ignored \"-Wpragmas\"\n\
    #pragma GCC diagnostic ignored \"-Wshadow\"\n\
    #pragma GCC diagnostic ignored \"-Wconversion\"\n\
    #pragma GCC diagnostic ignored \"-Wsign-conversion\"\n";

fn main_adapter(main: &resolve::Function) -> Result<String, Diagnostic> {
    let arguments = match main.parameter_count {
        0 => "",
        1 => "argc",
        2 => "argc, argv",
        _ => "argc, argv, envp",
    };
    let section = if main.returns_void {
        "call_void"
    } else {
        "call_int"
    };
    let call = render(
        MAIN,
        section,
        &[("user_main", "__cape_user_main"), ("arguments", arguments)],
    )?;
    render(MAIN, "main", &[("call", call.trim_end())])
}

/// `main` -> `__cape_user_main`; allocation functions -> the arena's; `getenv` and the calls
/// that hand buffers to the kernel -> the runtime's; stdin readers -> sync first;
/// `register` on locals dropped (regions take the address of the shared locals they use).
/// Only in user code, and not when the user defines a function of that name.
fn rename_edits(program: &resolve::Program, lines: &LineMap, preprocessed: &str) -> Renames {
    let user_defines = |name: &str| {
        program
            .functions
            .iter()
            .any(|f| f.name == name && !f.is_system)
    };
    let mut edits = Vec::new();
    let mut reads_stdin = false;
    let mut mpi_call = None;
    for span in &program.register_specifiers {
        if !lines.is_system(span.start) {
            edits.push(Edit::replace(*span, "/* register */".to_string()));
        }
    }
    for (name, span) in &program.function_names {
        if name == "main" && !lines.is_system(span.start) {
            edits.push(Edit::replace(*span, "__cape_user_main".to_string()));
        }
    }
    // C gives only `main` an implicit `return 0`; the renamed function needs it spelled out.
    for f in &program.functions {
        if f.name == "main" && !f.is_system && !f.returns_void && f.body.end > f.body.start {
            let close = f.body.end - 1;
            if !ends_with_return(preprocessed.get(f.body.start..close).unwrap_or("")) {
                edits.push(Edit::insert(
                    close,
                    "    return 0; /* capecc: C's implicit return of main */\n".to_string(),
                ));
            }
        }
    }
    let in_user_function = |at: usize| {
        program
            .functions
            .iter()
            .any(|f| !f.is_system && f.body.start <= at && at < f.body.end)
    };
    for u in &program.uses {
        // `stdin` is a macro of <stdio.h> (`#define stdin stdin`): its expansion in user code
        // is marked as system-header text, but it is the user's use all the same
        let expanded_stdin = u.name == "stdin" && in_user_function(u.span.start);
        if lines.is_system(u.span.start) && !expanded_stdin {
            continue;
        }
        let refers_to_library = match u.binding {
            Binding::Other => true,
            Binding::LocalConstant(_) => false,
            Binding::Var(v) => program.vars.get(v).is_some_and(|var| {
                var.storage == Storage::Global && lines.is_system(var.ident_span.start)
            }),
        };
        if !refers_to_library {
            continue;
        }
        let name = u.name.as_str();
        if name.starts_with("MPI_") && !user_defines(name) && mpi_call.is_none() {
            mpi_call = Some((name.to_string(), u.span));
        }
        if name == "main" && user_defines("main") {
            edits.push(Edit::replace(u.span, "__cape_user_main".to_string()));
        } else if STDIN_NAMES.contains(&name) && !user_defines(name) {
            let callee = if KERNEL_BUFFER_FUNCTIONS.contains(&name) {
                format!("__cape_{name}")
            } else {
                name.to_string()
            };
            edits.push(Edit::replace(
                u.span,
                format!("(__cape_stdin_sync(), {callee})"),
            ));
            reads_stdin = true;
        } else if (ARENA_FUNCTIONS.contains(&name)
            || INPUT_FUNCTIONS.contains(&name)
            || KERNEL_BUFFER_FUNCTIONS.contains(&name)
            || FILE_FUNCTIONS.contains(&name))
            && !user_defines(name)
        {
            edits.push(Edit::replace(
                u.span,
                arena_call(name, u.span, lines, preprocessed),
            ));
        }
    }
    Renames {
        edits,
        reads_stdin,
        mpi_call,
    }
}

/// A program that calls MPI itself is refused: the runtime owns MPI (it initialises it, and
/// its merges and fetches use it between the program's statements), and with the
/// demand-driven merge a buffer given to MPI may lie in a page another rank holds, which MPI
/// cannot fetch.
fn user_mpi_error(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(format!(
        "`{name}`: a program compiled by capecc cannot call MPI itself"
    ))
    .with_primary(span, "an MPI function")
    .with_note(
        "capecc's runtime owns MPI: it starts it, and each parallel region already runs on \
         every rank; write the parallel work as OpenMP, or build an MPI program with mpicc",
    )
}

/// The runtime's version of a heap or input function; a call of an allocation function also
/// tells the runtime its site (`malloc at prog.c:9`), which names the block in reports. Only
/// calls: elsewhere (`&malloc`, an initializer) the comma expression would not do.
fn arena_call(name: &str, at: Span, lines: &LineMap, preprocessed: &str) -> String {
    let called = preprocessed
        .get(at.end..)
        .and_then(|t| t.trim_start().chars().next())
        == Some('(');
    if name == "free" || !ARENA_FUNCTIONS.contains(&name) || !called {
        return format!("__cape_{name}");
    }
    let site = lines.locate(at.start).map_or(String::new(), |l| {
        let file = l.file.replace('\\', "\\\\").replace('"', "\\\"");
        format!(" at {file}:{}", l.line)
    });
    format!("(__cape_alloc_site(\"{name}{site}\"), __cape_{name})")
}

/// `__func__` (and gcc's `__FUNCTION__`, `__PRETTY_FUNCTION__`, which `assert` uses) name the
/// function they are in; in an outlined region that would be `__cape_fn_N`, in `main`
/// `__cape_user_main`. Every use in a user function reads `__cape_func` instead, declared at the
/// start of the function's body with the user's name (and in each outlined function: see
/// `lower::parallel`).
fn function_name_edits(program: &resolve::Program) -> Result<Vec<Edit>, Diagnostic> {
    let mut edits = Vec::new();
    for f in program.functions.iter().filter(|f| !f.is_system) {
        let uses: Vec<&resolve::Use> = program
            .uses
            .iter()
            .filter(|u| f.body.start <= u.span.start && u.span.end <= f.body.end)
            .filter(|u| lower::names_enclosing_function(u))
            .collect();
        if uses.is_empty() {
            continue;
        }
        let declaration = render(CONSTRUCTS, "function_name", &[("name", &f.name)])?;
        // after the body's `{`
        // on the line of the `{`: the user's lines keep their numbers
        let declaration = format!(" {}", declaration.trim());
        edits.push(Edit::insert(f.body.start + 1, declaration));
        for u in uses {
            edits.push(Edit::replace(u.span, lower::FUNCTION_NAME.to_string()));
        }
    }
    Ok(edits)
}

/// What [`rename_edits`] found.
struct Renames {
    edits: Vec<Edit>,
    /// The file reads stdin (it then registers itself with `__cape_stdin_reader`).
    reads_stdin: bool,
    /// The first use of an MPI function (refused).
    mpi_call: Option<(String, Span)>,
}

/// Whether the last statement of a function body's text is a `return` (a cheap textual check: a
/// false "no" only adds an unreachable `return 0;`).
fn ends_with_return(body: &str) -> bool {
    let body = body.trim_end();
    let Some(without_semicolon) = body.strip_suffix(';') else {
        return false;
    };
    let start = without_semicolon
        .rfind([';', '{', '}'])
        .map_or(0, |i| i + 1);
    let last = without_semicolon[start..].trim_start();
    last.starts_with("return") && !last[6..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
}
