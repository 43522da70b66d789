//! Reductions beyond a scalar with a built-in operator: array sections (`a[lo:len]`, `p[0:n]`,
//! `a[0:n][0:m]`), whole arrays, and `declare reduction` identifiers (user combiner and
//! initializer, on structs and scalars). Each becomes a private copy initialised from the
//! identity (or the initializer) and `__cape_reduce` records, so they merge like any
//! reduction: combined after the merge on every rank, in rank order. A section's elements
//! travel in blocks of 1024, 64, 8 and 1 elements, one combiner per block size.

use crate::diag::{Diagnostic, Span};
use crate::directive::{ClauseArgs, ClauseKind, Directive, DirectiveKind, ListItem, ReductionOp};
use crate::resolve::{TypeClass, VarId};
use crate::template::{render, REDUCTION};

use super::common::{combine_expression, reduction_identity, typed_pointer};
use super::{clause_expr, one, Context, Env, Out};

/// One dimension of an array section: `[lo:len]`, either bound possibly absent.
struct Dimension {
    lo: Option<Span>,
    len: Option<Span>,
    span: Span,
}

/// The dimensions written after an item's name (`a[0:n][0:m]`): empty for a plain name.
fn dimensions(cx: &Context, item: &ListItem) -> Result<Vec<Dimension>, Diagnostic> {
    let text = cx.text(item.span);
    let bytes = text.as_bytes();
    let mut i = item.name_span.end.saturating_sub(item.span.start);
    let mut found = Vec::new();
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if bytes[i] != b'[' {
            return Err(
                Diagnostic::error("expected an array section `[lower : length]`")
                    .with_primary(item.span, "not a variable or an array section"),
            );
        }
        let open = i;
        let (mut depth, mut colon) = (0usize, None);
        let mut close = None;
        for (j, &b) in bytes.iter().enumerate().skip(open + 1) {
            match b {
                b'[' | b'(' => depth += 1,
                b']' | b')' if depth > 0 => depth -= 1,
                b']' => {
                    close = Some(j);
                    break;
                }
                b':' if depth == 0 && colon.is_none() => colon = Some(j),
                _ => {}
            }
        }
        let Some(close) = close else {
            return Err(
                Diagnostic::error("unclosed array section").with_primary(item.span, "expected `]`")
            );
        };
        let at = |a: usize, b: usize| -> Option<Span> {
            let part = text.get(a..b).unwrap_or("");
            let trimmed = part.trim();
            (!trimmed.is_empty()).then(|| {
                let lead = part.len() - part.trim_start().len();
                let start = item.span.start + a + lead;
                Span::new(start, start + trimmed.len())
            })
        };
        let span = Span::new(item.span.start + open, item.span.start + close + 1);
        let Some(colon) = colon else {
            return Err(
                Diagnostic::error("a reduction item is a variable or an array section")
                    .with_primary(span, "an element, not a section: write `[lower : length]`"),
            );
        };
        found.push(Dimension {
            lo: at(open + 1, colon),
            len: at(colon + 1, close),
            span,
        });
        i = close + 1;
    }
    Ok(found)
}

/// The reduction clause item of `d` that names `v`: (item, operator, operator span).
fn clause_item<'d>(
    cx: &Context,
    d: &'d Directive,
    v: VarId,
) -> Option<(&'d ListItem, ReductionOp, Span)> {
    let name = &cx.program.vars.get(v)?.name;
    d.clauses.iter().rev().find_map(|c| match &c.args {
        ClauseArgs::Reduction { op, op_span, items } if c.kind == ClauseKind::Reduction => items
            .iter()
            .find(|i| &i.name == name)
            .map(|i| (i, *op, *op_span)),
        _ => None,
    })
}

/// A `declare reduction` directive's parts: (combiner, initializer) spans.
struct Declared {
    combiner: Span,
    initializer: Option<Span>,
}

/// The text between the parentheses that follow the first `(` at or after `from`.
fn parenthesised(cx: &Context, span: Span) -> Option<Span> {
    let text = cx.text(span);
    let open = text.find('(')?;
    let mut depth = 0usize;
    for (j, b) in text.bytes().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(Span::new(span.start + open + 1, span.start + j));
                }
            }
            _ => {}
        }
    }
    None
}

fn declared_parts(cx: &Context, d: &Directive) -> Option<Declared> {
    let after_name = Span::new(d.name_span.end, d.span.end);
    let inside = parenthesised(cx, after_name)?;
    // `id : types : combiner`; the combiner may hold `?:` and parentheses
    let text = cx.text(inside);
    let mut colons = Vec::new();
    let mut depth = 0usize;
    for (j, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b':' if depth == 0 && colons.len() < 2 => colons.push(j),
            _ => {}
        }
    }
    let &[_, second] = colons.as_slice() else {
        return None;
    };
    let combiner = Span::new(inside.start + second + 1, inside.end);
    let initializer = d
        .clauses
        .iter()
        .find(|c| c.kind == ClauseKind::Initializer)
        .and_then(|c| parenthesised(cx, c.span));
    Some(Declared {
        combiner,
        initializer,
    })
}

/// The type a `declare reduction` type-list entry must match: the variable's specifiers.
fn type_text(cx: &Context, v: VarId) -> String {
    let var = &cx.program.vars[v];
    let words: Vec<&str> = var.type_specifiers.iter().map(|s| cx.text(*s)).collect();
    normalise(&words.join(" "))
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `declare reduction` for identifier `id` visible at `d` whose type list holds `v`'s type
/// (the only one with that identifier when no type matches by its text: a typedef).
fn declared_for<'d>(
    cx: &Context<'d, '_>,
    d: &Directive,
    id: &str,
    v: VarId,
) -> Option<&'d Directive> {
    let function = cx.program.function_at(d.span.start);
    let candidates: Vec<&Directive> = cx
        .directives
        .iter()
        .take_while(|e| e.span.start < d.span.start)
        .filter(|e| e.kind == DirectiveKind::DeclareReduction)
        .filter(|e| e.name_arg.as_deref() == Some(id))
        .filter(|e| {
            let at = cx.program.function_at(e.span.start);
            at.is_none() || at == function
        })
        .collect();
    let ty = type_text(cx, v);
    candidates
        .iter()
        .rev()
        .find(|e| e.list_arg.iter().any(|t| normalise(&t.name) == ty))
        .or(match candidates.as_slice() {
            [only] => Some(only),
            _ => None,
        })
        .copied()
}

/// The identifier of a reduction clause operator as written (`+`, `max`, `merge`).
fn operator_text<'c>(cx: &'c Context, op_span: Span) -> &'c str {
    cx.text(op_span).trim()
}

/// Whether a reduction item is handled here rather than as a scalar with a built-in operator.
fn handled_here(cx: &Context, d: &Directive, v: VarId) -> bool {
    let Some((item, _, op_span)) = clause_item(cx, d, v) else {
        return false;
    };
    item.span != item.name_span
        || cx.program.vars[v].class == TypeClass::Array
        || declared_for(cx, d, operator_text(cx, op_span), v).is_some()
}

/// The checks of one reduction item handled here: `Some(false)` when it cannot be reduced
/// (errors recorded), `None` for a scalar with a built-in operator (checked by the caller).
pub fn admits(
    cx: &Context,
    d: &Directive,
    op: ReductionOp,
    op_span: Span,
    item: &ListItem,
    v: VarId,
    errors: &mut Vec<Diagnostic>,
) -> Option<bool> {
    let var = &cx.program.vars[v];
    let id = operator_text(cx, op_span);
    let declared = declared_for(cx, d, id, v);
    if op == ReductionOp::Custom && declared.is_none() {
        errors.push(
            Diagnostic::error(format!("no `declare reduction` for `{id}` is visible here"))
                .with_primary(op_span, "unknown reduction identifier")
                .with_note(
                    "declare it before this directive: `#pragma omp declare reduction(id : type : \
                     combiner) [initializer(omp_priv = ...)]`",
                ),
        );
        return Some(false);
    }
    let dims = match dimensions(cx, item) {
        Ok(d) => d,
        Err(e) => {
            errors.push(e);
            return Some(false);
        }
    };
    if dims.is_empty() && var.class != TypeClass::Array && declared.is_none() {
        return None;
    }
    if !dims.is_empty() && !matches!(var.class, TypeClass::Array | TypeClass::Pointer) {
        errors.push(
            Diagnostic::error(format!(
                "array section of `{}`, which is neither an array nor a pointer",
                var.name
            ))
            .with_primary(item.span, "array section here")
            .with_secondary(var.ident_span, "declared here"),
        );
        return Some(false);
    }
    if let Some(first) = dims.first() {
        if first.len.is_none() && var.class == TypeClass::Pointer {
            errors.push(
                Diagnostic::error(format!(
                    "the section of pointer `{}` needs a length",
                    var.name
                ))
                .with_primary(first.span, "write `[lower : length]`"),
            );
            return Some(false);
        }
    }
    for later in dims.iter().skip(1) {
        if later.lo.is_some_and(|lo| cx.text(lo) != "0") {
            errors.push(
                Diagnostic::error("only the first dimension of a reduction section may be partial")
                    .with_primary(later.span, "this dimension must start at 0")
                    .with_note(
                        "capecc reduces whole rows: later dimensions are `[0 : size]` or `[:]`",
                    ),
            );
            return Some(false);
        }
    }
    if var.is_const {
        errors.push(
            Diagnostic::error(format!(
                "const-qualified variable `{}` cannot be a reduction variable",
                var.name
            ))
            .with_primary(item.name_span, "declared `const`"),
        );
        return Some(false);
    }
    Some(true)
}

/// Replaces the identifiers `from` -> `to` of a C expression, outside literals.
fn substitute(text: &str, pairs: &[(&str, &str)]) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' || c == b'\'' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            out.push_str(text.get(start..i).unwrap_or(""));
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = text.get(start..i).unwrap_or("");
            match pairs.iter().find(|(f, _)| *f == word) {
                Some((_, to)) => out.push_str(to),
                None => out.push_str(word),
            }
        } else {
            let start = i;
            i += 1;
            while i < bytes.len() && !bytes[i].is_ascii() {
                i += 1;
            }
            out.push_str(text.get(start..i).unwrap_or(""));
        }
    }
    out
}

/// The statement that initialises `*__cape_priv` (and may read `*__cape_orig`).
fn init_statement(
    cx: &Context,
    out: &mut Out,
    op: ReductionOp,
    declared: Option<&Declared>,
) -> Result<String, Diagnostic> {
    let Some(declared) = declared else {
        let identity = reduction_identity(out, op, "*__cape_priv");
        return render(REDUCTION, "builtin_init", &[("identity", &identity)]);
    };
    let Some(init) = declared.initializer else {
        return render(REDUCTION, "zero_init", &[]);
    };
    let pairs = [
        ("omp_priv", "(*__cape_priv)"),
        ("omp_orig", "(*__cape_orig)"),
    ];
    let text = cx.text(init).trim();
    // `omp_priv = { ... }`: a braced initializer becomes a compound literal
    if let Some(rest) = text.strip_prefix("omp_priv") {
        let rest = rest.trim_start();
        if let Some(value) = rest.strip_prefix('=').filter(|v| !v.starts_with('=')) {
            let value = value.trim();
            let value = if value.starts_with('{') {
                format!("(__typeof__(*__cape_priv)) {}", substitute(value, &pairs))
            } else {
                substitute(value, &pairs)
            };
            return Ok(format!("*__cape_priv = {value};\n"));
        }
    }
    Ok(format!("{};\n", substitute(text, &pairs)))
}

/// The statement that combines `*__cape_b` into `*__cape_a`.
fn combine_statement(
    cx: &Context,
    op: ReductionOp,
    declared: Option<&Declared>,
) -> Result<String, Diagnostic> {
    match declared {
        Some(declared) => {
            let text = substitute(
                cx.text(declared.combiner).trim(),
                &[("omp_out", "(*__cape_a)"), ("omp_in", "(*__cape_b)")],
            );
            Ok(format!("{text};"))
        }
        None => render(
            REDUCTION,
            "builtin_combine",
            &[("combined", combine_expression(op).1)],
        )
        .map(|t| t.trim_end().to_string()),
    }
}

/// The private copy (declarations, before the construct's code) and the reduction records
/// (after it) of reduction variable `v` of `d`, when it is handled here; `of` is the original
/// as an lvalue in the generated code.
pub fn copies(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    v: VarId,
    of: &str,
    env: &Env,
) -> Option<Result<(String, String), Vec<Diagnostic>>> {
    if !handled_here(cx, d, v) {
        return None;
    }
    Some(copies_of(cx, out, d, v, of, env))
}

fn copies_of(
    cx: &Context,
    out: &mut Out,
    d: &Directive,
    v: VarId,
    of: &str,
    env: &Env,
) -> Result<(String, String), Vec<Diagnostic>> {
    let (item, op, op_span) = clause_item(cx, d, v).ok_or_else(|| {
        vec![Diagnostic::error(
            "internal error: reduction item not found",
        )]
    })?;
    let var = &cx.program.vars[v];
    let name = var.name.as_str();
    let declared_directive = declared_for(cx, d, operator_text(cx, op_span), v);
    let declared = match declared_directive {
        Some(dr) => Some(declared_parts(cx, dr).ok_or_else(|| {
            vec![Diagnostic::error("cannot read this `declare reduction`")
                .with_primary(dr.name_span, "expected `(id : types : combiner)`")]
        })?),
        None => None,
    };
    let declared = declared.as_ref();
    let init = one(init_statement(cx, out, op, declared))?;
    let combine_stmt = one(combine_statement(cx, op, declared))?;
    let combine = format!("__cape_combine_{}_{name}", out.fresh_id());
    let function = cx.program.function_at(d.span.start).ok_or_else(|| {
        vec![Diagnostic::error(
            "internal error: construct outside a function",
        )]
    })?;
    let location = cx.location(d.span.start);
    let op_name = operator_text(cx, op_span).to_string();
    let item_text = normalise(cx.text(item.span));
    let dims = one(dimensions(cx, item))?;
    if dims.is_empty() && var.class != TypeClass::Array {
        // a scalar or a struct with a user-defined reduction
        let def = one(render(
            REDUCTION,
            "user_combine_fn",
            &[
                ("op", &op_name),
                ("item", &item_text),
                ("construct", d.kind.name()),
                ("location", &location),
                ("combine", &combine),
                ("inout_pointer", &one(typed_pointer(cx, v, "__cape_a"))?),
                ("in_pointer", &one(typed_pointer(cx, v, "__cape_b"))?),
                ("combine_statement", &combine_stmt),
            ],
        ))?;
        let decl = one(render(
            crate::template::WORKSHARING,
            "combine_decl",
            &[("combine", &combine)],
        ))?;
        out.before.push((function, decl));
        out.after.push((function, def));
        let init_text = one(render(
            REDUCTION,
            "user_init",
            &[("of", of), ("var", name), ("init", init.trim_end())],
        ))?;
        let out_text = one(render(
            REDUCTION,
            "user_out",
            &[("var", name), ("combine", &combine)],
        ))?;
        return Ok((init_text, out_text));
    }
    // an array section (a whole array is the section of all its elements)
    let first = dims.first();
    let lo = match first.and_then(|f| f.lo) {
        Some(s) => format!("({})", clause_expr(cx, d, s, env)),
        None => "0".to_string(),
    };
    let len = match first.and_then(|f| f.len) {
        Some(s) => format!("({})", clause_expr(cx, d, s, env)),
        None => format!("(sizeof ({of}) / sizeof ({of})[0] - {lo})"),
    };
    let depth = var.shape.steps.len().max(1);
    let below = "[0]".repeat(depth - 1);
    let scalar_here = format!("__cape_rbuf_{name}[0]{below}");
    let scalar_there = format!("(*__cape_t)[0]{below}");
    let var_pointer = one(typed_pointer(cx, v, "__cape_t"))?;
    for n in ["1024", "64", "8", "1"] {
        let decl = one(render(
            REDUCTION,
            "section_combine_decl",
            &[("combine", &combine), ("n", n)],
        ))?;
        let def = one(render(
            REDUCTION,
            "section_combine_fn",
            &[
                ("op", &op_name),
                ("item", &item_text),
                ("construct", d.kind.name()),
                ("location", &location),
                ("combine", &combine),
                ("n", n),
                ("var_pointer", &var_pointer),
                ("scalar", &scalar_there),
                ("combine_statement", &combine_stmt),
            ],
        ))?;
        out.before.push((function, decl));
        out.after.push((function, def));
    }
    let init_text = one(render(
        REDUCTION,
        "section_init",
        &[
            ("of", of),
            ("var", name),
            ("lo", &lo),
            ("len", &len),
            ("scalar", &scalar_here),
            ("init", init.trim_end()),
        ],
    ))?;
    let out_text = one(render(
        REDUCTION,
        "section_out",
        &[
            ("var", name),
            ("scalar", &scalar_here),
            ("combine", &combine),
        ],
    ))?;
    Ok((init_text, out_text))
}

/// Checks a `declare reduction` directive (it generates no code where it stands).
pub fn check_declaration(cx: &Context, d: &Directive) -> Result<(), Diagnostic> {
    let parts = declared_parts(cx, d).ok_or_else(|| {
        Diagnostic::error("cannot read this `declare reduction`").with_primary(
            d.name_span,
            "expected `(identifier : type-list : combiner)`",
        )
    })?;
    let combiner = cx.text(parts.combiner);
    if !combiner.contains("omp_out") {
        return Err(Diagnostic::error(
            "the combiner of a `declare reduction` must update `omp_out`",
        )
        .with_primary(parts.combiner, "no `omp_out` here"));
    }
    Ok(())
}
