//! Renders [`Diagnostic`]s with codespan-reporting at the user's original file, line and column.
//!
//! Spans point into the preprocessed text. The line map gives (file, line, column) there, but
//! `gcc -E` collapses runs of spaces, joins continued `#pragma` lines and drops comments, so the
//! column is re-found in the original line by aligning the two lines' non-blank characters.

use std::collections::HashMap;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as ReportSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use codespan_reporting::term::termcolor::WriteColor;

use crate::diag::{Diagnostic, Severity, Span};

/// A position in an original file; `line` and `column` are 1-based, the column counts bytes of
/// the preprocessed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// Everything needed to show diagnostics of one translation unit.
pub struct Renderer<'a> {
    preprocessed: &'a str,
    locate: &'a dyn Fn(usize) -> Option<Position>,
    read_file: &'a dyn Fn(&str) -> Option<String>,
    files: SimpleFiles<String, String>,
    file_ids: HashMap<String, Option<usize>>,
}

impl<'a> Renderer<'a> {
    pub fn new(
        preprocessed: &'a str,
        locate: &'a dyn Fn(usize) -> Option<Position>,
        read_file: &'a dyn Fn(&str) -> Option<String>,
    ) -> Renderer<'a> {
        Renderer {
            preprocessed,
            locate,
            read_file,
            files: SimpleFiles::new(),
            file_ids: HashMap::new(),
        }
    }

    /// Writes one diagnostic, rustc style.
    pub fn emit(
        &mut self,
        out: &mut dyn WriteColor,
        diagnostic: &Diagnostic,
    ) -> std::io::Result<()> {
        let severity = match diagnostic.severity {
            Severity::Error => ReportSeverity::Error,
            Severity::Warning => ReportSeverity::Warning,
            Severity::Note => ReportSeverity::Note,
        };
        let mut labels = Vec::new();
        let mut notes = Vec::new();
        if let Some((span, text)) = &diagnostic.primary {
            match self.map_span(*span) {
                Some((file_id, range)) => {
                    labels.push(Label::primary(file_id, range).with_message(text))
                }
                None => notes.push(self.fallback_note(*span, text)),
            }
        }
        for (span, text) in &diagnostic.secondary {
            match self.map_span(*span) {
                Some((file_id, range)) => {
                    labels.push(Label::secondary(file_id, range).with_message(text))
                }
                None => notes.push(self.fallback_note(*span, text)),
            }
        }
        for note in &diagnostic.notes {
            if note.starts_with("note:") || note.starts_with("help:") {
                notes.push(note.clone());
            } else {
                notes.push(format!("note: {note}"));
            }
        }
        let report = Report::new(severity)
            .with_message(&diagnostic.message)
            .with_labels(labels)
            .with_notes(notes);
        term::emit(out, &term::Config::default(), &self.files, &report)
            .map_err(|e| std::io::Error::other(e.to_string()))
    }

    /// A note naming the place when the original file cannot be shown (`<stdin>`, deleted file).
    fn fallback_note(&self, span: Span, text: &str) -> String {
        match (self.locate)(span.start) {
            Some(p) if text.is_empty() => format!("note: at {}:{}:{}", p.file, p.line, p.column),
            Some(p) => format!("note: {}:{}:{}: {text}", p.file, p.line, p.column),
            None => format!("note: {text}"),
        }
    }

    fn file_id(&mut self, name: &str) -> Option<usize> {
        if let Some(id) = self.file_ids.get(name) {
            return *id;
        }
        let id = (self.read_file)(name).map(|text| self.files.add(name.to_string(), text));
        self.file_ids.insert(name.to_string(), id);
        id
    }

    /// The span as (file id, byte range in the original file).
    fn map_span(&mut self, span: Span) -> Option<(usize, Range<usize>)> {
        let pre = self.preprocessed;
        let start = span.start.min(pre.len());
        let end = span.end.clamp(start, pre.len());
        let position = (self.locate)(start)?;
        let file_id = self.file_id(&position.file)?;
        let original = self.files.get(file_id).ok()?.source().as_str();
        let pre_line_start = pre[..start].rfind('\n').map_or(0, |i| i + 1);
        let pre_line_end = pre[start..].find('\n').map_or(pre.len(), |i| start + i);
        let pre_line = &pre[pre_line_start..pre_line_end];
        let original_line_start = line_start(original, position.line)?;
        let range = map_range(
            pre_line,
            start - pre_line_start,
            end.min(pre_line_end) - pre_line_start,
            original,
            original_line_start,
            position.column,
        );
        Some((file_id, range))
    }
}

/// Byte offset of 1-based `line` in `text`.
fn line_start(text: &str, line: usize) -> Option<usize> {
    if line <= 1 {
        return Some(0);
    }
    text.match_indices('\n').nth(line - 2).map(|(i, _)| i + 1)
}

/// The non-blank characters of the original logical line starting at `start` (following
/// backslash-newline continuations), with their byte offsets.
fn original_chars(original: &str, start: usize) -> Vec<(usize, char)> {
    let mut chars = Vec::new();
    let mut iter = original[start..].char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        match c {
            '\n' => break,
            '\\' => {
                // A continuation: skip the backslash and the line end, keep reading.
                let rest = &original[start + i + 1..];
                if rest.starts_with('\n') || rest.starts_with("\r\n") {
                    for (_, next) in iter.by_ref() {
                        if next == '\n' {
                            break;
                        }
                    }
                } else {
                    chars.push((start + i, c));
                }
            }
            c if c.is_whitespace() => {}
            c => chars.push((start + i, c)),
        }
    }
    chars
}

/// Maps `[start, end)` of one preprocessed line to a byte range of the original file, whose
/// corresponding line starts at `original_line_start`. `column` (1-based) is the line map's
/// answer, used when the lines cannot be aligned.
pub fn map_range(
    pre_line: &str,
    start: usize,
    end: usize,
    original: &str,
    original_line_start: usize,
    column: usize,
) -> Range<usize> {
    let pre_chars: Vec<(usize, char)> = pre_line
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    let orig_chars = original_chars(original, original_line_start);
    // Length of the common prefix of the two non-blank sequences: everything in it maps 1:1.
    let common = pre_chars
        .iter()
        .zip(&orig_chars)
        .take_while(|((_, a), (_, b))| a == b)
        .count();
    let first = pre_chars.iter().position(|&(offset, _)| offset >= start);
    let last = pre_chars.iter().rposition(|&(offset, _)| offset < end);
    let common_suffix = pre_chars
        .iter()
        .rev()
        .zip(orig_chars.iter().rev())
        .take_while(|((_, a), (_, b))| a == b)
        .count()
        .min(pre_chars.len().saturating_sub(common))
        .min(orig_chars.len().saturating_sub(common));
    // The original character of pre character `index`, if it lies in the common prefix or, when
    // a macro was expanded in the middle (`num_threads(N)`), in the common suffix.
    let aligned = |index: usize| -> Option<(usize, char)> {
        if index < common {
            return orig_chars.get(index).copied();
        }
        let from_end = pre_chars.len().checked_sub(index)?;
        if from_end <= common_suffix {
            return orig_chars
                .get(orig_chars.len().checked_sub(from_end)?)
                .copied();
        }
        None
    };
    let (Some(first), Some(last)) = (first, last) else {
        return column_fallback(
            original,
            original_line_start,
            column,
            end.saturating_sub(start),
        );
    };
    if let (Some((from, _)), Some((to, c))) = (aligned(first), aligned(last)) {
        if from <= to {
            return from..to + c.len_utf8();
        }
    }
    // The same text, the same occurrence, in the logical line.
    let logical_end = orig_chars
        .last()
        .map_or(original_line_start, |&(o, c)| o + c.len_utf8());
    if let Some(text) = pre_line.get(start..end).filter(|t| !t.trim().is_empty()) {
        let occurrence = pre_line[..start].matches(text).count();
        let line = &original[original_line_start..logical_end];
        let found = line
            .match_indices(text)
            .nth(occurrence)
            .or_else(|| line.match_indices(text).next());
        if let Some((i, _)) = found {
            return original_line_start + i..original_line_start + i + text.len();
        }
    }
    // Inside the expanded part: from the first to the last original character that differs.
    let middle_start = aligned(first)
        .map(|(o, _)| o)
        .or_else(|| orig_chars.get(common).map(|&(o, _)| o));
    let middle_end = aligned(last).or_else(|| {
        let index = orig_chars.len().checked_sub(common_suffix + 1)?;
        orig_chars.get(index).copied()
    });
    if let (Some(from), Some((to, c))) = (middle_start, middle_end) {
        if from <= to {
            return from..to + c.len_utf8();
        }
    }
    column_fallback(
        original,
        original_line_start,
        column,
        end.saturating_sub(start),
    )
}

/// The line map's column, kept inside the line and on character boundaries.
fn column_fallback(
    original: &str,
    original_line_start: usize,
    column: usize,
    len: usize,
) -> Range<usize> {
    let line_end = original[original_line_start..]
        .find('\n')
        .map_or(original.len(), |i| original_line_start + i);
    let mut from = (original_line_start + column.saturating_sub(1)).min(line_end);
    while !original.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (from + len).min(line_end);
    while !original.is_char_boundary(to) {
        to -= 1;
    }
    from..to.max(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pragma_with_collapsed_spaces_maps_to_original_column() {
        let original = "int x;\n#pragma  omp parallel   for privat(x)\nfor(;;);\n";
        let pre_line = "#pragma omp parallel for privat(x)";
        let start = pre_line.find("privat").unwrap();
        let range = map_range(pre_line, start, start + 6, original, 7, start + 1);
        assert_eq!(&original[range.clone()], "privat");
        assert_eq!(range.start, 7 + "#pragma  omp parallel   for ".len());
    }

    #[test]
    fn continued_pragma_maps_to_second_line() {
        let original = "#pragma omp parallel for \\\n    bogus(1)\n";
        let pre_line = "#pragma omp parallel for bogus(1)";
        let start = pre_line.find("bogus").unwrap();
        let range = map_range(pre_line, start, start + 5, original, 0, start + 1);
        assert_eq!(&original[range.clone()], "bogus");
        assert_eq!(range.start, original.find("bogus").unwrap());
    }

    #[test]
    fn macro_expanded_clause_found_by_text() {
        let original = "#pragma omp parallel for num_threads(N) bogus\n";
        let pre_line = "#pragma omp parallel for num_threads(4) bogus";
        let start = pre_line.find("bogus").unwrap();
        let range = map_range(pre_line, start, start + 5, original, 0, start + 1);
        assert_eq!(&original[range], "bogus");
    }

    #[test]
    fn clause_after_a_macro_on_a_continued_line() {
        let original = "#pragma omp parallel for \\\n    num_threads(NT)   bogus(1)\nfor(;;);\n";
        let pre_line = "#pragma omp parallel for num_threads(4) bogus(1)";
        let start = pre_line.find("bogus").unwrap();
        let range = map_range(pre_line, start, start + 5, original, 0, start + 1);
        assert_eq!(range.start, original.find("bogus").unwrap());
        assert_eq!(&original[range], "bogus");
    }

    #[test]
    fn span_inside_an_expanded_macro_covers_the_macro_use() {
        let original = "#pragma omp parallel for num_threads(NT) if(c)\n";
        let pre_line = "#pragma omp parallel for num_threads(-1) if(c)";
        let start = pre_line.find("-1").unwrap();
        let range = map_range(pre_line, start, start + 2, original, 0, start + 1);
        assert_eq!(&original[range], "NT");
    }

    #[test]
    fn trailing_comment_does_not_disturb_alignment() {
        let original = "  x   =  y; /* note */\n";
        let pre_line = "  x = y;";
        let range = map_range(pre_line, 6, 7, original, 0, 7);
        assert_eq!(&original[range], "y");
    }

    #[test]
    fn unalignable_line_falls_back_inside_the_line() {
        let original = "short\n";
        let range = map_range("completely different text", 20, 24, original, 0, 21);
        assert!(range.end <= 5 && range.start <= range.end);
    }
}
