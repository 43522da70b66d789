//! Recursive-descent parser of one `#pragma omp` line (OpenMP 4.5 C grammar).
//!
//! Expressions are not parsed: they are scanned with balanced delimiters and kept as spans.
//! Every error is a `Diagnostic` whose primary span is the offending token or clause; nothing
//! here may panic, whatever the input.

use super::ast::*;
use super::lexer::{tokenize, Tok, TokKind};
use super::rules::{
    allowed_clauses, clause_allowed, directive_from_words, exclusion_help, is_directive_prefix,
    suggest, MUTUALLY_EXCLUSIVE,
};
use super::unsupported;
use crate::diag::{Diagnostic, Span};

mod clause_args;
pub use clause_args::constant_value;

type PResult<T> = Result<T, Diagnostic>;

/// Longest directive name, in words (`target teams distribute parallel for simd`).
const MAX_DIRECTIVE_WORDS: usize = 6;

const REDUCTION_OPS: [(&str, ReductionOp); 10] = [
    ("+", ReductionOp::Add),
    ("*", ReductionOp::Mul),
    ("-", ReductionOp::Sub),
    ("&", ReductionOp::BitAnd),
    ("|", ReductionOp::BitOr),
    ("^", ReductionOp::BitXor),
    ("&&", ReductionOp::LogAnd),
    ("||", ReductionOp::LogOr),
    ("max", ReductionOp::Max),
    ("min", ReductionOp::Min),
];

const CANCEL_CONSTRUCTS: [&str; 4] = ["parallel", "sections", "for", "taskgroup"];

/// `a`, `b` and `c` -> "`a`, `b`, `c`"
fn backticked(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parse one pragma line; see `directive::parse_pragma`.
pub fn parse_pragma(line: &str, offset: usize) -> PResult<Option<Directive>> {
    let toks = tokenize(line);
    let is_omp = toks.first().is_some_and(|t| t.is_punct("#"))
        && toks.get(1).is_some_and(|t| t.is_ident("pragma"))
        && toks.get(2).is_some_and(|t| t.is_ident("omp"));
    // a bare `#pragma omp` names no directive: gcc ignores it (see `bare_pragmas`)
    if !is_omp || toks.len() == 3 {
        return Ok(None);
    }
    let mut parser = Parser {
        line,
        offset,
        toks,
        pos: 3,
    };
    parser.directive().map(Some)
}

struct Parser<'a> {
    line: &'a str,
    offset: usize,
    toks: Vec<Tok<'a>>,
    pos: usize,
}

impl<'a> Parser<'a> {
    // ---- token helpers -------------------------------------------------------------------

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.offset + start, self.offset + end)
    }

    fn tok_span(&self, tok: &Tok) -> Span {
        self.span(tok.start, tok.end)
    }

    fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<Tok<'a>> {
        self.toks.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<Tok<'a>> {
        let tok = self.peek();
        if tok.is_some() {
            self.pos += 1;
        }
        tok
    }

    fn peek_is_punct(&self, p: &str) -> bool {
        self.peek().is_some_and(|t| t.is_punct(p))
    }

    fn eat_punct(&mut self, p: &str) -> Option<Tok<'a>> {
        if self.peek_is_punct(p) {
            self.bump()
        } else {
            None
        }
    }

    /// End of the previous token (where a missing token should have been).
    fn prev_end(&self) -> usize {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.end,
            None => 0,
        }
    }

    /// The span of the next token, or an empty span at the end of the line.
    fn here(&self) -> Span {
        match self.peek() {
            Some(t) => self.tok_span(&t),
            None => {
                let end = self.line.trim_end().len().max(self.prev_end());
                self.span(end, end)
            }
        }
    }

    /// "`x`" for the next token, or "end of line".
    fn found(&self) -> String {
        match self.peek() {
            Some(t) => format!("`{}`", t.text),
            None => "end of line".to_string(),
        }
    }

    fn expected(&self, what: &str) -> Diagnostic {
        Diagnostic::error(format!("expected {what}, found {}", self.found()))
            .with_primary(self.here(), format!("expected {what}"))
    }

    fn expect_open(&mut self, after: &str) -> PResult<Tok<'a>> {
        match self.eat_punct("(") {
            Some(t) => Ok(t),
            None => Err(Diagnostic::error(format!(
                "expected `(` after `{after}`, found {}",
                self.found()
            ))
            .with_primary(self.here(), "expected `(`")),
        }
    }

    fn expect_close(&mut self, open: &Tok) -> PResult<Tok<'a>> {
        match self.eat_punct(")") {
            Some(t) => Ok(t),
            None => Err(self
                .expected("`)`")
                .with_secondary(self.tok_span(open), "unclosed delimiter")),
        }
    }

    fn expect_punct(&mut self, p: &str, context: &str) -> PResult<Tok<'a>> {
        match self.eat_punct(p) {
            Some(t) => Ok(t),
            None => Err(Diagnostic::error(format!(
                "expected `{p}` {context}, found {}",
                self.found()
            ))
            .with_primary(self.here(), format!("expected `{p}`"))),
        }
    }

    fn expect_ident(&mut self, what: &str) -> PResult<Tok<'a>> {
        match self.peek() {
            Some(t) if t.kind == TokKind::Ident => {
                self.pos += 1;
                Ok(t)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Text strictly between two tokens, trimmed (the raw argument of a clause).
    fn text_between(&self, open: &Tok, close: &Tok) -> String {
        self.line
            .get(open.end..close.start)
            .unwrap_or("")
            .trim()
            .to_string()
    }

    // ---- expressions and lists ------------------------------------------------------------

    /// Scans a balanced token run up to (not including) a depth-0 `)`, `]`, `}`, the end of
    /// the line, or a depth-0 punctuator in `stops`. Returns its span, or `None` when empty.
    fn balanced(&mut self, stops: &[&str]) -> PResult<Option<Span>> {
        let mut open: Vec<Tok<'a>> = Vec::new();
        let first = self.pos;
        while let Some(tok) = self.peek() {
            if tok.kind == TokKind::Punct {
                match tok.text {
                    "(" | "[" | "{" => open.push(tok),
                    ")" | "]" | "}" => match open.last() {
                        None => break,
                        Some(o) if closes(o.text, tok.text) => {
                            open.pop();
                        }
                        Some(o) => {
                            return Err(Diagnostic::error(format!(
                                "mismatched closing delimiter `{}`",
                                tok.text
                            ))
                            .with_primary(self.tok_span(&tok), "mismatched closing delimiter")
                            .with_secondary(self.tok_span(o), "unclosed delimiter"));
                        }
                    },
                    p if open.is_empty() && stops.contains(&p) => break,
                    _ => {}
                }
            }
            self.pos += 1;
        }
        if let Some(o) = open.last() {
            return Err(
                Diagnostic::error(format!("unclosed delimiter `{}`", o.text))
                    .with_primary(self.tok_span(o), "unclosed delimiter")
                    .with_secondary(self.here(), "line ends here"),
            );
        }
        match (
            self.toks.get(first),
            self.pos.checked_sub(1).and_then(|i| self.toks.get(i)),
        ) {
            (Some(a), Some(b)) if self.pos > first => Ok(Some(self.span(a.start, b.end))),
            _ => Ok(None),
        }
    }

    fn expr(&mut self, stops: &[&str]) -> PResult<Span> {
        match self.balanced(stops)? {
            Some(span) => Ok(span),
            None => Err(self.expected("expression")),
        }
    }

    /// One list item: an identifier, optionally followed (when `sections` is set) by array
    /// sections / subscripts and member accesses.
    fn list_item(&mut self, clause: &str, sections: bool) -> PResult<ListItem> {
        let name = self.expect_ident("a variable name")?;
        let mut end = name.end;
        loop {
            if let Some(open) = self.eat_punct("[") {
                self.balanced(&[":"])?;
                if self.eat_punct(":").is_some() {
                    self.balanced(&[])?;
                }
                match self.eat_punct("]") {
                    Some(close) => end = close.end,
                    None => {
                        return Err(self
                            .expected("`]`")
                            .with_secondary(self.tok_span(&open), "unclosed delimiter"))
                    }
                }
            } else if self.eat_punct(".").is_some() || self.eat_punct("->").is_some() {
                end = self.expect_ident("a member name")?.end;
            } else {
                break;
            }
        }
        let span = self.span(name.start, end);
        if !sections && end != name.end {
            return Err(Diagnostic::error(format!(
                "only variable names are allowed in a `{clause}` clause"
            ))
            .with_primary(span, "not a variable name"));
        }
        Ok(ListItem {
            name: name.text.to_string(),
            name_span: self.tok_span(&name),
            span,
        })
    }

    /// A comma-separated, non-empty list of items, up to (not including) `)` or `:`.
    fn list(&mut self, clause: &str, sections: bool) -> PResult<Vec<ListItem>> {
        if self.peek_is_punct(")") {
            return Err(Diagnostic::error(format!("empty list in `{clause}`"))
                .with_primary(self.here(), "expected at least one variable"));
        }
        let mut items = vec![self.list_item(clause, sections)?];
        while self.eat_punct(",").is_some() {
            items.push(self.list_item(clause, sections)?);
        }
        Ok(items)
    }

    /// `( list )`
    fn paren_list(&mut self, clause: &str, sections: bool) -> PResult<Vec<ListItem>> {
        let open = self.expect_open(clause)?;
        let items = self.list(clause, sections)?;
        self.expect_close(&open)?;
        Ok(items)
    }

    /// `( expr )`
    fn paren_expr(&mut self, clause: &str) -> PResult<Span> {
        let open = self.expect_open(clause)?;
        let expr = self.expr(&[","])?;
        self.expect_close(&open)?;
        Ok(expr)
    }

    // ---- directives ----------------------------------------------------------------------

    fn directive(&mut self) -> PResult<Directive> {
        let (kind, name_span) = self.directive_name()?;
        let line_start = self.toks.first().map_or(0, |t| t.start);
        let span = self.span(line_start, self.line.trim_end().len().max(line_start));
        let mut directive = Directive {
            kind,
            span,
            name_span,
            clauses: Vec::new(),
            name_arg: None,
            list_arg: Vec::new(),
        };
        self.directive_argument(&mut directive)?;
        self.clauses(&mut directive)?;
        check_data_sharing(&directive.clauses)?;
        Ok(directive)
    }

    /// Matches the longest directive name at the current position.
    fn directive_name(&mut self) -> PResult<(DirectiveKind, Span)> {
        let first = match self.peek() {
            Some(t) if t.kind == TokKind::Ident => t,
            _ => return Err(self.expected("an OpenMP directive name after `#pragma omp`")),
        };
        let words: Vec<Tok<'a>> = self.toks[self.pos..]
            .iter()
            .take(MAX_DIRECTIVE_WORDS)
            .take_while(|t| t.kind == TokKind::Ident)
            .copied()
            .collect();
        let texts: Vec<&str> = words.iter().map(|t| t.text).collect();
        let complete = (1..=texts.len())
            .rev()
            .find(|&n| directive_from_words(&texts[..n]).is_some());
        if let Some((n, feature)) = unsupported::directive(&texts) {
            if n > complete.unwrap_or(0) {
                let last = words.get(n - 1).copied().unwrap_or(first);
                return Err(unsupported::refusal(
                    &format!("`#pragma omp {}`", feature.written),
                    feature,
                    self.span(first.start, last.end),
                ));
            }
        }
        let prefix = (1..=texts.len())
            .rev()
            .find(|&n| is_directive_prefix(&texts[..n]))
            .unwrap_or(0);
        match complete {
            Some(n) if n >= prefix => {
                let kind = directive_from_words(&texts[..n]);
                let last = words.get(n - 1).copied().unwrap_or(first);
                self.pos += n;
                match kind {
                    Some(kind) => Ok((kind, self.span(first.start, last.end))),
                    None => Err(self.expected("an OpenMP directive name")),
                }
            }
            _ => {
                // an unknown word, or a combined name cut short (`target enter dat`)
                let n = (prefix + 1).min(texts.len()).max(1);
                let last = words.get(n - 1).copied().unwrap_or(first);
                let written = texts[..n].join(" ");
                let span = self.span(first.start, last.end);
                let mut diag = Diagnostic::error(format!("unknown OpenMP directive `{written}`"))
                    .with_primary(span, "unknown directive");
                let names = DirectiveKind::ALL.iter().map(|d| d.name());
                let completions: Vec<&str> = DirectiveKind::ALL
                    .iter()
                    .map(|d| d.name())
                    .filter(|name| prefix > 0 && name.starts_with(&texts[..prefix].join(" ")))
                    .collect();
                if let Some(s) = suggest(&written, names) {
                    diag = diag.with_note(format!("help: did you mean `{s}`?"));
                } else if !completions.is_empty() {
                    diag = diag.with_note(format!(
                        "help: did you mean {}?",
                        backticked(&completions).replace(", ", " or ")
                    ));
                }
                Err(diag)
            }
        }
    }

    /// The parenthesised or bare argument some directives take right after their name.
    fn directive_argument(&mut self, d: &mut Directive) -> PResult<()> {
        match d.kind {
            DirectiveKind::Critical => {
                if let Some(open) = self.eat_punct("(") {
                    let name = self.expect_ident("a critical section name")?;
                    self.expect_close(&open)?;
                    d.name_arg = Some(name.text.to_string());
                }
            }
            DirectiveKind::Flush if self.peek_is_punct("(") => {
                d.list_arg = self.paren_list("flush", false)?;
            }
            DirectiveKind::DeclareTarget if self.peek_is_punct("(") => {
                d.list_arg = self.paren_list("declare target", false)?;
            }
            DirectiveKind::Threadprivate => {
                d.list_arg = self.paren_list("threadprivate", false)?;
            }
            DirectiveKind::Cancel | DirectiveKind::CancellationPoint => {
                let what = "`parallel`, `sections`, `for` or `taskgroup`";
                let construct = self.expect_ident(what)?;
                if !CANCEL_CONSTRUCTS.contains(&construct.text) {
                    return Err(Diagnostic::error(format!(
                        "expected {what}, found `{}`",
                        construct.text
                    ))
                    .with_primary(self.tok_span(&construct), "not a cancellable construct"));
                }
                d.name_arg = Some(construct.text.to_string());
            }
            DirectiveKind::DeclareReduction => self.declare_reduction(d)?,
            _ => {}
        }
        Ok(())
    }

    /// `declare reduction(id : type-list : combiner)`: `name_arg` is the identifier,
    /// `list_arg` the types (each item's name is the type's text).
    fn declare_reduction(&mut self, d: &mut Directive) -> PResult<()> {
        let open = self.expect_open("declare reduction")?;
        let id = match self.peek() {
            Some(t)
                if t.kind == TokKind::Ident || REDUCTION_OPS.iter().any(|(o, _)| *o == t.text) =>
            {
                self.pos += 1;
                t
            }
            _ => return Err(self.expected("a reduction identifier")),
        };
        self.expect_punct(":", "after the reduction identifier")?;
        loop {
            let ty = self.balanced(&[",", ":"])?;
            let Some(ty) = ty else {
                return Err(self.expected("a type name"));
            };
            let text = self
                .line
                .get(ty.start - self.offset..ty.end - self.offset)
                .unwrap_or("")
                .to_string();
            d.list_arg.push(ListItem {
                name: text,
                name_span: ty,
                span: ty,
            });
            if self.eat_punct(",").is_none() {
                break;
            }
        }
        self.expect_punct(":", "after the type list")?;
        self.expr(&[])?;
        self.expect_close(&open)?;
        d.name_arg = Some(id.text.to_string());
        Ok(())
    }

    // ---- clauses -------------------------------------------------------------------------

    fn clauses(&mut self, d: &mut Directive) -> PResult<()> {
        let mut need_clause = false;
        while self.peek().is_some() || need_clause {
            let clause = self.clause(d.kind)?;
            self.check_clause(d, &clause)?;
            d.clauses.push(clause);
            need_clause = self.eat_punct(",").is_some();
        }
        Ok(())
    }

    /// Placement rules for one clause against the ones before it.
    fn check_clause(&self, d: &Directive, clause: &Clause) -> PResult<()> {
        let directive = d.kind.name();
        let name = clause.kind.name();
        if let Some(feature) = unsupported::clause_on(d.kind, clause.kind) {
            return Err(unsupported::refusal(feature.written, &feature, clause.span));
        }
        if !clause_allowed(d.kind, clause.kind) {
            let allowed: Vec<&str> = allowed_clauses(d.kind).iter().map(|c| c.name()).collect();
            let note = if allowed.is_empty() {
                format!("`#pragma omp {directive}` takes no clauses")
            } else {
                format!("`#pragma omp {directive}` allows {}", backticked(&allowed))
            };
            return Err(Diagnostic::error(format!(
                "clause `{name}` is not allowed on `#pragma omp {directive}`"
            ))
            .with_primary(clause.span, "not allowed here")
            .with_note(note));
        }
        let if_modifier = |c: &Clause| match &c.args {
            ClauseArgs::Expr { modifier, .. } => modifier.clone(),
            _ => None,
        };
        for earlier in &d.clauses {
            let duplicate = earlier.kind == clause.kind
                && (clause.kind.is_unique()
                    || (clause.kind == ClauseKind::If
                        && if_modifier(earlier) == if_modifier(clause)));
            if duplicate {
                return Err(
                    Diagnostic::error(format!("clause `{name}` specified more than once"))
                        .with_primary(clause.span, format!("duplicate `{name}` clause"))
                        .with_secondary(earlier.span, "first specified here"),
                );
            }
            let exclusive = earlier.kind != clause.kind
                && MUTUALLY_EXCLUSIVE
                    .iter()
                    .any(|group| group.contains(&earlier.kind) && group.contains(&clause.kind));
            if exclusive {
                let mut diag = Diagnostic::error(format!(
                    "clauses `{}` and `{name}` are mutually exclusive",
                    earlier.kind.name()
                ))
                .with_primary(clause.span, format!("`{name}` given here"))
                .with_secondary(
                    earlier.span,
                    format!("`{}` given here", earlier.kind.name()),
                );
                if let Some(help) = exclusion_help(earlier.kind, clause.kind) {
                    diag = diag.with_note(help);
                }
                return Err(diag);
            }
        }
        Ok(())
    }

    fn clause(&mut self, directive: DirectiveKind) -> PResult<Clause> {
        let name = match self.peek() {
            Some(t) if t.kind == TokKind::Ident => t,
            _ => return Err(self.expected("a clause name")),
        };
        if let Some(feature) = unsupported::clause(name.text) {
            return Err(unsupported::refusal(
                &format!("clause `{}`", name.text),
                feature,
                self.tok_span(&name),
            ));
        }
        let Some(kind) = ClauseKind::from_name(name.text) else {
            let mut diag = Diagnostic::error(format!("unknown OpenMP clause `{}`", name.text))
                .with_primary(self.tok_span(&name), "unknown clause");
            let allowed = allowed_clauses(directive);
            let candidates = allowed
                .iter()
                .chain(ClauseKind::ALL.iter())
                .map(|c| c.name());
            if let Some(s) = suggest(name.text, candidates) {
                diag = diag.with_note(format!("help: did you mean `{s}`?"));
            }
            return Err(diag);
        };
        self.pos += 1;
        let args = self.clause_args(kind, directive)?;
        let span = self.span(name.start, self.prev_end());
        Ok(Clause { kind, span, args })
    }
}

fn closes(open: &str, close: &str) -> bool {
    matches!((open, close), ("(", ")") | ("[", "]") | ("{", "}"))
}

trait SpanOrder {
    fn max_by_start(self, other: Span) -> Span;
    fn min_by_start(self, other: Span) -> Span;
}

impl SpanOrder for Span {
    fn max_by_start(self, other: Span) -> Span {
        if self.start >= other.start {
            self
        } else {
            other
        }
    }
    fn min_by_start(self, other: Span) -> Span {
        if self.start < other.start {
            self
        } else {
            other
        }
    }
}

/// A variable may be in at most one data-sharing clause of a directive, except
/// `firstprivate` + `lastprivate` and `linear` + `lastprivate`.
fn check_data_sharing(clauses: &[Clause]) -> PResult<()> {
    let mut seen: Vec<(&ListItem, ClauseKind)> = Vec::new();
    for clause in clauses.iter().filter(|c| c.kind.is_data_sharing()) {
        let items = match &clause.args {
            ClauseArgs::List(items)
            | ClauseArgs::Reduction { items, .. }
            | ClauseArgs::ListWithExpr { items, .. } => items,
            _ => continue,
        };
        for item in items {
            let earlier = seen
                .iter()
                .find(|(e, kind)| e.name == item.name && !compatible(*kind, clause.kind));
            if let Some((first, first_kind)) = earlier {
                let (name, a, b) = (&item.name, first_kind.name(), clause.kind.name());
                let diag = if *first_kind == clause.kind {
                    Diagnostic::error(format!("`{name}` is listed more than once as `{b}`"))
                        .with_primary(item.span, "listed again here")
                        .with_secondary(first.span, "first listed here")
                } else {
                    Diagnostic::error(format!("`{name}` cannot be both `{a}` and `{b}`"))
                        .with_primary(item.span, format!("`{name}` is `{b}` here"))
                        .with_secondary(first.span, format!("`{name}` is `{a}` here"))
                };
                return Err(diag);
            }
            seen.push((item, clause.kind));
        }
    }
    Ok(())
}

fn compatible(a: ClauseKind, b: ClauseKind) -> bool {
    use ClauseKind::*;
    matches!(
        (a, b),
        (Firstprivate, Lastprivate)
            | (Lastprivate, Firstprivate)
            | (Linear, Lastprivate)
            | (Lastprivate, Linear)
    )
}
