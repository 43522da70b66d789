//! Emission by splicing: the output is the preprocessed text with byte ranges replaced.
//! lang-c has no C printer, and copying the user's text keeps their layout.

use crate::diag::{Diagnostic, Span};

/// Replace `span` of the preprocessed text by `text` (an empty span inserts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

impl Edit {
    pub fn replace(span: Span, text: String) -> Edit {
        Edit { span, text }
    }

    pub fn insert(at: usize, text: String) -> Edit {
        Edit {
            span: Span::new(at, at),
            text,
        }
    }
}

/// Applies non-overlapping edits to `source`. Insertions at the same offset keep their order;
/// an insertion at the start of a replaced range goes before the replacement.
pub fn apply(source: &str, edits: &[Edit]) -> Result<String, Diagnostic> {
    apply_in(source, Span::new(0, source.len()), edits)
}

/// Like [`apply`] but only for the text of `range`; edits outside `range` are ignored.
pub fn apply_in(source: &str, range: Span, edits: &[Edit]) -> Result<String, Diagnostic> {
    let mut sorted: Vec<(usize, &Edit)> = edits
        .iter()
        .enumerate()
        .filter(|(_, e)| e.span.start >= range.start && e.span.end <= range.end)
        .collect();
    sorted.sort_by_key(|(index, e)| (e.span.start, e.span.end > e.span.start, *index));
    let mut out = String::with_capacity(range.end.saturating_sub(range.start) + 1024);
    let mut pos = range.start;
    for (_, edit) in sorted {
        if edit.span.start < pos || edit.span.end < edit.span.start {
            return Err(
                Diagnostic::error("internal error: overlapping edits in the emitted C")
                    .with_primary(edit.span, "this edit overlaps an earlier one"),
            );
        }
        out.push_str(text_of(source, Span::new(pos, edit.span.start))?);
        out.push_str(&edit.text);
        pos = edit.span.end;
    }
    out.push_str(text_of(source, Span::new(pos, range.end))?);
    Ok(out)
}

/// The text of a span, or an internal-error diagnostic when the span is not valid.
pub fn text_of(source: &str, span: Span) -> Result<&str, Diagnostic> {
    source.get(span.start..span.end).ok_or_else(|| {
        Diagnostic::error("internal error: span outside the preprocessed text")
            .with_primary(Span::new(0, 0), "here")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_in_order() {
        let edits = vec![
            Edit::replace(Span::new(4, 5), "(*p)".into()),
            Edit::insert(0, "/*a*/".into()),
            Edit::insert(0, "/*b*/".into()),
        ];
        assert_eq!(
            apply("int x;", &edits).ok(),
            Some("/*a*//*b*/int (*p);".to_string())
        );
    }

    #[test]
    fn rejects_overlaps() {
        let edits = vec![
            Edit::replace(Span::new(0, 3), "a".into()),
            Edit::replace(Span::new(2, 4), "b".into()),
        ];
        assert!(apply("abcdef", &edits).is_err());
    }
}
