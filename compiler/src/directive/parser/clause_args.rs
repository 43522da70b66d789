//! The arguments of each clause (`schedule(...)`, `reduction(op: list)`, `depend(...)`, ...):
//! the phase of the parser after a clause name has been read.

use super::super::ast::*;
use super::super::lexer::{Tok, TokKind};
use super::super::rules::IF_MODIFIERS;
use super::super::unsupported;
use super::{backticked, PResult, Parser, SpanOrder, REDUCTION_OPS};
use crate::diag::{Diagnostic, Span};

const REDUCTION_OPS_NOTE: &str =
    "expected one of `+`, `*`, `-`, `&`, `|`, `^`, `&&`, `||`, `max`, \
     `min` or a `declare reduction` identifier";

const SCHEDULE_KINDS: [(&str, ScheduleKind); 5] = [
    ("static", ScheduleKind::Static),
    ("dynamic", ScheduleKind::Dynamic),
    ("guided", ScheduleKind::Guided),
    ("auto", ScheduleKind::Auto),
    ("runtime", ScheduleKind::Runtime),
];

const SCHEDULE_MODIFIERS: [&str; 3] = ["monotonic", "nonmonotonic", "simd"];

const MAP_TYPES: [&str; 6] = ["to", "from", "tofrom", "alloc", "release", "delete"];

/// Whether `modifier` (e.g. `target data`) is a contiguous run of words of `name`.
fn name_contains(name: &str, modifier: &str) -> bool {
    let name: Vec<&str> = name.split(' ').collect();
    let modifier: Vec<&str> = modifier.split(' ').collect();
    name.windows(modifier.len())
        .any(|w| w == modifier.as_slice())
}

impl<'a> Parser<'a> {
    pub(super) fn clause_args(
        &mut self,
        kind: ClauseKind,
        directive: DirectiveKind,
    ) -> PResult<ClauseArgs> {
        use ClauseKind as C;
        let name = kind.name();
        Ok(match kind {
            C::Nowait
            | C::Untied
            | C::Mergeable
            | C::Nogroup
            | C::Inbranch
            | C::Notinbranch
            | C::Threads
            | C::Simd
            | C::SeqCst
            | C::AcqRel
            | C::Acquire
            | C::Release
            | C::Relaxed
            | C::Read
            | C::Write
            | C::Update
            | C::Capture => {
                if self.peek_is_punct("(") {
                    return Err(
                        Diagnostic::error(format!("clause `{name}` takes no arguments"))
                            .with_primary(self.here(), "unexpected `(`"),
                    );
                }
                ClauseArgs::None
            }
            C::If => self.if_args(directive)?,
            C::NumThreads
            | C::Collapse
            | C::Final
            | C::Priority
            | C::Grainsize
            | C::NumTasks
            | C::Device
            | C::Safelen
            | C::Simdlen
            | C::NumTeams
            | C::ThreadLimit
            | C::Hint
            | C::Filter => {
                let expr = self.paren_expr(name)?;
                if !matches!(kind, C::Final) {
                    self.check_integer(name, expr)?;
                }
                if matches!(kind, C::Safelen | C::Simdlen | C::Collapse) {
                    self.check_positive(name, expr)?;
                }
                ClauseArgs::Expr {
                    expr,
                    modifier: None,
                }
            }
            C::Ordered => {
                if self.peek_is_punct("(") {
                    let expr = self.paren_expr(name)?;
                    self.check_integer(name, expr)?;
                    self.check_positive(name, expr)?;
                    ClauseArgs::Expr {
                        expr,
                        modifier: None,
                    }
                } else {
                    ClauseArgs::None
                }
            }
            C::Lastprivate => {
                let open = self.expect_open(name)?;
                self.refuse_modifier(name, &[":"])?;
                let items = self.list(name, false)?;
                self.expect_close(&open)?;
                ClauseArgs::List(items)
            }
            C::Private
            | C::Firstprivate
            | C::Shared
            | C::Copyin
            | C::Copyprivate
            | C::Uniform
            | C::IsDevicePtr
            | C::UseDevicePtr
            | C::Nontemporal => ClauseArgs::List(self.paren_list(name, false)?),
            C::To | C::From | C::Link => ClauseArgs::List(self.paren_list(name, true)?),
            C::Default => self.default_args()?,
            C::Reduction => self.reduction_args()?,
            C::Schedule => self.schedule_args()?,
            C::Linear | C::Aligned => self.list_with_expr_args(name)?,
            C::ProcBind => self.keyword_arg(name, &["master", "close", "spread"])?,
            C::Order => self.keyword_arg(name, &["concurrent"])?,
            C::Bind => self.keyword_arg(name, &["teams", "parallel", "thread"])?,
            C::Depend => self.depend_args(directive)?,
            C::Map => self.map_args()?,
            C::Defaultmap => {
                let open = self.expect_open(name)?;
                self.expect_keyword(&["tofrom"])?;
                self.expect_punct(":", "after `tofrom`")?;
                self.expect_keyword(&["scalar"])?;
                let close = self.expect_close(&open)?;
                ClauseArgs::Raw {
                    text: self.text_between(&open, &close),
                }
            }
            C::DistSchedule => {
                let open = self.expect_open(name)?;
                self.expect_keyword(&["static"])?;
                if self.eat_punct(",").is_some() {
                    let chunk = self.expr(&[","])?;
                    self.check_integer("dist_schedule", chunk)?;
                }
                let close = self.expect_close(&open)?;
                ClauseArgs::Raw {
                    text: self.text_between(&open, &close),
                }
            }
            C::Initializer => {
                let open = self.expect_open(name)?;
                self.expr(&[])?;
                let close = self.expect_close(&open)?;
                ClauseArgs::Raw {
                    text: self.text_between(&open, &close),
                }
            }
        })
    }

    /// `safelen`, `simdlen`, `collapse` and `ordered(n)` take a positive constant: an argument
    /// that is a constant of 0 or less is refused, as gcc does (one with names in it, an
    /// enumerator or `sizeof`, is left to the compiler).
    fn check_positive(&self, clause: &str, expr: Span) -> PResult<()> {
        let toks: Vec<Tok<'a>> = self
            .toks
            .iter()
            .filter(|t| self.offset + t.start >= expr.start && self.offset + t.end <= expr.end)
            .copied()
            .collect();
        let mut at = 0;
        match constant_sum(&toks, &mut at) {
            Some(value) if at == toks.len() && value <= 0 => Err(Diagnostic::error(format!(
                "the argument of `{clause}` must be a positive constant"
            ))
            .with_primary(expr, format!("this is {value}"))
            .with_note(format!(
                "help: write `{clause}(n)` with a constant n of 1 or more, or remove the clause"
            ))),
            _ => Ok(()),
        }
    }

    /// The clauses that take an integer expression refuse one gcc's type check refuses: a
    /// string literal or a floating constant with no name in the expression that could cast
    /// it (`num_threads("x")`, `schedule(static, 2.5)`). Names are left to the compiler.
    fn check_integer(&self, clause: &str, expr: Span) -> PResult<()> {
        let toks: Vec<Tok<'a>> = self
            .toks
            .iter()
            .filter(|t| self.offset + t.start >= expr.start && self.offset + t.end <= expr.end)
            .copied()
            .collect();
        if toks.iter().any(|t| t.kind == TokKind::Ident) {
            return Ok(());
        }
        let Some(bad) = toks
            .iter()
            .find(|t| t.kind == TokKind::Str || (t.kind == TokKind::Number && is_floating(t.text)))
        else {
            return Ok(());
        };
        let what = if bad.kind == TokKind::Str {
            "a string literal"
        } else {
            "a floating constant"
        };
        Err(Diagnostic::error(format!(
            "the argument of `{clause}` must be an integer expression"
        ))
        .with_primary(self.tok_span(bad), format!("{what} is not an integer"))
        .with_note("gcc refuses it too: `expected integer expression`"))
    }

    /// A later OpenMP's modifier of `clause` (`conditional:`, `inscan,`, `inoutset:`, ...):
    /// an identifier followed by one of `follow` (or by `(`: `iterator(...)`) is refused when
    /// it is one capecc does not support.
    fn refuse_modifier(&self, clause: &str, follow: &[&str]) -> PResult<()> {
        let Some(word) = self.peek().filter(|t| t.kind == TokKind::Ident) else {
            return Ok(());
        };
        let modifier_like = self
            .peek_at(1)
            .is_some_and(|t| follow.iter().any(|p| t.is_punct(p)) || t.is_punct("("));
        match unsupported::modifier(clause, word.text) {
            Some(feature) if modifier_like => Err(unsupported::refusal(
                feature.written,
                feature,
                self.tok_span(&word),
            )),
            _ => Ok(()),
        }
    }

    /// The next token must be one of `words`.
    fn expect_keyword(&mut self, words: &[&str]) -> PResult<Tok<'a>> {
        let expected = match words {
            [one] => format!("`{one}`"),
            _ => format!("one of {}", backticked(words)),
        };
        match self.peek() {
            Some(t) if t.kind == TokKind::Ident && words.contains(&t.text) => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.expected(&expected)),
        }
    }

    /// `(keyword)` kept as raw text.
    fn keyword_arg(&mut self, clause: &str, words: &[&str]) -> PResult<ClauseArgs> {
        let open = self.expect_open(clause)?;
        let word = self.expect_keyword(words)?;
        self.expect_close(&open)?;
        Ok(ClauseArgs::Raw {
            text: word.text.to_string(),
        })
    }

    fn default_args(&mut self) -> PResult<ClauseArgs> {
        let open = self.expect_open("default")?;
        let kind = match self.peek() {
            Some(t) if t.is_ident("shared") => DefaultKind::Shared,
            Some(t) if t.is_ident("none") => DefaultKind::None,
            Some(t) if unsupported::modifier("default", t.text).is_some() => {
                self.refuse_modifier("default", &[")"])?;
                return Err(self.expected("`shared` or `none`"));
            }
            _ => return Err(self.expected("`shared` or `none`")),
        };
        self.pos += 1;
        self.expect_close(&open)?;
        Ok(ClauseArgs::Default(kind))
    }

    /// `if([directive-name-modifier :] expr)`
    fn if_args(&mut self, directive: DirectiveKind) -> PResult<ClauseArgs> {
        let open = self.expect_open("if")?;
        let mut modifier = None;
        for words in (1..=3).rev() {
            let candidate: Option<Vec<Tok<'a>>> = (0..words)
                .map(|i| self.peek_at(i).filter(|t| t.kind == TokKind::Ident))
                .collect();
            let Some(candidate) = candidate else { continue };
            if !self.peek_at(words).is_some_and(|t| t.is_punct(":")) {
                continue;
            }
            let text = candidate
                .iter()
                .map(|t| t.text)
                .collect::<Vec<_>>()
                .join(" ");
            let span = match (candidate.first(), candidate.last()) {
                (Some(a), Some(b)) => self.span(a.start, b.end),
                _ => self.here(),
            };
            if !IF_MODIFIERS.contains(&text.as_str()) {
                return Err(
                    Diagnostic::error(format!("unknown directive-name modifier `{text}`"))
                        .with_primary(span, "unknown modifier")
                        .with_note(format!("expected one of {}", backticked(&IF_MODIFIERS))),
                );
            }
            if !name_contains(directive.name(), &text) {
                return Err(Diagnostic::error(format!(
                    "directive-name modifier `{text}` does not apply to `#pragma omp {}`",
                    directive.name()
                ))
                .with_primary(span, "modifier does not name this construct"));
            }
            self.pos += words + 1;
            modifier = Some(text);
            break;
        }
        let expr = self.expr(&[","])?;
        self.expect_close(&open)?;
        Ok(ClauseArgs::Expr { expr, modifier })
    }

    fn reduction_args(&mut self) -> PResult<ClauseArgs> {
        let open = self.expect_open("reduction")?;
        // OpenMP 5.0's modifiers: `default` is the plain reduction, the others are refused
        self.refuse_modifier("reduction", &[","])?;
        if self.peek().is_some_and(|t| t.is_ident("default"))
            && self.peek_at(1).is_some_and(|t| t.is_punct(","))
        {
            self.pos += 2;
        }
        let op_tok = match self.peek() {
            Some(t) if t.kind == TokKind::Ident || t.kind == TokKind::Punct => t,
            _ => return Err(self.expected("a reduction operator")),
        };
        let known = REDUCTION_OPS
            .iter()
            .find(|(text, _)| *text == op_tok.text)
            .map(|(_, op)| *op);
        let op = match known {
            Some(op) => op,
            None if op_tok.kind == TokKind::Ident => ReductionOp::Custom,
            None => {
                return Err(Diagnostic::error(format!(
                    "invalid reduction operator `{}`",
                    op_tok.text
                ))
                .with_primary(self.tok_span(&op_tok), "not a reduction operator")
                .with_note(REDUCTION_OPS_NOTE))
            }
        };
        self.pos += 1;
        self.expect_punct(":", "after the reduction operator")?;
        let items = self.list("reduction", true)?;
        self.expect_close(&open)?;
        Ok(ClauseArgs::Reduction {
            op,
            op_span: self.tok_span(&op_tok),
            items,
        })
    }

    /// `schedule([modifier [, modifier] :] kind [, chunk])`
    fn schedule_args(&mut self) -> PResult<ClauseArgs> {
        let open = self.expect_open("schedule")?;
        let mut modifiers: Vec<(String, Span)> = Vec::new();
        let first_is_modifier = self
            .peek()
            .is_some_and(|t| SCHEDULE_MODIFIERS.contains(&t.text));
        let has_modifiers = self.peek().is_some_and(|t| t.kind == TokKind::Ident)
            && self
                .peek_at(1)
                .is_some_and(|t| t.is_punct(":") || (t.is_punct(",") && first_is_modifier));
        if has_modifiers {
            loop {
                let m = self.expect_ident("a schedule modifier")?;
                if !SCHEDULE_MODIFIERS.contains(&m.text) {
                    return Err(Diagnostic::error(format!(
                        "unknown schedule modifier `{}`",
                        m.text
                    ))
                    .with_primary(self.tok_span(&m), "unknown modifier")
                    .with_note(format!(
                        "expected one of {}",
                        backticked(&SCHEDULE_MODIFIERS)
                    )));
                }
                modifiers.push((m.text.to_string(), self.tok_span(&m)));
                if self.eat_punct(",").is_none() {
                    break;
                }
            }
            self.expect_punct(":", "after the schedule modifiers")?;
        }
        let kind_names: Vec<&str> = SCHEDULE_KINDS.iter().map(|(n, _)| *n).collect();
        let kind_tok = self.expect_ident("a schedule kind")?;
        let Some(kind) = SCHEDULE_KINDS
            .iter()
            .find(|(n, _)| *n == kind_tok.text)
            .map(|(_, k)| *k)
        else {
            return Err(
                Diagnostic::error(format!("unknown schedule kind `{}`", kind_tok.text))
                    .with_primary(self.tok_span(&kind_tok), "unknown schedule kind")
                    .with_note(format!("expected one of {}", backticked(&kind_names))),
            );
        };
        let chunk = if self.eat_punct(",").is_some() {
            let chunk = self.expr(&[","])?;
            self.check_integer("schedule", chunk)?;
            Some(chunk)
        } else {
            None
        };
        self.expect_close(&open)?;
        if let (Some(chunk), ScheduleKind::Runtime | ScheduleKind::Auto) = (chunk, kind) {
            return Err(Diagnostic::error(format!(
                "`{}` schedule does not take a chunk size",
                kind_tok.text
            ))
            .with_primary(chunk, "chunk size given here"));
        }
        let has = |name: &str| modifiers.iter().find(|(m, _)| m == name).map(|(_, s)| *s);
        if let (Some(a), Some(b)) = (has("monotonic"), has("nonmonotonic")) {
            return Err(Diagnostic::error(
                "schedule modifiers `monotonic` and `nonmonotonic` are mutually exclusive",
            )
            .with_primary(a.max_by_start(b), "conflicting modifier")
            .with_secondary(a.min_by_start(b), "first modifier"));
        }
        // `nonmonotonic` with `static` (OpenMP 5.0 lifted 4.5's restriction, as gcc does):
        // a static schedule is the same either way
        let modifiers = modifiers.into_iter().map(|(m, _)| m).collect();
        Ok(ClauseArgs::Schedule {
            kind,
            modifiers,
            chunk,
        })
    }

    /// `linear([val|ref|uval](list) [: step])`, `aligned(list [: n])`
    fn list_with_expr_args(&mut self, clause: &str) -> PResult<ClauseArgs> {
        let open = self.expect_open(clause)?;
        let modifier_open = if clause == "linear"
            && self
                .peek()
                .is_some_and(|t| ["val", "ref", "uval"].iter().any(|m| t.is_ident(m)))
            && self.peek_at(1).is_some_and(|t| t.is_punct("("))
        {
            self.pos += 1;
            self.bump()
        } else {
            None
        };
        let items = self.list(clause, false)?;
        if let Some(inner) = modifier_open {
            self.expect_close(&inner)?;
        }
        let expr = if self.eat_punct(":").is_some() {
            Some(self.expr(&[","])?)
        } else {
            None
        };
        self.expect_close(&open)?;
        Ok(ClauseArgs::ListWithExpr { items, expr })
    }

    /// `depend(in|out|inout|mutexinoutset : list)`, `depend(source)`, `depend(sink : vec)`
    fn depend_args(&mut self, directive: DirectiveKind) -> PResult<ClauseArgs> {
        let open = self.expect_open("depend")?;
        let types = ["in", "out", "inout", "mutexinoutset", "source", "sink"];
        self.refuse_modifier("depend", &[":", ","])?;
        let ty = self.expect_ident("a dependence type")?;
        if !types.contains(&ty.text) {
            return Err(
                Diagnostic::error(format!("unknown dependence type `{}`", ty.text))
                    .with_primary(self.tok_span(&ty), "unknown dependence type")
                    .with_note(format!("expected one of {}", backticked(&types))),
            );
        }
        let for_ordered = matches!(ty.text, "source" | "sink");
        if for_ordered != (directive == DirectiveKind::Ordered) {
            let msg = if for_ordered {
                format!(
                    "`depend({})` is only allowed on `#pragma omp ordered`",
                    ty.text
                )
            } else {
                format!(
                    "`depend({})` is not allowed on `#pragma omp ordered`",
                    ty.text
                )
            };
            return Err(Diagnostic::error(msg).with_primary(self.tok_span(&ty), "not allowed here"));
        }
        match ty.text {
            "source" => {}
            "sink" => {
                self.expect_punct(":", "after `sink`")?;
                self.expr(&[","])?;
                while self.eat_punct(",").is_some() {
                    self.expr(&[","])?;
                }
            }
            _ => {
                self.expect_punct(":", &format!("after `{}`", ty.text))?;
                self.list("depend", true)?;
            }
        }
        let close = self.expect_close(&open)?;
        Ok(ClauseArgs::Raw {
            text: self.text_between(&open, &close),
        })
    }

    /// `map([[always[,]] map-type :] list)`
    fn map_args(&mut self) -> PResult<ClauseArgs> {
        let open = self.expect_open("map")?;
        let ident_at = |i: usize| self.peek_at(i).filter(|t| t.kind == TokKind::Ident);
        let punct_at = |i: usize, p: &str| self.peek_at(i).is_some_and(|t| t.is_punct(p));
        let always = ident_at(0).is_some_and(|t| t.text == "always")
            && (punct_at(1, ",") && ident_at(2).is_some() && punct_at(3, ":")
                || ident_at(1).is_some() && punct_at(2, ":"));
        let has_type = always || ident_at(0).is_some() && punct_at(1, ":");
        if always {
            self.pos += 1;
            self.eat_punct(",");
        }
        if has_type {
            let ty = self.expect_ident("a map type")?;
            if !MAP_TYPES.contains(&ty.text) {
                return Err(Diagnostic::error(format!("unknown map type `{}`", ty.text))
                    .with_primary(self.tok_span(&ty), "unknown map type")
                    .with_note(format!("expected one of {}", backticked(&MAP_TYPES))));
            }
            self.expect_punct(":", "after the map type")?;
        }
        self.list("map", true)?;
        let close = self.expect_close(&open)?;
        Ok(ClauseArgs::Raw {
            text: self.text_between(&open, &close),
        })
    }
}

/// `term (('+' | '-') term)*` over integer literals; `None` for anything else.
fn constant_sum(toks: &[Tok], at: &mut usize) -> Option<i128> {
    let mut value = constant_product(toks, at)?;
    while let Some(op) = toks.get(*at).filter(|t| t.is_punct("+") || t.is_punct("-")) {
        *at += 1;
        let rhs = constant_product(toks, at)?;
        value = if op.text == "+" {
            value.checked_add(rhs)?
        } else {
            value.checked_sub(rhs)?
        };
    }
    Some(value)
}

/// `unary (('*' | '/' | '%') unary)*`
fn constant_product(toks: &[Tok], at: &mut usize) -> Option<i128> {
    let mut value = constant_unary(toks, at)?;
    while let Some(op) = toks
        .get(*at)
        .filter(|t| t.is_punct("*") || t.is_punct("/") || t.is_punct("%"))
    {
        *at += 1;
        let rhs = constant_unary(toks, at)?;
        value = match op.text {
            "*" => value.checked_mul(rhs)?,
            "/" => value.checked_div(rhs)?,
            _ => value.checked_rem(rhs)?,
        };
    }
    Some(value)
}

/// `('+' | '-') unary`, `( sum )` or an integer literal.
fn constant_unary(toks: &[Tok], at: &mut usize) -> Option<i128> {
    let tok = toks.get(*at)?;
    *at += 1;
    match tok.kind {
        TokKind::Punct if tok.text == "-" => constant_unary(toks, at)?.checked_neg(),
        TokKind::Punct if tok.text == "+" => constant_unary(toks, at),
        TokKind::Punct if tok.text == "(" => {
            let value = constant_sum(toks, at)?;
            toks.get(*at).filter(|t| t.is_punct(")"))?;
            *at += 1;
            Some(value)
        }
        TokKind::Number => integer_literal(tok.text),
        _ => None,
    }
}

/// The value of a C integer literal (`10`, `0x1f`, `017`, `0b101`, `4u`, `8UL`).
fn integer_literal(text: &str) -> Option<i128> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let lower = digits.to_ascii_lowercase();
    let (digits, radix) = if let Some(hex) = lower.strip_prefix("0x") {
        (hex, 16)
    } else if let Some(binary) = lower.strip_prefix("0b") {
        (binary, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    i128::from_str_radix(digits, radix).ok()
}

/// Whether a number token is a floating constant (`2.5`, `1e3`, `0x1p4`, `.5f`), not an
/// integer literal.
fn is_floating(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    if lower.starts_with("0x") {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    }
}

/// The value of a clause argument that is an integer constant expression of literals
/// (`4`, `-1`, `2*3-6`), or `None` (names, casts, anything else).
pub fn constant_value(text: &str) -> Option<i128> {
    let toks = super::super::lexer::tokenize(text);
    let mut at = 0;
    let value = constant_sum(&toks, &mut at)?;
    (at == toks.len()).then_some(value)
}
