//! Lowering: one module per construct. Each turns a directive and its statement into edits of the
//! preprocessed text, filled in from the construct's template.

pub mod parallel_for;

use crate::diag::Span;
use crate::directive::Clause;
use crate::emit::Edit;
use crate::preprocess::LineMap;
use crate::sharing::Program;

/// What every lowering needs to see.
pub struct Context<'p, 'a> {
    pub source: &'p str,
    pub lines: &'p LineMap,
    pub program: &'p Program<'a>,
    /// edits that apply inside copied user code too (renames, layout, ignored pragmas)
    pub base_edits: &'p [Edit],
    pub line_markers: bool,
}

impl Context<'_, '_> {
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
}

/// The name of a clause as written (`schedule`, `num_threads`, ...).
pub fn clause_name<'s>(source: &'s str, clause: &Clause) -> &'s str {
    let text = source.get(clause.span.start..clause.span.end).unwrap_or("");
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    text.get(..end).unwrap_or(text)
}
